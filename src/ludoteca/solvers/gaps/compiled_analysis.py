"""What a position can still do, compiled (Numba): frozen cards, cuts and stubborn sets.

For every card, the cells it may stand in at any later time (a least fixpoint, also with one
card held in place); from those, whether a position can still win (Hall's condition over
the suits' rows) and how many cards in sequence it can still reach; and stubborn sets, the
partial-order reduction that keeps every position with no move left. See
``docs/solvers/gaps-notebook.md`` for why each rule is sound and what it buys.
"""

from __future__ import annotations

# Numba compiles no generator expressions, so loops stay loops here.
# ruff: noqa: SIM110
import numpy as np

from ludoteca.solvers.gaps.compiled_board import GAP, lean, loose_two, row_loose


# --- reductions: frozen cards, a bound on what a position can still reach, stubborn sets ------
@lean
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


@lean
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
    _widen(grid, pos, suits, ranks, places, loose, held)
    one = np.uint64(1)
    # A card can move if it may stand anywhere but its cell (a loose 2 not held may: its
    # places are the loose rows' column 0 from the start).
    for suit in range(suits):
        base = suit * ranks
        mov[base] = False
        for x in range(base + 1, base + ranks):
            i = np.uint64(x)
            mov[i] = places[i] != one << np.uint64(pos[i])


@lean
def _widen(
    grid: np.ndarray,
    pos: np.ndarray,
    suits: int,
    ranks: int,
    places: np.ndarray,
    loose: int,
    held: int,
) -> None:
    """The ``places`` of :func:`movable_holding`, without ``mov``."""
    cells = suits * ranks
    one = np.uint64(1)
    zero = np.uint64(0)
    col0 = zero
    spread = zero
    for r in range(suits):
        col0 |= one << np.uint64(r * ranks)
        if row_loose(loose, r):
            spread |= one << np.uint64(r * ranks)
    everywhere = (one << np.uint64(cells)) - one
    inner = everywhere & ~col0
    free = zero
    for cell in range(cells):
        if grid[cell] == GAP:
            free |= one << np.uint64(cell)
    # What each suit's cards could enter (4 suits at most: scalars, no allocation per call).
    reach0 = reach1 = reach2 = reach3 = everywhere
    # (Rows and columns from nested loops: no division per card.)
    for suit in range(suits):
        base = suit * ranks
        places[base] = zero
        for x in range(base + 1, base + ranks):
            i = np.uint64(x)  # (an unsigned index: no check for a negative one)
            places[i] = one << np.uint64(pos[i])
        two = base + 1
        if (spread >> np.uint64(pos[two])) & one and two != held:
            places[two] = spread
    # Each suit's cards are widened in order, from the 2 up; a card that can move frees its
    # cell, which may widen cards of any suit, so a suit is gone over again only when a cell
    # freed since its last pass is one its cards could enter (``reach``): a suit with none
    # cannot gain, and none dirty leaves the least fixpoint. (Without branches on whether a
    # card widens, which the processor cannot guess: the places of the card before are
    # carried along, every card's places are written back.)
    dirty = (1 << suits) - 1
    while dirty:
        for suit in range(suits):
            if not (dirty >> suit) & 1:
                continue
            dirty &= ~(1 << suit)
            before = free
            reach = col0
            two = suit * ranks + 1
            last = two + ranks - 1
            prev = places[two]
            if two != held:
                wider = prev | (free & col0)
                # (A loose 2 is movable from the start, yet its cell may empty only once
                # it may reach a cell of column 0 outside the loose rows: when a card
                # leaving column 0 frees the pool.)
                grown = wider != prev
                places[two] = wider
                free |= (one << np.uint64(pos[two])) & (zero - np.uint64(grown))
                prev = wider
            room = inner & free
            grown = zero
            for x in range(two + 1, last):
                i = np.uint64(x)  # (an unsigned index: no check for a negative one)
                now = places[i]
                if x == held:
                    prev = now
                    continue
                enter = (prev << one) & inner
                reach |= enter
                wider = now | (enter & room)
                places[i] = wider
                grown |= (one << np.uint64(pos[i])) & (zero - np.uint64(wider != now))
                prev = wider
            free |= grown
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


@lean
def _may_stand(places: np.ndarray, code: int, cell: int) -> bool:
    return bool((places[code] >> np.uint64(cell)) & np.uint64(1))


@lean
def _suit_rows(suit: int, suits: int, ranks: int, places: np.ndarray) -> int:
    """Rows (bit mask) where the whole suit could still end in order: its 2 may reach the
    row's column 0 and each card the cell of its rank in that row. (The card k places after
    the 2 needs bit k of the row: shifted right by k, it stands on the row's column 0, so one
    AND over the suit's cards tells every row at once.)"""
    two = suit * ranks + 1
    every = places[two]
    for k in range(1, ranks - 1):
        every &= places[two + k] >> np.uint64(k)
    rows = 0
    for r in range(suits):
        if (every >> np.uint64(r * ranks)) & np.uint64(1):
            rows |= 1 << r
    return rows


@lean
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


@lean
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


@lean
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
    the seed, which never moves in those lines, so ``places`` (scratch) takes the analysis
    of :func:`movable_holding` with the seed held (its places alone, :func:`_widen`): a card
    whose moves all need the seed to move first stays out (session of 2026-11-24, evening).
    The analysis holds only the seed, not the set as it grows: a card of the set held too
    would only make that analysis smaller, so this one is an over-approximation, hence
    sound."""
    suits = grid.size // ranks
    for x in range(member.size):
        member[x] = False
    member[seed] = True
    _widen(grid, pos, suits, ranks, places, loose, seed)
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
            if loose and pos[y] % ranks == 0 and row_loose(loose, pos[y] // ranks):
                return -1
            for r in range(suits):
                head = grid[r * ranks]
                if head == GAP:
                    return -1
                if head % ranks != 1 and not member[head] and _moves(places, pos, head):
                    member[head] = True
                    todo[top] = head
                    top += 1
            continue
        adds0 = y - 1
        adds1 = -1
        if loose and y % ranks == 2 and loose_two(grid, y - 1, suits, ranks, loose):
            # The 3 of a loose 2: see _loose_three; the loose 2 never joins.
            top = _loose_three(grid, ranks, loose, member, todo, top, places, pos)
            adds0 = -1
            can = _column1_gap(grid, suits, ranks, loose)
        else:
            p = pos[y - 1]
            target = p + 1 if p % ranks != ranks - 1 else -1
            can = target >= 0 and grid[target] == GAP
            if not can and target >= 0 and grid[target] != y and _moves(places, pos, grid[target]):
                adds1 = grid[target]
        if can:
            enabled += 1
            if enabled >= enough:
                return enough
            s = pos[y]
            if y % ranks != ranks - 1 and s % ranks != ranks - 1:
                right = grid[s + 1]
                if right == GAP or (
                    right != y + 1 and not member[right] and _moves(places, pos, right)
                ):
                    adds1 = y + 1
        if adds0 >= 0 and not member[adds0] and _moves(places, pos, adds0):
            member[adds0] = True
            todo[top] = adds0
            top += 1
        if adds1 >= 0 and not member[adds1]:
            member[adds1] = True
            todo[top] = adds1
            top += 1
    return enabled


@lean
def _moves(places: np.ndarray, pos: np.ndarray, code: int) -> bool:
    """Can the card move, by the analysis in ``places``? (It may stand elsewhere.)"""
    return bool(places[code] != np.uint64(1) << np.uint64(pos[code]))


@lean
def _column1_gap(grid: np.ndarray, suits: int, ranks: int, loose: int) -> bool:
    """Does a loose row have a gap in column 1 (which the 3 of any loose 2 may fill)?"""
    for r in range(suits):
        if row_loose(loose, r) and grid[r * ranks + 1] == GAP:
            return True
    return False


@lean
def _loose_three(
    grid: np.ndarray,
    ranks: int,
    loose: int,
    member: np.ndarray,
    todo: np.ndarray,
    top: int,
    places: np.ndarray,
    pos: np.ndarray,
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
        if row_loose(loose, r):
            found = (head + 1, grid[r * ranks + 1])
        else:
            found = (head, GAP) if head != GAP and head % ranks != 1 else (GAP, GAP)
        for z in found:
            if z != GAP and not member[z] and _moves(places, pos, z):
                member[z] = True
                todo[top] = z
                top += 1
    return top


@lean
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
        size = _closure(card, grid, pos, ranks, mov, member, todo, fewest, loose, places)
        if size < 0:
            continue  # this seed gives no set; another may
        if size < fewest:
            fewest = size
            for x in range(member.size):
                best[x] = member[x]
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
