"""The Gaps beam search (``fast.beam``): a quick look for wins that proves nothing when it
finds none. Every win it reports is checked against the plain search and replayed; and
``fast.decide`` runs it beside its first full search, each side's end stopping the other."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.gaps import fast, hint, realize
from ludoteca.solvers.gaps.board import Board, Shape
from ludoteca.solvers.gaps.line import board_of
from ludoteca.solvers.gaps.reference import Answer


def replayed(board: Board, answer: Answer) -> int:
    copy = board.copy()
    for move in answer.line:
        copy.play(move)
    return copy.in_sequence()


def deal(seed: int) -> GapsState:
    game = SPEC.new_game("no-redeal", seed)
    assert isinstance(game, GapsState)
    return game


@pytest.mark.parametrize(("suits", "ranks", "count"), [(3, 5, 80), (4, 5, 40), (3, 6, 60)])
def test_every_beam_win_is_a_win_and_a_narrow_beam_misses_some(
    suits: int, ranks: int, count: int
) -> None:
    """On random small boards: a win the beam reports is winnable for the plain search
    (which the reference solver checks node for node) and its line, made of class moves,
    replays to every card in sequence. A beam two classes wide finds some wins and misses
    others: it decides nothing when it finds none."""
    shape = Shape(suits, ranks)
    found = missed = 0
    for seed in range(count):
        board = Board.shuffled(shape, 9000 + seed)
        truth = fast.search(board).winnable
        answer = fast.beam(board, widths=(2,))
        if answer is None:
            missed += truth is True
            continue
        assert truth is True and answer.winnable is True and answer.complete
        assert replayed(board, answer) == shape.full
        found += 1
    assert found > 0 and missed > 0


def test_a_beam_wins_a_deal_the_depth_first_search_finds_late() -> None:
    """Seed 40 of the no-redeal deals: the 60 s run of 2026-11-24 decided it (won) only
    after 22 s of probes and full searches; one beam 1,000 wide finds a win, and its line,
    turned into the engine's moves, wins the game."""
    game = deal(40)
    answer = fast.beam(board_of(game), widths=(1_000,))
    assert answer is not None and answer.winnable
    for move in realize(game, answer):
        game.apply(move)
    assert game.won


def test_a_beam_stops_when_told_and_tells_when_it_wins() -> None:
    """``stop[0]`` set before it starts: no level is searched, no win. A win sets it."""
    board = board_of(deal(40))
    assert fast.beam(board, stop=np.ones(1, dtype=np.int64)) is None
    stop = np.zeros(1, dtype=np.int64)
    assert fast.beam(board, stop=stop) is not None
    assert stop[0] == 1


def test_decide_returns_the_beams_win_and_stops_its_search(
    monkeypatch: Any, waiting_search: Any
) -> None:
    """Under a time budget with two workers, a win of the beam ends the full search that
    runs beside it (here a stand-in that only waits to be stopped, as a long search
    would), and the answer is the beam's win."""
    waiting, stopped = waiting_search
    monkeypatch.setattr(fast, "search", waiting)
    board = board_of(deal(40))
    answer = fast.decide(board, None, seconds=60.0, workers=2)
    assert stopped == [True]
    assert answer.winnable is True and answer.complete
    assert replayed(board, answer) == board.shape.full


def test_decide_stops_the_beam_when_its_search_decides(monkeypatch: Any) -> None:
    """The other way round: the full search decides first (a small board), and the beam
    beside it (a stand-in that waits to be stopped) is stopped; the answer is the search's."""
    told: list[bool] = []

    def waiting(start: Board, stop: np.ndarray, **options: Any) -> Answer | None:
        until = time.perf_counter() + 60.0
        while not stop[0] and time.perf_counter() < until:
            time.sleep(0.01)
        told.append(bool(stop[0]))
        return None

    monkeypatch.setattr(fast, "beam", waiting)
    monkeypatch.setattr(fast, "PROBE_STATES", 1)  # no probe decides it
    board = Board.shuffled(Shape(4, 6), 7100)
    answer = fast.decide(board, None, seconds=30.0, workers=2)
    assert told == [True]
    assert answer.complete and answer.winnable == fast.search(board, reduce=True).winnable


def test_a_hint_finds_a_win_through_the_beam() -> None:
    """Seed 40's deal: one depth-first search wins only after about 19 M nodes (about 20 s
    here), so a 10 s hint (4 s of deciding) would say nothing about it; the beam beside the
    search (about 142,000 nodes, under half a second here) finds the win, and the hint's
    move is the first of that line."""
    game = deal(40)
    answer = hint(game, 10.0)
    assert answer.winnable is True and answer.move in game.legal_moves_text()


def test_the_beam_bench_prints_each_deal_and_rejects_bad_options() -> None:
    """``bench/bench_gaps_beam.py``, as the README runs it: one line per deal, a total, and
    a one-line error for a malformed option."""
    script = [sys.executable, str(Path(__file__).parents[2] / "bench" / "bench_gaps_beam.py")]
    run = subprocess.run(
        [*script, "--seeds", "40", "--widths", "1000"], capture_output=True, text=True, check=True
    )
    assert run.stdout.splitlines()[0].startswith("40 won at width 1000: 88 moves")
    assert run.stdout.splitlines()[-1].startswith("1 of 1 deals won by a beam")
    bad = subprocess.run([*script, "--seeds", "40,x"], capture_output=True, text=True)
    assert bad.returncode == 2 and "comma-separated whole numbers" in bad.stderr


def test_the_symmetry_bench_counts_what_suit_relabellings_merge() -> None:
    """The issue's "rows and suits are interchangeable": ``bench/bench_gaps_symmetry.py``
    counts the classes reachable from seeded deals keyed by rows, and by rows and suits.
    Merging never adds classes; on 3 x 5 boards walked whole some classes do merge (so the
    relabelling is at work), and a wrong option gets a one-line error."""
    script = [sys.executable, str(Path(__file__).parents[2] / "bench" / "bench_gaps_symmetry.py")]
    run = subprocess.run([*script, "--deals", "2", "--cap", "3000"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    line = r"^(\d) x (\d+): .*?([\d,]+) classes keyed by rows, ([\d,]+) by"
    counts = re.findall(line, run.stdout, re.M)
    assert [(s, r) for s, r, _, _ in counts] == [("3", "5"), ("4", "5"), ("4", "6"), ("4", "13")]
    for _, _, rows, both in counts:
        assert int(both.replace(",", "")) <= int(rows.replace(",", ""))
    _, _, rows, both = counts[0]
    assert int(both.replace(",", "")) < int(rows.replace(",", ""))
    bad = subprocess.run([*script, "--cap", "0"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--deals and --cap must be positive" in bad.stderr
