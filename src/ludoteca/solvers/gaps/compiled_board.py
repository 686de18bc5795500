"""The board on flat arrays, compiled (Numba): what the search plays on.

Same model as :mod:`ludoteca.solvers.gaps.board` (codes, pool, class moves, layouts): int8
grids of ``suits * ranks`` cells and each card's cell, 128-bit class keys that do not depend
on the row order (each row's hash kept up to date by the two cells a move changes), class
moves packed in an int64 (card | target << 8 | layout << 16), playing and taking back a
move, the loose rows of a shut pool, and the order moves are tried in.
"""

from __future__ import annotations

# Numba compiles no generator expressions, so loops stay loops here.
# ruff: noqa: SIM110
from collections.abc import Callable
from itertools import permutations
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

Kernel = TypeVar("Kernel", bound=Callable[..., Any])


def lean(function: Kernel) -> Kernel:
    """``njit(cache=True)`` without Numba's reference counting, for compiled code that makes
    no array: it counted every array passed to a call or carried round a loop, with atomic
    operations that took about a quarter of the search's time (session 7 of 2026-11-25)."""
    options: dict[str, Any] = {"cache": True, "_nrt": False}
    return cast(Kernel, njit(**options)(function))


GAP = -1


POOL = -2


MAX_MOVES = 128


_MIX1 = np.uint64(0xBF58476D1CE4E5B9)


_MIX2 = np.uint64(0x94D049BB133111EB)


LOOSE_SALT = 0x2545F4914F6CDD1D
"""Added to the second half of the key of a class whose shut pool still has loose rows."""


def permutation_table(size: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """``table[k, i]`` is the i-th ordering of ``range(k)``; ``counts[k]`` how many there are."""
    table = np.zeros((size + 1, 24, size), dtype=np.int8)
    counts = np.zeros(size + 1, dtype=np.int64)
    for k in range(size + 1):
        orders = list(permutations(range(k)))
        counts[k] = len(orders)
        for i, order in enumerate(orders):
            table[k, i, :k] = order
    return table, counts


def arrays(grid: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """A board's grid as the kernels take it: the int8 grid, and each card's cell."""
    cells = np.array(grid, dtype=np.int8)
    pos = np.zeros(len(grid), dtype=np.int8)
    for cell, code in enumerate(grid):
        if code != GAP:
            pos[code] = cell
    return cells, pos


def zobrist(ranks: int, cells: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**63, size=(ranks, cells + 2), dtype=np.uint64) * np.uint64(2) + (
        rng.integers(0, 2, size=(ranks, cells + 2), dtype=np.uint64)
    )


@lean
def mix(value: np.uint64) -> np.uint64:
    value = (value ^ (value >> np.uint64(30))) * _MIX1
    value = (value ^ (value >> np.uint64(27))) * _MIX2
    return value ^ (value >> np.uint64(31))


@lean
def _pooled(code: int, ranks: int) -> bool:
    return code == GAP or code % ranks == 1


@lean
def _pool_free(grid: np.ndarray, suits: int, ranks: int) -> bool:
    for r in range(suits):
        if grid[r * ranks] == GAP:
            return True
    return False


@lean
def row_loose(loose: int, row: int) -> bool:
    return bool((loose >> row) & 1)


@lean
def class_key(
    grid: np.ndarray, suits: int, ranks: int, z1: np.ndarray, z2: np.ndarray, loose: int
) -> tuple[np.uint64, np.uint64]:
    """A 128-bit hash of the class, the same for every order of the rows. ``loose``: the
    rows of a shut pool whose 2s are not arranged yet (see :func:`next_loose`); their
    column-0 cells count as pool."""
    free = _pool_free(grid, suits, ranks)
    h1 = np.uint64(0)
    h2 = np.uint64(LOOSE_SALT) if loose else np.uint64(0)
    for r in range(suits):
        r1 = np.uint64(0)
        r2 = np.uint64(0)
        for c in range(ranks):
            code = grid[r * ranks + c]
            if c == 0 and ((free and _pooled(code, ranks)) or row_loose(loose, r)):
                code = POOL
            r1 ^= z1[c, code + 2]
            r2 ^= z2[c, code + 2]
        h1 += mix(r1)
        h2 += mix(r2 ^ np.uint64(0x5851F42D4C957F2D))
    return h1 | np.uint64(1), h2


@lean
def row_bodies(
    grid: np.ndarray, suits: int, ranks: int, z1: np.ndarray, z2: np.ndarray, out: np.ndarray
) -> None:
    """Each row's hash halves over columns 1 on (``out[2r]``, ``out[2r + 1]``); column 0
    joins in :func:`keyed`, since whether it counts as pool depends on the whole column."""
    for r in range(suits):
        b1 = np.uint64(0)
        b2 = np.uint64(0)
        for c in range(1, ranks):
            code = grid[r * ranks + c]
            b1 ^= z1[c, code + 2]
            b2 ^= z2[c, code + 2]
        out[2 * r] = b1
        out[2 * r + 1] = b2


@lean
def move_body(
    body: np.ndarray,
    card: int,
    source: int,
    target: int,
    ranks: int,
    z1: np.ndarray,
    z2: np.ndarray,
) -> None:
    """Update the row bodies for ``card`` leaving ``source`` for ``target`` (column-0
    rearrangements of a class move touch no body)."""
    col = source % ranks
    if col:
        r = source // ranks
        body[2 * r] ^= z1[col, card + 2] ^ z1[col, GAP + 2]
        body[2 * r + 1] ^= z2[col, card + 2] ^ z2[col, GAP + 2]
    col = target % ranks
    if col:
        r = target // ranks
        body[2 * r] ^= z1[col, GAP + 2] ^ z1[col, card + 2]
        body[2 * r + 1] ^= z2[col, GAP + 2] ^ z2[col, card + 2]


@lean
def keyed(
    grid: np.ndarray,
    body: np.ndarray,
    suits: int,
    ranks: int,
    z1: np.ndarray,
    z2: np.ndarray,
    loose: int,
) -> tuple[np.uint64, np.uint64]:
    """:func:`class_key` from the row bodies: the same key, 4 cells read instead of 52."""
    free = _pool_free(grid, suits, ranks)
    h1 = np.uint64(0)
    h2 = np.uint64(LOOSE_SALT) if loose else np.uint64(0)
    for r in range(suits):
        code = grid[r * ranks]
        if (free and _pooled(code, ranks)) or row_loose(loose, r):
            code = POOL
        h1 += mix(body[2 * r] ^ z1[0, code + 2])
        h2 += mix(body[2 * r + 1] ^ z2[0, code + 2] ^ np.uint64(0x5851F42D4C957F2D))
    return h1 | np.uint64(1), h2


@lean
def _run(grid: np.ndarray, cell: int, ranks: int) -> int:
    length = 1
    while cell % ranks < ranks - 1 and grid[cell + 1] == grid[cell] + 1:
        cell += 1
        length += 1
    return length


@lean
def prefixes(grid: np.ndarray, suits: int, ranks: int, out: np.ndarray, loose: int) -> int:
    """The most cards in sequence over the class's arrangements; ``out[r]`` is the cell right
    of row r's prefix (-1 when the row has none that a card could extend)."""
    free = _pool_free(grid, suits, ranks)
    total = 0
    if not free:
        unmatched = 0
        for r in range(suits):
            out[r] = -1
            head = grid[r * ranks]
            if row_loose(loose, r):
                # Any loose 2 may stand here: the one of a 3 in column 1 if that is loose.
                third = grid[r * ranks + 1]
                mate = third != GAP and third % ranks == 2
                if mate and loose_two(grid, third - 1, suits, ranks, loose):
                    length = 1 + _run(grid, r * ranks + 1, ranks)
                    total += length
                    out[r] = r * ranks + length
                else:
                    unmatched += 1
                    out[r] = r * ranks + 1
            elif head != GAP and head % ranks == 1:
                length = _run(grid, r * ranks, ranks)
                total += length
                out[r] = r * ranks + length
        return total + unmatched
    twos = 0
    rows = 0
    matched = 0
    for r in range(suits):
        out[r] = -1
        head = grid[r * ranks]
        if head != GAP and head % ranks == 1:
            twos += 1
        if not _pooled(head, ranks):
            continue
        rows += 1
        third = grid[r * ranks + 1]
        if third != GAP and third % ranks == 2 and _in_column0(grid, third - 1, suits, ranks):
            length = 1 + _run(grid, r * ranks + 1, ranks)
            total += length
            matched += 1
            out[r] = r * ranks + length
        else:
            out[r] = r * ranks + 1
    return total + min(rows - matched, twos - matched)


@lean
def _in_column0(grid: np.ndarray, code: int, suits: int, ranks: int) -> bool:
    for r in range(suits):
        if grid[r * ranks] == code:
            return True
    return False


@lean
def loose_two(grid: np.ndarray, code: int, suits: int, ranks: int, loose: int) -> bool:
    """Is the 2 ``code`` in column 0 of a loose row?"""
    for r in range(suits):
        if grid[r * ranks] == code:
            return row_loose(loose, r)
    return False


@lean
def next_loose(grid: np.ndarray, suits: int, ranks: int, move: int, loose: int, lazy: bool) -> int:
    """The loose rows after ``move`` (just played on ``grid``) from a class with ``loose``.

    With ``lazy``, a 2 that fills the last gap of column 0 does not fix where the pool's 2s
    stand: every pool row becomes *loose*, one class for all the arrangements the player
    could have chosen then. The rows are fixed one at a time, as it comes to matter: a 3
    that enters column 1 of a loose row fixes its 2 there. A free pool has no loose rows
    (its 2s can be rearranged anyway), and one loose row is no choice."""
    if not lazy or _pool_free(grid, suits, ranks):
        return 0
    card = move & 0xFF
    target = (move >> 8) & 0xFF
    if card % ranks == 1:
        # The 2 that shut the pool: every pool row is loose.
        loose = 0
        for r in range(suits):
            head = grid[r * ranks]
            if head != GAP and head % ranks == 1:
                loose |= 1 << r
    elif card % ranks == 2 and target % ranks == 1:
        loose &= ~(1 << (target // ranks))
    if loose & (loose - 1) == 0:
        return 0
    return loose


@lean
def gen_moves(
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    perms: np.ndarray,
    counts: np.ndarray,
    out: np.ndarray,
    scratch: np.ndarray,
    loose: int,
    lazy: bool,
) -> int:
    """The class moves (see board.Board.moves), in the same order. ``scratch``: 8 int64.

    With ``lazy`` (see :func:`next_loose`), a 2 that fills the pool's last gap is one move,
    not one per arrangement, and a gap in column 1 of a loose row takes the 3 of any loose
    2."""
    n = 0
    free = _pool_free(grid, suits, ranks)
    twos = scratch[:4]
    rows = scratch[4:]
    ntwos = 0
    nrows = 0
    ngaps = 0
    first_gap = -1
    for r in range(suits):
        head = grid[r * ranks]
        if head == GAP:
            rows[nrows] = r
            nrows += 1
            ngaps += 1
            if first_gap < 0:
                first_gap = r
        elif head % ranks == 1 and (free or row_loose(loose, r)):
            rows[nrows] = r
            nrows += 1
            twos[ntwos] = head
            ntwos += 1
    if free:
        for s in range(suits):
            two = s * ranks + 1
            if pos[two] % ranks == 0:
                continue
            target = first_gap * ranks
            if ngaps > 1 or lazy:
                out[n] = two | (target << 8)
                n += 1
                continue
            k = ntwos + 1
            for i in range(counts[k]):
                layout = np.int64(0)
                for r in range(suits):
                    layout |= (np.int64(grid[r * ranks]) + 1) << (8 * r)
                for j in range(k):
                    pick = perms[k, i, j]
                    code = two if pick == ntwos else twos[pick]
                    row = rows[j]
                    layout &= ~(0xFF << (8 * row))
                    layout |= (code + 1) << (8 * row)
                out[n] = two | (target << 8) | (layout << 16)
                n += 1
    for r in range(suits):
        # (Row and column from the loops, not from a division per cell.)
        for col in range(1, ranks):
            cell = r * ranks + col
            if grid[cell] != GAP:
                continue
            left = grid[cell - 1]
            if col == 1 and ((free and _pooled(left, ranks)) or row_loose(loose, r)):
                for t in range(ntwos):
                    out[n] = (twos[t] + 1) | (cell << 8)
                    n += 1
            elif left != GAP and left % ranks != ranks - 1:
                out[n] = (left + 1) | (cell << 8)
                n += 1
    return n


@lean
def _shift(grid: np.ndarray, pos: np.ndarray, card: int, target: int) -> None:
    grid[pos[card]] = GAP
    grid[target] = card
    pos[card] = target


@lean
def play(grid: np.ndarray, pos: np.ndarray, suits: int, ranks: int, move: int) -> None:
    card = move & 0xFF
    target = (move >> 8) & 0xFF
    layout = move >> 16
    if layout:
        grid[pos[card]] = GAP
        for r in range(suits):
            code = ((layout >> (8 * r)) & 0xFF) - 1
            grid[r * ranks] = code
            pos[code] = r * ranks
        return
    if target % ranks == 1 and card % ranks == 2:
        two = card - 1
        head = target - 1
        here = grid[head]
        if here == GAP:
            _shift(grid, pos, two, head)
        elif here != two:
            there = pos[two]
            grid[head] = two
            grid[there] = here
            pos[two] = head
            pos[here] = there
    _shift(grid, pos, card, target)


EXTENSION_KEY = 3 * 4096
"""The least sort key :func:`order_moves` gives a move that extends a row's sequence."""


@lean
def order_moves(
    moves: np.ndarray,
    n: int,
    ends: np.ndarray,
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    salt: np.uint64,
    keys: np.ndarray,
    twos_last: bool,
) -> None:
    """In-sequence extensions first, then 2s into column 0, then moves that leave a gap some
    card can still fill, then those that leave a dead gap (stable). With
    ``twos_last`` the 2s come last instead (with the moves that leave a dead gap): the
    search keeps column 0 open as long as it can and picks the rows' suits late. The order
    only changes how soon a win is found, never what is decided."""
    for i in range(n):
        card = moves[i] & 0xFF
        target = (moves[i] >> 8) & 0xFF
        source = pos[card]
        left = grid[source - 1] if source % ranks else 0
        keys[i] = 0 if left == GAP or (left >= 0 and left % ranks == ranks - 1) else 1
        if card % ranks == 1:
            keys[i] = 0 if twos_last else 2
        for r in range(suits):
            if ends[r] == target:
                keys[i] = EXTENSION_KEY // 4096
        # The salt picks the order among equals: a restart with another salt tries other lines.
        keys[i] = keys[i] * 4096 + np.int64(mix(np.uint64(moves[i]) ^ salt) >> np.uint64(52))
    for i in range(1, n):
        key = keys[i]
        move = moves[i]
        j = i - 1
        while j >= 0 and keys[j] < key:
            keys[j + 1] = keys[j]
            moves[j + 1] = moves[j]
            j -= 1
        keys[j + 1] = key
        moves[j + 1] = move


SLEEP_COLUMN0 = 1 << 40
"""Marks a sleep-set entry whose card leaves column 0 (see :func:`sleeper`)."""

SLEEP_MOVE = SLEEP_COLUMN0 - 1
"""The move of a sleep-set entry: ``entry & SLEEP_MOVE``."""


@lean
def sleeper(move: int, source: int, ranks: int) -> int:
    """The sleep-set entry of ``move``, whose card stands in cell ``source`` now, or -1 when
    the move may not sleep (see ``kernel.search``, sleep sets). Moves that may sleep: any
    move of the reduced search but a class move with an arrangement of 2s (none there) and
    a 3 entering column 1 (of a pool or loose row it is a class move of any pool 2's 3, and
    it fixes a loose row). A card leaving column 0 may sleep, marked: it may free the pool,
    which moves the pool's first gap, which a 2's move names."""
    card = move & 0xFF
    if move >> 16 or (card % ranks == 2 and (move >> 8) % ranks == 1):
        return -1
    return move | (SLEEP_COLUMN0 if source % ranks == 0 else 0)


@lean
def commute(a: int, b: int, ranks: int) -> bool:
    """Do two moves that may sleep (:func:`sleeper` entries), both legal at a node, commute:
    each stays legal after the other, as the same move, and both orders reach the same
    class? They fill different gaps, and neither card is the other's predecessor (a card
    leaving the cell left of the other's gap makes that move illegal). Two 2s entering the
    pool name its first gap, which the first one fills, and so does a card leaving column
    0 (it may open a gap before it): those pairs do not commute. Nothing else a move
    changes touches the other: a card enters a gap right of its predecessor, which the
    other move neither vacates nor fills, and leaves a cell that was no gap before."""
    ca = a & 0xFF
    cb = b & 0xFF
    if (a >> 8) & 0xFF == (b >> 8) & 0xFF:
        return False
    if ca == cb or ca + 1 == cb or cb + 1 == ca:
        return False
    if ca % ranks == 1 and (cb % ranks == 1 or b & SLEEP_COLUMN0):
        return False
    return not (cb % ranks == 1 and a & SLEEP_COLUMN0)


@lean
def column_heads(grid: np.ndarray, suits: int, ranks: int) -> np.int64:
    """Column 0 packed as in a layout move: what :func:`unplay` needs besides the source."""
    layout = np.int64(0)
    for r in range(suits):
        layout |= (np.int64(grid[r * ranks]) + 1) << (8 * r)
    return layout


@lean
def unplay(
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    move: int,
    source: int,
    heads: np.int64,
) -> None:
    """Take back :func:`play`: the card returns to ``source`` and column 0 to ``heads``
    (a move changes nothing else: any 2 it brings along is rearranged within column 0)."""
    card = move & 0xFF
    target = (move >> 8) & 0xFF
    grid[target] = GAP
    for r in range(suits):
        code = ((heads >> (8 * r)) & 0xFF) - 1
        grid[r * ranks] = code
        if code != GAP:
            pos[code] = r * ranks
    grid[source] = card
    pos[card] = source
