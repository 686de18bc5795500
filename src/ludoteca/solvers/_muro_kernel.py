"""The compiled Il Muro search: a compact array position, move generation, make/unmake and a
depth-first search with a transposition table and a node limit.

Position arrays (built by :mod:`ludoteca.solvers.muro`):

- ``cols`` int8[6, HEIGHT]: each column bottom first; a code is the tile index 0..35
  (``Tile.index``), plus ``DOWN`` (36) when the tile is face down; ``h`` int64[6] the heights.
- ``fc`` int64[6] tiles on each fruit's foundation, ``fd`` int64[6] its direction
  (0 empty, ``UP`` from the 1, ``DOWN_DIR`` from the 6).
- ``sc`` int64[4]: idle moves, best tiles on foundations ever, tiles on foundations now, tiles
  still face down. ``ch`` uint64[6]: a Zobrist hash of each column.

A move is ``source * 16 + target``: sources 0..5 are columns, 6..11 foundation tops (fruit + 6);
targets 0..5 columns, ``TO_FOUNDATION`` or ``TURN`` (the source column's top is turned up).
The search position key sums a mixed hash of each column, so that the columns' order does not
matter (two walls that differ only by the order of their columns lead to the same outcome).
"""

from __future__ import annotations

import numpy as np
from numba import njit

HEIGHT = 40
DOWN = 36
UP = 1
DOWN_DIR = 2
TO_FOUNDATION = 6
TURN = 7
IDLE, BEST, ON_FOUNDATIONS, FACE_DOWN = 0, 1, 2, 3
MAX_MOVES = 96
MAX_DEPTH = 67 * 100 + 8
"""Longest game under the no-progress ruling (see ``games.muro``), plus slack."""
WON, LOST, LIMIT = 1, 0, -1
ALL_MOVES, PRUNED, FORCED = 0, 1, 2
"""Move generation modes: every legal move in the engine's order; the search's order and
pruning (exact); and that plus safe foundation moves played at once (for the player: a
shortcut that is right almost always, but not provably under the no-progress rule)."""
PROBES = 8

_rng = np.random.default_rng(20261122)
ZOBRIST_COLUMN = _rng.integers(1, 2**63, size=(HEIGHT, 2 * DOWN), dtype=np.uint64)
ZOBRIST_FOUNDATION = _rng.integers(1, 2**63, size=(6, 7, 3), dtype=np.uint64)
ZOBRIST_BEST = _rng.integers(1, 2**63, size=37, dtype=np.uint64)


@njit(cache=True)
def _mix(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def position_key(ch, fc, fd, sc, zf, zb):  # type: ignore[no-untyped-def]  # pragma: no cover
    key = np.uint64(0)
    for c in range(6):
        key += _mix(ch[c] + np.uint64(0x9E3779B97F4A7C15))
    for f in range(6):
        key ^= zf[f, fc[f], fd[f]]
    key ^= zb[sc[BEST]]
    return key | np.uint64(1)


@njit(cache=True)
def column_hashes(cols, h, zc):  # type: ignore[no-untyped-def]  # pragma: no cover
    ch = np.zeros(6, dtype=np.uint64)
    for c in range(6):
        for k in range(h[c]):
            ch[c] ^= zc[k, cols[c, k]]
    return ch


@njit(cache=True)
def _foundation_top(fc, fd, f):  # type: ignore[no-untyped-def]  # pragma: no cover
    number = fc[f] if fd[f] == UP else 7 - fc[f]
    return f * 6 + number - 1


@njit(cache=True)
def _on_foundation(fc, fd, number, fruit):  # type: ignore[no-untyped-def]  # pragma: no cover
    if fd[fruit] == UP:
        return number <= fc[fruit]
    if fd[fruit] == DOWN_DIR:
        return number >= 7 - fc[fruit]
    return False


@njit(cache=True)
def _foundation_wants(fc, fd, tile, six):  # type: ignore[no-untyped-def]  # pragma: no cover
    f = tile // 6
    number = tile % 6 + 1
    if fc[f] == 0:
        return number == 1 or (six and number == 6)
    if fd[f] == UP:
        return number == fc[f] + 1
    return number == 6 - fc[f]


@njit(cache=True)
def _accepts(cols, h, c, tile):  # type: ignore[no-untyped-def]  # pragma: no cover
    if h[c] == 0:
        return True
    top = cols[c, h[c] - 1]
    if top >= DOWN:
        return True
    return top % 6 == tile % 6 + 1 and top // 6 != tile // 6


@njit(cache=True)
def _safe(fc, fd, tile, six):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Whether sending ``tile`` to its foundation can never hurt (leaving the no-progress rule
    aside): every tile that could ever sit on it, or on those, is already on a foundation."""
    f = tile // 6
    number = tile % 6 + 1
    if fc[f] == 0:
        return not six  # with the 6 allowed too, starting a foundation is a real choice
    if fd[f] != UP:
        return False
    for g in range(6):
        if g != f:
            for m in range(1, number):
                if not _on_foundation(fc, fd, m, g):
                    return False
    return True


@njit(cache=True)
def gen_moves(cols, h, fc, fd, sc, six, mode, out):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Write the moves into ``out`` and return how many. Unless ``mode`` is ALL_MOVES the
    order puts progress first and moves that only permute columns (a lone tile to an empty
    column, a second empty column) are left out; with FORCED a safe foundation move that is
    progress is returned alone."""
    prune = mode != ALL_MOVES
    n = 0
    progress = sc[ON_FOUNDATIONS] + 1 > sc[BEST]
    if prune:
        for c in range(6):
            if h[c] > 0 and cols[c, h[c] - 1] < DOWN:
                tile = cols[c, h[c] - 1]
                if _foundation_wants(fc, fd, tile, six):
                    if mode == FORCED and progress and _safe(fc, fd, tile, six):
                        out[0] = c * 16 + TO_FOUNDATION
                        return 1
                    out[n] = c * 16 + TO_FOUNDATION
                    n += 1
        for c in range(6):
            if h[c] > 0 and cols[c, h[c] - 1] >= DOWN:
                out[n] = c * 16 + TURN
                n += 1
    # Sources: column tops face up, then foundation tops.
    for s in range(12):
        if s < 6:
            if h[s] == 0 or cols[s, h[s] - 1] >= DOWN:
                continue
            tile = cols[s, h[s] - 1]
        else:
            if fc[s - 6] == 0:
                continue
            tile = _foundation_top(fc, fd, s - 6)
        empty_seen = False
        for c in range(6):
            if c == s or not _accepts(cols, h, c, tile):
                continue
            if prune and h[c] == 0:
                if empty_seen or (s < 6 and h[s] == 1):
                    continue
                empty_seen = True
            out[n] = s * 16 + c
            n += 1
        if not prune and s < 6 and _foundation_wants(fc, fd, tile, six):
            out[n] = s * 16 + TO_FOUNDATION
            n += 1
    if not prune:
        for c in range(6):
            if h[c] > 0 and cols[c, h[c] - 1] >= DOWN:
                out[n] = c * 16 + TURN
                n += 1
    return n


@njit(cache=True)
def play(cols, h, fc, fd, sc, ch, zc, move):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Make ``move``; return the undo word: moved tile, the fruit's old direction, old idle and
    old best, packed."""
    s = move >> 4
    t = move & 15
    undo = (sc[IDLE] * 64 + sc[BEST]) * 4096
    if t == TURN:
        k = h[s] - 1
        code = cols[s, k]
        ch[s] ^= zc[k, code] ^ zc[k, code - DOWN]
        cols[s, k] = code - DOWN
        sc[FACE_DOWN] -= 1
        sc[IDLE] = 0
        return undo
    if s < 6:
        k = h[s] - 1
        tile = cols[s, k]
        ch[s] ^= zc[k, tile]
        h[s] = k
    else:
        tile = _foundation_top(fc, fd, s - 6)
        fc[s - 6] -= 1
        sc[ON_FOUNDATIONS] -= 1
    f = tile // 6
    undo += fd[f] * 64 + tile
    if s >= 6 and fc[f] == 0:
        fd[f] = 0
    if t == TO_FOUNDATION:
        if fc[f] == 0:
            fd[f] = UP if tile % 6 == 0 else DOWN_DIR
        fc[f] += 1
        sc[ON_FOUNDATIONS] += 1
    else:
        k = h[t]
        cols[t, k] = tile
        ch[t] ^= zc[k, tile]
        h[t] = k + 1
    if sc[ON_FOUNDATIONS] > sc[BEST]:
        sc[BEST] = sc[ON_FOUNDATIONS]
        sc[IDLE] = 0
    else:
        sc[IDLE] += 1
    return undo


@njit(cache=True)
def unplay(cols, h, fc, fd, sc, ch, zc, move, undo):  # type: ignore[no-untyped-def]  # pragma: no cover
    s = move >> 4
    t = move & 15
    if t == TURN:
        k = h[s] - 1
        code = cols[s, k]
        ch[s] ^= zc[k, code] ^ zc[k, code + DOWN]
        cols[s, k] = code + DOWN
        sc[FACE_DOWN] += 1
        sc[IDLE] = undo // (4096 * 64)
        return
    tile = undo % 64
    old_dir = (undo // 64) % 64
    sc[IDLE] = undo // (4096 * 64)
    sc[BEST] = (undo // 4096) % 64
    f = tile // 6
    if t == TO_FOUNDATION:
        fc[f] -= 1
        sc[ON_FOUNDATIONS] -= 1
    else:
        k = h[t] - 1
        ch[t] ^= zc[k, tile]
        h[t] = k
    if s < 6:
        k = h[s]
        cols[s, k] = tile
        ch[s] ^= zc[k, tile]
        h[s] = k + 1
    else:
        fc[f] += 1
        sc[ON_FOUNDATIONS] += 1
    fd[f] = old_dir


@njit(cache=True)
def _probe(tt_key, tt_val, tt_gen, gen, key, idle):  # type: ignore[no-untyped-def]  # pragma: no cover
    """True when ``key`` was already searched with at most ``idle`` idle moves (a position
    reached with fewer idle moves can do everything one with more can); else record it."""
    mask = tt_key.shape[0] - 1
    first = int(key & np.uint64(mask))
    for j in range(PROBES):
        slot = (first + j) & mask
        if tt_gen[slot] != gen:
            tt_gen[slot] = gen
            tt_key[slot] = key
            tt_val[slot] = idle
            return False
        if tt_key[slot] == key:
            if tt_val[slot] <= idle:
                return True
            tt_val[slot] = idle
            return False
    tt_gen[first] = gen
    tt_key[first] = key
    tt_val[first] = idle
    return False


@njit(cache=True)
def mark_seen(tt_key, tt_val, tt_gen, gen, keys, idles):  # type: ignore[no-untyped-def]  # pragma: no cover
    """Enter positions already played (since the last progress) in the table before a
    search, each with the idle count it had: the search then never comes back to one, since
    it could only come back with more idle moves."""
    for i in range(keys.shape[0]):
        _probe(tt_key, tt_val, tt_gen, gen, keys[i], idles[i])


@njit(cache=True)
def search(  # type: ignore[no-untyped-def]  # pragma: no cover
    cols,
    h,
    fc,
    fd,
    sc,
    six,
    mode,
    idle_limit,
    node_limit,
    zc,
    zf,
    zb,
    tt_key,
    tt_val,
    tt_gen,
    gen,
    path,
    best_path,
):
    """Depth-first search for a win. Returns (result, nodes, path length, best-path length,
    best-path progress):
    ``path`` holds the winning moves; ``best_path`` the line that made the most progress
    (most tiles on foundations, then most tiles turned: its progress is ``64 * best + turned``),
    for a player to follow when no win
    is found. ``result`` is WON, LOST (proved within the rules) or LIMIT."""
    ch = column_hashes(cols, h, zc)
    moves = np.empty((MAX_DEPTH, MAX_MOVES), dtype=np.int32)
    count = np.zeros(MAX_DEPTH, dtype=np.int64)
    index = np.zeros(MAX_DEPTH, dtype=np.int64)
    undos = np.zeros(MAX_DEPTH, dtype=np.int64)
    start_down = sc[FACE_DOWN]
    best_value = sc[BEST] * 64
    best_len = 0
    nodes = 0
    if sc[ON_FOUNDATIONS] == 36:
        return WON, nodes, 0, 0, best_value
    _probe(tt_key, tt_val, tt_gen, gen, position_key(ch, fc, fd, sc, zf, zb), sc[IDLE])
    count[0] = gen_moves(cols, h, fc, fd, sc, six, mode, moves[0])
    d = 0
    while True:
        if index[d] >= count[d]:
            if d == 0:
                return LOST, nodes, 0, best_len, best_value
            d -= 1
            unplay(cols, h, fc, fd, sc, ch, zc, moves[d, index[d] - 1], undos[d])
            continue
        move = moves[d, index[d]]
        index[d] += 1
        undos[d] = play(cols, h, fc, fd, sc, ch, zc, move)
        nodes += 1
        value = sc[BEST] * 64 + start_down - sc[FACE_DOWN]
        if value > best_value:
            best_value = value
            best_len = d + 1
            for i in range(d + 1):
                best_path[i] = moves[i, index[i] - 1]
        if sc[ON_FOUNDATIONS] == 36:
            for i in range(d + 1):
                path[i] = moves[i, index[i] - 1]
            return WON, nodes, d + 1, best_len, best_value
        if nodes >= node_limit:
            return LIMIT, nodes, 0, best_len, best_value
        blocked = sc[IDLE] >= idle_limit or d + 1 >= MAX_DEPTH
        if not blocked:
            key = position_key(ch, fc, fd, sc, zf, zb)
            blocked = _probe(tt_key, tt_val, tt_gen, gen, key, sc[IDLE])
        if blocked:
            unplay(cols, h, fc, fd, sc, ch, zc, move, undos[d])
            continue
        d += 1
        count[d] = gen_moves(cols, h, fc, fd, sc, six, mode, moves[d])
        index[d] = 0
