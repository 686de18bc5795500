"""Gaps solver throughput: decide seeded no-redeal deals one after another in one process.

Prints, for the deals asked: how many were decided (won / not winnable) and how many the
budget left undecided, states per second, deals per minute, the median and slowest deals, and
the peak memory of the process that decided them. Each deal runs alone in its process: probes,
then the full search, in two threads once the deal runs long (``--workers``). The speed target
is measured as

    .venv/bin/python bench/bench_gaps.py --deals 1000 --seconds 60

``--processes N`` decides N deals side by side, each in a process of its own (each process
still decides one deal at a time, with its own threads): for machines with more cores. The
per-deal figures then include the slowdown of sharing the machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import ExitStack
from typing import NamedTuple

from benchkit import (
    Parser,
    check_seed_range,
    distinct_deal_numbers,
    follow_the_parent,
    positive_seconds,
    rate_text,
    run,
    seeds_text,
    whole,
)
from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.gaps import fast
from ludoteca.solvers.gaps.line import board_of


class Row(NamedTuple):
    seed: int
    winnable: bool | None
    states: int
    seconds: float
    peak_mib: float
    stopped: str
    """What an undecided deal ran out of: time, states or room (the shared table's)."""


class Job(NamedTuple):
    seed: int
    variant: str
    max_states: int | None
    seconds: float | None
    workers: int
    table_bytes: int


def deal(seed: int, variant: str) -> GapsState:
    game = SPEC.new_game(variant, seed)
    assert isinstance(game, GapsState)
    return game


def decide(job: Job) -> Row:
    board = board_of(deal(job.seed, job.variant))
    fast.decide(board, 1000)  # load the compiled kernels before the clock starts
    fast.beam(board, widths=(2,))
    began = time.perf_counter()
    result = fast.decide(
        board,
        job.max_states,
        seconds=job.seconds,
        workers=job.workers,
        table_bytes=job.table_bytes,
    )
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return Row(job.seed, result.winnable, result.states, seconds, peak, result.stopped)


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=whole(1), default=None, help="how many (default 100)")
    parser.add_argument("--first-seed", type=whole(0), default=None, help="the first (default 0)")
    parser.add_argument("--max-states", type=whole(1), default=None, help="state limit per deal")
    parser.add_argument("--seconds", type=positive_seconds, help="time budget per deal")
    parser.add_argument("--variant", default="no-redeal")
    parser.add_argument(
        "--seeds",
        type=distinct_deal_numbers,
        help="comma-separated seeds (instead of --deals/--first-seed)",
    )
    parser.add_argument(
        "--workers", type=whole(1), default=2, help="threads per deal once it runs long (default 2)"
    )
    parser.add_argument(
        "--processes", type=whole(1), default=1, help="deals decided side by side (default 1)"
    )
    parser.add_argument(
        "--memory",
        type=float,
        default=None,
        help="GiB for the table two searches share once a deal runs long (default 2; needs "
        "--seconds, as in ludoteca solve)",
    )
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    if args.seeds is not None and (args.deals, args.first_seed) != (None, None):
        # (--deals was ignored beside --seeds.)
        parser.error("--seeds names the deals: drop --deals and --first-seed")
    args.deals = 100 if args.deals is None else args.deals
    args.first_seed = 0 if args.first_seed is None else args.first_seed
    check_seed_range(parser, args.first_seed, args.deals)
    if args.max_states is None and args.seconds is None:
        parser.error("give --max-states or --seconds (or both)")
    if args.memory is None:
        args.memory = fast.TABLE_BYTES / 2**30
    elif args.seconds is None:
        # As `ludoteca solve`: only a timed search has the shared table (it was ignored).
        parser.error("--memory goes with --seconds (the table of a timed search)")
    if not 1 / 64 <= args.memory < float("inf"):
        parser.error(f"--memory must be at least 1/64 (GiB, the smallest table), not {args.memory}")
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    if args.memory > total:
        parser.error(
            f"--memory {args.memory:g} GiB is more than this machine has ({total:.1f} GiB)"
        )
    SPEC.variant(args.variant)  # one that does not exist stops here

    warm = time.perf_counter()
    fast.decide(board_of(deal(0, args.variant)), 1000)
    print(f"compile / cache load: {time.perf_counter() - warm:.2f} s", flush=True)

    seeds = args.seeds or list(range(args.first_seed, args.first_seed + args.deals))
    room = int(args.memory * 2**30)
    jobs = [Job(s, args.variant, args.max_states, args.seconds, args.workers, room) for s in seeds]
    rows: list[Row] = []
    start = time.perf_counter()
    with ExitStack() as stack:
        if args.processes == 1:
            results: Iterable[Row] = map(decide, jobs)
        else:
            pool = ProcessPoolExecutor(
                args.processes,
                max_tasks_per_child=1,
                initializer=follow_the_parent,
                initargs=(os.getpid(),),
            )
            stack.enter_context(pool)
            results = (f.result() for f in as_completed([pool.submit(decide, j) for j in jobs]))
        for row in results:
            rows.append(row)
            if args.verbose:
                print(*_line(row), flush=True)
    wall = time.perf_counter() - start
    _summary(args, seeds, rows, wall)


def _line(row: Row) -> tuple[object, ...]:
    """seed, verdict, nodes, seconds, peak memory of the process so far, and for an
    undecided deal what it ran out of."""
    why = () if row.winnable is not None else (f"(out of {row.stopped})",)
    return (
        row.seed,
        row.winnable,
        row.states,
        f"{row.seconds:.2f}",
        f"{row.peak_mib:.0f}MiB",
        *why,
    )


def _summary(args: argparse.Namespace, seeds: list[int], rows: list[Row], wall: float) -> None:
    won = sum(1 for r in rows if r.winnable is True)
    lost = sum(1 for r in rows if r.winnable is False)
    unknown = len(rows) - won - lost
    states = sum(r.states for r in rows)
    times = [r.seconds for r in rows]
    rows.sort(key=lambda r: r.seed)
    print(f"deals {len(rows)} ({seeds_text(seeds)}),")
    print(
        f"  per deal: max_states {args.max_states}, seconds {args.seconds}, "
        f"workers {args.workers}, table up to {args.memory:g} GiB; {args.variant}; "
        f"{args.processes} process(es) side by side"
    )
    print(f"decided {won + lost}: won {won}, not winnable {lost}; undecided {unknown}")
    print(f"win rate among decided {rate_text(won, won + lost)}")
    print(f"bounds over all deals: [{won / len(rows):.3f}, {(won + unknown) / len(rows):.3f}]")
    busy = sum(times)
    print(f"states {states:,} in {busy:.1f} s of deals: {states / busy:,.0f} states/s")
    print(f"deals/min {60 * len(rows) / wall:.1f} ({wall:.1f} s wall)")
    print(f"median deal {statistics.median(times):.2f} s, mean {statistics.mean(times):.2f} s")
    decided = [r for r in rows if r.winnable is not None]
    within = [sum(1 for r in decided if r.seconds <= limit) for limit in (1, 10)]
    print(f"decided within 1 s: {within[0]}, within 10 s: {within[1]}")
    slowest = sorted(decided, key=lambda r: -r.seconds)[:5]
    print(
        "slowest decided:",
        ", ".join(f"seed {r.seed} {r.seconds:.1f} s" for r in slowest) or "none",
    )
    open_seeds = [f"{r.seed} ({r.stopped})" for r in rows if r.winnable is None]
    print("undecided seeds (out of):", ", ".join(open_seeds) or "none")
    # One process: its peak over all the deals; side by side: the largest peak of a process
    # that decided one deal.
    print(f"peak memory {max(r.peak_mib for r in rows):.0f} MiB")


if __name__ == "__main__":
    run(main)
