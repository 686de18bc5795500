"""Gaps beam search: which no-redeal deals a beam wins, and how fast.

For each deal asked, one process runs ``fast.beam`` with the widths given, narrowest first,
and prints whether a beam found a win, at which width, the line's length, the nodes the
beams generated and the time. A beam proves nothing when it finds no win. The beams are
deterministic, so the wins and node counts are the same on any machine:

    .venv/bin/python bench/bench_gaps_beam.py --seeds 40,105,493 --widths 1000,4000
"""

from __future__ import annotations

import time

from bench_gaps import deal
from benchkit import Parser, deal_numbers, run
from ludoteca.solvers.gaps import fast
from ludoteca.solvers.gaps.line import board_of


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seeds", type=deal_numbers, required=True, help="comma-separated deal seeds"
    )
    parser.add_argument("--widths", default="1000,4000", help="beam widths, narrowest first")
    args = parser.parse_args()
    seeds = args.seeds  # deal numbers 0..2**63-1, as everywhere (-1 was played)
    try:
        widths = tuple(int(width) for width in args.widths.split(","))
    except ValueError:
        parser.error("--widths takes comma-separated whole numbers")
    if not widths or min(widths) < 1:
        parser.error("--widths must be positive")
    # Load the compiled beam before the clock starts.
    fast.beam(board_of(deal(0, "no-redeal")), widths=(2,))
    wins = 0
    began = time.perf_counter()
    for seed in seeds:
        board = board_of(deal(seed, "no-redeal"))
        start = time.perf_counter()
        found = None
        nodes = 0
        for width in widths:
            found = fast.beam(board, widths=(width,))
            if found is not None:
                nodes += found.states
                break
        seconds = time.perf_counter() - start
        if found is None:
            print(f"{seed} no win found {seconds:.2f} s", flush=True)
            continue
        wins += 1
        print(
            f"{seed} won at width {width}: {len(found.line)} moves, "
            f"{nodes:,} nodes in that beam, {seconds:.2f} s",
            flush=True,
        )
    wall = time.perf_counter() - began
    print(f"{wins} of {len(seeds)} deals won by a beam, {wall:.1f} s in all")


if __name__ == "__main__":
    run(main)
