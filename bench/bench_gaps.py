"""Gaps solver throughput: decide seeded no-redeal deals one after another in one process.

Prints, for the deals asked: how many were decided (won / not winnable) and how many the state
limit left undecided, states per second, deals per minute, the median and slowest deals, and
the peak memory of the process. Run it niced on a shared machine, e.g.

    nice -n 10 .venv/bin/python bench/bench_gaps.py --deals 1000 --max-states 50000000
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.gaps import fast
from ludoteca.solvers.gaps.line import board_of
from ludoteca.studies.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--max-states", type=int, default=None, help="state limit per deal")
    parser.add_argument("--seconds", type=float, default=None, help="time budget per deal")
    parser.add_argument("--variant", default="no-redeal")
    parser.add_argument("--seeds", help="comma-separated seeds (instead of --deals/--first-seed)")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()

    def deal(seed: int) -> GapsState:
        game = SPEC.new_game(args.variant, seed)
        assert isinstance(game, GapsState)
        return game

    if args.max_states is None and args.seconds is None:
        parser.error("give --max-states or --seconds (or both)")
    warm = time.perf_counter()
    fast.decide(board_of(deal(0)), 1000)
    print(f"compile / cache load: {time.perf_counter() - warm:.2f} s")

    rows: list[tuple[int, bool | None, int, float]] = []
    start = time.perf_counter()
    seeds = (
        [int(s) for s in args.seeds.split(",")]
        if args.seeds
        else list(range(args.first_seed, args.first_seed + args.deals))
    )
    for seed in seeds:
        board = board_of(deal(seed))
        began = time.perf_counter()
        result = fast.decide(board, args.max_states, seconds=args.seconds)
        seconds = time.perf_counter() - began
        rows.append((seed, result.winnable, result.states, seconds))
        if args.verbose:
            print(seed, result.winnable, result.states, f"{seconds:.2f}", flush=True)
    wall = time.perf_counter() - start

    won = sum(1 for _, w, _, _ in rows if w is True)
    lost = sum(1 for _, w, _, _ in rows if w is False)
    unknown = len(rows) - won - lost
    states = sum(s for _, _, s, _ in rows)
    times = [t for _, _, _, t in rows]
    low, high = wilson(won, won + lost) if won + lost else (0.0, 1.0)
    print(f"deals {len(rows)} (seeds {seeds[0]}..{seeds[-1]}),")
    print(f"  per deal: max_states {args.max_states}, seconds {args.seconds}; {args.variant}")
    print(f"decided {won + lost}: won {won}, not winnable {lost}; undecided {unknown}")
    print(f"win rate among decided {won / max(1, won + lost):.3f}  95% CI [{low:.3f}, {high:.3f}]")
    print(f"bounds over all deals: [{won / len(rows):.3f}, {(won + unknown) / len(rows):.3f}]")
    print(f"states {states:,} in {wall:.1f} s: {states / wall:,.0f} states/s")
    print(f"deals/min {60 * len(rows) / wall:.1f}")
    print(f"median deal {statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s")
    slowest = sorted(rows, key=lambda r: -r[3])[:5]
    print("slowest:", ", ".join(f"seed {s} {t:.1f} s ({w})" for s, w, _, t in slowest))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
