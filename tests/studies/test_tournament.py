"""Tournaments rotate seats so that playing first favours nobody, and count every game."""

from __future__ import annotations

from collections import Counter

import pytest

from ludoteca.core import UnknownGameError
from ludoteca.core.registry import all_games
from ludoteca.studies.tournament import rotation, run_tournament

MULTIPLAYER = [s.name for s in all_games() if not s.is_solitaire]


def test_every_entrant_sits_in_every_seat_equally() -> None:
    for entrants in (2, 3, 4):
        seats = Counter(
            (seat, entrant)
            for game in range(entrants * 5)
            for seat, entrant in enumerate(rotation(game, entrants))
        )
        assert set(seats.values()) == {5}


@pytest.mark.parametrize("game", MULTIPLAYER)
def test_random_bots_play_a_small_tournament(game: str) -> None:
    summary = run_tournament(game, None, {}, ["random", "random", "random"], 6, first_seed=9)
    report = summary.as_json()
    assert report["games"] == 6
    finished = sum(1 for r in summary.records if r.finished)
    assert sum(p["wins"] for p in report["players"]) == pytest.approx(finished)
    assert [r.seed for r in summary.records] == list(range(9, 15))


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(UnknownGameError, match="solitaire"):
        run_tournament("tappeto", None, {}, ["random", "random"], 2)
    if MULTIPLAYER:
        with pytest.raises(UnknownGameError, match="no bot 'oracle'"):
            run_tournament(MULTIPLAYER[0], None, {}, ["oracle", "random"], 2)
        with pytest.raises(UnknownGameError, match="players"):
            run_tournament(MULTIPLAYER[0], None, {}, ["random"] * 5, 2)
