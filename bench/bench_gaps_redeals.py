"""Gaps win rates with 0, 1, 2 and 3 redeals under the solver policy, from one run.

Each deal is played with the largest redeal count asked; a phase is won if the search finds
a win, else played to the best dead end found and redealt. A redeal's shuffle depends only
on the deal and on how many redeals came before, so the first k + 1 phases are exactly the
game with k redeals: one run gives every row of the table. A row counts a deal as unknown
when one of its phases ran out of states without a verdict. For example

    nice -n 10 .venv/bin/python bench/bench_gaps_redeals.py --deals 500 --max-states 1000000
"""

from __future__ import annotations

import argparse
import time

from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.gaps import play_phases, within
from ludoteca.studies.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-states", type=int, default=1_000_000, help="per search")
    parser.add_argument("--redeals", type=int, default=3)
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()

    variant = SPEC.variant("gaps", {"redeals": str(args.redeals)})
    outcomes: list[list[bool | None]] = []
    start = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.deals):
        game = SPEC.new_game(variant, seed)
        assert isinstance(game, GapsState)
        phases = play_phases(game, args.max_states)
        row = [within(phases, k) if phases else game.won for k in range(args.redeals + 1)]
        outcomes.append(row)
        if args.verbose:
            verdicts = " ".join(str(p.winnable) for p in phases)
            print(seed, verdicts, flush=True)
    wall = time.perf_counter() - start
    last = args.first_seed + args.deals - 1
    print(f"deals {args.deals} (seeds {args.first_seed}..{last}), max_states {args.max_states:,}")
    print("redeals  won  lost  unknown  rate (decided)  95% CI          bounds (all deals)")
    for k in range(args.redeals + 1):
        column = [row[k] for row in outcomes]
        won = column.count(True)
        lost = column.count(False)
        unknown = len(column) - won - lost
        low, high = wilson(won, won + lost) if won + lost else (0.0, 1.0)
        rate = won / max(1, won + lost)
        print(
            f"{k:7d} {won:4d} {lost:5d} {unknown:8d}  {rate:14.3f}  [{low:.3f}, {high:.3f}]"
            f"  [{won / len(column):.3f}, {(won + unknown) / len(column):.3f}]"
        )
    print(f"{wall:.0f} s, {wall / args.deals:.2f} s per deal")


if __name__ == "__main__":
    main()
