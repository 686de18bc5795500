"""A beam search for a win (Numba): a different way to look than depth-first.

A depth-first search commits to its first moves and may spend a minute below a wrong one
while a win lies under another. The beam instead keeps, move after move, the ``width``
most promising positions of the whole front, ranked by cards in sequence, by how many
card-row pairs the frozen-card analysis still allows, and against dead gaps. It skips
positions seen before and positions that cannot win (:func:`kernel.doomed`), and it
stops at a win, when the front runs dry, at a deadline, or when ``stop[0]`` is set. It
never proves a loss: it drops positions. A win it finds is a real line of class moves.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludoteca.solvers.gaps import kernel

PREFIX_WEIGHT = 100.0
"""Each card in sequence from column 0 (the class's best arrangement of the pool)."""

ROOM_WEIGHT = 3.0
"""Each pair of a card and a row whose cell for that card the card may still reach."""

DEAD_GAP_WEIGHT = 30.0
"""Each gap right of a King or of another gap (it takes no card until that one moves)."""


@njit(cache=True)
def _score(
    grid: np.ndarray,
    suits: int,
    ranks: int,
    places: np.ndarray,
    ends: np.ndarray,
    tie: np.uint64,
) -> tuple[float, int]:
    """The ranking of a position (higher first) and its cards in sequence."""
    in_sequence = kernel.prefixes(grid, suits, ranks, ends)
    room = 0
    for suit in range(suits):
        two = suit * ranks + 1
        for r in range(suits):
            for k in range(ranks - 1):
                if (places[two + k] >> np.uint64(r * ranks + k)) & np.uint64(1):
                    room += 1
    dead = 0
    for cell in range(suits * ranks):
        if grid[cell] == kernel.GAP and cell % ranks:
            left = grid[cell - 1]
            if left == kernel.GAP or left % ranks == ranks - 1:
                dead += 1
    # Equal scores are broken by a hash of the move: a fixed, unbiased order.
    jitter = np.float64(kernel._mix(tie) >> np.uint64(40)) / 16777216.0
    score = PREFIX_WEIGHT * in_sequence + ROOM_WEIGHT * room - DEAD_GAP_WEIGHT * dead
    return score + 0.5 * jitter, in_sequence


@njit(cache=True)
def _cells_of(grid: np.ndarray, pos: np.ndarray) -> None:
    for cell in range(grid.size):
        if grid[cell] != kernel.GAP:
            pos[grid[cell]] = cell


@njit(cache=True, nogil=True)
def beam(
    start: np.ndarray,
    suits: int,
    ranks: int,
    width: int,
    z1: np.ndarray,
    z2: np.ndarray,
    perms: np.ndarray,
    counts: np.ndarray,
    deadline: float,
    stop: np.ndarray,
) -> tuple[int, np.ndarray, int]:
    """Returns (status, line, nodes): status 1 with the winning line, or -1 (no win found:
    the front ran dry, the deadline passed or ``stop[0]`` was set). A win sets ``stop[0]``."""
    cells = suits * ranks
    full = suits * (ranks - 1)
    front = np.empty((width, cells), dtype=np.int8)
    following = np.empty((width, cells), dtype=np.int8)
    front[0] = start
    size = 1
    cap = width * 16
    cand_parent = np.empty(cap, dtype=np.int64)
    cand_move = np.empty(cap, dtype=np.int64)
    cand_score = np.empty(cap, dtype=np.float64)
    layers = 256
    parents = np.empty((layers, width), dtype=np.int64)
    chosen_moves = np.empty((layers, width), dtype=np.int64)
    table = np.zeros(1 << 20, dtype=np.uint64)
    stored = 0
    h1, h2 = kernel.class_key(start, suits, ranks, z1, z2)
    kernel._insert(table, h1, h2)
    grid = np.empty(cells, dtype=np.int8)
    pos = np.zeros(cells, dtype=np.int8)
    child = np.empty(cells, dtype=np.int8)
    child_pos = np.zeros(cells, dtype=np.int8)
    mov = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.uint64)
    member = np.zeros(cells, dtype=np.bool_)
    kept = np.zeros(cells, dtype=np.bool_)
    todo = np.zeros(cells, dtype=np.int64)
    options = np.empty(suits, dtype=np.int64)
    ends = np.empty(suits, dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    row = np.empty(kernel.MAX_MOVES, dtype=np.int64)
    nodes = 0
    layer = 0
    while True:
        if stop[0] or (deadline > 0.0 and kernel._clock() > deadline):
            return -1, np.empty(0, dtype=np.int64), nodes
        if layer == layers:
            layers *= 2
            parents = kernel._grown64(parents, layers)
            chosen_moves = kernel._grown64(chosen_moves, layers)
        found = 0
        for i in range(size):
            grid[:] = front[i]
            _cells_of(grid, pos)
            kernel.movable(grid, pos, suits, ranks, mov, places)
            n = kernel.gen_moves(grid, pos, suits, ranks, perms, counts, row, scratch)
            n = kernel.stubborn(row, n, grid, pos, ranks, mov, member, kept, todo)
            for j in range(n):
                move = row[j]
                child[:] = grid
                child_pos[:] = pos
                kernel.play(child, child_pos, suits, ranks, move)
                nodes += 1
                h1, h2 = kernel.class_key(child, suits, ranks, z1, z2)
                if not kernel._insert(table, h1, h2):
                    continue
                stored += 1
                if stored * 4 > table.size:
                    table = kernel._grow(table)
                kernel.movable(child, child_pos, suits, ranks, mov, places)
                if kernel.doomed(suits, ranks, places, options):
                    continue
                score, in_sequence = _score(
                    child, suits, ranks, places, ends, np.uint64(move) ^ np.uint64(layer)
                )
                if in_sequence == full:
                    line = np.empty(layer + 1, dtype=np.int64)
                    line[layer] = move
                    at = i
                    for back in range(layer - 1, -1, -1):
                        line[back] = chosen_moves[back, at]
                        at = parents[back, at]
                    stop[0] = 1
                    return 1, line, nodes
                if found < cap:
                    cand_parent[found] = i
                    cand_move[found] = move
                    cand_score[found] = score
                    found += 1
        if found == 0:
            return -1, np.empty(0, dtype=np.int64), nodes
        order = np.argsort(-cand_score[:found])
        size = min(found, width)
        for j in range(size):
            k = order[j]
            following[j] = front[cand_parent[k]]
            _cells_of(following[j], pos)
            kernel.play(following[j], pos, suits, ranks, cand_move[k])
            parents[layer, j] = cand_parent[k]
            chosen_moves[layer, j] = cand_move[k]
        front, following = following, front
        layer += 1
