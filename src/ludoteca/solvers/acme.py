"""Acme solver (winnable? "with all cards known"), sampled hints, and study policies.

The exact search runs in :mod:`ludoteca.solvers._acme_kernel` over the whole deal, hidden
cards included, as solitaire research does when it reports "winnable" rates. A hint must
not peek, so it solves sampled deals of the unseen cards instead (see :func:`hint`).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ludoteca.core.cards import KING, Card
from ludoteca.core.game import State
from ludoteca.core.rng import DealRng
from ludoteca.games.acme import DRAW, FOUNDATION, TURN, AcmeMove, AcmeState
from ludoteca.solvers import _acme_kernel as kernel
from ludoteca.solvers.base import Hint, PlayResult, SolverEntry, SolveResult, register_solver

LABEL = "with all cards known"
DEFAULT_MAX_STATES = 2_000_000
HINT_MAX_STATES = 20_000
SAMPLE_SEED = 2026


@dataclass
class _Table:
    """The transposition table, kept between searches: a generation stamp clears it."""

    a: np.ndarray
    b: np.ndarray
    gen: np.ndarray
    stamp: int = 0


_tables: dict[int, _Table] = {}


def _table(max_states: int) -> _Table:
    size = 1 << max(10, (2 * max_states).bit_length())  # at most half full
    if size not in _tables:
        _tables.clear()  # one table per process: the memory bound holds
        _tables[size] = _Table(
            np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64)
        )
    table = _tables[size]
    table.stamp += 1
    return table


@dataclass
class Search:
    """One run of the kernel: its answer, the states it expanded and the winning line."""

    result: int
    states: int
    line: list[tuple[int, int, int, int]]


def search(state: AcmeState, max_states: int) -> Search:
    """Decide ``state`` with every card known; ``result`` is 1 won, 0 lost, -1 unknown.

    With a limit on turning the waste, the game without the limit is decided first: it
    allows every line the limited game allows, so a deal it loses is lost, and that search
    is far smaller (see the open talon in the kernel).
    """
    if state.params.redeals is not None:
        free = _run(state, max_states, None)
        if free.result == 0:
            return free
        limited = _run(state, max_states, state.params.redeals)
        return Search(limited.result, free.states + limited.states, limited.line)
    return _run(state, max_states, None)


def _run(state: AcmeState, max_states: int, redeals: int | None) -> Search:
    talon = [c.index for c in state.waste] + [c.index for c in state.stock[::-1]]
    sc = np.zeros(kernel.SCALARS, np.int64)
    sc[kernel.RN] = len(state.reserve)
    sc[kernel.PRESENT] = (1 << len(talon)) - 1
    sc[kernel.PTR] = len(state.waste)
    sc[kernel.TURNS] = state.turns
    sc[kernel.FLAG] = int(state.progress)
    sc[kernel.LIMIT] = max_states
    sc[kernel.REDEALS] = kernel.UNLIMITED if redeals is None else min(redeals, 255)
    table = _table(max_states)
    sc[kernel.GEN] = table.stamp
    path = np.zeros((10_000, 4), np.int64)
    where = np.full(52, -1, np.int64)
    where[talon] = np.arange(len(talon))
    result = kernel.solve(
        np.array(state.foundations, np.int64),
        np.array([col[-1].index if col else -1 for col in state.columns], np.int64),
        np.array([len(col) for col in state.columns], np.int64),
        np.array([c.index for c in state.reserve] or [0], np.int64),
        np.array(talon or [0], np.int64),
        where,
        sc,
        table.a,
        table.b,
        table.gen,
        path,
    )
    line = [tuple(int(x) for x in row) for row in path[: sc[kernel.PATH_LEN]][::-1]]
    return Search(int(result), int(sc[kernel.NODES]), line)  # type: ignore[arg-type]


def line_moves(state: AcmeState, line: list[tuple[int, int, int, int]]) -> list[str]:
    """The kernel's winning line as engine moves, checked by playing them on a copy."""
    play = state.spec.from_position(state.position(), state.variant)
    assert isinstance(play, AcmeState)
    for src, index, dest, _ in line:
        card = Card.from_index(index)
        if src >= kernel.SRC_WASTE:
            if src == kernel.SRC_TURNED:
                while play.stock:
                    play.apply(DRAW)
                play.apply(TURN)
            while not play.waste or play.waste[-1] != card:
                play.apply(DRAW)
        play.apply(AcmeMove("move", card, FOUNDATION if dest == kernel.FOUNDATION else dest))
    return play.history_text()


def solve(state: State[Any], max_states: int | None) -> SolveResult:
    assert isinstance(state, AcmeState)
    limit = DEFAULT_MAX_STATES if max_states is None else max_states
    start = time.perf_counter()
    found = search(state, limit)
    seconds = time.perf_counter() - start
    winnable = None if found.result < 0 else found.result == 1
    moves = line_moves(state, found.line) if winnable else []
    extra: dict[str, Any] = {"max_states": limit}
    if winnable is None:
        extra["stopped"] = "states"  # what ran out, named as every solver's answer names it
    return SolveResult(winnable, found.states, seconds, moves, LABEL, extra)


def sample(state: AcmeState, rng: DealRng) -> AcmeState:
    """A deal the player cannot tell from ``state``: the face-down reserve cards and the
    stock are shuffled among their places; everything face up stays where it is."""
    hidden = sorted(state.reserve[:-1] + state.stock)  # their true order must not matter
    rng.shuffle(hidden)
    cut = max(len(state.reserve) - 1, 0)
    reserve = hidden[:cut] + state.reserve[-1:]
    return AcmeState(
        state.variant,
        None,
        reserve,
        [list(col) for col in state.columns],
        list(state.foundations),
        hidden[cut:],
        list(state.waste),
        state.turns,
        state.progress,
        state.moved,
    )


HINT_SHARE = 0.95
"""The share of its time a hint samples in: a sample may take longer than the longest
before it (another process on the core), and the hint answered 2.007 s after it was asked
for 2 (``bench/bench_hints.py``). Gaps' hint ends its work at the same share."""


BACK_MARGIN = 2.0
"""How many standard errors a move back to a position already seen in this game must win by
(over every other move) before the hint suggests it: about 1 in 40 by chance."""

NEAR_MARGIN = 0.0
"""How many standard errors fewer wins another move may have and still count as doing as
well as the best, so that its kind decides (:func:`choose`). Exact ties only: with one
standard error the hint took a card into play over a move that won a little more, and
following the hints won 54 of deals 0-159 of ``reserve-13`` instead of 63 (16 samples a
hint; 10 deals won only at 0, 1 only at 1)."""

PROGRESS, FREEING, PASS, SHUFFLE, BACK = range(5)
"""The kinds of move, in the hint's order of preference on a tie: a card into play or
home; a lone column card onto its successor, which empties a column; a draw or a turn-over;
another column-to-column move, to a layout not seen yet; a column move back to a layout seen
before in this game (columns in any order)."""


def _view(state: AcmeState) -> tuple[Any, ...]:
    """What the player sees of ``state``, with the columns in any order: they are alike in
    every rule, so a layout and its columns relabelled are the same position. Column moves
    leave the stock, waste, reserve, foundations and turns alone, so a layout seen again
    is a loop; the column-move counter (``moved``) is left out."""
    return (
        tuple(sorted(tuple(c.index for c in col) for col in state.columns)),
        state.reserve[-1].index if state.reserve else -1,
        len(state.reserve),
        tuple(state.foundations),
        len(state.stock),
        tuple(c.index for c in state.waste),
        state.turns,
        state.progress,
    )


def _seen(state: AcmeState) -> set[tuple[Any, ...]]:
    """Every position of this game's history as the player saw it (:func:`_view`), found by
    taking the moves back and playing them again (the state ends as it began)."""
    seen = {_view(state)}
    taken: list[AcmeMove] = []
    while state._history:
        move, token = state._history.pop()
        state._unplay(move, token)
        taken.append(move)
        seen.add(_view(state))
    for move in reversed(taken):
        state._history.append((move, state._play(move)))
    return seen


def _kind(state: AcmeState, move: AcmeMove, seen: set[tuple[Any, ...]]) -> int:
    if move.card is None:
        return PASS
    source = state._source(move.card)
    assert source is not None
    if move.dest == FOUNDATION or source < 0:
        return PROGRESS
    token = state._play(move)
    back = _view(state) in seen
    state._unplay(move, token)
    if back:
        return BACK
    # Onto its successor, a lone card stays free and its column empties: nothing is lost
    # (the successor can only take that card, or go home after it).
    return FREEING if len(state.columns[source]) == 1 else SHUFFLE


def choose(kinds: list[int], won: list[list[bool]]) -> int:
    """The move to suggest, from each move's :func:`_kind` and its results on the sampled
    deals (``won[sample][move]``, the same deals for every move).

    The best is the move that won the most samples; a move does as well when it won at most
    :data:`NEAR_MARGIN` standard errors fewer (:data:`BACK_MARGIN` when the best only
    brings back a position seen before). The standard error of the difference of two moves
    on shared deals is the square root of the number of deals that only one of them won
    (McNemar's test). Among the moves that do as well, the one of the most preferred kind is
    suggested, then the one that won most, then the first.
    """
    wins = [sum(sample[i] for sample in won) for i in range(len(kinds))]
    best = max(range(len(kinds)), key=lambda i: (wins[i], -kinds[i]))
    margin = BACK_MARGIN if kinds[best] == BACK else NEAR_MARGIN

    def as_well(i: int) -> bool:
        apart = sum(sample[i] != sample[best] for sample in won)
        return wins[best] - wins[i] <= margin * math.sqrt(apart)

    return min((i for i in range(len(kinds)) if as_well(i)), key=lambda i: (kinds[i], -wins[i]))


def hint(state: State[Any], seconds: float) -> Hint:
    """Suggest a move without looking at hidden cards.

    A safe card home (see the kernel's ``_auto``) is suggested at once. Otherwise each legal
    move is tried on the same sampled deals of the unseen cards, solved with a small node
    limit, while a sample as long as the longest so far still ends within
    :data:`HINT_SHARE` of ``seconds`` (one sample at least). :func:`choose` picks, among the
    moves that won as many samples as the best, the one that takes the game forward, and a
    move back to a position seen before in this game only when it wins clearly more: hints
    followed one after the other no longer go round in a circle.
    """
    began = time.perf_counter()
    assert isinstance(state, AcmeState)
    moves = state.legal_moves()
    if not moves:
        return Hint(None, False, "no move is left")
    if len(moves) == 1:
        return Hint(str(moves[0]), None, "the only move")
    safe = [m for m in moves if m.dest == FOUNDATION and m.card is not None]
    if safe:
        return Hint(str(safe[0]), None, "a card whose predecessor is home can always go home")
    seen = _seen(state)
    kinds = [_kind(state, move, seen) for move in moves]
    won: list[list[bool]] = []
    rng = DealRng(SAMPLE_SEED, "acme-hint", json.dumps(state.observation(0), sort_keys=True))
    deadline = began + HINT_SHARE * seconds
    longest = 0.0
    while True:
        # Sampling until the time was up ended every such hint after it, by up to a whole
        # sample (2.04 s for 2 s): a sample starts only where one as long as the longest
        # so far still ends in time.
        sampled = time.perf_counter()
        deal = sample(state, rng)
        results = []
        for move in moves:
            deal.apply(move)
            results.append(search(deal, HINT_MAX_STATES).result == 1)
            deal.undo()
        won.append(results)
        now = time.perf_counter()
        longest = max(longest, now - sampled)
        if now + longest > deadline:
            break
    chosen = choose(kinds, won)
    samples = len(won)
    deals = "deal" if samples == 1 else "deals"
    wins = sum(results[chosen] for results in won)
    note = f"won {wins} of {samples} sampled {deals} of the unseen cards"
    return Hint(str(moves[chosen]), None, note)


def _solver_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """The study's answer for a deal: the search alone (its lines are checked in tests)."""
    assert isinstance(state, AcmeState)
    found = search(state, DEFAULT_MAX_STATES if max_states is None else max_states)
    won = None if found.result < 0 else found.result == 1
    score = 52.0 if won else float(state.cards_on_foundations)
    return PlayResult(won, score, found.states, {"label": LABEL})


def greedy_move(state: AcmeState) -> AcmeMove | None:
    """A simple player who sees only the table. In this order: a card home; the reserve's
    top onto its successor, else into an empty column; the waste's top onto its successor;
    a lone column card onto its successor (freeing a column); the waste's top into an empty
    column once the reserve is gone; else draw, else turn the waste over. ``None``: it
    has nothing it wants to do (splitting columns it leaves alone)."""
    free = [(col[-1], i) for i, col in enumerate(state.columns) if col]
    free += [(pile[-1], -1) for pile in (state.reserve, state.waste) if pile]
    for card, _ in free:
        if state.foundations[card.suit] == card.rank - 1:
            return AcmeMove("move", card, FOUNDATION)
    tops = {col[-1]: i for i, col in enumerate(state.columns) if col}
    empty = [i for i, col in enumerate(state.columns) if not col]

    def onto_successor(card: Card) -> AcmeMove | None:
        above = Card(card.rank + 1, card.suit) if card.rank < KING else None
        return AcmeMove("move", card, tops[above]) if above in tops else None

    if state.reserve:
        top = state.reserve[-1]
        move = onto_successor(top) or (AcmeMove("move", top, empty[0]) if empty else None)
        if move:
            return move
    if state.waste and (move := onto_successor(state.waste[-1])):
        return move
    for card, source in free:
        if source >= 0 and len(state.columns[source]) == 1 and (move := onto_successor(card)):
            return move
    if state.waste and empty and not state.reserve:
        return AcmeMove("move", state.waste[-1], empty[0])
    if state.stock:
        return DRAW
    return TURN if state.why_illegal(TURN) is None else None


def _greedy_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    assert isinstance(state, AcmeState)
    moves = 0
    while (move := greedy_move(state)) is not None:
        state._play(move)  # unchecked: tests play the same choices through apply
        moves += 1
    won = state.won
    return PlayResult(won, float(state.cards_on_foundations), moves)


ENTRY = register_solver(
    SolverEntry(
        game="acme",
        label=LABEL,
        solve=solve,
        hint=hint,
        policies={"solver": _solver_policy, "greedy": _greedy_policy},
        unlimited_policies=frozenset({"greedy"}),  # (it searches nothing)
        default_max_states=DEFAULT_MAX_STATES,
    )
)
