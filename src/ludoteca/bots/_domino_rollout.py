"""A compiled random playout of Domino della Frutta for the strong bot's search.

The engine (``ludoteca.games.domino``) is the reference; this is its fast path for the
thousands of playouts a decision needs, on a compact array state. A differential test keeps
the placements found here equal to the engine's.

Array state: ``grid[col, row + ROW_OFFSET]`` holds -1 (empty), a tile index 0..35 (face up) or
``BLOCKED_BASE + index`` (face down); columns 0 and 7 stay empty as sentinels. ``hands`` is a
0/1 matrix (player, tile index); ``aside`` lists the set-aside tile indices, next first.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.games.domino import DominoState

ROW_OFFSET = 40
ROWS = 2 * ROW_OFFSET + 1
BLOCKED_BASE = 100
EMPTY = -1

IntArray = npt.NDArray[np.int64]


def encode(state: DominoState) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """(grid, hands, aside, flags) for a state; flags = [to, drawn or -1, square_ban, out...]."""
    grid = np.full((8, ROWS), EMPTY, dtype=np.int64)
    for (col, row), tile, down in state.table.tiles():
        grid[col, row + ROW_OFFSET] = tile.index + (BLOCKED_BASE if down else 0)
    hands = np.zeros((state.players, 36), dtype=np.int64)
    for player, hand in enumerate(state.hands):
        for tile in hand:
            hands[player, tile.index] = 1
    aside = np.array([t.index for t in state.aside], dtype=np.int64)
    drawn = state.drawn.index if state.drawn is not None else -1
    flags = np.array(
        [state.to, drawn, int(state.params.square_ban), *map(int, state.out)], dtype=np.int64
    )
    return grid, hands, aside, flags


@njit(cache=True)
def _fits(grid: IntArray, col: int, row: int, fruit: int, square_ban: int) -> bool:
    """Direct rules check of one cell (row already offset); mirrors ``Table.why_not``."""
    if grid[col, row] != EMPTY:
        return False
    up, down = grid[col, row - 1], grid[col, row + 1]
    left, right = grid[col - 1, row], grid[col + 1, row]
    if up >= BLOCKED_BASE or down >= BLOCKED_BASE or left >= BLOCKED_BASE:
        return False
    if right >= BLOCKED_BASE:
        return False
    if up == EMPTY and down == EMPTY and left == EMPTY and right == EMPTY:
        return False
    if left != EMPTY and left // 6 != fruit:
        return False
    if right != EMPTY and right // 6 != fruit:
        return False
    if square_ban:
        for dc in (-1, 1):
            for dr in (-1, 1):
                if (
                    grid[col + dc, row] != EMPTY
                    and grid[col, row + dr] != EMPTY
                    and grid[col + dc, row + dr] != EMPTY
                ):
                    return False
    return True


@njit(cache=True)
def _row_span(grid: IntArray) -> tuple[int, int]:
    """The first and last grid rows holding a tile, as (lo, hi); (ROWS, -1) when empty."""
    lo, hi = ROWS, -1
    for col in range(1, 7):
        for row in range(ROWS):
            if grid[col, row] != EMPTY:
                lo, hi = min(lo, row), max(hi, row)
    return lo, hi


@njit(cache=True)
def _collect(
    grid: IntArray, tiles: IntArray, square_ban: int, lo: int, hi: int, found: IntArray
) -> int:
    """Write every legal (tile index, grid row) into ``found``; return how many."""
    count = 0
    for tile in tiles:
        if hi < 0:  # the empty table: the first tile goes to row 0
            found[count, 0], found[count, 1] = tile, ROW_OFFSET
            count += 1
            continue
        for row in range(lo - 1, hi + 2):
            if _fits(grid, tile % 6 + 1, row, tile // 6, square_ban):
                found[count, 0], found[count, 1] = tile, row
                count += 1
    return count


@njit(cache=True)
def placements(grid: IntArray, tiles: IntArray, square_ban: int) -> IntArray:
    """Every legal (tile index, row) for the given tile indices, as an (n, 2) array."""
    lo, hi = _row_span(grid)
    found = np.empty((36 * ROWS, 2), dtype=np.int64)
    count = _collect(grid, tiles, square_ban, lo, hi, found)
    result = found[:count].copy()
    result[:, 1] -= ROW_OFFSET
    return result


@njit(cache=True)
def rollout(
    grid: IntArray, hands: IntArray, aside: IntArray, flags: IntArray, seed: int
) -> IntArray:
    """Play random placements to the end (stuck: draw, else go out); tiles left per player.

    Like the engine's rules without the special move and open play, which playouts skip.
    """
    np.random.seed(seed)
    players = hands.shape[0]
    to, drawn, square_ban = flags[0], flags[1], flags[2]
    out = flags[3:].copy()
    counts: IntArray = hands.sum(axis=1)
    next_aside = 0
    lo, hi = _row_span(grid)
    found = np.empty((36 * ROWS, 2), dtype=np.int64)
    while True:
        tiles = np.array([drawn]) if drawn >= 0 else np.nonzero(hands[to])[0]
        options = _collect(grid, tiles, square_ban, lo, hi, found)
        if options > 0:
            pick = np.random.randint(options)
            tile, row = found[pick, 0], found[pick, 1]
            grid[tile % 6 + 1, row] = tile
            lo, hi = min(lo, row), max(hi, row)
            hands[to, tile] = 0
            counts[to] -= 1
            if counts[to] == 0:
                return counts
        elif drawn < 0 and next_aside < aside.shape[0]:
            drawn = aside[next_aside]
            next_aside += 1
            hands[to, drawn] = 1
            counts[to] += 1
            continue  # the same player places the drawn tile if it fits
        elif drawn < 0:
            out[to] = 1
        drawn = -1
        if out.sum() == players:
            return counts
        for step in range(1, players + 1):
            if out[(to + step) % players] == 0:
                to = (to + step) % players
                break
