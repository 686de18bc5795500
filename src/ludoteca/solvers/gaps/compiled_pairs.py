"""h^2 for Gaps: which pairs of facts can hold at once — a much stronger, much dearer cut.

**Not used by the search.** A research component kept for whoever works on the solver next
(``docs/solvers/gaps-notebook.md``, *h^2, tried and left off*). The frozen-card analysis
(:mod:`.compiled_analysis`) lets a cell count as "may be empty" for good once it may first
empty, though it is refilled at once; in positions of seed 112 whose reduced subtree has
2-10 nodes, 77 % of the places it claims for cards other than 2s are unreachable. This
analysis reasons about pairs of facts instead (a card stands in a cell; a cell is empty),
over the places the frozen-card analysis allows and the concrete moves (a 2 into any gap of
column 0): the least set of pairs that may hold together, from the position's own pairs,
closed under the moves (h^2, as in planning's dead-end detection). A position is cut when
no assignment of suits to rows has all its final facts compatible in pairs. A class with
loose rows is judged over every arrangement of its loose 2s at once.

It is sound (tests: never a winnable small deal cut; a loose class judged by every
arrangement) and strong: as the cut of every node of one search, seed 112's loss proof took
430,988 nodes instead of 1,609,586, 129 754,426 instead of 3,984,891, 4 1,152,926 instead
of 4,149,553. But a call takes 25-250 us (about 280 facts, 40,000 compatible pairs) against
about 2 us for a whole node, so no proof got faster (112: 54 s instead of 3.2 s). It needs
a formulation about 20 times cheaper before the search can use it.
"""

from __future__ import annotations

import numpy as np

from ludoteca.solvers.gaps.compiled_board import GAP, lean, row_loose

H2_FACTS = 640
"""The most facts a call handles (``rows`` is this square, in bits); beyond: cannot tell."""

H2_LIMIT = 10000
"""Beyond this many places of the movable cards in all: cannot tell (a knob of the
experiments that called it only where places are few)."""

H2_ACTIONS = 16384
"""Rows of ``acts``: the most (card, source, target) moves a call handles; beyond: cannot tell."""

_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.array(
    [
    0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
    ],
    dtype=np.int64,
)  # fmt: skip
"""The bit index of a 64-bit word with one bit set, by de Bruijn multiplication."""


@lean
def _index(low: np.uint64) -> int:
    """The index of the one bit set in ``low``."""
    return int(_DEBRUIJN_INDEX[(low * _DEBRUIJN) >> np.uint64(58)])


@lean
def _bit(rows: np.ndarray, i: int, j: int) -> bool:
    return bool((rows[i, j >> 6] >> np.uint64(j & 63)) & np.uint64(1))


@lean
def _set(rows: np.ndarray, i: int, j: int) -> None:
    rows[i, j >> 6] |= np.uint64(1) << np.uint64(j & 63)


@lean
def pairs_doomed(
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    places: np.ndarray,
    mov: np.ndarray,
    perms: np.ndarray,
    counts: np.ndarray,
    idx: np.ndarray,
    rows: np.ndarray,
    acts: np.ndarray,
    compat: np.ndarray,
    goal: np.ndarray,
    loose: int,
    stamp: np.ndarray,
) -> bool:
    """h^2: can the position still win, judged by which pairs of facts (a card in a cell, a
    cell empty) can hold at once? Facts: the places of the plain analysis, and the cells
    that may empty. Concrete moves (a 2 into any gap of column 0). ``idx`` (cells * (cells
    + 1)), ``rows`` (H2_FACTS x words), ``acts`` (n x 5), ``compat`` and ``goal`` (words):
    scratch. Returns False when it cannot tell (too many facts)."""
    cells = suits * ranks
    one = np.uint64(1)
    nf = 0
    for x in range(cells):
        for c in range(cells + 1):
            idx[x * (cells + 1) + c] = -1
    spread = 0
    for x in range(cells):
        if x % ranks == 0:
            continue
        p = places[x]
        before = nf
        for c in range(cells):
            if (p >> np.uint64(c)) & one:
                idx[x * (cells + 1) + c] = nf
                nf += 1
        if nf - before > 1:
            spread += nf - before
    if spread > H2_LIMIT:
        return False
    # gap(c) at idx[c * (cells + 1) + cells]
    for c in range(cells):
        g = grid[c]
        if g == GAP or mov[g] or (g % ranks == 1 and places[g] != one << np.uint64(c)):
            idx[c * (cells + 1) + cells] = nf
            nf += 1
    if nf > H2_FACTS:
        return False
    words = (nf + 63) >> 6
    for i in range(nf):
        for w in range(words):
            rows[i, w] = np.uint64(0)
    # initial state (a class with loose rows: every arrangement of its loose 2s at once, so
    # the pairs of any two of them, and of a loose 2 with everything else)
    for w in range(words):
        goal[w] = np.uint64(0)
    for c in range(cells):
        g = grid[c]
        if g == GAP:
            f = idx[c * (cells + 1) + cells]
            goal[f >> 6] |= one << np.uint64(f & 63)
        elif loose and c % ranks == 0 and row_loose(loose, c // ranks):
            for r in range(suits):
                if row_loose(loose, r):
                    f = idx[g * (cells + 1) + r * ranks]
                    goal[f >> 6] |= one << np.uint64(f & 63)
        else:
            f = idx[g * (cells + 1) + c]
            goal[f >> 6] |= one << np.uint64(f & 63)
    for c in range(cells):
        g = grid[c]
        if g == GAP:
            f = idx[c * (cells + 1) + cells]
            for w in range(words):
                rows[f, w] = goal[w]
        elif loose and c % ranks == 0 and row_loose(loose, c // ranks):
            for r in range(suits):
                if not row_loose(loose, r):
                    continue
                f = idx[g * (cells + 1) + r * ranks]
                for w in range(words):
                    rows[f, w] = goal[w]
                # not the same 2 elsewhere, nor another 2 in the same cell
                for r2 in range(suits):
                    if not row_loose(loose, r2):
                        continue
                    if r2 != r:
                        e = idx[g * (cells + 1) + r2 * ranks]
                        rows[f, e >> 6] &= ~(one << np.uint64(e & 63))
                    h = grid[r2 * ranks]
                    if h != g:
                        e = idx[h * (cells + 1) + r * ranks]
                        rows[f, e >> 6] &= ~(one << np.uint64(e & 63))
        else:
            f = idx[g * (cells + 1) + c]
            for w in range(words):
                rows[f, w] = goal[w]
    # actions: (pre0 or -1, gap target, at source, add at target, add gap source)
    na = 0
    for x in range(cells):
        if x % ranks == 0:
            continue
        p = places[x]
        if p & (p - one) == 0:
            continue  # a frozen card: no move
        targets = p
        while targets:
            lowc = targets & (np.uint64(0) - targets)
            targets ^= lowc
            c = _index(lowc)
            gt = idx[c * (cells + 1) + cells]
            if gt < 0:
                continue
            if x % ranks == 1:
                if c % ranks != 0:
                    continue
                pre0 = -1
            else:
                if c % ranks == 0:
                    continue
                pre0 = idx[(x - 1) * (cells + 1) + c - 1]
                if pre0 < 0:
                    continue
            sources = p & ~lowc
            while sources:
                lows = sources & (np.uint64(0) - sources)
                sources ^= lows
                src = _index(lows)
                gs = idx[src * (cells + 1) + cells]
                if gs < 0:
                    continue
                if na >= acts.shape[0]:
                    return False
                acts[na, 0] = pre0
                acts[na, 1] = gt
                acts[na, 2] = idx[x * (cells + 1) + src]
                acts[na, 3] = idx[x * (cells + 1) + c]
                acts[na, 4] = gs
                acts[na, 5] = -1
                na += 1
    for f in range(nf):
        stamp[f] = 0
    # Semi-naive rounds: an action is looked at again only when one of its preconditions'
    # rows changed since it was last applied.
    changed = True
    tick = 1
    while changed:
        if _goal_met(idx, rows, goal, suits, ranks, perms, counts, words):
            return False
        changed = False
        for a in range(na):
            pre0 = acts[a, 0]
            gt = acts[a, 1]
            src = acts[a, 2]
            last = acts[a, 5]
            if (
                last >= 0
                and stamp[gt] <= last
                and stamp[src] <= last
                and (pre0 < 0 or stamp[pre0] <= last)
            ):
                continue
            if not _bit(rows, gt, gt) or not _bit(rows, src, src) or not _bit(rows, gt, src):
                continue
            if pre0 >= 0 and (
                not _bit(rows, pre0, pre0) or not _bit(rows, pre0, gt) or not _bit(rows, pre0, src)
            ):
                continue
            acts[a, 5] = tick
            for w in range(words):
                v = rows[gt, w] & rows[src, w]
                if pre0 >= 0:
                    v &= rows[pre0, w]
                compat[w] = v
            compat[gt >> 6] &= ~(one << np.uint64(gt & 63))
            compat[src >> 6] &= ~(one << np.uint64(src & 63))
            at = acts[a, 3]
            gs = acts[a, 4]
            compat[at >> 6] |= one << np.uint64(at & 63)
            compat[gs >> 6] |= one << np.uint64(gs & 63)
            for k in range(2):
                f = at if k == 0 else gs
                for w in range(words):
                    new = compat[w] & ~rows[f, w]
                    if new:
                        changed = True
                        rows[f, w] |= new
                        tick += 1
                        stamp[f] = tick
                        while new:
                            low = new & (np.uint64(0) - new)
                            b = _index(low)
                            _set(rows, w * 64 + b, f)
                            stamp[w * 64 + b] = tick
                            new ^= low
    return not _goal_met(idx, rows, goal, suits, ranks, perms, counts, words)


@lean
def _goal_met(
    idx: np.ndarray,
    rows: np.ndarray,
    goal: np.ndarray,
    suits: int,
    ranks: int,
    perms: np.ndarray,
    counts: np.ndarray,
    words: int,
) -> bool:
    """Is there an assignment of suits to rows whose final facts are pairwise reachable?"""
    cells = suits * ranks
    one = np.uint64(1)
    for i in range(counts[suits]):
        ok = True
        for w in range(words):
            goal[w] = np.uint64(0)
        for s in range(suits):
            r = perms[suits, i, s]
            for k in range(1, ranks):
                f = idx[(s * ranks + k) * (cells + 1) + r * ranks + k - 1]
                if f < 0:
                    ok = False
                    break
                goal[f >> 6] |= one << np.uint64(f & 63)
            if not ok:
                break
        if not ok:
            continue
        for s in range(suits):
            r = perms[suits, i, s]
            for k in range(1, ranks):
                f = idx[(s * ranks + k) * (cells + 1) + r * ranks + k - 1]
                for w in range(words):
                    if goal[w] & ~rows[f, w]:
                        ok = False
                if not ok:
                    break
            if not ok:
                break
        if ok:
            return True
    return False
