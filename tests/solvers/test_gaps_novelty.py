"""The best-first search by novelty (``fast.novel``, the module ``novelty``; the notebook,
*A best-first search by novelty*): a look for wins that keeps every class it enters, so
with room enough it finds a win wherever the plain search does, and under a budget decides
nothing when it finds none. ``fast.decide`` runs it beside the search alone, after the
first greedy search."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.gaps import fast, realize
from ludoteca.solvers.gaps.board import Board, Shape
from ludoteca.solvers.gaps.line import board_of
from ludoteca.solvers.gaps.reference import Answer

from .test_gaps_greedy import assert_line_wins


def deal(seed: int) -> GapsState:
    game = SPEC.new_game("no-redeal", seed)
    assert isinstance(game, GapsState)
    return game


@pytest.mark.parametrize(("suits", "ranks", "count"), [(3, 5, 80), (4, 5, 40), (3, 6, 60)])
def test_with_room_it_wins_exactly_the_winnable_boards(suits: int, ranks: int, count: int) -> None:
    """Seed, Gameplay 1-2 (a gap takes the next card of its left neighbour's suit, column 0
    any 2) and RULES.md's win (every row one suit, 2 to King): on random small boards, with
    a budget they never reach, the novelty search finds a win exactly where the plain search
    (checked node for node against the reference) says the board can win, since novelty
    only orders the classes it keeps; every line it gives replays, in class moves, to every
    card in sequence. With a budget of a few nodes it misses those wins."""
    shape = Shape(suits, ranks)
    winnable = missed = 0
    for seed in range(count):
        board = Board.shuffled(shape, 9500 + seed)
        truth = fast.search(board).winnable
        answer = fast.novel(board, max_states=1_000_000)
        assert (answer is not None) == truth, board.grid
        if answer is not None:
            assert answer.winnable is True and answer.complete
            assert_line_wins(board, answer.line)
            winnable += 1
            missed += fast.novel(board, max_states=3) is None
    assert winnable > 0 and missed > 0


def test_it_wins_a_deal_the_depth_first_searches_win_only_after_minutes() -> None:
    """Seed, Gameplay 1-2 and RULES.md's win. Deal 261 (no-redeal): the full search won it
    after 175 M nodes (390 s), and the greedy searches only in their fourth and fifth
    orders (1.81 M and 1.44 M nodes), which the 8 s beside the search alone do not reach;
    the novelty search wins it after about 1.4 M nodes (its count does not depend on the
    machine), and its line, made the engine's moves, wins the game."""
    game = deal(261)
    answer = fast.novel(board_of(game))
    assert answer is not None and answer.winnable and answer.states < 1_500_000
    for move in realize(game, answer):
        game.apply(move)
    assert game.won


def test_it_stops_when_told_or_when_its_time_is_up_and_tells_when_it_wins() -> None:
    """``stop[0]`` set, or a deadline passed: it ends at its first expansion, undecided
    (deal 1, which it wins after about 12,000 nodes; deal 262, which it does not win within
    its budget, about 5 s); a win sets ``stop[0]``, which stops whatever shares the
    array."""
    board = board_of(deal(1))
    assert fast.novel(board, stop=np.ones(1, dtype=np.int64)) is None
    began = time.perf_counter()
    assert fast.novel(board_of(deal(262)), deadline=began) is None
    assert time.perf_counter() - began < 0.5
    stop = np.zeros(1, dtype=np.int64)
    assert fast.novel(board, stop=stop) is not None
    assert stop[0] == 1


def test_beside_the_search_alone_it_runs_after_the_beams_and_the_first_greedy_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the idle thread tries, in order, while none of it wins: the beams, the
    strictest greedy search, the novelty search, then the other greedy searches."""
    tried: list[str] = []

    def greedy(start: Board, states: int | None, *args: Any, **options: Any) -> Answer:
        tried.append(f"greedy {args[0]} {args[1]} {args[2]}")
        return Answer(None, 0, -1, 1, [], False, "greedy")

    def novel(start: Board, *args: Any, **options: Any) -> None:
        tried.append("novelty")

    monkeypatch.setattr(fast, "beam", lambda start, stop: tried.append("beam"))
    monkeypatch.setattr(fast, "greedy", greedy)
    monkeypatch.setattr(fast, "novel", novel)
    stop = np.zeros(1, dtype=np.int64)
    now = time.perf_counter()
    board = board_of(deal(1))
    assert fast._beside(board, stop, now, now + 0.2) is None
    assert tried[:5] == ["beam", "greedy 0 0 0", "novelty", "greedy 30 0 0", "greedy 0 1 0"]
    assert tried.count("novelty") == 1


def test_decide_takes_the_novelty_win_found_beside_the_search_alone(
    monkeypatch: pytest.MonkeyPatch, waiting_search: Any
) -> None:
    """Under a time budget with two workers, deal 261: the beams and the first greedy
    searches find nothing there (here stand-ins that say so at once), the novelty search
    wins, which stops the full search (a stand-in that waits to be stopped); the answer is
    that win, on a line that replays."""
    waiting, stopped = waiting_search
    monkeypatch.setattr(fast, "search", waiting)
    monkeypatch.setattr(fast, "beam", lambda start, stop: None)
    monkeypatch.setattr(
        fast, "greedy", lambda *args, **options: Answer(None, 0, -1, 1, [], False, "greedy")
    )
    board = board_of(deal(261))
    answer = fast.decide(board, None, seconds=60.0, workers=2)
    assert stopped == [True]
    assert answer.winnable is True and answer.complete
    assert_line_wins(board, answer.line)
