"""A best-first search by novelty over classes (Numba): a quick, incomplete look for a win.

Best-first width search, after Lipovetzky and Geffner (*Best-First Width Search:
Exploration and Exploitation in Classical Planning*, AAAI 2017), read for the idea. The
facts of a position are its cards in their cells. A new class (not in the table, not ruled
out by :func:`compiled_analysis.doomed`) has novelty 1 when one of its facts was never seen
before in a class with as many cards in sequence, 2 when a pair of them was never seen
together there, else 3. Classes are expanded by novelty first, then most cards in
sequence, first come first served (last come first served won nothing the first did). A
best-first search by a score led by cards in sequence sinks into large regions of lost
positions with many cards in sequence (the notebook, *A complete greedy best-first search
for wins*); novelty leaves a region once it shows nothing new. It keeps every class it
enters (76 bytes each), so with room enough it finds a win wherever the plain search does,
and it runs under a budget of nodes; it proves nothing when it finds no win.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludoteca.solvers.gaps import compiled_board, kernel
from ludoteca.solvers.gaps.beam import _load

LEVELS = 3
"""Novelty 1, 2, or more (counted as 3)."""

MOST_NODES = (1 << 31) - 2
"""The largest budget: classes are linked by 32-bit indices."""


@njit(cache=True)
def _line(parents: np.ndarray, moves: np.ndarray, node: int, last: int) -> np.ndarray:
    """The moves from the start to the child ``last`` of ``node``."""
    length = 1
    i = node
    while parents[i] >= 0:
        length += 1
        i = parents[i]
    line = np.empty(length, dtype=np.int64)
    line[length - 1] = last
    i = node
    for k in range(length - 2, -1, -1):
        line[k] = moves[i]
        i = parents[i]
    return line


@njit(cache=True)
def _novelty(
    grid: np.ndarray,
    score: int,
    cells: int,
    atoms: np.ndarray,
    singles: np.ndarray,
    pairs: np.ndarray,
) -> int:
    """The class's novelty among classes with ``score`` cards in sequence, which it joins.
    A fact is a card in a cell (``card * cells + cell``); listed cell by cell, the facts of
    a pair always come in the same order, so each pair has one bit."""
    facts = cells * cells
    count = 0
    for c in range(cells):
        if grid[c] != compiled_board.GAP:
            atoms[count] = grid[c] * cells + c
            count += 1
    level = LEVELS
    for a in range(count):
        if not singles[score, atoms[a]]:
            singles[score, atoms[a]] = True
            level = 1
    for a in range(count):
        base = (np.int64(score) * facts + atoms[a]) * facts
        for b in range(a + 1, count):
            bit = base + atoms[b]
            mask = np.uint64(1) << np.uint64(bit & 63)
            if not pairs[bit >> 6] & mask:
                pairs[bit >> 6] |= mask
                level = min(level, 2)
    return level


@njit(cache=True)
def _push(heads: np.ndarray, tails: np.ndarray, links: np.ndarray, bucket: int, node: int) -> None:
    """Queue ``node`` last in ``bucket`` (``links[i]``: the node after ``i`` in its bucket)."""
    if tails[bucket] < 0:
        heads[bucket] = node
    else:
        links[tails[bucket]] = node
    tails[bucket] = node


@njit(cache=True)
def _pop(heads: np.ndarray, tails: np.ndarray, links: np.ndarray, bucket: int) -> int:
    """Take the first node of ``bucket``, which holds one."""
    node = heads[bucket]
    heads[bucket] = links[node]
    if heads[bucket] < 0:
        tails[bucket] = -1
    return int(node)


@njit(cache=True, nogil=True)
def search(
    start: np.ndarray,
    suits: int,
    ranks: int,
    z1: np.ndarray,
    z2: np.ndarray,
    perms: np.ndarray,
    counts: np.ndarray,
    budget: int,
    stop: np.ndarray,
    deadline: float,
) -> tuple[np.ndarray, int]:
    """(winning line, nodes): the line in the kernel's packed moves with loose rows (see
    :func:`compiled_board.next_loose`; ``fast.arranged`` makes class moves of it), empty
    when no class is left, ``budget`` children were generated, ``stop[0]`` turned non-zero
    or the clock passed ``deadline`` (``time.perf_counter``; 0 for none; both read every
    1,024 expansions: about 5 ms). ``nodes`` counts the children generated; ``budget`` is 1
    to :data:`MOST_NODES`."""
    empty = np.empty(0, dtype=np.int64)
    if budget < 1 or budget > MOST_NODES:
        return empty, 0
    cells = suits * ranks
    full = suits * (ranks - 1)
    room = budget + 1  # the start, and at most one class a node generated
    grids = np.empty((room, cells), dtype=np.int8)
    looses = np.zeros(room, dtype=np.int64)
    parents = np.empty(room, dtype=np.int32)
    moves = np.zeros(room, dtype=np.int64)
    links = np.full(room, -1, dtype=np.int32)
    buckets = LEVELS * (full + 1)
    heads = np.full(buckets, -1, dtype=np.int32)
    tails = np.full(buckets, -1, dtype=np.int32)
    singles = np.zeros((full + 1, cells * cells), dtype=np.bool_)
    pairs = np.zeros((full + 1) * cells**4 // 64 + 1, dtype=np.uint64)
    table = np.zeros(1 << 20, dtype=np.uint64)
    grid = start.copy()
    pos = np.zeros(cells, dtype=np.int8)
    row = np.empty(compiled_board.MAX_MOVES, dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    ends = np.empty(suits, dtype=np.int64)
    options = np.empty(suits, dtype=np.int64)
    mov = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.uint64)
    atoms = np.empty(cells, dtype=np.int64)
    grids[0] = start
    parents[0] = -1
    h1, h2 = compiled_board.class_key(grid, suits, ranks, z1, z2, 0)
    kernel.insert(table, h1, h2)  # a line back to the start is not the start again
    first = full - compiled_board.prefixes(grid, suits, ranks, ends, 0)
    _push(heads, tails, links, first, 0)
    stored = 1
    keys = 1
    nodes = 0
    expanded = 0
    lowest = first
    while True:
        while lowest < buckets and heads[lowest] < 0:
            lowest += 1
        if lowest == buckets:
            break
        i = _pop(heads, tails, links, lowest)
        expanded += 1
        if expanded & 0x3FF == 1 and (stop[0] or (deadline > 0.0 and kernel._clock() > deadline)):
            break
        _load(grids, i, grid, pos)
        loose = looses[i]
        n = compiled_board.gen_moves(
            grid, pos, suits, ranks, perms, counts, row, scratch, loose, True
        )
        for m in range(n):
            move = row[m]
            source = int(pos[move & 0xFF])
            column = compiled_board.column_heads(grid, suits, ranks)
            compiled_board.play(grid, pos, suits, ranks, move)
            after = compiled_board.next_loose(grid, suits, ranks, move, loose, True)
            h1, h2 = compiled_board.class_key(grid, suits, ranks, z1, z2, after)
            nodes += 1
            new = kernel.insert(table, h1, h2)
            if new:
                keys += 1
                if 4 * keys > table.size:
                    table = kernel.grow(table)
            if new and not kernel.cut_node(
                grid, pos, suits, ranks, mov, places, options, True, -1, after
            ):
                score = compiled_board.prefixes(grid, suits, ranks, ends, after)
                if score == full:
                    return _line(parents, moves, i, move), nodes
                level = _novelty(grid, score, cells, atoms, singles, pairs)
                grids[stored] = grid
                looses[stored] = after
                parents[stored] = i
                moves[stored] = move
                bucket = (level - 1) * (full + 1) + full - score
                _push(heads, tails, links, bucket, stored)
                lowest = min(lowest, bucket)
                stored += 1
            compiled_board.unplay(grid, pos, suits, ranks, move, source, column)
            if nodes >= budget:
                return empty, nodes
    return empty, nodes
