"""The compiled search (Numba): the reference solver's class search on flat int8 arrays.

An explicit depth-first stack over one board that moves are played on and taken back from
(:mod:`.compiled_board`), a transposition table of 128-bit hashed class keys (open
addressing, shared by threads that search together), and, with ``reduce``, the cuts and
stubborn sets of :mod:`.compiled_analysis`. The names of those two modules are also
reached through this one, which is what the rest of the solver imports.
"""

from __future__ import annotations

import time

# Numba compiles no generator expressions, so loops stay loops here.
# ruff: noqa: SIM110
import numpy as np
from numba import njit, objmode

from ludoteca.solvers.gaps.compiled_analysis import doomed, movable, stubborn, upper_bound
from ludoteca.solvers.gaps.compiled_board import (
    EXTENSION_KEY,
    GAP,
    MAX_MOVES,
    SLEEP_MOVE,
    class_key,
    column_heads,
    commute,
    gen_moves,
    keyed,
    lean,
    mix,
    move_body,
    next_loose,
    order_moves,
    play,
    prefixes,
    row_bodies,
    sleeper,
    unplay,
)

DISCREPANCY_SALT = np.uint64(0x9E3779B97F4A7C15)
"""Mixed into a greedy search's keys with the discrepancies its line took."""


@njit(cache=True)
def _clock() -> float:
    with objmode(now="float64"):
        now = time.perf_counter()
    return now


@lean
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


@lean
def insert(table: np.ndarray, h1: np.uint64, h2: np.uint64) -> bool:
    """Add a key; False if it was there already."""
    slot = _probe(table, h1, h2)
    if slot >= 0:
        return False
    _store(table, -1 - slot, h1, h2)
    return True


@lean
def _store(table: np.ndarray, slot: np.int64, h1: np.uint64, h2: np.uint64) -> None:
    table[2 * slot] = h1
    table[2 * slot + 1] = h2


@njit(cache=True)
def grow(table: np.ndarray) -> np.ndarray:
    bigger = np.zeros(table.size * 2, dtype=np.uint64)
    carry(table, bigger)
    return bigger


@lean
def carry(table: np.ndarray, into: np.ndarray) -> int:
    """Put every key of ``table`` into the table ``into`` (which must have room for them);
    returns how many were new there."""
    added = 0
    for i in range(table.size // 2):
        if table[2 * i] != 0 and insert(into, table[2 * i], table[2 * i + 1]):
            added += 1
    return added


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
    greedy_from: int = -1,
    discrepancies: int = 0,
    sleep_sets: bool = True,
    nested: int = 0,
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

    With ``greedy_from`` >= 0 the search is *greedy*, a search for wins that gives up
    completeness: at a node ``greedy_from`` moves or more from the start where a move
    extends a row's sequence, the other moves count as *discrepancies*, and a line may
    take at most ``discrepancies`` of them (the key of a node then counts the ones its line
    took; with none left, the extension is the node's one move, taken without working out
    a stubborn set first, which nearly always kept it anyway: about 1.4 times the nodes a
    second, and on the hard deals the same wins after about as many nodes). It wins lines
    that
    are lines of the game, but its end (status 0) proves nothing: extending first loses
    wins (``tests/solvers/test_gaps.py``, the naive rules). On the deals the full search
    wins only after minutes, a win that needs one or two discrepancies, or none after the
    first few dozen moves, comes much sooner (the notebook, *Greedy searches for wins*).

    With ``reduce`` (and not greedy) and ``sleep_sets``, each node also has a *sleep set*
    (Godefroid's partial-order reduction of transitions, which composes with stubborn sets
    and the table): the moves searched at a node before the one being taken, and those
    asleep there, that commute with it (:func:`compiled_board.commute`) are asleep at the
    child, and a move asleep at a node is not taken: the class it leads to is reached by
    the other order, from the sibling searched first. It skips no node that decides
    anything: every position without a move (every win, every dead end) the search
    without sleep sets reaches, it reaches too (tests: the same wins and best dead ends on
    random small boards). What it saves are the moves into nodes already in the table and
    the cut checks of nodes met again (seed 112's loss proof: 1,323,648 nodes instead of
    1,609,586, about a quarter less time).

    With ``nested`` > 0 (and ``post_order``, so that nothing half searched is in the table)
    the search is an *interleaved* depth-first search: at a node with a choice of moves, once
    a move's subtree has entered ``nested`` nodes, the search leaves it (taking the line's
    moves back) and tries the node's other moves; when all are tried, it tries the node's
    moves again with twice the budget (the finished ones are in the table now, the others
    go on from the nodes they finished), and so on. A subtree that swallows the budget
    without a win, common 20-35 moves deep in hard deals, no longer holds up the moves
    beside it. It still searches every node in the end, so it decides as the plain search
    does (tests: the same verdicts on random small boards). A move left at its budget is
    put to sleep at none of the moves after it (only a searched move may be), and the
    node's sleep set goes back to what it inherited at each new round. Without the first,
    a search sharing the table in another order (the pair's first search) could skip
    what each counts on the other for: seed 90, won, came out "not winnable".

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
    extends = np.zeros(depth_cap, dtype=np.bool_)  # greedy: the node had an extension
    taken = np.zeros(depth_cap, dtype=np.int64)  # greedy: the discrepancies above each depth
    asleep = np.zeros((depth_cap, SLEEP_ENTRIES), dtype=np.int64)  # sleep sets (entries)
    nasleep = np.zeros(depth_cap, dtype=np.int64)
    sleeping = reduce and greedy_from < 0 and sleep_sets
    # With nested: the nodes entered when each depth's move was taken, what that move's
    # subtree may enter this round, the node's moves left at their budget (bit i: move i),
    # and the size of the sleep set the node inherited.
    entry = np.zeros(depth_cap, dtype=np.int64)
    budget = np.zeros(depth_cap, dtype=np.int64)
    deferred = np.zeros(depth_cap, dtype=np.int64)
    inherited = np.zeros(depth_cap, dtype=np.int64)
    next_check = 0
    line1 = np.zeros(depth_cap, dtype=np.uint64)  # with post_order: the line's keys
    line2 = np.zeros(depth_cap, dtype=np.uint64)
    buckets = np.zeros(LINE_BUCKETS, dtype=np.int64)
    ends = np.empty(suits, dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    keys = np.empty(MAX_MOVES, dtype=np.int64)
    options = np.empty(suits, dtype=np.int64)
    own = shared.size == 0
    table = np.zeros(1 << 17, dtype=np.uint64) if own else shared
    # The line to the best dead end so far, its first ``best_len`` moves (an array for the
    # whole search, not one per dead end: no reference counts in the loop). The moves of a
    # node are worked out in ``row`` and copied into ``moves`` (no view per node, either).
    best_buf = np.zeros(depth_cap, dtype=np.int64)
    best_len = 0
    row = np.empty(MAX_MOVES, dtype=np.int64)
    mov = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.uint64)
    member = np.zeros(cells, dtype=np.bool_)
    chosen = np.zeros(cells, dtype=np.bool_)
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
    elif insert(table, h1, h2):
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
    cut = reduce and cut_node(
        grid, pos, suits, ranks, mov, places, options, stop_at_win, best_dead, loose
    )
    # The stack and the table grow between the runs of the inner loop, which reassigns no
    # array: an array reassigned in the loop that runs per node costs reference counts on
    # every pass (Numba's copies of loop-carried variables).
    while depth >= 0:
        if depth + 1 == depth_cap:
            depth_cap *= 2
            moves = _grown64(moves, depth_cap)
            nmoves = _grown1(nmoves, depth_cap)
            index = _grown1(index, depth_cap)
            sources = _grown1(sources, depth_cap)
            headss = _grown1(headss, depth_cap)
            looses = _grown1(looses, depth_cap)
            forks = _grown1(forks, depth_cap)
            extends = _grown1(extends, depth_cap)
            taken = _grown1(taken, depth_cap)
            line1 = _grown1(line1, depth_cap)
            line2 = _grown1(line2, depth_cap)
            best_buf = _grown1(best_buf, depth_cap)
            asleep = _grown64(asleep, depth_cap)
            nasleep = _grown1(nasleep, depth_cap)
            entry = _grown1(entry, depth_cap)
            budget = _grown1(budget, depth_cap)
            deferred = _grown1(deferred, depth_cap)
            inherited = _grown1(inherited, depth_cap)
        if own and stored * 4 > table.size:
            table = grow(table)
        while depth >= 0:
            if fresh and nested > 0 and post_order and states >= next_check:
                next_check = states + min(nested, 1024)
                # The shallowest move of the line whose subtree has used its budget: leave it.
                leave = -1
                for d in range(depth):
                    if nmoves[d] > 1 and index[d] <= 63 and states - entry[d] > budget[d]:
                        leave = d
                        break
                if leave >= 0:
                    while depth > leave:
                        buckets[_bucket(line1[depth])] -= 1
                        depth -= 1
                        loose = _take_back(
                            grid,
                            pos,
                            body,
                            suits,
                            ranks,
                            z1,
                            z2,
                            moves,
                            index,
                            sources,
                            headss,
                            looses,
                            depth,
                        )
                    deferred[depth] |= np.int64(1) << np.int64(index[depth] - 1)
                    # The move left is not searched: it must not sleep at the moves after it
                    # (their nodes enter the table as finished, and a search sharing the
                    # table would count on this subtree for what they skip). Its entry, if
                    # it has one, is the node's last.
                    left = moves[depth, index[depth] - 1]
                    top = nasleep[depth] - 1
                    if top >= inherited[depth] and asleep[depth, top] & SLEEP_MOVE == left:
                        nasleep[depth] = top
                    fresh = False
                    continue
            if fresh:
                fresh = False
                index[depth] = 0
                nmoves[depth] = 0
                budget[depth] = nested
                deferred[depth] = 0
                inherited[depth] = nasleep[depth]
                if not cut:
                    score = prefixes(grid, suits, ranks, ends, loose)
                    best = max(best, score)
                    n = gen_moves(grid, pos, suits, ranks, perms, counts, row, scratch, loose, lazy)
                    forced = False
                    if (
                        reduce
                        and n > 1
                        and 0 <= greedy_from <= depth
                        and taken[depth] >= discrepancies
                    ):
                        order_moves(row, n, ends, grid, pos, suits, ranks, salt, keys, twos_last)
                        forced = keys[0] >= EXTENSION_KEY
                        if forced:
                            n = 1
                    if reduce and not forced:
                        n = stubborn(
                            row, n, grid, pos, ranks, mov, member, chosen, todo, loose, held
                        )
                    nmoves[depth] = n
                    if n == 0 and score > best_dead:
                        best_dead = score
                        best_len = depth
                        for d in range(depth):
                            best_buf[d] = moves[d, index[d] - 1]
                        if score == full:
                            status = 1
                            if stop_at_win:
                                stop[0] = 1
                                best_line = best_buf[:best_len].copy()
                                return status, best, best_dead, states, best_line, best_line, stored
                    order_moves(row, n, ends, grid, pos, suits, ranks, salt, keys, twos_last)
                    extends[depth] = (
                        0 <= greedy_from <= depth and n > 1 and keys[0] >= EXTENSION_KEY
                    )
                    if extends[depth] and taken[depth] >= discrepancies:
                        n = 1
                        nmoves[depth] = 1
                    fork = forks[depth]
                    if n > 1 and fork < 63 and (reversed_depths >> fork) & 1:
                        for i in range(n):
                            moves[depth, i] = row[n - 1 - i]
                    else:
                        for i in range(n):
                            moves[depth, i] = row[i]
            if index[depth] == nmoves[depth]:
                if deferred[depth]:
                    # Moves left at their budget: every move again, with twice the budget.
                    deferred[depth] = 0
                    budget[depth] *= 2
                    index[depth] = 0
                    nasleep[depth] = inherited[depth]
                    continue
                if post_order:
                    # Every move of the node is searched: now it may enter the table.
                    buckets[_bucket(line1[depth])] -= 1
                    if insert(table, line1[depth], line2[depth]):
                        stored += 1
                depth -= 1
                if depth >= 0:
                    loose = _take_back(
                        grid,
                        pos,
                        body,
                        suits,
                        ranks,
                        z1,
                        z2,
                        moves,
                        index,
                        sources,
                        headss,
                        looses,
                        depth,
                    )
                continue
            if depth + 1 == depth_cap:
                break  # the stack grows in the outer loop, and the move is taken then
            move = moves[depth, index[depth]]
            index[depth] += 1
            card = move & 0xFF
            source = int(pos[card])
            if sleeping and _sleep(asleep, nasleep, depth, move, source, ranks):
                continue
            heads = column_heads(grid, suits, ranks)
            play(grid, pos, suits, ranks, move)
            was = loose
            loose = next_loose(grid, suits, ranks, move, loose, lazy)
            move_body(body, card, source, (move >> 8) & 0xFF, ranks, z1, z2)
            h1, h2 = keyed(grid, body, suits, ranks, z1, z2, loose)
            if greedy_from >= 0:
                # The first of a node's moves is its extension, when it has one.
                taken[depth + 1] = taken[depth] + (1 if extends[depth] and index[depth] > 1 else 0)
                if discrepancies > 0:
                    h1 ^= mix(np.uint64(taken[depth + 1]) + DISCREPANCY_SALT)
                    h2 ^= mix(np.uint64(taken[depth + 1]) ^ DISCREPANCY_SALT)
            if states >= max_states or stored >= max_stored:
                status = -1 if states >= max_states else -2
                best_line = best_buf[:best_len].copy()
                line = np.empty(0, dtype=np.int64)
                return status, best, best_dead, states, line, best_line, stored
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
                and cut_node(
                    grid, pos, suits, ranks, mov, places, options, stop_at_win, best_dead, loose
                )
            )
            if not own and not cut and slot < 0 and not through and not cycle:
                # Another search may have taken the slot (or entered this node) meanwhile.
                slot = _probe(table, h1, h2)
            if slot >= 0 or cut or cycle:
                move_body(body, card, source, (move >> 8) & 0xFF, ranks, z1, z2)
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
            # The clock is read with no deadline too: Ctrl-C's handler (Python) runs only
            # when Python code does, and a search under a state limit ran on deaf to it.
            if states & 0xFFF == 0 and (stop[0] or (_clock() > deadline and deadline > 0.0)):
                best_line = best_buf[:best_len].copy()
                return -3, best, best_dead, states, np.empty(0, dtype=np.int64), best_line, stored
            if cut:
                continue
            sources[depth] = source
            headss[depth] = heads
            looses[depth] = was
            forks[depth + 1] = forks[depth] + (nmoves[depth] > 1)
            entry[depth] = states
            depth += 1
            fresh = True
            if own and stored * 4 > table.size:
                break  # the table grows in the outer loop
    best_line = best_buf[:best_len].copy()
    line = best_line if status == 1 else np.empty(0, dtype=np.int64)
    return status, best, best_dead, states, line, best_line, stored


@lean
def _take_back(
    grid: np.ndarray,
    pos: np.ndarray,
    body: np.ndarray,
    suits: int,
    ranks: int,
    z1: np.ndarray,
    z2: np.ndarray,
    moves: np.ndarray,
    index: np.ndarray,
    sources: np.ndarray,
    headss: np.ndarray,
    looses: np.ndarray,
    depth: int,
) -> int:
    """Take back the move the search took last at ``depth`` (board, row hashes); returns
    the loose rows as they were before it."""
    move = moves[depth, index[depth] - 1]
    card = move & 0xFF
    source = sources[depth]
    move_body(body, card, source, (move >> 8) & 0xFF, ranks, z1, z2)
    unplay(grid, pos, suits, ranks, move, source, headss[depth])
    return int(looses[depth])


SLEEP_ENTRIES = 64
"""The most moves asleep at one node (a node has at most a few dozen moves; beyond, a
searched move is simply not put to sleep, which only saves less)."""


@lean
def _sleep(
    asleep: np.ndarray, nasleep: np.ndarray, depth: int, move: int, source: int, ranks: int
) -> bool:
    """Sleep sets (see :func:`search`) as ``move`` (its card in cell ``source``) is taken at
    ``depth``: True when it is asleep there (skip it). Else the child's sleep set (row
    ``depth + 1``) gets the entries of this node's that commute with it, and the move
    joins this node's, for the moves taken after it."""
    count = nasleep[depth]
    for i in range(count):
        if asleep[depth, i] & SLEEP_MOVE == move:
            return True
    entry = sleeper(move, source, ranks)
    kept = 0
    if entry >= 0:
        for i in range(count):
            other = asleep[depth, i]
            if commute(other, entry, ranks):
                asleep[depth + 1, kept] = other
                kept += 1
        if count < asleep.shape[1]:
            asleep[depth, count] = entry
            nasleep[depth] = count + 1
    nasleep[depth + 1] = kept
    return False


LINE_BUCKETS = 4096
"""With post_order, how many counters say which keys may be on the line (most misses cost
one read)."""


@lean
def _bucket(h1: np.uint64) -> np.int64:
    return np.int64((h1 >> np.uint64(20)) & np.uint64(LINE_BUCKETS - 1))


@lean
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


@lean
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


@lean
def cut_node(
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
