"""Exact Gaps: does a position win without a redeal, and how many cards in sequence at best?

The search (:mod:`.kernel`, compiled; :mod:`.reference`, plain Python) runs over classes of
positions (see :mod:`.board`): the 2s and gaps of column 0 rearrange freely while a gap is
among them, so all those arrangements are one node, and rows are interchangeable in the
transposition table. ``best_in_sequence`` is the most cards in sequence in a position where
no move is left (where the game ends, or where a redeal may come).
"""

from __future__ import annotations

import time
from typing import Any

from ludoteca.core.game import State
from ludoteca.core.rng import DealRng
from ludoteca.games.gaps import REDEAL, GapsState
from ludoteca.solvers.base import Hint, PlayResult, SolverEntry, SolveResult, register_solver
from ludoteca.solvers.gaps import fast
from ludoteca.solvers.gaps.line import board_of, engine_moves
from ludoteca.solvers.gaps.reference import Answer

LABEL = "exact, without redeals"


def _as_gaps(state: State[Any]) -> GapsState:
    if not isinstance(state, GapsState):
        raise TypeError(f"the Gaps solver got a {state.spec.name} position")
    return state


def realize(state: GapsState, answer: Answer) -> list[str]:
    """Play the answer's line on a copy of ``state``; the engine moves, as notation."""
    game = state.spec.from_position(state.position(), state.variant)
    assert isinstance(game, GapsState)
    played: list[str] = []
    for move in answer.line:
        for step in engine_moves(game, move):
            game.apply(step)
            played.append(game.move_text(step))
    return played


def solve(
    state: State[Any], max_states: int | None = None, seconds: float | None = None
) -> SolveResult:
    """Decide the position; when it cannot win, a second search gives the exact best dead
    end (the most cards in sequence reachable) within the same state limit."""
    start = time.perf_counter()
    game = _as_gaps(state)
    board = board_of(game)
    answer = fast.decide(board, max_states, seconds=seconds)
    states = answer.states
    best: int | None = board.shape.full if answer.winnable else None
    found = answer.best_dead_end
    if answer.winnable is False:
        most = fast.best_dead_end(board, max_states)
        states += most.states
        found = max(found, most.best_dead_end)
        best = most.best_dead_end if most.complete else None
    return SolveResult(
        winnable=answer.winnable,
        states=states,
        seconds=time.perf_counter() - start,
        moves=realize(game, answer) if answer.winnable else [],
        label=LABEL,
        extra={"best_in_sequence": best, "in_sequence_found": found, "complete": answer.complete},
    )


def hint(state: State[Any], seconds: float) -> Hint:
    """The first move of a winning line, or of the line to the best dead end found."""
    game = _as_gaps(state)
    legal = game.legal_moves()
    if not legal:
        return Hint(None, False, "no move left")
    if legal == [REDEAL]:
        return Hint("redeal", None, "no other move: redeal")
    answer = _timed_search(game, seconds)
    first = realize(game, Answer(answer.winnable, 0, 0, 0, answer.line[:1]))[:1]
    move = first[0] if first else game.move_text(legal[0])
    if answer.winnable:
        note = "winnable without a redeal"
    elif answer.complete:
        note = f"not winnable without a redeal; at best {answer.best_dead_end} in sequence"
    else:
        note = f"search stopped; {answer.best_dead_end} in sequence reached so far"
    return Hint(move, answer.winnable, note)


def _timed_search(game: GapsState, seconds: float) -> Answer:
    """Probes of a few thousand nodes, each in another move order, until one decides or
    most of the time is gone (the kernel cannot read the clock, so the probes stay short)."""
    deadline = time.perf_counter() + 0.8 * seconds
    board = board_of(game)
    best: Answer | None = None
    salt = 0
    while best is None or time.perf_counter() < deadline:
        answer = fast.search(board, fast.PROBE_STATES, salt=salt, reduce=True)
        if answer.complete:
            return answer
        if best is None or answer.best_dead_end > best.best_dead_end:
            best = answer
        salt += 1
    return best


def solver_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """No redeal: the exact answer. With redeals: each phase is played to its best dead end,
    then redealt (the exact best for the phase, not for the whole game)."""
    game = _as_gaps(state)
    states = 0
    exact = True
    final = game.in_sequence
    won = game.won
    while not won and (legal := game.legal_moves()):
        if legal == [REDEAL]:
            game.apply(REDEAL)
            continue
        board = board_of(game)
        answer = fast.decide(board, max_states)
        states += answer.states
        last = game.redeals_used == game.params.redeals
        if answer.winnable is False or (answer.winnable is None and not last):
            # Not (known) winnable: play to the best dead end, then redeal or stop there.
            answer = fast.best_dead_end(board, max_states)
            states += answer.states
        exact = exact and answer.complete
        final, won = answer.best_dead_end, answer.winnable is True
        if won or last:
            break
        for move in realize(game, answer):
            game.apply(move)
    details = {"redeals_used": game.redeals_used, "in_sequence": final}
    score = final - game.params.penalty * game.redeals_used
    return PlayResult(won if (won or exact) else None, score, states, details)


ENTRY = register_solver(
    SolverEntry(
        game="gaps",
        label=LABEL,
        solve=solve,
        hint=hint,
        policies={"solver": solver_policy},
        default_max_states=20_000_000,
    )
)
