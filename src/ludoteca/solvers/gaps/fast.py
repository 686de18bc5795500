"""The compiled solver behind the same interface as the reference: :func:`search`."""

from __future__ import annotations

from functools import cache

import numpy as np

from ludoteca.solvers.gaps import kernel
from ludoteca.solvers.gaps.board import Board, Move
from ludoteca.solvers.gaps.reference import Answer

UNLIMITED = 1 << 62


@cache
def _tables(ranks: int, cells: int) -> tuple[np.ndarray, ...]:
    perms, counts = kernel.permutation_table()
    return kernel.zobrist(ranks, cells, 1), kernel.zobrist(ranks, cells, 2), perms, counts


def unpack(move: int) -> Move:
    return move & 0xFF, (move >> 8) & 0xFF, move >> 16


def search(start: Board, max_states: int | None = None, stop_at_win: bool = True) -> Answer:
    shape = start.shape
    z1, z2, perms, counts = _tables(shape.ranks, shape.cells)
    status, best, best_dead, states, line, best_line = kernel.search(
        np.array(start.grid, dtype=np.int8),
        shape.suits,
        shape.ranks,
        UNLIMITED if max_states is None else max_states,
        stop_at_win,
        z1,
        z2,
        perms,
        counts,
    )
    winnable = {1: True, 0: False, -1: None}[int(status)]
    chosen = line if status == 1 else best_line
    return Answer(
        winnable,
        int(best),
        int(best_dead),
        int(states),
        [unpack(int(m)) for m in chosen],
        status != -1,
    )
