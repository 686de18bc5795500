"""Tournaments rotate seats so that playing first favours nobody, and count every game."""

from __future__ import annotations

from collections import Counter

import pytest

from ludoteca.core import UnknownGameError
from ludoteca.core.registry import all_games, find_game
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


@pytest.mark.parametrize("game", MULTIPLAYER)
def test_seats_rotate_and_each_entrant_is_credited_with_its_own_seat(game: str) -> None:
    """Seats shift by one every game (game k: entrant e sits in seat (e - k) mod n), and
    a win or score goes to the entrant who held the seat. Each game is played again here
    with the bots seated so, and the record must be that game's, entrant by entrant. (With
    identical bots the other tests could not tell a tournament that never rotated, or that
    credited the seat instead of the entrant, from a right one.)"""
    from ludoteca.bots.base import make_bot
    from ludoteca.core.rng import DealRng

    spec = find_game(game)
    entrants = ["greedy", "random", "random"]
    summary = run_tournament(game, None, {}, entrants, 6, first_seed=30)
    assert [r.seed for r in summary.records] == list(range(30, 36))
    differ = 0
    for index, record in enumerate(summary.records):
        held = {(entrant - index) % 3: entrant for entrant in range(3)}  # seat -> entrant
        seated = [make_bot(spec, entrants[held[seat]]) for seat in range(3)]
        state = spec.new_game(spec.default_variant, record.seed, 3)
        rng = DealRng(record.seed, "tournament")
        while not state.is_over:
            seat = state.current_player
            state.apply(seated[seat].choose(state.observation(seat), rng))
        outcome = state.outcome()
        assert outcome is not None and record.finished
        shares = [0.0] * 3
        for seat in outcome.winners:
            shares[held[seat]] += 1 / len(outcome.winners)
        assert record.shares == pytest.approx(shares), (index, outcome.winners)
        assert record.scores == tuple(outcome.scores[s] for s in sorted(held, key=held.get))
        differ += shares != [
            1 / len(outcome.winners) if s in outcome.winners else 0.0 for s in range(3)
        ]
    assert differ, "no game's winners told seats from entrants"


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(UnknownGameError, match="solitaire"):
        run_tournament("tappeto", None, {}, ["random", "random"], 2)
    if MULTIPLAYER:
        with pytest.raises(UnknownGameError, match="no bot 'oracle'"):
            run_tournament(MULTIPLAYER[0], None, {}, ["oracle", "random"], 2)
        with pytest.raises(UnknownGameError, match="players"):
            run_tournament(MULTIPLAYER[0], None, {}, ["random"] * 5, 2)


def test_the_progress_is_told_after_each_game_before_the_next_is_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In one process every game was played as it was handed out, all of them before the
    first progress: ``ludoteca tournament`` showed 0/500 until the end. Now each game is
    handed out once the one before is counted."""
    from ludoteca.studies import tournament

    events: list[str] = []
    play = tournament.play_game

    def counted(*args: object) -> tournament.GameRecord:
        events.append("played")
        return play(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "play_game", counted)
    run_tournament(
        MULTIPLAYER[0],
        None,
        {},
        ["random", "random"],
        4,
        progress=lambda done, total: events.append(f"{done}/{total}"),
    )
    assert events == ["played", "1/4", "played", "2/4", "played", "3/4", "played", "4/4"]


def test_workers_play_every_game_once() -> None:
    """Games are handed to worker processes a few at a time as results come back."""
    told: list[int] = []
    summary = run_tournament(
        MULTIPLAYER[0],
        None,
        {},
        ["random", "random"],
        9,
        jobs=2,
        progress=lambda d, t: told.append(d),
    )
    assert sorted(r.seed for r in summary.records) == list(range(9))
    assert told[-1] == 9 and told == sorted(told)


def test_shared_wins_keep_their_halves_in_the_interval() -> None:
    """A game won by two gives each half a win. The interval was the Wilson interval of the
    rounded count: 157.5 of 200 as 158, 92.5 as 92 and 107.5 as 108 (Python rounds halves to
    even), so two players who shared their wins had intervals that did not mirror each
    other. It is the Wilson formula on the shares themselves."""
    from ludoteca.studies.stats import wilson, wilson_of_shares
    from ludoteca.studies.tournament import GameRecord, TournamentSummary

    assert wilson_of_shares(158, 200) == pytest.approx(wilson(158, 200))
    records = [GameRecord(i, (1.0, 0.0), (0.0, 0.0), 1, True) for i in range(90)]
    records += [GameRecord(90 + i, (0.0, 1.0), (0.0, 0.0), 1, True) for i in range(105)]
    records += [GameRecord(195 + i, (0.5, 0.5), (0.0, 0.0), 1, True) for i in range(5)]
    first, second = TournamentSummary("domino", "domino", ["a", "b"], records).as_json()["players"]
    assert (first["wins"], second["wins"]) == (92.5, 107.5)
    assert first["ci95"][0] == pytest.approx(1 - second["ci95"][1])
    assert first["ci95"][1] == pytest.approx(1 - second["ci95"][0])
    assert wilson(92, 200)[0] < first["ci95"][0] < wilson(93, 200)[0]
