"""Numba kernels for Mosaico: legal cells, dead-end pruning, the exact search and the player.

The mosaic is a flat ``int64`` array over a padded 13 x 13 window: cell ``row,col`` (both in
``-5..5``) is ``(row + 6) * 13 + col + 6``; it holds a tile index (``Tile.index``, 0..35),
``EMPTY`` or, on the padding, ``OUT``. ``box`` is the figure's top, bottom, left, right.
Sets of tiles are 36-bit masks; ``match[t]`` is the mask of tiles that match tile ``t``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

PAD = 13
OFFSET = 6
REACH = 5
EMPTY = -1
OUT = -2
STEPS = np.array([-PAD, PAD, -1, 1], dtype=np.int64)
SET_ASIDE = -1

WIN, LOSS, UNKNOWN = 1, 0, 2


@njit(cache=True)
def cell_index(row: int, col: int) -> int:
    return (row + OFFSET) * PAD + col + OFFSET


@njit(cache=True)
def _accepts(grid: np.ndarray, cell: int, tile: int, match: np.ndarray, difficile: bool) -> bool:
    """Seed's placement rule at an empty cell (difficile: 3 or 4 neighbours need 2 matches)."""
    touching = 0
    matching = 0
    for step in STEPS:
        other = grid[cell + step]
        if other >= 0:
            touching += 1
            if (match[other] >> tile) & 1:
                matching += 1
    if matching == 0:
        return False
    return not difficile or touching < 3 or matching >= 2


@njit(cache=True)
def legal_cells(
    grid: np.ndarray,
    box: np.ndarray,
    tile: int,
    match: np.ndarray,
    difficile: bool,
    out: np.ndarray,
) -> int:
    """Write the cells where ``tile`` may go into ``out``; return how many.

    Only cells that keep the figure within 6 x 6 are looked at: rows from bottom - 5 to
    top + 5, columns from right - 5 to left + 5.
    """
    count = 0
    for row in range(box[1] - REACH, box[0] + REACH + 1):
        for col in range(box[3] - REACH, box[2] + REACH + 1):
            cell = cell_index(row, col)
            if grid[cell] == EMPTY and _accepts(grid, cell, tile, match, difficile):
                out[count] = cell
                count += 1
    return count


@njit(cache=True)
def _augment(cell: int, masks: np.ndarray, owner: np.ndarray, seen: np.ndarray) -> bool:
    """Kuhn's augmenting path: give ``cell`` a tile, moving other cells' tiles if need be."""
    options = masks[cell] & ~seen[0]
    while options:
        low = options & -options
        tile = 0
        while (low >> tile) != 1:
            tile += 1
        options ^= low
        seen[0] |= low
        if owner[tile] < 0 or _augment(owner[tile], masks, owner, seen):
            owner[tile] = cell
            return True
    return False


@njit(cache=True)
def closed_cell_tiles(
    grid: np.ndarray, box: np.ndarray, remaining: int, match: np.ndarray, difficile: bool
) -> np.ndarray:
    """For each *closed* empty cell, the mask of remaining tiles that could ever fill it.

    An empty cell inside the bounding box lies in every possible frame, so it must be
    filled; once each neighbour is a tile or outside every frame, its neighbours are final.
    """
    top, bottom, left, right = box[0], box[1], box[2], box[3]
    masks = np.empty(36, dtype=np.int64)
    count = 0
    around = np.empty(4, dtype=np.int64)
    for row in range(top, bottom + 1):
        for col in range(left, right + 1):
            cell = cell_index(row, col)
            if grid[cell] != EMPTY:
                continue
            touching = 0
            closed = True
            for step in STEPS:
                other = grid[cell + step]
                if other >= 0:
                    around[touching] = other
                    touching += 1
                else:
                    near = cell + step
                    near_row = near // PAD - OFFSET
                    near_col = near % PAD - OFFSET
                    if bottom - REACH <= near_row <= top + REACH and (
                        right - REACH <= near_col <= left + REACH
                    ):
                        closed = False
                        break
            if not closed:
                continue
            fits = 0
            if difficile and touching >= 3:
                for i in range(touching):
                    for j in range(i + 1, touching):
                        fits |= match[around[i]] & match[around[j]]
            else:
                for i in range(touching):
                    fits |= match[around[i]]
            masks[count] = fits & remaining
            count += 1
    return masks[:count]


@njit(cache=True)
def feasible(
    grid: np.ndarray, box: np.ndarray, remaining: int, match: np.ndarray, difficile: bool
) -> bool:
    """False when some closed cells cannot each get a different remaining tile (a dead end)."""
    masks = closed_cell_tiles(grid, box, remaining, match, difficile)
    for mask in masks:
        if mask == 0:
            return False
    if len(masks) <= 1:
        return True
    owner = np.full(36, -1, dtype=np.int64)
    seen = np.zeros(1, dtype=np.int64)
    for cell in range(len(masks)):
        seen[0] = 0
        if not _augment(cell, masks, owner, seen):
            return False
    return True


@njit(cache=True)
def _bit(tile: int) -> int:
    return int(np.int64(1) << tile)


@njit(cache=True)
def _count_bits(mask: int) -> int:
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def _place(grid: np.ndarray, box: np.ndarray, cell: int, tile: int, saved: np.ndarray) -> None:
    saved[:] = box
    grid[cell] = tile
    row = cell // PAD - OFFSET
    col = cell % PAD - OFFSET
    box[0] = min(box[0], row)
    box[1] = max(box[1], row)
    box[2] = min(box[2], col)
    box[3] = max(box[3], col)


@njit(cache=True)
def _neighbours(grid: np.ndarray, cell: int) -> int:
    count = 0
    for step in STEPS:
        if grid[cell + step] >= 0:
            count += 1
    return count


@njit(cache=True)
def _order(grid: np.ndarray, cells: np.ndarray, count: int) -> None:
    """Cells with more neighbours first: filling holes early keeps the figure compact."""
    keys = np.empty(count, dtype=np.int64)
    for i in range(count):
        keys[i] = _neighbours(grid, cells[i])
    for i in range(1, count):
        key, cell = keys[i], cells[i]
        j = i - 1
        while j >= 0 and keys[j] < key:
            keys[j + 1], cells[j + 1] = keys[j], cells[j]
            j -= 1
        keys[j + 1], cells[j + 1] = key, cell


@njit(cache=True)
def pile_can_unwind(
    grid: np.ndarray,
    box: np.ndarray,
    aside: np.ndarray,
    n_aside: int,
    draw: np.ndarray,
    drawn: int,
    match: np.ndarray,
    difficile: bool,
) -> bool:
    """False when a set-aside tile can never come back, so the deal is lost.

    A tile that fits nowhere now needs a new neighbour that matches it (the frame only
    shrinks, and a tile that does not match it adds nothing), and the only tiles placed
    before it are those still to be drawn and those above it on the pile.
    """
    before = 0
    for i in range(drawn, len(draw)):
        before |= _bit(draw[i])
    cells = np.empty(PAD * PAD, dtype=np.int64)
    for i in range(n_aside - 1, -1, -1):
        tile = aside[i]
        if match[tile] & before == 0 and not legal_cells(grid, box, tile, match, difficile, cells):
            return False
        before |= _bit(tile)
    return True


@njit(cache=True)
def search(
    grid: np.ndarray,
    box: np.ndarray,
    aside: np.ndarray,
    n_aside: int,
    draw: np.ndarray,
    drawn: int,
    remaining: int,
    match: np.ndarray,
    difficile: bool,
    budget: np.ndarray,
    path: np.ndarray,
    depth: int,
    weights: np.ndarray,
) -> int:
    """Exact depth-first search with the draw order known: WIN, LOSS or UNKNOWN.

    ``budget[0]`` counts the nodes left (UNKNOWN when it runs out), ``budget[1]`` the nodes
    visited. ``path[depth:]`` gets the winning line (cells, SET_ASIDE for a set-aside move).
    Cells are tried best first by the player's score with ``weights``, or, when ``weights``
    is empty, by their number of neighbours: the two orders get stuck on different deals.
    """
    if budget[0] <= 0:
        return UNKNOWN
    budget[0] -= 1
    budget[1] += 1
    if not pile_can_unwind(grid, box, aside, n_aside, draw, drawn, match, difficile):
        return LOSS
    cells = np.empty(PAD * PAD, dtype=np.int64)
    count = 0
    from_aside = False
    if n_aside > 0:
        tile = aside[n_aside - 1]
        count = legal_cells(grid, box, tile, match, difficile, cells)
        from_aside = count > 0
    if not from_aside:
        if drawn == len(draw):
            return WIN if n_aside == 0 else LOSS
        tile = draw[drawn]
        count = legal_cells(grid, box, tile, match, difficile, cells)
        if count == 0:
            aside[n_aside] = tile
            path[depth] = SET_ASIDE
            return search(
                grid, box, aside, n_aside + 1, draw, drawn + 1, remaining, match,
                difficile, budget, path, depth + 1, weights,
            )  # fmt: skip
    if len(weights):
        tried = scores(grid, box, tile, remaining, match, difficile, weights, cells, count)
        cells[:count] = cells[np.argsort(-tried, kind="mergesort")]
    else:
        _order(grid, cells, count)
    saved = np.empty(4, dtype=np.int64)
    left = remaining & ~_bit(tile)
    result = LOSS
    for i in range(count):
        _place(grid, box, cells[i], tile, saved)
        if feasible(grid, box, left, match, difficile):
            if from_aside:
                result = search(
                    grid, box, aside, n_aside - 1, draw, drawn, left, match, difficile,
                    budget, path, depth + 1, weights,
                )  # fmt: skip
                aside[n_aside - 1] = tile
            else:
                result = search(
                    grid, box, aside, n_aside, draw, drawn + 1, left, match, difficile,
                    budget, path, depth + 1, weights,
                )  # fmt: skip
        grid[cells[i]] = EMPTY
        box[:] = saved
        if result == WIN:
            path[depth] = cells[i]
            return WIN
        if result == UNKNOWN:
            return UNKNOWN
    return LOSS


@njit(cache=True)
def _score(
    grid: np.ndarray,
    box: np.ndarray,
    cell: int,
    remaining: int,
    match: np.ndarray,
    difficile: bool,
    weights: np.ndarray,
) -> float:
    """How promising the mosaic looks with a tile just placed at ``cell`` (higher is better).

    It sees only what a player sees: the mosaic and the set of tiles still to place. Dead
    ends score -inf. Each remaining tile scores by the cells it could take now (a tile with
    nowhere to go is set aside and may block the pile), and the placed cell scores by its
    neighbours: in the basic game a cell with many neighbours is easy to fill later, so it
    is worth keeping for a tile that fits nowhere else.
    """
    if not feasible(grid, box, remaining, match, difficile):
        return -np.inf
    score = weights[3] * _neighbours(grid, cell)
    cells = np.empty(PAD * PAD, dtype=np.int64)
    for tile in range(36):
        if (remaining >> tile) & 1:
            spots = legal_cells(grid, box, tile, match, difficile, cells)
            if spots == 0:
                score -= weights[0]
            else:
                score += weights[2] * min(spots, 6) - weights[1] / spots
    return float(score)


@njit(cache=True)
def scores(
    grid: np.ndarray,
    box: np.ndarray,
    tile: int,
    remaining: int,
    match: np.ndarray,
    difficile: bool,
    weights: np.ndarray,
    cells: np.ndarray,
    count: int,
) -> np.ndarray:
    """:func:`_score` of each of the ``count`` cells for ``tile`` (``remaining`` holds it)."""
    out = np.empty(count)
    saved = np.empty(4, dtype=np.int64)
    left = remaining & ~_bit(tile)
    for i in range(count):
        _place(grid, box, cells[i], tile, saved)
        out[i] = _score(grid, box, cells[i], left, match, difficile, weights)
        grid[cells[i]] = EMPTY
        box[:] = saved
    return out


@njit(cache=True)
def greedy_cell(
    grid: np.ndarray,
    box: np.ndarray,
    tile: int,
    remaining: int,
    match: np.ndarray,
    difficile: bool,
    weights: np.ndarray,
) -> int:
    """The best-scoring cell for ``tile`` (the first in row-major order on a tie)."""
    cells = np.empty(PAD * PAD, dtype=np.int64)
    count = legal_cells(grid, box, tile, match, difficile, cells)
    if count == 0:
        return SET_ASIDE
    best = np.argmax(scores(grid, box, tile, remaining, match, difficile, weights, cells, count))
    return int(cells[best])


@njit(cache=True)
def rollout(
    grid: np.ndarray,
    box: np.ndarray,
    aside: np.ndarray,
    n_aside: int,
    draw: np.ndarray,
    remaining: int,
    match: np.ndarray,
    difficile: bool,
    weights: np.ndarray,
) -> bool:
    """Play ``draw`` out with :func:`greedy_cell` on copies; True if every tile is placed."""
    grid = grid.copy()
    box = box.copy()
    aside = aside.copy()
    cells = np.empty(PAD * PAD, dtype=np.int64)
    saved = np.empty(4, dtype=np.int64)
    drawn = 0
    while True:
        from_aside = False
        if n_aside > 0:
            tile = aside[n_aside - 1]
            from_aside = legal_cells(grid, box, tile, match, difficile, cells) > 0
        if not from_aside:
            if drawn == len(draw):
                return n_aside == 0
            tile = draw[drawn]
            drawn += 1
        cell = greedy_cell(grid, box, tile, remaining, match, difficile, weights)
        if cell == SET_ASIDE:
            aside[n_aside] = tile
            n_aside += 1
            continue
        if from_aside:
            n_aside -= 1
        _place(grid, box, cell, tile, saved)
        remaining &= ~_bit(tile)


@njit(cache=True)
def choose(
    grid: np.ndarray,
    box: np.ndarray,
    tile: int,
    aside: np.ndarray,
    n_aside: int,
    unseen: int,
    match: np.ndarray,
    difficile: bool,
    weights: np.ndarray,
    shortlist: int,
    samples: int,
    seed: int,
) -> int:
    """The player's cell for ``tile`` (SET_ASIDE if it fits nowhere).

    The player knows the mosaic, the set-aside pile below ``tile`` (``aside[:n_aside]``) and
    the *set* of unseen tiles, not their order. The ``shortlist`` best-scoring cells are each
    tried against the same ``samples`` random orders of the unseen tiles, played out
    greedily; the cell that wins most often is chosen (the best score on a tie).
    """
    cells = np.empty(PAD * PAD, dtype=np.int64)
    count = legal_cells(grid, box, tile, match, difficile, cells)
    if count == 0:
        return SET_ASIDE
    remaining = unseen | _bit(tile)
    for i in range(n_aside):
        remaining |= _bit(aside[i])
    ranked = np.argsort(
        -scores(grid, box, tile, remaining, match, difficile, weights, cells, count),
        kind="mergesort",
    )
    if count == 1 or unseen == 0 or samples == 0:
        return int(cells[ranked[0]])
    np.random.seed(seed)
    pool = np.empty(_count_bits(unseen), dtype=np.int64)
    filled = 0
    for t in range(36):
        if (unseen >> t) & 1:
            pool[filled] = t
            filled += 1
    orders = np.empty((samples, len(pool)), dtype=np.int64)
    for i in range(samples):
        orders[i] = np.random.permutation(pool)
    saved = np.empty(4, dtype=np.int64)
    left = remaining & ~_bit(tile)
    best = cells[ranked[0]]
    best_wins = -1
    for rank in range(min(shortlist, count)):
        cell = cells[ranked[rank]]
        _place(grid, box, cell, tile, saved)
        wins = 0
        if feasible(grid, box, left, match, difficile):
            for i in range(samples):
                wins += rollout(
                    grid, box, aside, n_aside, orders[i], left, match, difficile, weights
                )
        grid[cell] = EMPTY
        box[:] = saved
        if wins > best_wins:
            best, best_wins = cell, wins
    return int(best)
