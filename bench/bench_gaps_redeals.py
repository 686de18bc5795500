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

import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack

from benchkit import Parser, leave_ctrl_c_to_the_parent, run, whole
from ludoteca.games.gaps import SPEC, GapsState
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
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first-seed", type=whole(0), default=0)
    parser.add_argument("--max-states", type=int, default=1_000_000, help="per search")
    parser.add_argument("--redeals", type=int, default=3)
    parser.add_argument(
        "--processes", type=int, default=1, help="deals played side by side (default 1)"
    )
    parser.add_argument(
        "--nested-runs",
        type=int,
        default=NESTED_RUNS,
        help=f"nested searches for a phase the search leaves open (default {NESTED_RUNS}; 0: none)",
    )
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    if args.deals < 1 or args.processes < 1 or args.redeals < 0 or args.max_states < 1:
        parser.error("--deals, --processes and --max-states must be positive, --redeals >= 0")
    if args.nested_runs < 0:
        parser.error("--nested-runs must be 0 or more")

    seeds = range(args.first_seed, args.first_seed + args.deals)
    jobs = [(seed, args.redeals, args.max_states, args.nested_runs) for seed in seeds]
    outcomes: list[list[bool | None]] = []
    start = time.perf_counter()
    with ExitStack() as stack:
        if args.processes == 1:
            results: Iterable[Outcome] = map(play, jobs)
        else:
            pool = ProcessPoolExecutor(args.processes, initializer=leave_ctrl_c_to_the_parent)
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
    print(f"{wall:.0f} s, {wall / args.deals:.2f} s per deal, {args.processes} process(es)")


if __name__ == "__main__":
    run(main)
