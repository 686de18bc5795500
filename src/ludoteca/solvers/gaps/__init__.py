"""Exact Gaps: does a position win without a redeal, and how many cards in sequence at best?

The search (:mod:`.kernel`, compiled; :mod:`.reference`, plain Python) runs over classes of
positions (see :mod:`.board`): the 2s and gaps of column 0 rearrange freely while a gap is
among them, so all those arrangements are one node, and rows are interchangeable in the
transposition table. ``best_in_sequence`` is the most cards in sequence in a position where
no move is left (where the game ends, or where a redeal may come).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import State
from ludoteca.core.rng import DealRng
from ludoteca.games.gaps import REDEAL, STOP, GapsMove, GapsState
from ludoteca.solvers.base import Hint, PlayResult, SolverEntry, SolveResult, register_solver
from ludoteca.solvers.gaps import fast, nested, plans, shortcut
from ludoteca.solvers.gaps.board import Board, Shape
from ludoteca.solvers.gaps.line import board_of, concrete_move, engine_moves
from ludoteca.solvers.gaps.reference import Answer

LABEL = "exact, without redeals"


def _as_gaps(state: State[Any]) -> GapsState:
    if not isinstance(state, GapsState):
        raise TypeError(f"the Gaps solver got a {state.spec.name} position")
    return state


def realize(
    state: GapsState, answer: Answer, tidy: bool = True, until: float | None = None
) -> list[str]:
    """Play the answer's line on a copy of ``state``; the engine moves, as notation, with
    the detours of 2s taken out (:func:`tidied`, until ``until``) where ``tidy`` (lines
    people read: about 50 ms a full deal, which the study policy, whose lines no one reads,
    does not pay). The search knows nothing of the moves before ``state``: where its line
    would bring back an earlier position of the deal, which the game refuses (RULES.md,
    repetition), it goes round it (:func:`.shortcut.repaired`); where no way round is found
    the line is returned as the search gave it, and its callers check it."""
    game = _copy(state)
    steps: list[GapsMove] = []
    played: list[str] = []
    for move in answer.line:
        for step in engine_moves(game, move):
            game.apply(step)
            steps.append(step)
            played.append(game.move_text(step))
    if tidy:
        shorter = tidied(state, steps, game.position(), until)
        played = played if len(shorter) == len(steps) else _texts(state, shorter)
    return shortcut.repaired(state, played, until=until) or played


def _copy(state: GapsState) -> GapsState:
    game = state.spec.from_position(state.position(), state.variant)
    assert isinstance(game, GapsState)
    return game


def _texts(state: GapsState, steps: list[GapsMove]) -> list[str]:
    """``steps`` played on a copy of ``state``, as engine notation."""
    game = _copy(state)
    played: list[str] = []
    for step in steps:
        game.apply(step)
        played.append(game.move_text(step))
    return played


def tidied(
    state: GapsState, steps: list[GapsMove], end: str, until: float | None = None
) -> list[GapsMove]:
    """``steps`` without the detours of 2s: the search moves a pool of 2s as a class (one
    node for every arrangement), so its lines, played as engine moves, may put a 2 in the
    first column of one row and later move it to another's (``2D>r1 2D>r2 2C>r1`` where
    ``2D>r2 2C>r1`` does). Where a 2 moves again, its first move goes straight to the later
    row and the later move is dropped, if the line still plays and ends in the same
    position (``end``); repeated until no such pair is left, or until the clock passes
    ``until`` (a ``time.perf_counter`` value): then the line as tidied so far, which plays
    to ``end`` too. Each try replays the whole line, so a long line of a search cut short
    (400 moves, 334 tries) took 4 s of a 2 s hint."""
    changed = True
    while changed:
        changed = False
        for i, step in enumerate(steps):
            if until is not None and time.perf_counter() > until:
                return steps
            if step.card is None or step.card.rank != 2:
                continue
            j = next((k for k in range(i + 1, len(steps)) if steps[k].card == step.card), None)
            if j is None:
                continue
            shorter = [*steps[:i], steps[j], *steps[i + 1 : j], *steps[j + 1 :]]
            if _plays_to(state, shorter, end):
                steps, changed = shorter, True
                break
    return steps


def _plays_to(state: GapsState, steps: list[GapsMove], end: str) -> bool:
    game = _copy(state)
    try:
        for step in steps:
            game.apply(step)
    except LudotecaError:
        return False
    return game.position() == end


def solve(
    state: State[Any],
    max_states: int | None = None,
    seconds: float | None = None,
    memory: int | None = None,
) -> SolveResult:
    """Decide the position; when it cannot win, a second search gives the exact best dead
    end (the most cards in sequence reachable) within the same state limit and time budget.
    ``memory``: the most bytes for the table two searches share under a time budget
    (default :data:`fast.TABLE_BYTES`). When undecided, ``stopped`` says what ran out, and
    the nested search (:mod:`.nested`) looks for the deepest dead end it can reach (or a
    win, which decides) in what is left of the budget."""
    start = time.perf_counter()
    game = _as_gaps(state)
    board = board_of(game)
    # Under a time budget a long deal gets two threads (see fast.decide).
    room = fast.TABLE_BYTES if memory is None else memory
    answer = fast.decide(board, max_states, seconds=seconds, workers=2, table_bytes=room)
    states = answer.states
    until = None if seconds is None else start + seconds
    # The line is tidied whole, past the budget if need be (about 50 ms a full deal): a
    # budget's clock bounds the searches, and a win found at its end should read well too.
    moves = realize(game, answer) if answer.winnable else []
    found = answer.best_dead_end
    complete = answer.complete
    if answer.winnable and not plays_here(game, moves):
        # A win as dealt whose line this game refuses, with no way round found: the search
        # knew nothing of the deal's earlier positions (RULES.md, repetition), so each move
        # allowed here is searched on its own, as the game goes on after it.
        around, spent, why = _won_around(game, max_states, until, room)
        states += spent
        if around is None:
            # Winnable as dealt, but not shown to be with this game's earlier positions
            # barred: undecided, and the answer says why (or what ran out).
            answer.winnable, complete, moves, found = None, False, [], -1
            answer.stopped = why
        else:
            moves = around
    if answer.winnable is None:
        # Undecided: the nested search (a budget's last moments, or a few counted runs
        # under a state limit) reaches a real dead end, often a deep one, and now and then
        # a win, which decides after all.
        # When the states (or the table's room) ran out first, the counted runs: the rest
        # of the budget went to them before, though the limit asked for was reached.
        # (After a win this game's history barred, the time left, if there is a budget.)
        timed = seconds is not None and answer.stopped in ("time", "repetition")
        left = max(0.0, start + seconds - time.perf_counter()) if timed and seconds else 0.0
        reached, line = nested.best_line(board, left, runs=0 if timed else SOLVE_NESTED_RUNS)
        if reached < board.shape.full:
            found = max(found, reached)
        elif plays_here(game, won := _played(game, line, until)):
            answer.winnable, complete, moves, found = True, True, won, reached
    best: int | None = board.shape.full if answer.winnable else None
    stopped = answer.stopped if answer.winnable is None else None
    if answer.winnable is False:
        # The time budget covers this search too (None when it runs out: not exact).
        deadline = 0.0 if seconds is None else start + seconds
        most = fast.best_dead_end(board, max_states, deadline=deadline)
        states += most.states
        found = max(found, most.best_dead_end)
        best = most.best_dead_end if most.complete else None
        if not most.complete:
            # A loss proved within the limit, its best dead end not: the answer said
            # complete, with nothing stopped.
            complete, stopped = False, most.stopped
    seconds_taken = time.perf_counter() - start
    # A depth-first line: shortcuts to its later positions, where a look finds them (about
    # 0.3 s a pass over a full deal's line, after the search and not in its seconds).
    moves = shortcut.shortened(game, moves)
    return SolveResult(
        winnable=answer.winnable,
        states=states,
        seconds=seconds_taken,
        moves=moves,
        label=LABEL,
        extra={
            "best_in_sequence": best,
            # -1 from the search: no position without a move was reached (the cuts end most
            # lines of a lost deal earlier), which the answer says as null.
            "in_sequence_found": found if found >= 0 else None,
            "complete": complete,
            "max_states": max_states,
            **({"stopped": stopped} if stopped is not None else {}),
        },
    )


def plays_here(game: GapsState, line: list[str]) -> bool:
    """Does ``game`` (with the positions it has seen) allow ``line`` whole?"""
    return shortcut.played(game, line) is not None


def _won_around(
    game: GapsState, max_states: int | None, deadline: float | None, room: int
) -> tuple[list[str] | None, int, str]:
    """A winning line from ``game`` that it allows whole, found by deciding the position
    after each move allowed here (each within ``max_states``, and a share of the time to
    ``deadline``, over a table of at most ``room`` bytes): the line (None where none is
    found), the nodes that took, and why none was found ("" where one was): what one of
    those searches ran out of, else "repetition"."""
    spent = 0
    allowed = game.legal_moves_text()
    stopped = ""  # what a search that ended undecided ran out of (the first such)
    for at, move in enumerate(allowed):
        child = game.fork()
        child.apply(move)
        seconds = None
        if deadline is not None:
            seconds = (deadline - time.perf_counter()) / (len(allowed) - at)
            if seconds <= 0:
                return None, spent, "time"
        answer = fast.decide(
            board_of(child), max_states, seconds=seconds, workers=2, table_bytes=room
        )
        spent += answer.states
        stopped = stopped or (answer.stopped if answer.winnable is None else "")
        if answer.winnable:
            line = realize(child, answer, until=deadline)
            if plays_here(child, line):
                return [move, *line], spent, ""
    return None, spent, stopped or "repetition"


SOLVE_NESTED_RUNS = 4
"""Level-2 nested searches an undecided ``solve`` under a state limit gets (counted, so the
answer is the same on any machine); under a time budget they run until it ends."""


def _played(game: GapsState, line: nested.Line, until: float | None = None) -> list[str]:
    """The nested search's line played on a copy of ``game``, as engine notation, with the
    detours of 2s taken out (:func:`tidied`, until ``until``), as the exact search's lines."""
    steps = [concrete_move(code, target, game.ranks) for code, target in line]
    end = _copy(game)
    for step in steps:
        end.apply(step)
    played = _texts(game, tidied(game, steps, end.position(), until))
    return shortcut.repaired(game, played, until=until) or played


def _redeal_or_stop(game: GapsState, may_stop: bool) -> Hint:
    """Stuck with a redeal left: redeal, unless it costs more points than it could bring.
    A redeal keeps every card in sequence, so it can only gain the cards still out of it;
    where its penalty is more than those, stopping keeps the higher score (a redeal could
    still win, which the note says)."""
    if not may_stop:
        return Hint("redeal", None, "no other move: redeal")
    penalty = game.params.penalty
    left = game.params.suits * (game.ranks - 1) - game.in_sequence
    if penalty > left:
        return Hint(
            "stop",
            None,
            f"a redeal costs {penalty:g}, more than the {left} cards it could still bring into"
            " sequence, though it could still win",
        )
    return Hint(
        "redeal",
        None,
        f"it costs {penalty:g}, and {left} cards could still come into sequence",
    )


def hint(state: State[Any], seconds: float) -> Hint:
    """The first move of a winning line; in a position that cannot win (or whose search ran
    out of time), the first move of the line to the best dead end found, which is what a
    redeal keeps. A hint on the line of an earlier one goes on along it (:mod:`.plans`): at
    once where that search was exact, else after a search of its own that must do better to
    change the line. So hints followed one after another play one line to its end, by the
    shortcuts a look from each position finds along it (:mod:`.shortcut`)."""
    game = _as_gaps(state)
    legal = game.legal_moves()
    if not legal:
        return Hint(None, False, "no move left")
    if REDEAL in legal:  # (offered only with no card to move)
        return _redeal_or_stop(game, STOP in legal)
    began = time.perf_counter()
    kept = plans.recall(game)
    if kept is not None and kept[0].exact:
        return _along(game, *kept)
    fresh, found = _searched(game, seconds)
    # The next hint looks for a shortcut where this one's search took nearly all its time.
    look = time.perf_counter() - began <= SHORTCUT_AFTER * seconds
    # An inexact line: only a better one (or an exact one) replaces it.
    if kept is not None and (
        found is None or (not found.exact and found.reached <= kept[0].reached)
    ):
        return _along(game, *kept, look=look)
    if found is None:
        return fresh
    plans.remember(game, found)
    if not look:
        return fresh
    return _along(game, found, found.moves)


SHORTCUT_AFTER = 0.9
"""A hint whose search took more than this share of its time offers the line's first move
as it is, without a look for a shortcut (:mod:`.shortcut`, a few milliseconds)."""


def _along(game: GapsState, plan: plans.Plan, rest: tuple[str, ...], look: bool = True) -> Hint:
    """The hint that goes on along ``plan`` (``rest``: its moves from here), by a shortcut
    to a later position of it where one is found (:func:`.shortcut.shortcut`: the same end,
    so the same promise, in fewer moves); the shorter line is the plan from here on. No
    look for a shortcut where ``look`` is false (the time is nearly up): the plan's next
    move as it is."""
    shorter = shortcut.shortcut(game, rest) if look else None
    if shorter is not None:
        rest = tuple(shorter)
        plans.remember(game, replace(plan, moves=rest))
    return Hint(rest[0], plan.winnable, plan.note)


def _searched(game: GapsState, seconds: float) -> tuple[Hint, plans.Plan | None]:
    """The hint from a search of ``game`` within ``seconds``, and the plan behind it (None
    where the line's first move is one the repetition rule forbids here). Half the time
    decides; the rest looks for the best dead end if needed, with the nested Monte Carlo
    search beside it (:mod:`.nested`), which often reaches far better dead ends than a
    best-dead-end search cut short, and sometimes a win."""
    began = time.perf_counter()
    board = board_of(game)
    full = board.shape.full
    budget = 0.8 * seconds
    # Tidying a line stops here (:func:`tidied`): a long line's took seconds.
    finish = began + 0.95 * seconds
    # The note says "without a redeal" only where one is left (in no-redeal it meant
    # nothing), and not what the verdict (``winnable``) says already.
    left = game.redeals_used < game.params.redeals
    winnable = "no redeal needed" if left else ""
    legal = game.legal_moves_text()
    # Two workers: a beam beside the search finds many wins a short search misses.
    answer = fast.decide(board, None, seconds=budget / 2, workers=2)
    # Where a line begins with a move the repetition rule forbids here (RULES.md: the
    # search knows nothing of the moves before), the allowed moves are searched each, in
    # time kept for that (the searches above may have used all of theirs).
    spare = min(began + 0.95 * seconds, max(began + budget, time.perf_counter()) + 0.15 * seconds)
    if answer.winnable:
        line = realize(game, answer, until=finish)
        if line and line[0] in legal:
            return Hint(line[0], True, winnable), plans.Plan(
                tuple(line), True, winnable, full, True
            )
        return _around(game, spare, left), None
    deadline = began + budget
    done = threading.Event()
    with ThreadPoolExecutor(1) as side:
        looking = side.submit(
            nested.best_line, board, max(0.0, deadline - time.perf_counter()), stop=done
        )
        most = fast.best_dead_end(board, None, deadline=deadline)
        done.set()
        reached, nested_line = looking.result()
    exact = most.complete
    if most.best_dead_end < answer.best_dead_end:
        most = answer  # only when the bounded search stopped early: not exact
    # The nested search plays concrete moves and never repeats a position of its own line;
    # its line, tidied, is offered only where the game allows its first move.
    walked = _played(game, nested_line, finish) if nested_line else []
    if walked and walked[0] not in legal:
        walked = []
    if reached == full and walked:
        return Hint(walked[0], True, winnable), plans.Plan(
            tuple(walked), True, winnable, full, True
        )
    # Lost without a redeal is lost only when no redeal is left: a redeal may still win.
    lost = None if left else False
    verdict = "not winnable without a redeal; " if left else ""
    if answer.complete and exact:
        note = f"{verdict}at best {most.best_dead_end} in sequence"
        line = realize(game, most, until=finish)
        if line and line[0] not in legal:
            return _around(game, spare, left), None
        move = line[0] if line else legal[0]
        plan = plans.Plan(tuple(line), lost, note, most.best_dead_end, True) if line else None
        return Hint(move, lost, note), plan
    line, got = realize(game, most, until=finish), most.best_dead_end
    if walked and (reached > got or (line and line[0] not in legal)):
        line, got = walked, reached
    if line and line[0] not in legal:
        return _around(game, spare, left), None
    if got < 0:  # no dead end reached by any search yet
        return Hint(line[0] if line else legal[0], None, "search stopped"), None
    if answer.complete:
        note = f"{verdict}{got} in sequence found so far"
    else:
        lost, note = None, f"search stopped; {got} in sequence reached so far"
    if not line:
        return Hint(legal[0], lost, note), None
    return Hint(line[0], lost, note), plans.Plan(tuple(line), lost, note, got, False)


def _around(game: GapsState, deadline: float, left: bool) -> Hint:
    """The hint where the line found begins with a 2's move the repetition rule forbids
    here (RULES.md: no move may bring back an earlier position of this deal; the search
    knows nothing of the moves before): each allowed move's position searched for its
    best dead end (a win is one with every card in sequence) until ``deadline``, the time
    shared among them, and its line cut where this game would refuse a move (a line from
    the next position may well bring this one back). The move whose line goes furthest;
    a verdict only where every search finished and the line plays whole. The plan kept is
    the one from the next position on, which does not depend on the moves before."""
    allowed = game.legal_moves_text()
    full = board_of(game).shape.full
    # Each allowed move: what its line reaches in this game, the most its search allows
    # (None where it did not finish), the move, the next position and the line from there.
    options: list[tuple[int, int | None, str, GapsState, list[str]]] = []
    for at, move in enumerate(allowed):
        child = game.fork()
        child.apply(move)
        share = max(0.0, deadline - time.perf_counter()) / (len(allowed) - at)
        answer = fast.best_dead_end(board_of(child), None, deadline=time.perf_counter() + share)
        wanted = realize(child, answer, until=deadline)
        line, ending = _allowed_part(child, wanted)
        figure = answer.best_dead_end if len(line) == len(wanted) else ending
        bound = answer.best_dead_end if answer.complete else None
        options.append((figure, bound, move, child, line))
    figure, _, move, child, line = max(options, key=lambda o: o[0])
    # Exact: every search finished, and none allows more than this line reaches.
    exact = all(bound is not None and bound <= figure for _, bound, _, _, _ in options)
    verdict = "not winnable without a redeal; " if left else ""
    lost = None if left else False
    if figure == full:
        note = "no redeal needed" if left else ""
        plans.remember(child, plans.Plan(tuple(line), True, note, full, True))
        return Hint(move, True, note)
    if figure < 0:
        return Hint(move, None, "search stopped")
    if exact:
        note = f"{verdict}at best {figure} in sequence"
        plans.remember(child, plans.Plan(tuple(line), lost, note, figure, True))
        return Hint(move, lost, note)
    bounds = [bound for _, bound, _, _, _ in options]
    if all(bound is not None and bound < full for bound in bounds):
        # Every search finished, none finds a win; more cards in sequence only by lines
        # that come back to a position of this deal.
        note = (
            f"{verdict}{figure} in sequence found: lines to more would bring back an earlier "
            "position"
        )
        plans.remember(child, plans.Plan(tuple(line), lost, note, figure, False))
        return Hint(move, lost, note)
    note = f"search stopped; {figure} in sequence reached so far"
    plans.remember(child, plans.Plan(tuple(line), None, note, figure, False))
    return Hint(move, None, note)


def _allowed_part(game: GapsState, line: list[str]) -> tuple[list[str], int]:
    """``line`` up to the first move ``game`` (with the positions it has seen) refuses, and
    the cards in sequence where that part ends."""
    copy = game.fork()
    kept: list[str] = []
    for move in line:
        if move not in copy.legal_moves_text():
            break
        copy.apply(move)
        kept.append(move)
    return kept, copy.in_sequence


@dataclass
class Phase:
    """One deal or redeal played by the solver policy."""

    winnable: bool | None
    """Could this phase be won without a further redeal (None: the search ran out)."""
    in_sequence: int
    """Cards in sequence where the phase ended (a win, or the best dead end found)."""
    states: int


NESTED_RUNS = 16
"""Level-2 nested searches a phase gets when the best-dead-end search ran out of nodes."""


def play_phases(
    game: GapsState, max_states: int | None, nested_runs: int = NESTED_RUNS
) -> list[Phase]:
    """Play ``game`` on with the solver: each phase is won if the search finds a win, else
    played to the best dead end found and redealt while redeals remain (the best for the
    phase, not for the whole game). When the best-dead-end search runs out of nodes, the
    nested search (``nested_runs`` runs; 0: none) may find a deeper dead end or a win; its
    runs are counted, not timed, so a study gives the same results on any machine."""
    phases: list[Phase] = []
    searched = False
    while not game.won and (legal := game.legal_moves()):
        if REDEAL in legal:  # stuck: the policy always redeals (a stop never wins)
            if not searched:  # stuck as dealt: a phase lost without a move
                phases.append(Phase(False, game.in_sequence, 0))
            game.apply(REDEAL)
            searched = False
            continue
        board = board_of(game)
        answer = fast.decide(board, max_states)
        states = answer.states
        exact = True
        if answer.winnable is not True:
            most = fast.best_dead_end(board, max_states)
            states += most.states
            exact = most.complete
            winnable = True if most.winnable else answer.winnable
            if most.best_dead_end >= answer.best_dead_end or most.winnable:
                answer = most
            answer.winnable = winnable
        steps = None
        if answer.winnable is not True and not exact and nested_runs > 0:
            reached, line = nested.best_line(board, 0.0, runs=nested_runs)
            if reached > answer.best_dead_end:
                steps = [concrete_move(code, target, game.ranks) for code, target in line]
                answer.best_dead_end = reached
                if reached == board.shape.full:
                    answer.winnable = True
        phases.append(Phase(answer.winnable, answer.best_dead_end, states))
        last = game.redeals_used == game.params.redeals
        if answer.winnable is True or not last:
            if steps is None:
                for move in realize(game, answer, tidy=False):
                    game.apply(move)
            else:
                for step in steps:
                    game.apply(step)
        searched = True
        if answer.winnable is True or last:
            break
    else:
        if not game.won and not searched:  # the last deal or redeal is stuck as dealt
            phases.append(Phase(False, game.in_sequence, 0))
    return phases


def within(phases: list[Phase], redeals: int) -> bool | None:
    """The outcome had the game allowed only ``redeals`` redeals: a later phase plays the
    same cards (a redeal's shuffle depends only on the deal and how many came before)."""
    first = phases[: redeals + 1]
    if any(phase.winnable is True for phase in first):
        return True
    return None if any(phase.winnable is None for phase in first) else False


def _warm_novelty() -> None:
    """The novelty search on a small board: the warming solves do not reach it, since it
    runs beside the search alone only after the beams and the first greedy search."""
    fast.novel(Board.shuffled(Shape(3, 5), 1), max_states=1_000)


def solver_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """No redeal: the exact answer. With redeals: see :func:`play_phases`."""
    game = _as_gaps(state)
    phases = play_phases(game, max_states)
    won = within(phases, game.params.redeals) if phases else game.won
    final = phases[-1].in_sequence if phases else game.in_sequence
    details = {"redeals_used": game.redeals_used, "in_sequence": final}
    score = final - game.params.penalty * game.redeals_used
    return PlayResult(won, score, sum(phase.states for phase in phases), details)


ENTRY = register_solver(
    SolverEntry(
        game="gaps",
        label=LABEL,
        solve=solve,
        solve_timed=solve,
        hint=hint,
        policies={"solver": solver_policy},
        default_max_states=20_000_000,
        study_max_states=20_000_000,
        searches_without_limit=True,
        warm=_warm_novelty,
    )
)
