"""Gaps: what the suit symmetry would merge, beside the row symmetry the solver keys by.

The solver's class key is the same for every order of the rows (rows are interchangeable).
Suits are interchangeable too: a position and its copy with the suits relabelled win alike.
But a transposition table gains from that only when two positions reached *from the same
deal* are relabellings of each other. This walks every class reachable from random deals
of small boards (breadth first, plain class moves, no reduction), and from full deals up to
a cap (a sample of their classes, the nearest to the deal), and counts the distinct classes
keyed by rows alone and by rows and the 24 (or fewer) relabellings of the suits:

    .venv/bin/python bench/bench_gaps_symmetry.py --deals 20 --cap 200000

The counts are deterministic (seeded deals), so the same on any machine.
"""

from __future__ import annotations

import time
from collections import deque
from itertools import permutations

from bench_gaps import deal
from benchkit import Parser, run
from ludoteca.solvers.gaps.board import Board, Shape
from ludoteca.solvers.gaps.line import board_of

Key = tuple[tuple[int, ...], ...]


def relabelled(key: Key, order: tuple[int, ...], ranks: int) -> Key:
    """The class key with suit ``s`` renamed ``order[s]`` (gaps and pool marks kept)."""
    return tuple(
        sorted(
            tuple(code if code < 0 else order[code // ranks] * ranks + code % ranks for code in row)
            for row in key
        )
    )


def walk(start: Board, cap: int) -> tuple[int, int, bool]:
    """Classes reached breadth first from ``start`` (at most ``cap``): how many, how many
    once suit relabellings are merged too, and whether every class was reached."""
    shape = start.shape
    orders = list(permutations(range(shape.suits)))
    seen = {start.key()}
    queue = deque([start])
    while queue and len(seen) < cap:
        board = queue.popleft()
        for move in board.moves():
            child = board.copy()
            child.play(move)
            key = child.key()
            if key not in seen:
                seen.add(key)
                queue.append(child)
    merged = {min(relabelled(key, order, shape.ranks) for order in orders) for key in seen}
    return len(seen), len(merged), not queue


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals of each board size")
    parser.add_argument("--cap", type=int, default=200_000, help="most classes per deal")
    args = parser.parse_args()
    if args.deals < 1 or args.cap < 1:
        parser.error("--deals and --cap must be positive")
    began = time.perf_counter()
    sizes = [Shape(3, 5), Shape(4, 5), Shape(4, 6), Shape(4, 13)]
    for shape in sizes:
        classes = merged = complete = 0
        for seed in range(args.deals):
            if shape.ranks == 13:
                start = board_of(deal(seed, "no-redeal"))
            else:
                start = Board.shuffled(shape, seed)
            found, fewer, whole = walk(start, args.cap)
            classes += found
            merged += fewer
            complete += whole
        saved = 1 - merged / classes
        print(
            f"{shape.suits} x {shape.ranks}: {args.deals} deals ({complete} walked whole), "
            f"{classes:,} classes keyed by rows, {merged:,} by rows and suits "
            f"({saved:.3%} fewer)",
            flush=True,
        )
    print(f"{time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    run(main)
