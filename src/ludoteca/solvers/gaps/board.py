"""The solver's compact board: integer codes on a flat grid, for any number of suits and ranks.

A board has ``suits`` rows and ``ranks`` columns (the ace's place becomes a gap). A card is the
code ``suit * ranks + rank - 1`` (ranks 2..``ranks``), a gap is ``GAP``. Cell ``row * ranks +
col``. The full game is ``suits=4, ranks=13``; smaller boards keep exhaustive checks cheap.

The search works on *classes* of positions: the 2s in column 0 and the gaps of column 0 can be
rearranged freely among those cells whenever one of them is a gap (move a 2 into the gap), so
all such arrangements are one node. Column 0's 2-or-gap cells are the *pool*; the pool is
*free* when it holds a gap. Moves are class moves:

* a 2 from outside column 0 into the pool: which pool gap it takes does not change the class,
  except when it fills the pool's last gap: the 2s are then fixed, so each arrangement of
  them over the pool cells is its own move (the player arranges them before the last 2 comes);
* a 3 into a gap at column 1 whose column-0 cell is in a free pool: any 2 of the pool may be
  arranged in front of it first, so each pool 2 gives the move of its 3;
* every other fill of a gap by the successor of its left neighbour.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import permutations

GAP = -1
POOL = -2
"""Stands for a pool cell (a 2 or a gap in column 0 of a free pool) in a class key."""


@dataclass(frozen=True)
class Shape:
    suits: int
    ranks: int

    @property
    def cells(self) -> int:
        return self.suits * self.ranks

    @property
    def full(self) -> int:
        """Cards in sequence when won: every card but the aces."""
        return self.suits * (self.ranks - 1)

    def rank(self, code: int) -> int:
        return code % self.ranks + 1

    def two(self, suit: int) -> int:
        return suit * self.ranks + 1


Move = tuple[int, int, int]
"""(card code, target cell, layout): ``layout`` is 0, or for a 2 that fills the pool's last gap
the column-0 cards afterwards, packed 8 bits a row (code + 1), row 0 lowest."""


class Board:
    """A concrete arrangement standing for its class; plain Python, the reference model."""

    __slots__ = ("grid", "pos", "shape")

    def __init__(self, shape: Shape, grid: list[int]) -> None:
        self.shape = shape
        self.grid = list(grid)
        self.pos = [0] * shape.cells
        for cell, code in enumerate(self.grid):
            if code != GAP:
                self.pos[code] = cell

    @classmethod
    def shuffled(cls, shape: Shape, seed: int) -> Board:
        """A seeded random deal of ``shape``: every card, the aces' cells left as gaps (the
        small boards of the tests and benchmarks)."""
        codes = list(range(shape.cells))
        random.Random(seed).shuffle(codes)
        return cls(shape, [GAP if code % shape.ranks == 0 else code for code in codes])

    def copy(self) -> Board:
        return Board(self.shape, self.grid)

    # --- the pool ---------------------------------------------------------------------------
    def pool_rows(self) -> list[int]:
        ranks = self.shape.ranks
        return [r for r in range(self.shape.suits) if self._in_pool(self.grid[r * ranks])]

    def _in_pool(self, code: int) -> bool:
        return code == GAP or code % self.shape.ranks == 1

    def pool_twos(self) -> list[int]:
        ranks = self.shape.ranks
        return [
            self.grid[r * ranks]
            for r in range(self.shape.suits)
            if self.grid[r * ranks] != GAP
            if self.grid[r * ranks] % ranks == 1
        ]

    def pool_free(self) -> bool:
        ranks = self.shape.ranks
        return any(self.grid[r * ranks] == GAP for r in range(self.shape.suits))

    # --- class moves ------------------------------------------------------------------------
    def moves(self) -> list[Move]:
        shape, grid = self.shape, self.grid
        ranks = shape.ranks
        free = self.pool_free()
        twos = self.pool_twos()
        found: list[Move] = []
        if free:
            found += self._pool_entries(twos)
        for cell, code in enumerate(grid):
            col = cell % ranks
            if code != GAP or col == 0:
                continue
            left = grid[cell - 1]
            if col == 1 and free and self._in_pool(left):
                found += [(two + 1, cell, 0) for two in twos]
            elif left != GAP and left % ranks != ranks - 1:
                found.append((left + 1, cell, 0))
        return found

    def _pool_entries(self, twos: list[int]) -> list[Move]:
        shape, ranks = self.shape, self.shape.ranks
        rows = self.pool_rows()
        gaps = [r for r in rows if self.grid[r * ranks] == GAP]
        found: list[Move] = []
        for suit in range(shape.suits):
            two = shape.two(suit)
            if self.pos[two] % ranks == 0:
                continue
            if len(gaps) > 1:
                found.append((two, gaps[0] * ranks, 0))
                continue
            for order in permutations([*twos, two]):
                column = [self.grid[r * ranks] for r in range(shape.suits)]
                for row, code in zip(rows, order, strict=True):
                    column[row] = code
                layout = sum((code + 1) << (8 * row) for row, code in enumerate(column))
                found.append((two, gaps[0] * ranks, layout))
        return found

    def play(self, move: Move) -> None:
        card, target, layout = move
        ranks = self.shape.ranks
        if layout:
            self.grid[self.pos[card]] = GAP
            for row in range(self.shape.suits):
                code = ((layout >> (8 * row)) & 0xFF) - 1
                self.grid[row * ranks] = code
                self.pos[code] = row * ranks
            return
        if target % ranks == 1 and card % ranks == 2:
            self._arrange(card - 1, target - 1)
        self._shift(card, target)

    def _arrange(self, two: int, head: int) -> None:
        """Bring ``two`` to column-0 cell ``head`` inside the pool (legal: the pool is free)."""
        here = self.grid[head]
        if here == two:
            return
        if here == GAP:
            self._shift(two, head)
            return
        there = self.pos[two]
        self.grid[head], self.grid[there] = two, here
        self.pos[two], self.pos[here] = head, there

    def _shift(self, card: int, target: int) -> None:
        self.grid[self.pos[card]] = GAP
        self.grid[target] = card
        self.pos[card] = target

    # --- what a class is worth ---------------------------------------------------------------
    def key(self) -> tuple[tuple[int, ...], ...]:
        """The class, the same for every row order (rows are interchangeable)."""
        ranks = self.shape.ranks
        free = self.pool_free()
        rows = []
        for r in range(self.shape.suits):
            row = self.grid[r * ranks : (r + 1) * ranks]
            if free and self._in_pool(row[0]):
                row[0] = POOL
            rows.append(tuple(row))
        return tuple(sorted(rows))

    def run(self, cell: int) -> int:
        """How many cards follow each other in suit and rank from ``cell`` rightwards."""
        ranks, grid = self.shape.ranks, self.grid
        length = 1
        while cell % ranks < ranks - 1 and grid[cell + 1] == grid[cell] + 1:
            cell += 1
            length += 1
        return length

    def in_sequence(self) -> int:
        """The most cards in sequence over the arrangements of the class."""
        ranks, grid = self.shape.ranks, self.grid
        if not self.pool_free():
            return sum(
                self.run(r * ranks) for r in range(self.shape.suits) if grid[r * ranks] % ranks == 1
            )
        twos = set(self.pool_twos())
        rows = self.pool_rows()
        total = matched = 0
        for r in rows:
            third = grid[r * ranks + 1]
            if third != GAP and third % ranks == 2 and third - 1 in twos:
                total += 1 + self.run(r * ranks + 1)
                matched += 1
        return total + min(len(rows) - matched, len(twos) - matched)
