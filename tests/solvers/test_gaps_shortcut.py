"""Shorter lines (:mod:`ludoteca.solvers.gaps.shortcut`): a look from a position of a line for
a later one, so that the lines people read (`solve`, the hint) take fewer detours."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.base import find_solver
from ludoteca.solvers.gaps import fast, plans, realize, shortcut
from ludoteca.solvers.gaps.line import board_of

from .test_gaps import HINTS_OF_112, variant


def _walk(game: GapsState, moves: int, rng: random.Random) -> list[str]:
    """A random line the game allows from ``game`` (which it plays), up to a stuck position."""
    line: list[str] = []
    for _ in range(moves):
        legal = [m for m in game.legal_moves_text() if m != "redeal"]
        if not legal:
            break
        line.append(rng.choice(legal))
        game.apply(line[-1])
    return line


def _end(game: GapsState, line: list[str]) -> str:
    """Where ``line`` ends from ``game``, played by the game (so it must allow every move,
    repetition rule included)."""
    copy = game.fork()
    for move in line:
        assert move in copy.legal_moves_text(), (move, line)
        copy.apply(move)
    return copy.position()


def test_the_look_moves_as_the_game_does() -> None:
    """Seed, Gameplay 1-3 (a gap takes the card after its left neighbour, a first-column gap
    any 2, nothing right of a King or a gap) and RULES.md (a 2 in the first column may move
    to another first-column gap): the look's own move generator, on small ints, gives the
    positions the engine's moves give, on random positions of full and small deals."""
    rng = random.Random(3)
    compared = 0
    for seed in range(40):
        game = SPEC.new_game("no-redeal" if seed % 2 else variant(3, 6), seed)
        assert isinstance(game, GapsState)
        for _ in range(25):
            engine = set()
            for move in game.legal_moves():
                copy = game.fork()
                copy.apply(move)
                engine.add(shortcut.encoded(copy.grid))
            grid = shortcut.encoded(game.grid)
            seen = {shortcut.encoded(p) for p in game.seen_positions()}
            own = {child for child, _ in shortcut._children(grid, game.ranks, game.params.suits)}
            assert own - seen == engine
            compared += 1
            if not _walk(game, 1, rng):
                break
    assert compared > 500


def test_a_line_of_detours_is_shortened_to_the_same_end() -> None:
    """RULES.md (repetition): the 96 moves the hint once offered on deal 112 one after another,
    where 2H, 3H and 2C went round the first column. The shortened line is one the game
    allows, ends in the same position, and is far shorter."""
    game = SPEC.new_game("gaps", 112)
    assert isinstance(game, GapsState)
    line = HINTS_OF_112.split()
    shorter = shortcut.shortened(game, line)
    assert _end(game, shorter) == _end(game, line)
    assert len(shorter) <= 0.75 * len(line), len(shorter)


@pytest.mark.parametrize(("suits", "ranks"), [(3, 5), (4, 5), (3, 7)])
def test_shortened_lines_play_and_end_where_they_did(suits: int, ranks: int) -> None:
    """RULES.md (repetition): random lines, some from a game with moves already played (whose
    positions the shorter line must not bring back): every shortened line is one the game
    allows, ends where the line did and is never longer; and some are shorter."""
    rng = random.Random(suits * 100 + ranks)
    shorter = 0
    for seed in range(60):
        game = SPEC.new_game(variant(suits, ranks), seed)
        assert isinstance(game, GapsState)
        _walk(game, rng.randrange(0, 12), rng)
        start = game.fork()
        line = _walk(game, 40, rng)
        short = shortcut.shortened(start, line)
        assert len(short) <= len(line)
        assert _end(start, short) == _end(start, line), (seed, line, short)
        shorter += len(short) < len(line)
    assert shorter >= 10, shorter


def test_solve_prints_a_winning_line_without_the_search_s_detours() -> None:
    """Seed, Gameplay 4 (a win: every row in sequence): the exact search's winning line for
    deal 1, played as engine moves, takes 215 moves; `solve` prints a shorter one that still
    wins."""
    game = SPEC.new_game("no-redeal", 1)
    assert isinstance(game, GapsState)
    searched = realize(game, fast.decide(board_of(game), 2_000_000))
    result = find_solver("gaps").solve(game, 2_000_000)
    assert result.winnable is True
    copy = game.fork()
    for move in result.moves:
        copy.apply(move)
    assert copy.won
    assert len(result.moves) < len(searched)


def test_hints_along_a_line_take_its_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed, Gameplay 4 and RULES.md (repetition): a hint on a remembered line first looks for
    a shortcut to a later position of it. With the 96 moves of deal 112 remembered as an exact
    line, the hints, followed without a search, reach its end in fewer moves."""
    plans.forget()
    game = SPEC.new_game("gaps", 112)
    assert isinstance(game, GapsState)
    line = HINTS_OF_112.split()
    end = _end(game, line)
    plans.remember(game, plans.Plan(tuple(line), False, "at best 31 in sequence", 31, True))

    monkeypatch.setattr(fast, "decide", _never("the hint searched"))
    monkeypatch.setattr(fast, "best_dead_end", _never("the hint searched"))
    hint = find_solver("gaps").hint
    assert hint is not None
    played = 0
    while game.position() != end:
        answer = hint(game, 2.0)
        assert answer.move is not None and answer.move in game.legal_moves_text()
        assert answer.note == "at best 31 in sequence"
        game.apply(answer.move)
        played += 1
        assert played < len(line)
    assert played <= 0.75 * len(line), played


def test_a_hint_whose_search_took_its_time_follows_its_line_without_a_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RULES.md (hints answer within their time): where a remembered line is inexact, the
    hint searches afresh and keeps the line unless the search does better. When that search
    took more than ``SHORTCUT_AFTER`` of the time, the line's next move comes as it is; the
    look for a shortcut ran anyway on that path (0.26 s past a 2 s hint under load)."""
    import types

    import ludoteca.solvers.gaps as gaps_solver

    plans.forget()
    game = SPEC.new_game("gaps", 112)
    assert isinstance(game, GapsState)
    line = HINTS_OF_112.split()
    plans.remember(game, plans.Plan(tuple(line), None, "36 in sequence so far", 31, False))
    clock = [100.0]
    monkeypatch.setattr(gaps_solver, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))

    def search_taking_most_of_the_time(state: GapsState, seconds: float) -> tuple[object, None]:
        clock[0] += 0.95 * seconds
        return gaps_solver.Hint(line[0], None, "search stopped"), None

    monkeypatch.setattr(gaps_solver, "_searched", search_taking_most_of_the_time)
    monkeypatch.setattr(shortcut, "shortcut", _never("looked for a shortcut"))
    hint = find_solver("gaps").hint
    assert hint is not None
    answer = hint(game, 2.0)
    assert (answer.move, answer.note) == (line[0], "36 in sequence so far")
    plans.forget()


def _never(what: str) -> Callable[..., None]:
    """A stand-in for a function the test's path must not call: it fails, saying ``what``."""

    def called(*args: object, **kwargs: object) -> None:
        raise AssertionError(what)

    return called
