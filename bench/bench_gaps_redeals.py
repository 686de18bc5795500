"""Gaps win rates with 0, 1, 2 and 3 redeals under the solver policy, from one run.

Each deal is played with the largest redeal count asked; a phase is won if the search finds
a win, else played to the best dead end found and redealt. A redeal's shuffle depends only
on the deal and on how many redeals came before, so the first k + 1 phases are exactly the
game with k redeals: one run gives every row of the table. A row counts a deal as unknown
when one of its phases ran out of states without a verdict. Searches are limited by states,
not time, so the table is the same on any machine and with any number of processes
(``--processes N`` plays N deals side by side). For example

    .venv/bin/python bench/bench_gaps_redeals.py --deals 400 --max-states 10000000 --processes 2
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack

from benchkit import Parser, check_seed_range, follow_the_parent, rate_text, run, whole
from ludoteca.games.gaps import MAX_REDEALS, SPEC, GapsState
from ludoteca.solvers.gaps import NESTED_RUNS, play_phases, within
from ludoteca.studies.stats import wilson

Outcome = tuple[int, list[bool | None], list[bool | None]]
"""seed, the verdict with 0..redeals redeals, and each phase's verdict."""


def play(job: tuple[int, int, int, int]) -> Outcome:
    seed, redeals, max_states, nested_runs = job
    game = SPEC.new_game(SPEC.variant("gaps", {"redeals": str(redeals)}), seed)
    assert isinstance(game, GapsState)
    phases = play_phases(game, max_states, nested_runs)
    row = [within(phases, k) if phases else game.won for k in range(redeals + 1)]
    return seed, row, [p.winnable for p in phases]


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=whole(1), default=100)
    parser.add_argument("--first-seed", type=whole(0), default=0)
    parser.add_argument("--max-states", type=whole(1), default=1_000_000, help="per search")
    parser.add_argument("--redeals", type=whole(0), default=3, help=f"0..{MAX_REDEALS}")
    parser.add_argument(
        "--processes", type=whole(1), default=1, help="deals played side by side (default 1)"
    )
    parser.add_argument(
        "--nested-runs",
        type=whole(0),
        default=NESTED_RUNS,
        help=f"nested searches for a phase the search leaves open (default {NESTED_RUNS}; 0: none)",
    )
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    # (One message named every option at once: each now says which was wrong.)
    if args.redeals > MAX_REDEALS:
        parser.error(f"--redeals must be 0..{MAX_REDEALS}, not {args.redeals}")
    check_seed_range(parser, args.first_seed, args.deals)

    seeds = range(args.first_seed, args.first_seed + args.deals)
    jobs = [(seed, args.redeals, args.max_states, args.nested_runs) for seed in seeds]
    outcomes: list[list[bool | None]] = []
    start = time.perf_counter()
    with ExitStack() as stack:
        if args.processes == 1:
            results: Iterable[Outcome] = map(play, jobs)
        else:
            pool = ProcessPoolExecutor(
                args.processes, initializer=follow_the_parent, initargs=(os.getpid(),)
            )
            stack.enter_context(pool)
            # In seed order, as map gives them; map also cancels what is left when Ctrl-C
            # stops the run, which races the pool's own clean-up into a traceback.
            futures = [pool.submit(play, job) for job in jobs]
            results = (future.result() for future in futures)
        for seed, row, phases in results:
            outcomes.append(row)
            if args.verbose:
                print(seed, *phases, flush=True)
    wall = time.perf_counter() - start
    last = args.first_seed + args.deals - 1
    print(
        f"deals {args.deals} (seeds {args.first_seed}..{last}), max_states {args.max_states:,},"
        f" nested runs {args.nested_runs}"
    )
    print("redeals  won  lost  unknown  rate among decided, 95% CI", end="")
    print("      bounds over all deals (Wilson)")
    for k in range(args.redeals + 1):
        column = [row[k] for row in outcomes]
        won = column.count(True)
        lost = column.count(False)
        unknown = len(column) - won - lost
        # Unknown deals counted as lost, then as won, each with its Wilson end.
        total = len(column)
        below, above = wilson(won, total)[0], wilson(won + unknown, total)[1]
        print(
            f"{k:7d} {won:4d} {lost:5d} {unknown:8d}  {rate_text(won, won + lost):32s}"
            f"  {won / total:.3f} ({below:.3f}) – {(won + unknown) / total:.3f} ({above:.3f})"
        )
    print(f"{wall:.0f} s, {wall / args.deals:.2f} s per deal, {args.processes} process(es)")


if __name__ == "__main__":
    run(main)
