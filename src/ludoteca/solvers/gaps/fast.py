"""The compiled solver behind the same interface as the reference: :func:`search`."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from ludoteca.solvers.gaps import beam as beams
from ludoteca.solvers.gaps import compiled_board, kernel, novelty
from ludoteca.solvers.gaps.board import GAP, Board, Move
from ludoteca.solvers.gaps.reference import Answer

UNLIMITED = 1 << 62
_NO_TABLE = np.zeros(0, dtype=np.uint64)


@cache
def _tables(ranks: int, cells: int) -> tuple[np.ndarray, ...]:
    perms, counts = compiled_board.permutation_table()
    return (
        compiled_board.zobrist(ranks, cells, 1),
        compiled_board.zobrist(ranks, cells, 2),
        perms,
        counts,
    )


def unpack(move: int) -> Move:
    return move & 0xFF, (move >> 8) & 0xFF, move >> 16


def search(
    start: Board,
    max_states: int | None = None,
    stop_at_win: bool = True,
    salt: int = 0,
    reduce: bool = False,
    deadline: float = 0.0,
    shared: np.ndarray | None = None,
    stop: np.ndarray | None = None,
    reversed_depths: int = 0,
    twos_last: bool = False,
    max_stored: int | None = None,
    post_order: bool = False,
    sleep_sets: bool = True,
) -> Answer:
    """One depth-first search (see :func:`kernel.search`); ``shared`` and ``stop`` let
    searches in parallel threads share a table and stop one another; ``reversed_depths``
    (bit d: the d-th node along a line with a choice of moves) tries those nodes' moves in
    reverse order, and ``twos_last`` tries 2s into column 0 last rather than early (see
    :func:`compiled_board.order_moves`).
    ``max_stored``: stop after putting that many nodes in the table (cut nodes take no
    room), which keeps a shared table from filling. With ``post_order`` a node enters the
    table only once all its moves are searched (what a search stopped early leaves may be
    skipped by the next), and every node found in the table is skipped. ``sleep_sets``
    (with ``reduce``): skip the moves that only reach, in another order, what a sibling
    searched first reaches."""
    answer, _ = _searched(
        start,
        max_states,
        stop_at_win,
        salt,
        reduce,
        deadline,
        shared,
        stop,
        reversed_depths,
        twos_last,
        max_stored,
        0 if post_order else 1,
        post_order,
        sleep_sets=sleep_sets,
    )
    return answer


def greedy(
    start: Board,
    max_states: int | None,
    greedy_from: int = 0,
    discrepancies: int = 0,
    salt: int = 0,
    deadline: float = 0.0,
    stop: np.ndarray | None = None,
    max_stored: int | None = None,
) -> Answer:
    """A search for wins that gives up completeness (see :func:`kernel.search`): from the
    ``greedy_from``-th move of a line on, where a move extends a row's sequence, the line
    may take another move only ``discrepancies`` times in all. A win is a win, with its
    line; any other end is undecided (``stopped`` is ``"greedy"`` when it saw every node it
    allows). Its table is its own."""
    answer, _ = _searched(
        start,
        max_states,
        True,
        salt,
        True,
        deadline,
        None,
        stop,
        0,
        False,
        max_stored,
        1,
        False,
        greedy_from,
        discrepancies,
    )
    return answer


def _searched(
    start: Board,
    max_states: int | None,
    stop_at_win: bool,
    salt: int,
    reduce: bool,
    deadline: float,
    shared: np.ndarray | None,
    stop: np.ndarray | None,
    reversed_depths: int,
    twos_last: bool,
    max_stored: int | None,
    through_forks: int,
    post_order: bool = False,
    greedy_from: int = -1,
    discrepancies: int = 0,
    sleep_sets: bool = True,
    nested: int = 0,
) -> tuple[Answer, int]:
    """:func:`search`, with the kernel's ``through_forks`` and ``nested`` (an interleaved
    search, with ``post_order``), and the number of nodes it put in the table."""
    shape = start.shape
    z1, z2, perms, counts = _tables(shape.ranks, shape.cells)
    status, best, best_dead, states, line, best_line, stored = kernel.search(
        np.array(start.grid, dtype=np.int8),
        shape.suits,
        shape.ranks,
        UNLIMITED if max_states is None else max_states,
        stop_at_win,
        z1,
        z2,
        perms,
        counts,
        np.uint64(salt),
        reduce,
        deadline,
        _NO_TABLE if shared is None else shared,
        np.zeros(1, dtype=np.int64) if stop is None else stop,
        reversed_depths,
        twos_last,
        UNLIMITED if max_stored is None else max_stored,
        through_forks,
        post_order,
        greedy_from,
        discrepancies,
        sleep_sets,
        nested,
    )
    if greedy_from >= 0 and status == 0:
        status = -4  # a greedy search's end proves nothing
    winnable = {1: True, 0: False}.get(int(status))
    chosen = [int(m) for m in (line if status == 1 else best_line)]
    if reduce:
        chosen = arranged(start, chosen)
    answer = Answer(
        winnable,
        int(best),
        int(best_dead),
        int(states),
        [unpack(m) for m in chosen],
        status >= 0,
        STOPPED.get(int(status), ""),
    )
    return answer, int(stored)


BEAM_WIDTHS = (1_000, 4_000)
"""The beams :func:`decide` tries beside the first full search, narrowest first."""


def beam(
    start: Board,
    widths: tuple[int, ...] = BEAM_WIDTHS,
    salt: int = 0,
    stop: np.ndarray | None = None,
) -> Answer | None:
    """A win found by beam searches of these widths (see :mod:`beam`), or None: then
    nothing is decided. ``stop[0]`` non-zero stops it (checked once a level); a win sets
    it, which stops a search given the same array."""
    shape = start.shape
    z1, z2, perms, counts = _tables(shape.ranks, shape.cells)
    grid = np.array(start.grid, dtype=np.int8)
    stop = np.zeros(1, dtype=np.int64) if stop is None else stop
    nodes = 0
    for width in widths:
        line, generated = beams.beam(
            grid, shape.suits, shape.ranks, z1, z2, perms, counts, width, np.uint64(salt), stop
        )
        nodes += int(generated)
        if line.size:
            stop[0] = 1
            moves = arranged(start, [int(m) for m in line])
            return Answer(True, shape.full, shape.full, nodes, [unpack(m) for m in moves])
        if stop[0]:
            break
    return None


NOVELTY_STATES = 5_000_000
"""The most nodes of the novelty search beside the search alone (see :func:`novel`): about
5 s of one thread here. Its classes (76 bytes each) and tables took 380 MiB at most
(deal 262, the whole budget), freed before two searches share the large table."""

NOVELTY_AFTER = 1
"""How many greedy searches run beside the search alone before the novelty search: the
strictest one, which wins deal 376 within 330,000 nodes where the novelty search does not."""


def novel(
    start: Board,
    max_states: int = NOVELTY_STATES,
    stop: np.ndarray | None = None,
    deadline: float = 0.0,
) -> Answer | None:
    """A win found by the best-first search by novelty (see :mod:`novelty`), or None: then
    nothing is decided. ``stop[0]`` non-zero or the clock past ``deadline`` stops it; a win
    sets ``stop[0]``."""
    shape = start.shape
    z1, z2, perms, counts = _tables(shape.ranks, shape.cells)
    grid = np.array(start.grid, dtype=np.int8)
    stop = np.zeros(1, dtype=np.int64) if stop is None else stop
    line, nodes = novelty.search(
        grid, shape.suits, shape.ranks, z1, z2, perms, counts, max_states, stop, deadline
    )
    if not line.size:
        return None
    stop[0] = 1
    moves = arranged(start, [int(m) for m in line])
    return Answer(True, shape.full, shape.full, int(nodes), [unpack(m) for m in moves])


def arranged(start: Board, line: list[int]) -> list[int]:
    """A line of the reduced search as class moves. There the 2 that fills the pool's last
    gap fixes no arrangement (its rows stay *loose*, :func:`compiled_board.next_loose`), and each 3
    that later enters column 1 of a loose row fixes that row's 2. Here that 2's move gets
    the arrangement those later moves fixed (or, for the rows still loose where the line
    ends, the 2 of the 3 in column 1 where there is one), which every move in between
    allows: only a 3 entering column 1 depends on where the 2s stand. Rows still loose when
    a card leaving column 0 frees the pool keep the 2s the search's board had there, since
    the later moves name that board's cells."""
    ranks = start.shape.ranks
    board = start.copy()
    moves = list(line)
    shut = -1
    fixed: dict[int, int] = {}
    heads: list[int] = []
    for i, move in enumerate(moves):
        card, target, layout = unpack(move)
        board.play((card, target, layout))
        if shut >= 0:
            row = target // ranks
            if card % ranks == 2 and target % ranks == 1 and fixed.get(row) == -1:
                fixed[row] = card - 1
            if board.pool_free():  # a card left column 0: the stretch ends
                # The later moves name cells of the search's own board (a 2 entering the
                # pool takes a gap of its column 0), so the rows still loose keep the 2s
                # that board has there; it replays the line as the search played it.
                ending = {r: board.grid[r * ranks] for r in fixed}
                _arrange_shut(moves, shut, ending, heads, board, matched=False)
                shut = -1
        if card % ranks == 1 and not layout and not board.pool_free():  # the 2 shut the pool
            rows = [r for r in range(start.shape.suits) if board.grid[r * ranks] % ranks == 1]
            fixed = dict.fromkeys(rows, -1)
            heads = [board.grid[r * ranks] for r in range(start.shape.suits)]
            if len(rows) > 1:
                shut = i
            else:  # one pool row: nothing to arrange, but the class move names its layout
                _arrange_shut(moves, i, fixed, heads, board, matched=False)
    if shut >= 0:
        _arrange_shut(moves, shut, fixed, heads, board, matched=True)
    return moves


def _arrange_shut(
    moves: list[int],
    shut: int,
    fixed: dict[int, int],
    heads: list[int],
    board: Board,
    matched: bool,
) -> None:
    """Give the move that shut the pool (``moves[shut]``) the layout of ``fixed`` (row: its
    2, -1 while loose) over ``heads`` (column 0 just after that move); ``board`` is where
    the loose stretch ended; with ``matched`` a loose row gets the 2 of the 3 in its column
    1 where that 2 is still loose."""
    ranks = board.shape.ranks
    # The pool's 2s: moves in a loose stretch only swap them among its rows.
    left = [heads[r] for r in sorted(fixed) if heads[r] not in fixed.values()]
    column = {r: two for r, two in fixed.items() if two >= 0}
    if matched:
        for r in sorted(fixed):
            third = board.grid[r * ranks + 1]
            if r not in column and third != GAP and third % ranks == 2 and third - 1 in left:
                column[r] = third - 1
                left.remove(third - 1)
    for r in sorted(fixed):
        if r not in column:
            column[r] = left.pop(0)
    card, target, _ = unpack(moves[shut])
    layout = 0
    for r in range(board.shape.suits):
        code = column.get(r, heads[r])
        layout |= (code + 1) << (8 * r)
    moves[shut] = card | (target << 8) | (layout << 16)


STOPPED = {-1: "states", -2: "room", -3: "time", -4: "greedy"}
"""The kernel's status codes for an undecided search, as :attr:`Answer.stopped` says them."""


PROBE_STATES = 5_000
"""Nodes per probe: a short dive that backtracks a little. Thousands of them, each trying
equal moves in another order, find far more wins than one long search with the same budget,
and run faster per node (their table stays in cache)."""

PROBE_SHARE = 0.15
"""The part of a state limit spent on probes; the rest goes to one full search."""

PROBE_SECONDS = 3.0
"""Under a time budget, probes take this much of one thread's time (or 15% of the budget,
if less), shared among the workers' threads: the wins they find come early, and a deal
that cannot win needs every second of the full search."""

DEADLINE_MARGIN = 0.96
"""The full search aims a little short of the budget: its clock is read every 4,096 states
and its table may be rehashing when the time runs out. It stops at this share of a short
budget (a hint's), and at most :data:`DEADLINE_SLACK` short of a long one."""

DEADLINE_SLACK = 0.5
"""The most seconds the full search stops short of its budget. A search stopped by its
clock returns within a few milliseconds of its stop: at 60 s a deal, the 29 deals of the
speed target left open returned 59.50-59.52 s after their start (0.96 of the minute gave
2.4 s away, where a loss proof a little past 57 s needs them)."""


SOLO_SECONDS = 2.0
"""Under a time budget with two workers, the full search runs alone this long after the
probes, on a table of :data:`SOLO_SLOTS`; most deals end here. Only a deal still open then
gets the large table that two searches share, which starts with the nodes the search alone
finished."""

SOLO_SLOTS = 1 << 22
"""The table of the search alone (64 MiB, touched only where it is written): room for what
one search finishes in :data:`SOLO_SECONDS`, and as fast as a table grown as needed."""

SOLO_ROOM = 3 * SOLO_SLOTS // 4
"""The most nodes the search alone may store (then it stops for room, and the pair goes on)."""

SLOT_BYTES = 16
"""A table slot: the two 64-bit halves of a key."""

TABLE_BYTES = 2 << 30
"""The shared table's largest size by default: 2 GiB, 2**27 slots. Each of the searches
may store its share of 3/4 of that many nodes, so the table never fills: about 50 M nodes
each for two. Cut nodes take no room (in a lost deal most nodes are cut), so two searches
may enter well over 100 M nodes (160-180 M on the deals that stopped for room: about three
minutes of two searches on this machine) before a search stops for room. A longer budget
needs a larger table (``table_bytes`` of :func:`decide`, ``ludoteca solve --memory``)."""

NODES_PER_SECOND = 1_000_000
"""A generous estimate of what one search enters per second: sizes the shared table."""


def decide(
    start: Board,
    max_states: int | None,
    reduce: bool = True,
    seconds: float | None = None,
    workers: int = 1,
    table_bytes: int = TABLE_BYTES,
) -> Answer:
    """Can ``start`` win? Exact when ``complete``. Without limits, one full search. Under a
    state limit or a time budget, first 15% of it (at most 3 s) on short probes (a
    different salt each), since one deep search often sinks its budget under an early
    wrong move while wins lie elsewhere; a probe that finishes decides too (it saw every
    node). The rest goes to the full search in the standard order, which can prove a deal
    lost, and stops at the state limit or when the time is up.

    With ``workers=2`` and a time budget, the probes run two at a time, and a deal still
    open :data:`SOLO_SECONDS` after them is searched by two threads at once
    (:func:`together`): two searches over one shared table, the standard one and one that
    restarts in other orders, each skipping what the other has done (on this 2-core machine
    about 1.9 times the nodes per second of one search in a loss proof: seed 129 in 4.3 s
    against 8.1 s, in 2026-11), which also looks for a win
    in many places. They start from the nodes the search alone finished (it writes them
    in ``post_order`` into a table of :data:`SOLO_SLOTS`), and the tables are lent again
    to the next deal of the process, cleared (:func:`_blank_table`). ``table_bytes``
    bounds the shared table (rounded down to a power of two slots); a search that has
    filled its share stops, undecided, with ``stopped == "room"``. While the first full
    search runs alone, the other thread tries :func:`beam`, then the greedy searches of
    :func:`greedy_runs` and the novelty search (:func:`novel`; all with ``reduce``): a win
    any of them finds ends the search, and the search's end ends them.

    With ``reduce`` (the default) the searches keep only stubborn sets of moves and cut
    positions that can no longer win, so ``best_dead_end`` is then only what was seen; ask
    :func:`best_dead_end` for the exact figure."""
    if max_states is None and seconds is None:
        return search(start, reduce=reduce)
    began = time.perf_counter()
    limit = UNLIMITED if max_states is None else max_states
    spent = 0
    best: Answer | None = None
    salt = 0
    # Under a time budget the probes run in ``workers`` threads at once, the same number of
    # probes in a fraction of the time; under a state limit one at a time (reproducible).
    batch = workers if seconds is not None else 1
    probing = None if seconds is None else min(PROBE_SHARE * seconds, PROBE_SECONDS) / batch
    pool = ThreadPoolExecutor(batch) if batch > 1 else None
    spread = map if pool is None else pool.map
    with pool or nullcontext():
        while spent + batch * PROBE_STATES <= PROBE_SHARE * limit and (
            probing is None or time.perf_counter() - began < probing
        ):
            salts = range(salt + 1, salt + 1 + batch)
            salt += batch
            answers = list(
                spread(lambda k: search(start, PROBE_STATES, salt=k, reduce=reduce), salts)
            )
            spent += sum(a.states for a in answers)
            for answer in answers:
                if answer.complete:
                    answer.states = spent
                    return answer
                if best is None or answer.best_dead_end > best.best_dead_end:
                    best = answer
    deadline = 0.0 if seconds is None else began + seconds - _slack(seconds)
    paired = workers > 1 and seconds is not None
    # The search alone writes the nodes it has finished into a table of its own, which the
    # pair then starts from (see :func:`together`): its seconds are not lost.
    with _blank_table(SOLO_SLOTS) if paired else nullcontext(_NO_TABLE) as kept:
        answer = _alone_then_together(
            start, limit - spent, reduce, deadline, workers, table_bytes, kept
        )
    answer.states += spent
    if not answer.complete and best is not None and best.best_dead_end > answer.best_dead_end:
        # Undecided: keep the line to the best dead end any of the searches reached.
        answer.best_dead_end, answer.line = best.best_dead_end, best.line
    return answer


def _slack(seconds: float) -> float:
    """How far short of a budget of ``seconds`` the full search stops (see
    :data:`DEADLINE_MARGIN`)."""
    return min((1.0 - DEADLINE_MARGIN) * seconds, DEADLINE_SLACK)


def _alone_then_together(
    start: Board,
    limit: int,
    reduce: bool,
    deadline: float,
    workers: int,
    table_bytes: int,
    kept: np.ndarray,
) -> Answer:
    """:func:`decide` after the probes: the full search, alone when two workers have a
    deadline, while the other thread tries the beams, the greedy searches and the novelty
    search beside it (:func:`_beside`: at least :data:`SOLO_SECONDS`, at most
    :data:`GREEDY_SECONDS` more), then :func:`together`, which starts from what the search
    alone finished (``kept``, its table)."""
    solo = least = deadline
    paired = kept.size > 0
    beaming = reduce and paired
    if paired:
        now = time.perf_counter()
        solo = min(deadline, now + SOLO_SECONDS + (GREEDY_SECONDS if beaming else 0.0))
        least = min(solo, now + SOLO_SECONDS)
    # While the first search runs alone, the idle thread tries beams, then greedy searches
    # and the novelty search (each side's end stops the other; the side's end, once it has
    # run SOLO_SECONDS).
    stop = np.zeros(1, dtype=np.int64)
    with ThreadPoolExecutor(1) if beaming else nullcontext() as side:
        beamed = side.submit(_beside, start, stop, least, solo) if side is not None else None
        try:
            answer = search(
                start,
                limit,
                reduce=reduce,
                deadline=solo,
                stop=stop,
                shared=kept if paired else None,
                max_stored=SOLO_ROOM if paired else None,
                post_order=paired,
            )
        finally:
            stop[0] = 1
        won = beamed.result() if beamed is not None else None
    if won is not None and not answer.complete:
        won.states += answer.states
        return won
    if answer.stopped in ("time", "room") and solo < deadline:
        # Stopped by its own clock (or its table's room), before the budget's: on with two
        # searches, from the nodes it finished.
        shared = together(
            start, limit - answer.states, reduce, deadline, workers, table_bytes, kept
        )
        shared.states += answer.states
        answer = shared
    return answer


GREEDY_SECONDS = 6.0
"""Under a time budget with two workers, how much longer than :data:`SOLO_SECONDS` the
search alone may run while the other thread tries greedy searches (:func:`greedy_runs`)
and the novelty search (:func:`novel`)."""

GREEDY_STATES = 2_500_000
"""The most nodes of each greedy search but the first (see :func:`greedy_runs`)."""


def greedy_runs() -> Iterator[tuple[int, int, int, int]]:
    """The greedy searches (:func:`greedy`) tried beside the search alone, in turn: (moves
    before discrepancies count, discrepancies allowed, salt, most nodes). First the
    strictest (extensions only, from the first move), which is small; then, salt after
    salt, extensions only from the 30th move on, and one discrepancy from the first move.
    The notebook (*Greedy searches for wins*) has what each wins among the deals the full
    search wins only after minutes."""
    yield 0, 0, 0, GREEDY_STATES // 5
    salt = 0
    while True:
        yield 30, 0, salt, GREEDY_STATES
        yield 0, 1, salt, GREEDY_STATES
        salt += 1


def _beside(start: Board, stop: np.ndarray, least: float, until: float) -> Answer | None:
    """The work of the idle thread while the full search runs alone (see
    :func:`_alone_then_together`): the beams, then the greedy searches of
    :func:`greedy_runs` until ``until``, the novelty search (:func:`novel`) after the
    first :data:`NOVELTY_AFTER` of them. A win sets ``stop``, which ends the search; the
    search's end sets it too, which ends this. With nothing won, it ends the search alone
    (so the pair starts) once ``least`` has passed, if the search has not ended first."""
    won = beam(start, stop=stop)
    runs = greedy_runs()
    tried = 0
    while won is None and not stop[0] and time.perf_counter() < until:
        if tried == NOVELTY_AFTER:
            won = novel(start, NOVELTY_STATES, stop=stop, deadline=until)
            tried += 1
            continue
        greedy_from, discrepancies, salt, states = next(runs)
        answer = greedy(start, states, greedy_from, discrepancies, salt, deadline=until, stop=stop)
        won = answer if answer.winnable else None
        tried += 1
    if won is None:
        while not stop[0] and time.perf_counter() < least:
            time.sleep(0.005)
        stop[0] = 1
    return won


RESTART_STATES = 20_000
"""The unit of a restarting search's runs (see :func:`_restarting`): run i of it may enter
``RESTART_STATES * luby(i)`` nodes."""

NESTED_STATES = 0
"""When above 0, the first run of a restarting search (see :func:`_restarting`) is one
interleaved search (``nested`` of :func:`kernel.search`): at a node with a choice, a move's
subtree may enter this many nodes before the run tries the node's other moves (doubled each
round). 0 (the default): the first run is a run of Luby's sequence like the others. From
8289cb2 until the second session of 2026-11-27 it was 100,000: that won seed 417, the deal
the budget was chosen on, but on the 2,000 deals of seeds 1000..2999 it decided no more
(32 open against 30) and made the wins 16.5 % slower in all (the notebook, *Measured,
second session of 2026-11-27*)."""

HELPING_ROUNDS = 8
"""How many choices deep a restarting search may go on through nodes the first search
entered (one more each time one of its runs finishes while the first still runs)."""


_SPARE: dict[int, np.ndarray] = {}
_SPARE_LOCK = threading.Lock()


@contextmanager
def _blank_table(slots: int) -> Iterator[np.ndarray]:
    """An empty table of ``slots`` slots, lent for the ``with`` block: the one a deal before
    in this process used, cleared, or a new one. A table's keys land anywhere in it, and
    the first touch of each page of new memory costs a fault: on this machine 370,000 keys
    carried into a new 2 GiB table took 1.3-4.8 s, into a cleared one 0.1 s. So a process
    that decides deal after deal (the bench, a study) pays that once. Kept: the search
    alone's table and the last other one returned (so an idle process holds at most one
    large table); one in use is never lent twice."""
    with _SPARE_LOCK:
        table = _SPARE.pop(slots, None)
    if table is None:
        table = np.zeros(2 * slots, dtype=np.uint64)
    else:
        table.fill(0)
    try:
        yield table
    finally:
        with _SPARE_LOCK:
            # The search alone's table comes back last (``decide`` lends the pair's inside
            # its block): returning it must not drop the pair's, or each deal would fault in
            # a new 2 GiB table again.
            if slots != SOLO_SLOTS:
                for size in [size for size in _SPARE if size not in (slots, SOLO_SLOTS)]:
                    del _SPARE[size]
            _SPARE[slots] = table


def _shared_slots(deadline: float, workers: int, table_bytes: int) -> int:
    """The slots of the table :func:`together` shares: what its searches may enter before
    ``deadline`` (0: none), a power of two, at least 2**20, within ``table_bytes``."""
    remaining = max(0.0, deadline - time.perf_counter()) if deadline else 0.0
    want = 2 * workers * NODES_PER_SECOND * remaining
    slots = 1 << 20
    while slots < want and 2 * slots * SLOT_BYTES <= table_bytes:
        slots *= 2
    return slots


def together(
    start: Board,
    limit: int,
    reduce: bool,
    deadline: float,
    workers: int,
    table_bytes: int = TABLE_BYTES,
    kept: np.ndarray = _NO_TABLE,
) -> Answer:
    """Full searches in ``workers`` threads over one table until one wins, the first
    finishes, or the deadline passes; ``limit`` nodes each. Search 0 (:func:`_keeping`) is
    one depth-first search in the standard order; the others restart again and again in
    other orders (:func:`_restarting`), each run putting a node in the table only once it
    has searched every move of it, so that what a run stopped early leaves behind is never
    skipped by anyone. ``deadline`` 0: none. The table takes at most ``table_bytes`` (at
    least 2**20 slots, 16 MiB).

    ``kept``: a table of nodes a search stopped before (:func:`decide`'s search alone) had
    finished (written in ``post_order``): the shared table starts with them, so no one
    searches them again. They are what a restarting run that came first would have left:
    search 0's end still proves a loss. Only up to a quarter of the shared table's slots
    are carried (on a smaller table the pair starts empty, which is sound too)."""
    slots = _shared_slots(deadline, workers, table_bytes)
    with _blank_table(slots) as table:
        carried = 0
        if kept.size and 4 * int(np.count_nonzero(kept[0::2])) <= slots:
            carried = kernel.carry(kept, table)
        stop = np.zeros(1, dtype=np.int64)
        share = (3 * slots // 4 - carried) // workers
        common = Shared(start, limit // workers, reduce, deadline, table, stop, share)
        with ThreadPoolExecutor(workers) as pool:
            futures = [pool.submit(_keeping, common)]
            futures += [pool.submit(_restarting, common, k) for k in range(1, workers)]
            try:
                answers = [future.result() for future in futures]
            finally:
                stop[0] = 1  # on an error (or Ctrl-C) in one, the others stop too
    return settle(answers)


@dataclass(frozen=True)
class Shared:
    """What the searches of :func:`together` have in common: each may enter ``limit``
    nodes and store ``share`` of them in ``table``; ``stop`` stops them all."""

    start: Board
    limit: int
    reduce: bool
    deadline: float
    table: np.ndarray
    stop: np.ndarray
    share: int


def luby(i: int) -> int:
    """Term ``i`` (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: the run
    lengths of a restart strategy within a log factor of the best fixed one."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def _keeping(common: Shared) -> Answer:
    """Search 0 of :func:`together`: the standard order, never restarted. It skips only
    nodes it entered itself and nodes a restarting search has finished, so its own end
    decides: it sets ``stop``, which ends the others."""
    answer, _ = _searched(
        common.start,
        common.limit,
        True,
        0,
        common.reduce,
        common.deadline,
        common.table,
        common.stop,
        0,
        False,
        common.share,
        1,
    )
    if answer.complete:
        common.stop[0] = 1
    return answer


def _restarting(common: Shared, k: int) -> Answer:
    """Search ``k`` (k >= 1) of :func:`together`: runs of :data:`RESTART_STATES` times
    Luby's sequence nodes, the first with its first choice reversed, each later one in an
    order of its own (random bits of ``reversed_depths``, a random salt; from the third
    search on, 2s last); with :data:`NESTED_STATES` above 0, the first run is instead one
    interleaved search (a move's subtree that has taken that budget is left for the moves
    beside it, and tried again later with twice the budget), as long as it takes. A run
    writes a node into the table only when it has searched every move of it
    (``post_order``), so a run stopped early
    leaves nothing half done for the others to skip, and the next run starts from the root
    with all that table: a depth-first search that sinks its budget in a subtree without a
    win gets out of it, as the interleaved run does inside itself.
    It skips what search 0 entered, since search 0 never stops before the end. A run that
    finishes, not won, while search 0 still runs, means the rest lies under search 0's
    nodes: the next one goes on through them one choice deeper (the forced moves from the
    root and the child picked at the first choice, at first), at most
    :data:`HELPING_ROUNDS` deep. Its answer never says "not winnable"."""
    rng = np.random.default_rng(k)
    states = stored = run = 0
    through = 1
    best: Answer | None = None
    while True:
        run += 1
        first = run == 1
        long = first and NESTED_STATES > 0
        cap = common.limit - states
        answer, used = _searched(
            common.start,
            cap if long else min(RESTART_STATES * luby(run), cap),
            True,
            0 if first else int(rng.integers(1, 1 << 62)),
            common.reduce,
            common.deadline,
            common.table,
            common.stop,
            1 if first else int(rng.integers(1, 1 << 62)),
            k >= 2,
            common.share - stored,
            through,
            True,
            nested=NESTED_STATES if long else 0,
        )
        states += answer.states
        stored += used
        if best is None or answer.best_dead_end > best.best_dead_end:
            best = answer
        if answer.winnable or common.stop[0]:
            break
        if answer.stopped == "states" and states < common.limit:
            continue
        if not answer.complete or through == HELPING_ROUNDS or stored >= common.share:
            break
        through += 1
    if answer.winnable:
        return replace(answer, states=states)
    # Finished or not, a restarting search alone proves nothing: undecided.
    stopped = answer.stopped or "time"
    return replace(best, winnable=None, complete=False, stopped=stopped, states=states)


def settle(answers: list[Answer]) -> Answer:
    """One answer from the searches of :func:`together` (search 0 first). A win in any is a
    win. Not winnable when search 0 finished: it skipped only what it entered itself and
    what a restarting search had searched through. A restarting search's end decides
    nothing, since it skips what search 0 entered and has not yet searched."""
    won = [a for a in answers if a.winnable]
    keeper = answers[0]
    chosen = won[0] if won else max(answers, key=lambda a: a.best_dead_end)
    finished = bool(won) or keeper.complete
    return replace(
        chosen,
        winnable=True if won else (False if finished else None),
        complete=finished,
        best=max(a.best for a in answers),
        states=sum(a.states for a in answers),
        stopped="" if finished else (keeper.stopped or "time"),
    )


def best_dead_end(start: Board, max_states: int | None, deadline: float = 0.0) -> Answer:
    """The most cards in sequence at a position with no move left, and a line to it (exact
    when ``complete``): stubborn sets keep every dead end, and a position is cut when what
    its cards can still reach cannot beat the best dead end found so far. ``deadline``: a
    ``time.perf_counter`` value to stop at (0: none)."""
    return search(start, max_states, stop_at_win=False, reduce=True, deadline=deadline)
