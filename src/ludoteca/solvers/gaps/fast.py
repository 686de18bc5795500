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


def search(
    start: Board,
    max_states: int | None = None,
    stop_at_win: bool = True,
    salt: int = 0,
    reduce: bool = False,
) -> Answer:
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
        np.uint64(salt),
        reduce,
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


PROBE_STATES = 5_000
"""Nodes per probe: a short dive that backtracks a little. Thousands of them, each trying
equal moves in another order, find far more wins than one long search with the same budget,
and run faster per node (their table stays in cache)."""


def decide(start: Board, max_states: int | None, reduce: bool = True) -> Answer:
    """Search for a win; under a state limit, first spend half of it on short probes (a
    different salt each), since one deep search often sinks its whole budget under an early
    wrong move while wins lie elsewhere. A probe that finishes decides too (it saw every
    node). The other half goes to one search in the standard order, which alone can prove a
    deal lost."""
    if max_states is None:
        return search(start, reduce=reduce)
    spent = 0
    best: Answer | None = None
    for salt in range(1, max_states // (2 * PROBE_STATES) + 1):
        answer = search(start, PROBE_STATES, salt=salt, reduce=reduce)
        spent += answer.states
        if answer.complete:
            answer.states = spent
            return answer
        if best is None or answer.best_dead_end > best.best_dead_end:
            best = answer
    answer = search(start, max_states - spent, reduce=reduce)
    answer.states += spent
    if not answer.complete and best is not None and best.best_dead_end > answer.best_dead_end:
        # Undecided: keep the line to the best dead end any of the searches reached.
        answer.best_dead_end, answer.line = best.best_dead_end, best.line
    return answer
