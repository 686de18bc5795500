"""A beam search over classes (Numba): a quick, incomplete look for a win.

Level by level from the start, every class of the beam is expanded; children already seen
(at any level) and children the frozen-card analysis rules out
(:func:`compiled_analysis.doomed`) are dropped; the ``width`` children with the most cards in
sequence (then the highest :func:`compiled_analysis.upper_bound`; ties broken by a salted
hash of the key) make the next level.
It finds wins a depth-first search meets only after tens of seconds, when the early moves
that the depth-first order tries first lead into large lost subtrees. It proves nothing
when it finds no win: the beam drops most children.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludoteca.solvers.gaps import compiled_analysis, compiled_board, kernel

MAX_LEVELS = 512
"""The longest line a beam follows (winning lines of full deals take about 80-130 moves)."""


@njit(cache=True)
def _load(grids: np.ndarray, i: int, grid: np.ndarray, pos: np.ndarray) -> None:
    for c in range(grid.size):
        grid[c] = grids[i, c]
        if grid[c] != compiled_board.GAP:
            pos[grid[c]] = c


@njit(cache=True)
def _line(parents: np.ndarray, moves: np.ndarray, depth: int, parent: int, move: int) -> np.ndarray:
    """The moves from the start to the child ``move`` of beam entry ``parent`` at ``depth``."""
    line = np.empty(depth + 1, dtype=np.int64)
    line[depth] = move
    for d in range(depth - 1, -1, -1):
        line[d] = moves[d, parent]
        parent = parents[d, parent]
    return line


@njit(cache=True, nogil=True)
def beam(
    start: np.ndarray,
    suits: int,
    ranks: int,
    z1: np.ndarray,
    z2: np.ndarray,
    perms: np.ndarray,
    counts: np.ndarray,
    width: int,
    salt: np.uint64,
    stop: np.ndarray,
) -> tuple[np.ndarray, int]:
    """(winning line, nodes): the line in the kernel's packed moves with loose rows (see
    :func:`compiled_board.next_loose`; ``fast.arranged`` makes class moves of it), empty when the
    beam died out, passed :data:`MAX_LEVELS` or ``stop[0]`` turned non-zero (read once a
    level). ``nodes`` counts the children generated."""
    cells = suits * ranks
    full = suits * (ranks - 1)
    grids = np.empty((width, cells), dtype=np.int8)
    looses = np.zeros(width, dtype=np.int64)
    grids[0] = start
    size = 1
    parents = np.zeros((MAX_LEVELS, width), dtype=np.int32)
    chosen = np.zeros((MAX_LEVELS, width), dtype=np.int64)
    cap = 16 * width
    scores = np.empty(cap, dtype=np.int64)
    origins = np.empty(cap, dtype=np.int32)
    candidates = np.empty(cap, dtype=np.int64)
    table = np.zeros(1 << 20, dtype=np.uint64)
    grid = np.empty(cells, dtype=np.int8)
    pos = np.zeros(cells, dtype=np.int8)
    row = np.empty(compiled_board.MAX_MOVES, dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    ends = np.empty(suits, dtype=np.int64)
    options = np.empty(suits, dtype=np.int64)
    mov = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.uint64)
    nodes = 0
    stored = 0
    for depth in range(MAX_LEVELS):
        if stop[0]:
            break
        found = 0
        for i in range(size):
            _load(grids, i, grid, pos)
            loose = looses[i]
            n = compiled_board.gen_moves(
                grid, pos, suits, ranks, perms, counts, row, scratch, loose, True
            )
            for m in range(n):
                move = row[m]
                source = int(pos[move & 0xFF])
                heads = compiled_board.column_heads(grid, suits, ranks)
                compiled_board.play(grid, pos, suits, ranks, move)
                after = compiled_board.next_loose(grid, suits, ranks, move, loose, True)
                h1, h2 = compiled_board.class_key(grid, suits, ranks, z1, z2, after)
                nodes += 1
                if kernel.insert(table, h1, h2):
                    stored += 1
                    if stored * 4 > table.size:
                        table = kernel.grow(table)
                    if not kernel.cut_node(
                        grid, pos, suits, ranks, mov, places, options, True, -1, after
                    ):
                        score = compiled_board.prefixes(grid, suits, ranks, ends, after)
                        if score == full:
                            return _line(parents, chosen, depth, i, move), nodes
                        if found < cap:
                            bound = compiled_analysis.upper_bound(suits, ranks, places)
                            tie = np.int64(compiled_board.mix(h1 ^ salt) >> np.uint64(44))
                            scores[found] = ((score * 64 + bound) << 20) + tie
                            origins[found] = i
                            candidates[found] = move
                            found += 1
                compiled_board.unplay(grid, pos, suits, ranks, move, source, heads)
        if found == 0:
            break
        order = np.argsort(-scores[:found])
        size = min(found, width)
        nexts = np.empty((size, cells), dtype=np.int8)
        next_looses = np.zeros(size, dtype=np.int64)
        for j in range(size):
            k = order[j]
            parent = origins[k]
            _load(grids, parent, grid, pos)
            compiled_board.play(grid, pos, suits, ranks, candidates[k])
            next_looses[j] = compiled_board.next_loose(
                grid, suits, ranks, candidates[k], looses[parent], True
            )
            nexts[j] = grid
            parents[depth, j] = parent
            chosen[depth, j] = candidates[k]
        grids[:size] = nexts
        looses[:size] = next_looses
    return np.empty(0, dtype=np.int64), nodes
