"""Greedy searches for wins (``fast.greedy``; the notebook, *Greedy searches for wins*): a
search that, where a move extends a row's sequence, takes the others only a few times along
a line. What it wins is won; what it does not win is undecided, since extending first can
lose the only wins (the naive rules of ``test_gaps.py``)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from ludoteca.games.gaps import SPEC, from_position
from ludoteca.solvers.gaps import fast, reference
from ludoteca.solvers.gaps.board import Board, Shape
from ludoteca.solvers.gaps.line import board_of

EXTEND_FIRST_LOSES = "2C -- -- 3D 4C 3C / 2D 5C 4D 6D 5D 6C"
"""The smallest position found where extending a row's sequence first loses the only wins
(``test_each_candidate_pruning_can_lose_a_win``)."""


def assert_line_wins(board: Board, line: list[tuple[int, int, int]]) -> None:
    replay = board.copy()
    for move in line:
        assert move in replay.moves()
        replay.play(move)
    assert replay.in_sequence() == board.shape.full


def test_extending_first_loses_the_win_that_one_discrepancy_keeps() -> None:
    """Seed, Gameplay (a gap takes the next card of its left neighbour): in this position
    the only wins start by not extending a row, so the greedy search without discrepancies
    ends undecided, not lost, and with one, or with free moves before the first extension,
    it wins on a line that replays."""
    state = from_position(
        EXTEND_FIRST_LOSES, SPEC.variant("gaps", {"suits": "2", "ranks": "6", "redeals": "0"})
    )
    board = board_of(state)
    assert reference.search(board).winnable is True
    strict = fast.greedy(board, None)
    assert (strict.winnable, strict.complete, strict.stopped) == (None, False, "greedy")
    for greedy_from, discrepancies in [(0, 1), (2, 0)]:
        won = fast.greedy(board, None, greedy_from, discrepancies)
        assert won.winnable is True and won.complete
        assert_line_wins(board, won.line)


def test_a_greedy_win_is_a_win_and_its_end_decides_nothing() -> None:
    """Seed, the win condition: on random small deals every greedy win is a deal the plain
    reference wins, its line replays to 2 to the top rank in every row, and a greedy search
    never calls a deal lost; it misses some wins without discrepancies, and finds more
    with them."""
    won = {(0, 0): 0, (0, 1): 0, (3, 0): 0}
    winnable = 0
    for suits, ranks, count in [(3, 5, 60), (4, 4, 30), (3, 6, 30)]:
        shape = Shape(suits, ranks)
        for seed in range(count):
            board = Board.shuffled(shape, 47000 + seed)
            truth = reference.search(board).winnable
            winnable += bool(truth)
            for greedy_from, discrepancies in list(won):
                answer = fast.greedy(board, None, greedy_from, discrepancies)
                assert answer.winnable in (True, None)
                if answer.winnable:
                    assert truth, board.grid
                    assert_line_wins(board, answer.line)
                    won[greedy_from, discrepancies] += 1
    assert won[0, 0] < winnable
    assert won[0, 0] < won[0, 1]


def test_with_discrepancies_to_spare_it_wins_every_winnable_deal() -> None:
    """A line that may leave the extension as often as it likes is any line: the greedy
    search then wins exactly the deals the reference wins (the discrepancies counted in
    the keys lose no node)."""
    for suits, ranks, count in [(3, 5, 40), (4, 4, 20)]:
        shape = Shape(suits, ranks)
        for seed in range(count):
            board = Board.shuffled(shape, 48000 + seed)
            truth = reference.search(board).winnable
            answer = fast.greedy(board, None, 0, 1000)
            assert (answer.winnable is True) == bool(truth), board.grid


def test_decide_takes_a_greedy_win_found_beside_the_search_alone(
    monkeypatch: pytest.MonkeyPatch, waiting_search: Any
) -> None:
    """Deal 376 (no-redeal): the full search wins it only after about a minute, the
    strictest greedy search (the first of ``greedy_runs``) after about 330,000 nodes.
    Under a time budget with two workers the greedy searches run beside the search alone
    once the beams find nothing (here both stand-ins: a search that only waits to be
    stopped, a beam that finds nothing); the greedy win stops the search and is the
    answer, on a line that replays to a win."""
    waiting, stopped = waiting_search
    monkeypatch.setattr(fast, "search", waiting)
    monkeypatch.setattr(fast, "beam", lambda start, stop: None)
    game = SPEC.new_game("no-redeal", 376)
    board = board_of(game)  # type: ignore[arg-type]
    answer = fast.decide(board, None, seconds=60.0, workers=2)
    assert stopped == [True]
    assert answer.winnable is True and answer.complete
    assert_line_wins(board, answer.line)


def test_with_nothing_won_beside_it_the_search_alone_ends_once_its_least_time_is_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The side's greedy searches end undecided (here their budget is a few nodes each, and
    the novelty search a stand-in that finds nothing):
    the side waits out ``least`` (the search alone's :data:`fast.SOLO_SECONDS`), then
    stops the search alone so that the pair starts; and a search that ended first (its
    ``stop`` set) is not waited for."""
    monkeypatch.setattr(fast, "GREEDY_STATES", 50)
    monkeypatch.setattr(fast, "beam", lambda start, stop: None)
    monkeypatch.setattr(fast, "novel", lambda start, *args, **options: None)
    board = board_of(SPEC.new_game("no-redeal", 1))  # type: ignore[arg-type]
    stop = np.zeros(1, dtype=np.int64)
    began = time.perf_counter()
    assert fast._beside(board, stop, began + 0.5, began + 0.3) is None
    assert stop[0] == 1 and time.perf_counter() - began >= 0.5
    began = time.perf_counter()
    assert fast._beside(board, stop, began + 30.0, began + 30.0) is None
    assert time.perf_counter() - began < 5.0


def test_the_greedy_runs_start_strict_then_alternate_salt_after_salt() -> None:
    """What :func:`fast.greedy_runs` tries, in order (the notebook, *Greedy searches for
    wins*)."""
    runs = fast.greedy_runs()
    first = [next(runs) for _ in range(5)]
    states = fast.GREEDY_STATES
    assert first == [
        (0, 0, 0, states // 5),
        (30, 0, 0, states),
        (0, 1, 0, states),
        (30, 0, 1, states),
        (0, 1, 1, states),
    ]
