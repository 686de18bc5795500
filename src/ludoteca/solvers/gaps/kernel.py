"""The compiled search (Numba): the reference solver's class search on flat int8 arrays.

Same board model as :mod:`ludoteca.solvers.gaps.board` (codes, pool, class moves, layouts),
with a transposition table of 128-bit hashed class keys that do not depend on the row order,
an explicit depth-first stack, and move ordering that tries in-sequence extensions first.
A move is packed in an int64: card | target << 8 | layout << 16.
"""

from __future__ import annotations

import time

# Numba compiles no generator expressions, so loops stay loops here.
# ruff: noqa: SIM110
from itertools import permutations

import numpy as np
from numba import njit, objmode

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


@njit(cache=True)
def _clock() -> float:
    with objmode(now="float64"):
        now = time.perf_counter()
    return now


@njit(cache=True)
def _mix(value: np.uint64) -> np.uint64:
    value = (value ^ (value >> np.uint64(30))) * _MIX1
    value = (value ^ (value >> np.uint64(27))) * _MIX2
    return value ^ (value >> np.uint64(31))


@njit(cache=True)
def _pooled(code: int, ranks: int) -> bool:
    return code == GAP or code % ranks == 1


@njit(cache=True)
def _pool_free(grid: np.ndarray, suits: int, ranks: int) -> bool:
    for r in range(suits):
        if grid[r * ranks] == GAP:
            return True
    return False


@njit(cache=True)
def _loose(loose: int, row: int) -> bool:
    return bool((loose >> row) & 1)


@njit(cache=True)
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
            if c == 0 and ((free and _pooled(code, ranks)) or _loose(loose, r)):
                code = POOL
            r1 ^= z1[c, code + 2]
            r2 ^= z2[c, code + 2]
        h1 += _mix(r1)
        h2 += _mix(r2 ^ np.uint64(0x5851F42D4C957F2D))
    return h1 | np.uint64(1), h2


@njit(cache=True)
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


@njit(cache=True)
def _move_body(
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


@njit(cache=True)
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
        if (free and _pooled(code, ranks)) or _loose(loose, r):
            code = POOL
        h1 += _mix(body[2 * r] ^ z1[0, code + 2])
        h2 += _mix(body[2 * r + 1] ^ z2[0, code + 2] ^ np.uint64(0x5851F42D4C957F2D))
    return h1 | np.uint64(1), h2


@njit(cache=True)
def _run(grid: np.ndarray, cell: int, ranks: int) -> int:
    length = 1
    while cell % ranks < ranks - 1 and grid[cell + 1] == grid[cell] + 1:
        cell += 1
        length += 1
    return length


@njit(cache=True)
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
            if _loose(loose, r):
                # Any loose 2 may stand here: the one of a 3 in column 1 if that is loose.
                third = grid[r * ranks + 1]
                mate = third != GAP and third % ranks == 2
                if mate and _loose_two(grid, third - 1, suits, ranks, loose):
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


@njit(cache=True)
def _in_column0(grid: np.ndarray, code: int, suits: int, ranks: int) -> bool:
    for r in range(suits):
        if grid[r * ranks] == code:
            return True
    return False


@njit(cache=True)
def _loose_two(grid: np.ndarray, code: int, suits: int, ranks: int, loose: int) -> bool:
    """Is the 2 ``code`` in column 0 of a loose row?"""
    for r in range(suits):
        if grid[r * ranks] == code:
            return _loose(loose, r)
    return False


@njit(cache=True)
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


@njit(cache=True)
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
        elif head % ranks == 1 and (free or _loose(loose, r)):
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
    for cell in range(suits * ranks):
        col = cell % ranks
        if grid[cell] != GAP or col == 0:
            continue
        left = grid[cell - 1]
        if col == 1 and ((free and _pooled(left, ranks)) or _loose(loose, cell // ranks)):
            for t in range(ntwos):
                out[n] = (twos[t] + 1) | (cell << 8)
                n += 1
        elif left != GAP and left % ranks != ranks - 1:
            out[n] = (left + 1) | (cell << 8)
            n += 1
    return n


@njit(cache=True)
def _shift(grid: np.ndarray, pos: np.ndarray, card: int, target: int) -> None:
    grid[pos[card]] = GAP
    grid[target] = card
    pos[card] = target


@njit(cache=True)
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


@njit(cache=True)
def _order(
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
                keys[i] = 3
        # The salt picks the order among equals: a restart with another salt tries other lines.
        keys[i] = keys[i] * 4096 + np.int64(_mix(np.uint64(moves[i]) ^ salt) >> np.uint64(52))
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


@njit(cache=True)
def _probe(table: np.ndarray, h1: np.uint64, h2: np.uint64) -> np.int64:
    """The slot holding the key, or ``-1 - slot`` of the empty slot where it would go. Slot i
    holds the two halves of a key at ``table[2i]`` and ``table[2i + 1]``, side by side: one
    cache line per probe."""
    mask = np.uint64(table.size // 2 - 1)
    i = h1 & mask
    while table[2 * i] != 0:
        if table[2 * i] == h1 and table[2 * i + 1] == h2:
            return np.int64(i)
        i = (i + np.uint64(1)) & mask
    return -1 - np.int64(i)


@njit(cache=True)
def _insert(table: np.ndarray, h1: np.uint64, h2: np.uint64) -> bool:
    """Add a key; False if it was there already."""
    slot = _probe(table, h1, h2)
    if slot >= 0:
        return False
    _store(table, -1 - slot, h1, h2)
    return True


@njit(cache=True)
def _store(table: np.ndarray, slot: np.int64, h1: np.uint64, h2: np.uint64) -> None:
    table[2 * slot] = h1
    table[2 * slot + 1] = h2


@njit(cache=True)
def _grow(table: np.ndarray) -> np.ndarray:
    bigger = np.zeros(table.size * 2, dtype=np.uint64)
    carry(table, bigger)
    return bigger


@njit(cache=True)
def carry(table: np.ndarray, into: np.ndarray) -> int:
    """Put every key of ``table`` into the table ``into`` (which must have room for them);
    returns how many were new there."""
    added = 0
    for i in range(table.size // 2):
        if table[2 * i] != 0 and _insert(into, table[2 * i], table[2 * i + 1]):
            added += 1
    return added


@njit(cache=True)
def column_heads(grid: np.ndarray, suits: int, ranks: int) -> np.int64:
    """Column 0 packed as in a layout move: what :func:`unplay` needs besides the source."""
    layout = np.int64(0)
    for r in range(suits):
        layout |= (np.int64(grid[r * ranks]) + 1) << (8 * r)
    return layout


@njit(cache=True)
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


@njit(cache=True, nogil=True)
def search(
    start: np.ndarray,
    suits: int,
    ranks: int,
    max_states: int,
    stop_at_win: bool,
    z1: np.ndarray,
    z2: np.ndarray,
    perms: np.ndarray,
    counts: np.ndarray,
    salt: np.uint64,
    reduce: bool,
    deadline: float,
    shared: np.ndarray,
    stop: np.ndarray,
    reversed_depths: int,
    twos_last: bool,
    max_stored: int,
    through_forks: int,
    post_order: bool,
) -> tuple[int, int, int, int, np.ndarray, np.ndarray, int]:
    """Depth-first search over classes from ``start``, on one board that moves are played
    on and taken back from (with each depth's move, source cell and column 0).

    With ``reduce``, each node keeps only a stubborn set of its moves (which keeps every
    dead end), and a node is cut when its frozen cards show it cannot beat the best dead end
    found so far, or, when only a win matters (``stop_at_win``), cannot win at all; and the
    2 that shuts the pool leaves its rows loose (:func:`next_loose`): the line it returns
    then needs ``fast.arranged`` to become class moves.

    Returns (status, best, best_dead_end, states, line, best_line, stored): status 1 won, 0 not
    winnable; stopped undecided: -1 by ``max_states`` (nodes entered, cut ones included),
    -2 by ``max_stored`` (nodes this search put in the table: what fills a shared one), -3
    by the clock passing ``deadline`` (a ``time.perf_counter`` value; 0 for none) or by
    ``stop[0]`` turning non-zero. ``line`` is the winning line (or empty) and
    ``best_line`` the line to a best dead end; ``stored``: the nodes it put in the table.

    ``shared``: an empty array for a table of the search's own (grown as needed), or a
    table that several searches in parallel threads fill together (never grown): a node
    another search has entered is skipped, since that search expands it. A search that wins
    sets ``stop[0]``, which stops the others. Along its line, up to the child it picks at
    its ``through_forks``-th choice of moves, a search goes on through nodes the others
    entered (the forced moves from the root, and the children it picks at those choices),
    or it would stop before the choice where its order differs from theirs.

    With ``post_order`` a node enters the table only once every move of it is searched (a
    search that other searches skip while it runs must not stop halfway: see
    ``fast._restarting``); until then the keys of the line from the root, with counters
    that most misses read once, stop a cycle. Stopped early, such a search has left in the
    table only nodes whose every line it has followed.

    Bit d of ``reversed_depths`` (0: none) tries the moves in reverse order at the nodes
    that are the d-th (from 0, d < 63) along their line to have a choice of moves left
    after the stubborn set; bit 0 makes a search start in the last subtree of the first
    choice rather than the first. (Counting depths instead, a root whose stubborn set keeps
    one move made the reversed search the standard one: it found its one child entered and
    stopped at once.) A depth-first search spends its budget in the first subtree it
    enters; where that one holds no win and another does, the reversed search meets the win
    at once (seed 35: after 1.7 M nodes instead of 41.6 M), and searches sharing a table
    then work from several ends.
    """
    cells = suits * ranks
    full = suits * (ranks - 1)
    depth_cap = 1024
    grid = start.copy()
    pos = np.zeros(cells, dtype=np.int8)
    body = np.zeros(2 * suits, dtype=np.uint64)
    moves = np.empty((depth_cap, MAX_MOVES), dtype=np.int64)
    nmoves = np.zeros(depth_cap, dtype=np.int64)
    index = np.zeros(depth_cap, dtype=np.int64)
    sources = np.zeros(depth_cap, dtype=np.int64)
    headss = np.zeros(depth_cap, dtype=np.int64)
    looses = np.zeros(depth_cap, dtype=np.int64)
    forks = np.zeros(depth_cap, dtype=np.int64)  # nodes with a choice above each depth
    line1 = np.zeros(depth_cap, dtype=np.uint64)  # with post_order: the line's keys
    line2 = np.zeros(depth_cap, dtype=np.uint64)
    buckets = np.zeros(LINE_BUCKETS, dtype=np.int64)
    ends = np.empty(suits, dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    options = np.empty(suits, dtype=np.int64)
    own = shared.size == 0
    table = np.zeros(1 << 17, dtype=np.uint64) if own else shared
    best_line = np.empty(0, dtype=np.int64)
    mov = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.uint64)
    member = np.zeros(cells, dtype=np.bool_)
    chosen = np.zeros(cells, dtype=np.bool_)
    outside = np.zeros(cells, dtype=np.bool_)
    held = np.zeros(cells, dtype=np.uint64)
    todo = np.zeros(cells, dtype=np.int64)
    for c in range(cells):
        if start[c] != GAP:
            pos[start[c]] = c
    row_bodies(grid, suits, ranks, z1, z2, body)
    lazy = reduce
    loose = 0
    h1, h2 = class_key(grid, suits, ranks, z1, z2, loose)
    stored = 0
    if post_order:
        _push(line1, line2, buckets, 0, h1, h2)
    elif _insert(table, h1, h2):
        stored = 1
    states = 1
    best = -1
    best_dead = -1
    status = 0
    depth = 0
    fresh = True
    # A node is checked for a cut before it enters the table (the root, already in it, here):
    # cut nodes take no room, and most nodes of a lost deal are cut. A cut node is counted
    # in ``states`` each time a line reaches it.
    cut = reduce and _cut(
        grid, pos, suits, ranks, mov, places, options, stop_at_win, best_dead, loose
    )
    while depth >= 0:
        if fresh:
            fresh = False
            index[depth] = 0
            nmoves[depth] = 0
            if not cut:
                row = moves[depth]
                score = prefixes(grid, suits, ranks, ends, loose)
                best = max(best, score)
                n = gen_moves(grid, pos, suits, ranks, perms, counts, row, scratch, loose, lazy)
                if reduce:
                    n = stubborn(
                        row, n, grid, pos, ranks, mov, member, chosen, todo, loose, outside, held
                    )
                nmoves[depth] = n
                if n == 0 and score > best_dead:
                    best_dead = score
                    best_line = np.empty(depth, dtype=np.int64)
                    for d in range(depth):
                        best_line[d] = moves[d, index[d] - 1]
                    if score == full:
                        status = 1
                        if stop_at_win:
                            stop[0] = 1
                            return status, best, best_dead, states, best_line, best_line, stored
                _order(row, n, ends, grid, pos, suits, ranks, salt, keys, twos_last)
                fork = forks[depth]
                if n > 1 and fork < 63 and (reversed_depths >> fork) & 1:
                    row[:n] = row[:n][::-1].copy()
        if index[depth] == nmoves[depth]:
            if post_order:
                # Every move of the node is searched: now it may enter the table.
                buckets[_bucket(line1[depth])] -= 1
                if _insert(table, line1[depth], line2[depth]):
                    stored += 1
            depth -= 1
            if depth >= 0:
                move = moves[depth, index[depth] - 1]
                card = move & 0xFF
                source = sources[depth]
                _move_body(body, card, source, (move >> 8) & 0xFF, ranks, z1, z2)
                unplay(grid, pos, suits, ranks, move, source, headss[depth])
                loose = looses[depth]
            continue
        move = moves[depth, index[depth]]
        index[depth] += 1
        if depth + 1 == depth_cap:
            depth_cap *= 2
            moves = _grown64(moves, depth_cap)
            nmoves = _grown1(nmoves, depth_cap)
            index = _grown1(index, depth_cap)
            sources = _grown1(sources, depth_cap)
            headss = _grown1(headss, depth_cap)
            looses = _grown1(looses, depth_cap)
            forks = _grown1(forks, depth_cap)
            line1 = _grown1(line1, depth_cap)
            line2 = _grown1(line2, depth_cap)
        card = move & 0xFF
        source = int(pos[card])
        heads = column_heads(grid, suits, ranks)
        play(grid, pos, suits, ranks, move)
        was = loose
        loose = next_loose(grid, suits, ranks, move, loose, lazy)
        _move_body(body, card, source, (move >> 8) & 0xFF, ranks, z1, z2)
        h1, h2 = keyed(grid, body, suits, ranks, z1, z2, loose)
        if states >= max_states or stored >= max_stored:
            status = -1 if states >= max_states else -2
            return status, best, best_dead, states, np.empty(0, dtype=np.int64), best_line, stored
        slot = _probe(table, h1, h2)
        # With post_order the nodes of the line are not in the table: a cycle back to one
        # of them ends there.
        cycle = post_order and slot < 0 and _on_line(line1, line2, buckets, depth, h1, h2)
        # Up to the child it picks at its ``through_forks``-th choice of moves, a search
        # sharing the table goes on through nodes the others entered (see above); the depth
        # bound guards against a cycle of forced moves.
        through = slot >= 0 and not own and forks[depth] < through_forks and depth < 256
        if through:
            slot = np.int64(-1)
        cut = bool(
            slot < 0
            and not cycle
            and reduce
            and _cut(grid, pos, suits, ranks, mov, places, options, stop_at_win, best_dead, loose)
        )
        if not own and not cut and slot < 0 and not through and not cycle:
            # Another search may have taken the slot (or entered this node) meanwhile.
            slot = _probe(table, h1, h2)
        if slot >= 0 or cut or cycle:
            _move_body(body, card, source, (move >> 8) & 0xFF, ranks, z1, z2)
            unplay(grid, pos, suits, ranks, move, source, heads)
            loose = was
            if slot >= 0 or cycle:
                continue
        elif post_order:
            _push(line1, line2, buckets, depth + 1, h1, h2)
        elif not through:
            _store(table, -1 - slot, h1, h2)
            stored += 1
        states += 1
        if states & 0xFFF == 0 and (stop[0] or (deadline > 0.0 and _clock() > deadline)):
            return -3, best, best_dead, states, np.empty(0, dtype=np.int64), best_line, stored
        if cut:
            continue
        if own and stored * 4 > table.size:
            table = _grow(table)
        sources[depth] = source
        headss[depth] = heads
        looses[depth] = was
        forks[depth + 1] = forks[depth] + (nmoves[depth] > 1)
        depth += 1
        fresh = True
    line = best_line if status == 1 else np.empty(0, dtype=np.int64)
    return status, best, best_dead, states, line, best_line, stored


LINE_BUCKETS = 4096
"""With post_order, how many counters say which keys may be on the line (most misses cost
one read)."""


@njit(cache=True)
def _bucket(h1: np.uint64) -> np.int64:
    return np.int64((h1 >> np.uint64(20)) & np.uint64(LINE_BUCKETS - 1))


@njit(cache=True)
def _push(
    line1: np.ndarray,
    line2: np.ndarray,
    buckets: np.ndarray,
    depth: int,
    h1: np.uint64,
    h2: np.uint64,
) -> None:
    line1[depth] = h1
    line2[depth] = h2
    buckets[_bucket(h1)] += 1


@njit(cache=True)
def _on_line(
    line1: np.ndarray,
    line2: np.ndarray,
    buckets: np.ndarray,
    depth: int,
    h1: np.uint64,
    h2: np.uint64,
) -> bool:
    """Is the key that of a node on the line from the root to ``depth``?"""
    if buckets[_bucket(h1)] == 0:
        return False
    for d in range(depth, -1, -1):
        if line1[d] == h1 and line2[d] == h2:
            return True
    return False


@njit(cache=True)
def _cut(
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    mov: np.ndarray,
    places: np.ndarray,
    options: np.ndarray,
    stop_at_win: bool,
    best_dead: int,
    loose: int,
) -> bool:
    """Work out where each card can still go (into ``mov`` and ``places``, which the node's
    stubborn set reads next) and whether that rules the node out: it cannot win, or, when
    the best dead end is wanted, cannot beat the best found so far."""
    movable(grid, pos, suits, ranks, mov, places, loose)
    if stop_at_win:
        return doomed(suits, ranks, places, options)
    return upper_bound(suits, ranks, places) <= best_dead


@njit(cache=True)
def _grown64(array: np.ndarray, rows: int) -> np.ndarray:
    bigger = np.empty((rows, array.shape[1]), dtype=np.int64)
    bigger[: array.shape[0]] = array
    return bigger


@njit(cache=True)
def _grown1(array: np.ndarray, size: int) -> np.ndarray:
    bigger = np.zeros(size, dtype=array.dtype)
    bigger[: array.size] = array
    return bigger


# --- reductions: frozen cards, a bound on what a position can still reach, stubborn sets ------
@njit(cache=True)
def _bit(cell: int) -> np.uint64:
    return np.uint64(1) << np.uint64(cell)


@njit(cache=True)
def movable(
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    mov: np.ndarray,
    places: np.ndarray,
    loose: int,
) -> None:
    """Where can each card still go? See :func:`movable_holding`, with no card held."""
    movable_holding(grid, pos, suits, ranks, mov, places, loose, -1)


@njit(cache=True)
def movable_holding(
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    mov: np.ndarray,
    places: np.ndarray,
    loose: int,
    held: int,
) -> None:
    """Where can each card still go, in lines where the card ``held`` (-1: none) never
    moves? ``places[code]`` is a bit mask of the cells the card may
    stand in at any later time, ``mov[code]`` whether it can move at all; a card that cannot
    is *frozen*. A sound over-approximation, the least fixpoint of: a card moves only into a
    cell right of a cell its predecessor may stand in (a 2: into column 0), and only into a
    cell that may be a gap; a cell may be a gap only if it is one now or its card can move
    (the first time a cell empties, the card dealt there leaves it). A 2 of a loose row
    (:func:`next_loose`) may stand in any loose row, and is not frozen. The held card keeps
    its cell: it never widens, so its cell never counts as one that may empty (what a
    stubborn set needs to know of the lines outside it, :func:`_closure`)."""
    cells = suits * ranks
    col0 = np.uint64(0)
    spread = np.uint64(0)
    for r in range(suits):
        col0 |= _bit(r * ranks)
        if _loose(loose, r):
            spread |= _bit(r * ranks)
    everywhere = (np.uint64(1) << np.uint64(cells)) - np.uint64(1)
    inner = everywhere & ~col0
    free = np.uint64(0)
    for cell in range(cells):
        if grid[cell] == GAP:
            free |= _bit(cell)
    # What each suit's cards could enter (4 suits at most: scalars, no allocation per call).
    reach0 = reach1 = reach2 = reach3 = everywhere
    for x in range(cells):
        mov[x] = False
        places[x] = _bit(pos[x]) if x % ranks else np.uint64(0)
        if x % ranks == 1 and (spread >> np.uint64(pos[x])) & np.uint64(1) and x != held:
            places[x] = spread
            mov[x] = True
    # Each suit's cards are widened in order, from the 2 up; a card that can move frees its
    # cell, which may widen cards of any suit, so a suit is gone over again only when a cell
    # freed since its last pass is one its cards could enter (``reach``): a suit with none
    # cannot gain, and none dirty leaves the least fixpoint.
    dirty = (1 << suits) - 1
    while dirty:
        for suit in range(suits):
            if not (dirty >> suit) & 1:
                continue
            dirty &= ~(1 << suit)
            before = free
            reach = col0
            two = suit * ranks + 1
            for x in range(two, (suit + 1) * ranks):
                if x == held:
                    continue
                if x == two:
                    wider = places[x] | (free & col0)
                else:
                    enter = (places[x - 1] << np.uint64(1)) & inner
                    reach |= enter
                    wider = places[x] | (enter & free)
                if wider != places[x]:
                    # (A loose 2 is movable from the start, yet its cell may empty only once
                    # it may reach a cell of column 0 outside the loose rows: when a card
                    # leaving column 0 frees the pool.)
                    places[x] = wider
                    mov[x] = True
                    free |= _bit(pos[x])
            if suit == 0:
                reach0 = reach
            elif suit == 1:
                reach1 = reach
            elif suit == 2:
                reach2 = reach
            else:
                reach3 = reach
            freed = free & ~before
            if freed:
                dirty |= (
                    int((reach0 & freed) != 0)
                    | int((reach1 & freed) != 0) << 1
                    | int((reach2 & freed) != 0) << 2
                    | int((reach3 & freed) != 0) << 3
                ) & ((1 << suits) - 1)


@njit(cache=True)
def _may_stand(places: np.ndarray, code: int, cell: int) -> bool:
    return bool((places[code] >> np.uint64(cell)) & np.uint64(1))


@njit(cache=True)
def _suit_rows(suit: int, suits: int, ranks: int, places: np.ndarray) -> int:
    """Rows (bit mask) where the whole suit could still end in order: its 2 may reach the
    row's column 0 and each card the cell of its rank in that row."""
    rows = 0
    two = suit * ranks + 1
    for r in range(suits):
        if not _may_stand(places, two, r * ranks):
            continue
        whole = True
        for k in range(1, ranks - 1):
            if not _may_stand(places, two + k, r * ranks + k):
                whole = False
                break
        if whole:
            rows |= 1 << r
    return rows


@njit(cache=True)
def doomed(suits: int, ranks: int, places: np.ndarray, options: np.ndarray) -> bool:
    """Can the position no longer win? Each suit needs a row where every one of its cards
    may still reach its cell, and the suits need different rows (Hall's condition)."""
    for suit in range(suits):
        options[suit] = _suit_rows(suit, suits, ranks, places)
        if options[suit] == 0:
            return True
    for subset in range(1, 1 << suits):
        union = 0
        size = 0
        for suit in range(suits):
            if subset >> suit & 1:
                union |= options[suit]
                size += 1
        count = 0
        while union:
            union &= union - 1
            count += 1
        if count < size:
            return True
    return False


@njit(cache=True)
def upper_bound(suits: int, ranks: int, places: np.ndarray) -> int:
    """The most cards in sequence any later position can have: for each row, the longest
    run from column 0 that some suit's cards may all still reach."""
    total = 0
    for r in range(suits):
        most = 0
        for suit in range(suits):
            two = suit * ranks + 1
            c = 0
            while c < ranks - 1 and _may_stand(places, two + c, r * ranks + c):
                c += 1
            most = max(most, c)
        total += most
    return total


@njit(cache=True)
def _closure(
    seed: int,
    grid: np.ndarray,
    pos: np.ndarray,
    ranks: int,
    mov: np.ndarray,
    member: np.ndarray,
    todo: np.ndarray,
    enough: int,
    loose: int,
    outside: np.ndarray,
    places: np.ndarray,
) -> int:
    """A stubborn set of cards grown from the enabled card ``seed``; ``member`` marks it.
    Returns how many of its cards can move now, or -1 when it reaches a 2 that can move
    while column 0 has a gap (then this seed gives no set); it stops early, returning
    ``enough``, once that many cards of the set can move (a smaller set is known already).
    The 3 of a loose 2 brings in what :func:`_loose_three` says, never the loose 2.

    Closure rules, for a card y of the set (frozen cards need none: they never move):
    * y can move now (into g, right of its predecessor): the moves that could disable it or
      that it disables join the set: its predecessor (leaving g's left), and y + 1 (which
      could come into the cell right of y's present cell, unless it is there already);
    * y cannot move now: the moves that could enable it join: its predecessor (a new place)
      and the card in the cell right of the predecessor (leaving it).

    A card joins only if it can move in a line of moves of cards outside the set, since
    only such lines can disable or enable a move of the set behind its back. The set holds
    the seed, which never moves in those lines, so ``outside`` (scratch, with ``places``)
    is the analysis of :func:`movable_holding` with the seed held: a card whose moves all
    need the seed to move first stays out (session of 2026-11-24, evening). The analysis
    holds only the seed, not the set as it grows: a card of the set held too would only
    make ``outside`` smaller, so this one is an over-approximation, hence sound."""
    suits = grid.size // ranks
    for x in range(member.size):
        member[x] = False
    member[seed] = True
    movable_holding(grid, pos, suits, ranks, outside, places, loose, seed)
    todo[0] = seed
    top = 1
    enabled = 0
    while top > 0:
        top -= 1
        y = todo[top]
        if not mov[y]:
            continue
        if y % ranks == 1:
            # A 2 that may still move. While column 0 holds a gap (a free pool) the class
            # moves rearrange it: no set from this seed then. Otherwise the 2 cannot move
            # now (a 2 moves only into column 0), and only a card leaving column 0 can
            # change that (a 2 there cannot leave a full column): those cards join. A loose
            # 2 never joins (its 3 brings in what it depends on instead); were one to,
            # no set.
            if loose and pos[y] % ranks == 0 and _loose(loose, pos[y] // ranks):
                return -1
            for r in range(suits):
                head = grid[r * ranks]
                if head == GAP:
                    return -1
                if head % ranks != 1 and not member[head] and outside[head]:
                    member[head] = True
                    todo[top] = head
                    top += 1
            continue
        adds0 = y - 1
        adds1 = -1
        if loose and y % ranks == 2 and _loose_two(grid, y - 1, suits, ranks, loose):
            # The 3 of a loose 2: see _loose_three; the loose 2 never joins.
            top = _loose_three(grid, ranks, loose, member, todo, top, outside)
            adds0 = -1
            can = _column1_gap(grid, suits, ranks, loose)
        else:
            p = pos[y - 1]
            target = p + 1 if p % ranks != ranks - 1 else -1
            can = target >= 0 and grid[target] == GAP
            if not can and target >= 0 and grid[target] != y and outside[grid[target]]:
                adds1 = grid[target]
        if can:
            enabled += 1
            if enabled >= enough:
                return enough
            s = pos[y]
            if y % ranks != ranks - 1 and s % ranks != ranks - 1:
                right = grid[s + 1]
                if right == GAP or (right != y + 1 and not member[right] and outside[right]):
                    adds1 = y + 1
        if adds0 >= 0 and not member[adds0] and outside[adds0]:
            member[adds0] = True
            todo[top] = adds0
            top += 1
        if adds1 >= 0 and not member[adds1]:
            member[adds1] = True
            todo[top] = adds1
            top += 1
    return enabled


@njit(cache=True)
def _column1_gap(grid: np.ndarray, suits: int, ranks: int, loose: int) -> bool:
    """Does a loose row have a gap in column 1 (which the 3 of any loose 2 may fill)?"""
    for r in range(suits):
        if _loose(loose, r) and grid[r * ranks + 1] == GAP:
            return True
    return False


@njit(cache=True)
def _loose_three(
    grid: np.ndarray,
    ranks: int,
    loose: int,
    member: np.ndarray,
    todo: np.ndarray,
    top: int,
    outside: np.ndarray,
) -> int:
    """What a stubborn set holding the 3 of a loose 2 needs (returns the new ``todo`` top).
    Its moves go into column 1 of any loose row with a gap there, and each fixes a row, so
    they depend on the moves of the other loose 2s' 3s (which fix rows too, and may take its
    gap); a card leaving column 1 of a loose row may enable one of its moves; a card other
    than a 2 leaving column 0 frees the pool, which ends the loose rows. Those cards join
    (if lines outside the set can move them); the loose 2s themselves never move."""
    suits = grid.size // ranks
    for r in range(suits):
        head = grid[r * ranks]
        if _loose(loose, r):
            found = (head + 1, grid[r * ranks + 1])
        else:
            found = (head, GAP) if head != GAP and head % ranks != 1 else (GAP, GAP)
        for z in found:
            if z != GAP and not member[z] and outside[z]:
                member[z] = True
                todo[top] = z
                top += 1
    return top


@njit(cache=True)
def stubborn(
    moves: np.ndarray,
    n: int,
    grid: np.ndarray,
    pos: np.ndarray,
    ranks: int,
    mov: np.ndarray,
    member: np.ndarray,
    best: np.ndarray,
    todo: np.ndarray,
    loose: int,
    outside: np.ndarray,
    places: np.ndarray,
) -> int:
    """Keep only the moves of the smallest stubborn set found (partial-order reduction):
    every position with no move left that the full search reaches, the reduced one reaches
    too, so wins and best dead ends are kept. Returns the new move count.

    Seeds are the cards of the moves other than 2s entering a free pool: a closure that
    reaches a 2 that may move while column 0 has a gap gives no set (:func:`_closure`), so
    a set never depends on those moves, and a free pool no longer keeps every move."""
    if n < 2:
        return n
    fewest = n + 1
    for i in range(n):
        card = moves[i] & 0xFF
        if moves[i] >> 16 or card % ranks == 1:
            continue  # a 2 into the pool: no set holds one (see _closure)
        size = _closure(card, grid, pos, ranks, mov, member, todo, fewest, loose, outside, places)
        if size < 0:
            continue  # this seed gives no set; another may
        if size < fewest:
            fewest = size
            best[:] = member
            if size == 1:
                break
    if fewest >= n:
        return n
    kept = 0
    for i in range(n):
        if best[moves[i] & 0xFF]:
            moves[kept] = moves[i]
            kept += 1
    return kept
