"""Numba kernel of the Acme solver: depth-first search with a transposition table.

The search sees every card (it answers "winnable with all cards known"). Cards are ids
``suit * 13 + rank - 1``, so a card's successor in its suit is ``id + 1``. A column is a run
built down by suit, so it is fully described by its top card and its length.

The stock and the waste together are the *talon*: its cards in drawing order, a bit mask of
the ones still there, and a pointer (cards below it are in the waste, the last of them on
top). A talon move is a macro: draw (turning the waste over first where needed) until the
card is on top of the waste, then play it. Drawing without playing never matters by itself.

Scalars that change during the search live in ``sc`` (indices below) so that the recursive
search can undo them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RN, PRESENT, PTR, TURNS, FLAG, NODES, LIMIT, ABORTED, REDEALS, PATH_LEN, GEN = range(11)
SCALARS = 11
FOUNDATION = -1
SRC_RESERVE, SRC_WASTE, SRC_TURNED = 4, 5, 6
"""Path sources: columns 0..3, the reserve, the talon in this pass, the talon after a turn."""
UNLIMITED = -1


@njit(cache=True)
def _waste_top(sc: np.ndarray) -> int:
    """Index in the talon of the waste's top card, or -1 when the waste is empty."""
    for q in range(sc[PTR] - 1, -1, -1):
        if (sc[PRESENT] >> q) & 1:
            return q
    return -1


@njit(cache=True)
def _open_talon(sc: np.ndarray) -> bool:
    """With turning unlimited and a card brought in since the last turn, every talon card
    can be reached now and after any later move: the pointer no longer matters."""
    return bool(sc[REDEALS] == UNLIMITED and sc[FLAG] == 1)


@njit(cache=True)
def _reach_source(q: int, sc: np.ndarray) -> int:
    """How talon card ``q`` is reached: in this pass, or after turning the waste over."""
    return SRC_WASTE if q >= sc[PTR] - 1 else SRC_TURNED


@njit(cache=True)
def _take(src: int, q: int, col_top: np.ndarray, col_len: np.ndarray, sc: np.ndarray) -> None:
    if src < 4:
        if col_len[src] == 1:
            col_top[src] = -1
        else:
            col_top[src] += 1
        col_len[src] -= 1
    elif src == SRC_RESERVE:
        sc[RN] -= 1
    else:
        sc[PRESENT] &= ~(np.int64(1) << q)


@njit(cache=True)
def _untake(
    src: int, q: int, card: int, col_top: np.ndarray, col_len: np.ndarray, sc: np.ndarray
) -> None:
    if src < 4:
        col_top[src] = card
        col_len[src] += 1
    elif src == SRC_RESERVE:
        sc[RN] += 1
    else:
        sc[PRESENT] |= np.int64(1) << q


@njit(cache=True)
def _put(dest: int, card: int, found: np.ndarray, col_top: np.ndarray, col_len: np.ndarray) -> None:
    if dest == FOUNDATION:
        found[card // 13] += 1
    else:
        col_top[dest] = card
        col_len[dest] += 1


@njit(cache=True)
def _unput(
    dest: int, card: int, found: np.ndarray, col_top: np.ndarray, col_len: np.ndarray
) -> None:
    if dest == FOUNDATION:
        found[card // 13] -= 1
    else:
        col_len[dest] -= 1
        col_top[dest] = -1 if col_len[dest] == 0 else card + 1


@njit(cache=True)
def _fits_home(card: int, found: np.ndarray) -> bool:
    return bool(found[card // 13] == card % 13)


@njit(cache=True)
def _successor_column(card: int, col_top: np.ndarray) -> int:
    """The column whose top card is ``card``'s successor in its suit, or -1."""
    if card % 13 == 12:
        return -1
    for j in range(4):
        if col_top[j] == card + 1:
            return j
    return -1


@njit(cache=True)
def _key(
    found: np.ndarray, col_top: np.ndarray, col_len: np.ndarray, sc: np.ndarray
) -> tuple[np.int64, np.int64]:
    """Two words naming the position; column order does not matter (columns are sorted)."""
    runs = np.zeros(4, np.int64)
    for i in range(4):
        if col_len[i] > 0:
            runs[i] = (col_top[i] + col_len[i]) * 16 + col_len[i]
    runs.sort()
    b = np.int64(found[0] | (found[1] << 4) | (found[2] << 8) | (found[3] << 12))
    for i in range(4):
        b |= runs[i] << (16 + 10 * i)
    turns = 0 if sc[REDEALS] == UNLIMITED else sc[TURNS]
    flag = sc[FLAG] if sc[REDEALS] == UNLIMITED or sc[TURNS] < sc[REDEALS] else 0
    ptr = 0 if _open_talon(sc) else sc[PTR]
    a = sc[PRESENT] | (ptr << 48) | (flag << 54) | (turns << 55)
    return a, b


@njit(cache=True)
def _seen(
    a: np.int64, b: np.int64, tt_a: np.ndarray, tt_b: np.ndarray, tt_gen: np.ndarray, gen: int
) -> bool:
    """Look the position up; insert it if new. Open addressing, linear probing."""
    mask = len(tt_a) - 1
    h = (a * np.int64(-7046029254386353131)) ^ (b * np.int64(-4658895280553007687))
    slot = (h ^ (h >> 29)) & mask
    while tt_gen[slot] == gen:
        if tt_a[slot] == a and tt_b[slot] == b:
            return True
        slot = (slot + 1) & mask
    tt_gen[slot] = gen
    tt_a[slot] = a
    tt_b[slot] = b
    return False


@njit(cache=True)
def _auto(
    found: np.ndarray,
    col_top: np.ndarray,
    col_len: np.ndarray,
    reserve: np.ndarray,
    talon: np.ndarray,
    sc: np.ndarray,
    done: np.ndarray,
) -> int:
    """Play every safe card home: column tops, the reserve's top, the waste's top, and any
    talon card when the talon is open (:func:`_open_talon`).

    A card whose predecessor is home can never take a card again (columns build down by
    suit), so sending it home loses nothing. Returns how many moves went into ``done``
    (rows of source, card, talon index); the caller restores the pointer and counters.
    """
    count = 0
    moved = True
    while moved:
        moved = False
        for i in range(4):
            if col_len[i] > 0 and _fits_home(col_top[i], found):
                card = col_top[i]
                _take(i, 0, col_top, col_len, sc)
                found[card // 13] += 1
                done[count, 0], done[count, 1], done[count, 2] = i, card, 0
                count += 1
                moved = True
        if sc[RN] > 0 and _fits_home(reserve[sc[RN] - 1], found):
            card = reserve[sc[RN] - 1]
            sc[RN] -= 1
            found[card // 13] += 1
            done[count, 0], done[count, 1], done[count, 2] = SRC_RESERVE, card, 0
            count += 1
            moved = True
        top = _waste_top(sc)
        first, last = (0, len(talon)) if _open_talon(sc) else (top, top + 1)
        for q in range(max(first, 0), last):
            if (sc[PRESENT] >> q) & 1 and _fits_home(talon[q], found):
                src = _reach_source(q, sc)
                if src == SRC_TURNED:
                    sc[TURNS] += 1
                sc[PRESENT] &= ~(np.int64(1) << q)
                sc[PTR] = q
                sc[PTR] = _waste_top(sc) + 1
                sc[FLAG] = 1
                found[talon[q] // 13] += 1
                done[count, 0], done[count, 1], done[count, 2] = src, talon[q], q
                count += 1
                moved = True
    return count


@njit(cache=True)
def _wanted(
    card: int,
    found: np.ndarray,
    col_top: np.ndarray,
    col_len: np.ndarray,
    reserve: np.ndarray,
    where: np.ndarray,
    sc: np.ndarray,
) -> bool:
    """Should talon ``card`` go into a column now (the talon being open)?

    Only a chain down its suit through talon cards to a card that must leave the reserve
    now (its top) or to a column run that could then join the chain makes it worth taking
    from the talon. Any later need can be met later just as well, since an open talon
    gives every card at any time; waiting keeps the column free.
    """
    low = card - 1
    while low % 13 != 12 and low >= 0 and where[low] >= 0 and (sc[PRESENT] >> where[low]) & 1:
        low -= 1
    if low < 0 or low % 13 == 12 or low % 13 < found[card // 13]:
        return False
    in_play = sc[RN] > 0 and reserve[sc[RN] - 1] == low
    for i in range(4):
        in_play |= col_len[i] > 0 and col_top[i] <= low < col_top[i] + col_len[i]
    return bool(in_play)


@njit(cache=True)
def _undo_auto(
    found: np.ndarray,
    col_top: np.ndarray,
    col_len: np.ndarray,
    sc: np.ndarray,
    done: np.ndarray,
    count: int,
) -> None:
    for k in range(count - 1, -1, -1):
        src, card, q = done[k, 0], done[k, 1], done[k, 2]
        found[card // 13] -= 1
        _untake(SRC_WASTE if src == SRC_TURNED else src, q, card, col_top, col_len, sc)


@njit(cache=True)
def _record(path: np.ndarray, sc: np.ndarray, src: int, card: int, dest: int, q: int) -> None:
    n = sc[PATH_LEN]
    if n < len(path):  # a line too long to keep fails its replay instead of writing past
        path[n, 0], path[n, 1], path[n, 2], path[n, 3] = src, card, dest, q
    sc[PATH_LEN] = n + 1


@njit(cache=True)
def _add(moves: np.ndarray, n: int, src: int, q: int, card: int, dest: int) -> int:
    moves[n, 0], moves[n, 1], moves[n, 2], moves[n, 3] = src, q, card, dest
    return n + 1


@njit(cache=True)
def _moves(
    found: np.ndarray,
    col_top: np.ndarray,
    col_len: np.ndarray,
    reserve: np.ndarray,
    talon: np.ndarray,
    where: np.ndarray,
    sc: np.ndarray,
    moves: np.ndarray,
) -> int:
    """The moves to try, best first: reserve and talon cards onto their successors, lone
    column cards onto theirs, then cards into an empty column (one stands for all)."""
    empty = -1
    for j in range(3, -1, -1):
        if col_len[j] == 0:
            empty = j
    top = reserve[sc[RN] - 1] if sc[RN] > 0 else -1
    # Talon cards in reach: this pass from the waste's top on, then (after a turn) the rest.
    reach = np.empty((48, 2), np.int64)
    nreach = 0
    for q in range(max(sc[PTR] - 1, 0), len(talon)):
        if (sc[PRESENT] >> q) & 1:
            reach[nreach, 0], reach[nreach, 1] = q, SRC_WASTE
            nreach += 1
    if sc[FLAG] == 1 and (sc[REDEALS] == UNLIMITED or sc[TURNS] < sc[REDEALS]):
        for q in range(0, sc[PTR] - 1):
            if (sc[PRESENT] >> q) & 1:
                reach[nreach, 0], reach[nreach, 1] = q, SRC_TURNED
                nreach += 1
    n = 0
    if top >= 0:
        j = _successor_column(top, col_top)
        if j >= 0:
            n = _add(moves, n, SRC_RESERVE, 0, top, j)
    open_talon = _open_talon(sc)
    for k in range(nreach):
        q, src = reach[k, 0], reach[k, 1]
        card = talon[q]
        if _fits_home(card, found):
            n = _add(moves, n, src, q, card, FOUNDATION)
        elif open_talon and not _wanted(card, found, col_top, col_len, reserve, where, sc):
            reach[k, 1] = -1  # stays in the talon: no column move for it
            continue
        j = _successor_column(card, col_top)
        if j >= 0:
            n = _add(moves, n, src, q, card, j)
    for i in range(4):
        if col_len[i] == 1:
            j = _successor_column(col_top[i], col_top)
            if j >= 0:
                n = _add(moves, n, i, 0, col_top[i], j)
    if empty >= 0:
        if top >= 0:
            n = _add(moves, n, SRC_RESERVE, 0, top, empty)
        for k in range(nreach):
            q = reach[k, 0]
            if reach[k, 1] >= 0:
                n = _add(moves, n, reach[k, 1], q, talon[q], empty)
        for i in range(4):
            if col_len[i] >= 2:
                n = _add(moves, n, i, 0, col_top[i], empty)
    return n


@njit(cache=True)
def _search(
    found: np.ndarray,
    col_top: np.ndarray,
    col_len: np.ndarray,
    reserve: np.ndarray,
    talon: np.ndarray,
    where: np.ndarray,
    sc: np.ndarray,
    tt_a: np.ndarray,
    tt_b: np.ndarray,
    tt_gen: np.ndarray,
    path: np.ndarray,
) -> bool:
    """Is a win reachable? On the way up from a win, the moves go into ``path``."""
    done = np.empty((52, 3), np.int64)
    ptr0, flag0, turns0 = sc[PTR], sc[FLAG], sc[TURNS]
    count = _auto(found, col_top, col_len, reserve, talon, sc, done)
    if count > 0:
        sc[FLAG] = 1
    won = found[0] + found[1] + found[2] + found[3] == 52
    fresh = False
    if not won:
        a, b = _key(found, col_top, col_len, sc)
        fresh = not _seen(a, b, tt_a, tt_b, tt_gen, sc[GEN])
        if fresh:
            sc[NODES] += 1
            if sc[NODES] > sc[LIMIT]:
                sc[ABORTED] = 1
                fresh = False
    if fresh:
        moves = np.empty((160, 4), np.int64)
        n = _moves(found, col_top, col_len, reserve, talon, where, sc, moves)
        for k in range(n):
            src, q, card, dest = moves[k, 0], moves[k, 1], moves[k, 2], moves[k, 3]
            ptr, turns, flag = sc[PTR], sc[TURNS], sc[FLAG]
            pile = SRC_WASTE if src == SRC_TURNED else src
            _take(pile, q, col_top, col_len, sc)
            _put(dest, card, found, col_top, col_len)
            if src >= SRC_RESERVE or dest == FOUNDATION:
                sc[FLAG] = 1  # a card came into play or home
            if src == SRC_TURNED:
                sc[TURNS] += 1
            if src >= SRC_WASTE:
                sc[PTR] = q  # drawn up to the card, which has left the waste
                sc[PTR] = _waste_top(sc) + 1
            won = _search(
                found, col_top, col_len, reserve, talon, where, sc, tt_a, tt_b, tt_gen, path
            )
            _unput(dest, card, found, col_top, col_len)
            _untake(pile, q, card, col_top, col_len, sc)
            sc[PTR], sc[TURNS], sc[FLAG] = ptr, turns, flag
            if won:
                _record(path, sc, src, card, dest, q)
                break
            if sc[ABORTED] == 1:
                break
    _undo_auto(found, col_top, col_len, sc, done, count)
    sc[PTR], sc[FLAG], sc[TURNS] = ptr0, flag0, turns0
    if won:
        for k in range(count - 1, -1, -1):
            _record(path, sc, done[k, 0], done[k, 1], FOUNDATION, done[k, 2])
    return bool(won)


@njit(cache=True)
def solve(
    found: np.ndarray,
    col_top: np.ndarray,
    col_len: np.ndarray,
    reserve: np.ndarray,
    talon: np.ndarray,
    where: np.ndarray,
    sc: np.ndarray,
    tt_a: np.ndarray,
    tt_b: np.ndarray,
    tt_gen: np.ndarray,
    path: np.ndarray,
) -> int:
    """1: winnable, 0: not, -1: the node limit stopped the search. The winning line is
    left in ``path`` (rows of source, card, destination, talon index), last move first."""
    won = _search(found, col_top, col_len, reserve, talon, where, sc, tt_a, tt_b, tt_gen, path)
    if won:
        return 1
    return -1 if sc[ABORTED] == 1 else 0
