"""Nested Monte Carlo search (Numba): a quick look for the most cards in sequence.

It plays the concrete game, not classes: every legal fill, a 2 moving inside column 0
included. Level 0 plays random moves to a dead end (no move left) and scores the cards in
sequence there. Level ``n`` walks from the start: at each step it tries every move followed
by a level ``n - 1`` search, remembers the best line any of them found, and takes that line's
next move. A playout that runs :data:`MAX_LINE` moves without reaching a dead end (2s can
shuttle in column 0 for ever) scores nothing.

It proves nothing about positions it does not reach, but whatever it reports is real: a
line of legal moves to a dead end with that many cards in sequence (48 is a win). It finds
good dead ends where the exhaustive best-dead-end search, cut short by a time budget, has
only found poor ones, and now and then a win the depth-first search meets only after a
minute; the hint uses it for both (see ``docs/rules/gaps.md``, *Nested Monte Carlo search*).
"""

from __future__ import annotations

import threading
import time

import numpy as np
from numba import njit

from ludoteca.solvers.gaps import compiled_board
from ludoteca.solvers.gaps.board import GAP, Board

MAX_LINE = 400
"""The most moves a playout or a search's line may take (winning lines take 80-130)."""

LEVEL = 2
"""The level the hint and the study policy run, one search after another with new random
streams."""

Line = list[tuple[int, int]]
"""Concrete moves: (card code, target cell)."""


@njit(cache=True)
def _fills(grid: np.ndarray, pos: np.ndarray, suits: int, ranks: int, out: np.ndarray) -> int:
    """The legal fills as ``card * 256 + target``: any 2 into a column-0 gap (one already in
    column 0 too), else the successor of the gap's left neighbour unless that is a King."""
    n = 0
    for g in range(suits * ranks):
        if grid[g] != GAP:
            continue
        if g % ranks == 0:
            for suit in range(suits):
                out[n] = (suit * ranks + 1) * 256 + g
                n += 1
        else:
            left = grid[g - 1]
            if left != GAP and left % ranks != ranks - 1:
                out[n] = (left + 1) * 256 + g
                n += 1
    return n


@njit(cache=True)
def _play(grid: np.ndarray, pos: np.ndarray, move: int) -> None:
    card = move // 256
    target = move % 256
    grid[pos[card]] = GAP
    grid[target] = card
    pos[card] = target


@njit(cache=True)
def _in_sequence(grid: np.ndarray, suits: int, ranks: int) -> int:
    total = 0
    for r in range(suits):
        head = grid[r * ranks]
        if head == GAP or head % ranks != 1:
            continue
        run = 1
        while run < ranks - 1 and grid[r * ranks + run] == grid[r * ranks + run - 1] + 1:
            run += 1
        total += run
    return total


@njit(cache=True)
def _playout(
    grid: np.ndarray, pos: np.ndarray, suits: int, ranks: int, line: np.ndarray
) -> tuple[int, int]:
    """(cards in sequence at the dead end reached, -1 past :data:`MAX_LINE`; moves)."""
    g = grid.copy()
    p = pos.copy()
    moves = np.empty(2 * suits * suits, dtype=np.int64)
    n_line = 0
    while True:
        n = _fills(g, p, suits, ranks, moves)
        if n == 0:
            return _in_sequence(g, suits, ranks), n_line
        if n_line == MAX_LINE:
            return -1, n_line
        move = moves[np.random.randint(n)]
        line[n_line] = move
        n_line += 1
        _play(g, p, move)


@njit(cache=True, nogil=True)
def search(
    level: int,
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    line: np.ndarray,
) -> tuple[int, int]:
    """(the most cards in sequence at a dead end found, -1 for none; the length of its line,
    written to ``line``). It stops early when it finds a win."""
    full = suits * (ranks - 1)
    g = grid.copy()
    p = pos.copy()
    moves = np.empty(2 * suits * suits, dtype=np.int64)
    best = np.empty(MAX_LINE + 1, dtype=np.int64)
    child = np.empty(MAX_LINE + 1, dtype=np.int64)
    n_best = 0
    best_score = -1
    played = 0
    while played < MAX_LINE:
        n = _fills(g, p, suits, ranks, moves)
        if n == 0:
            if best_score < 0:  # the start is itself a dead end
                best_score = _in_sequence(g, suits, ranks)
            break
        for i in range(n):
            g2 = g.copy()
            p2 = p.copy()
            _play(g2, p2, moves[i])
            if level <= 1:
                score, n_child = _playout(g2, p2, suits, ranks, child)
            else:
                score, n_child = search(level - 1, g2, p2, suits, ranks, child)
            if score > best_score and played + 1 + n_child <= MAX_LINE:
                best_score = score
                best[played] = moves[i]
                best[played + 1 : played + 1 + n_child] = child[:n_child]
                n_best = played + 1 + n_child
            if best_score == full:
                break
        if best_score == full or played >= n_best:
            break
        _play(g, p, best[played])
        played += 1
    line[:n_best] = best[:n_best]
    return best_score, n_best


@njit(cache=True)
def _seed(value: int) -> None:
    np.random.seed(value)


def _without_repeats(board: Board, line: Line) -> Line:
    """The line with every cycle cut out (a position met again goes back to where it was
    first), so it obeys the repetition ruling and ends where it ended."""
    seen: dict[tuple[int, ...], int] = {tuple(board.grid): 0}
    grid = list(board.grid)
    kept: Line = []
    for card, target in line:
        grid[grid.index(card)] = GAP
        grid[target] = card
        key = tuple(grid)
        if key in seen:
            del kept[seen[key] :]
            seen = {k: i for k, i in seen.items() if i <= len(kept)}
        else:
            kept.append((card, target))
            seen[key] = len(kept)
    return kept


def best_line(
    board: Board,
    seconds: float,
    level: int = LEVEL,
    seed: int = 0,
    stop: threading.Event | None = None,
    runs: int = 0,
) -> tuple[int, Line]:
    """Level-``level`` searches from ``board``, each with its own random stream (``seed``,
    ``seed + 1``, ...), until ``seconds`` have passed (at least one runs), one wins or
    ``stop`` is set (read between searches); with ``runs`` > 0, exactly that many searches
    (fewer if one wins) whatever the time, so the answer is the same on any machine.
    Returns the most cards in sequence at a dead end found (-1 if none) and a line to it
    without repeated positions."""
    shape = board.shape
    grid, pos = compiled_board.arrays(board.grid)
    out = np.empty(MAX_LINE + 1, dtype=np.int64)
    stop_at = time.perf_counter() + seconds
    best_score, best = -1, []
    run = 0
    while True:
        _seed(seed + run)
        score, n = search(level, grid, pos, shape.suits, shape.ranks, out)
        run += 1
        if score > best_score:
            best_score = score
            best = [(int(m) // 256, int(m) % 256) for m in out[:n]]
        if best_score == shape.full or run == runs:
            break
        if runs <= 0 and time.perf_counter() >= stop_at:
            break
        if stop is not None and stop.is_set():
            break
    return best_score, _without_repeats(board, best)
