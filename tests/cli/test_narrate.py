"""A bot's move at the terminal says what it did, from what the person watching may see.

Seed (Scalafrutta): the drawn tile is pushed into the square, the tile pushed out is captured
(or, when nothing matches, given to an opponent). Docs ruling (docs/rules/scalafrutta.md,
`coperte`: what opponents see): another's captured tiles are never shown."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console

from ludoteca.cli import play
from ludoteca.core import find_game


@pytest.mark.parametrize("variant", ["scalafrutta", "coperte"])
def test_a_bots_insertion_names_the_tile_drawn_and_where_the_pushed_tile_went(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said only "seat 2 (strong) plays T3": what was drawn and who took what had to be
    worked out from the board. Under coperte the tile a bot captures is not named."""
    screen = Console(file=io.StringIO(), width=200, color_system=None)
    monkeypatch.setattr(play, "console", screen)
    for seed in range(6):
        state = find_game("scalafrutta").new_game(variant, seed, 3)
        session = play.Session(state, ["you", "strong", "greedy"], None, None)
        while state.current_player == 0:
            state.apply(state.legal_moves()[0])
        mover = state.current_player
        square = {tile for row in state.observation(0)["square"] for tile in row}
        counts = list(state.observation(0)["captured_count"])
        session.bot_turn(mover)
        said = screen.file.getvalue().splitlines()[-1]  # type: ignore[attr-defined]
        after = state.observation(0)
        entered = {tile for row in after["square"] for tile in row} - square
        (left,) = square - {tile for row in after["square"] for tile in row}
        (gainer,) = [s for s, n in enumerate(after["captured_count"]) if n > counts[s]]
        assert said.startswith(f"seat {mover + 1} (") and f"draws {entered.pop()}" in said, said
        if gainer == mover:
            assert said.endswith("and captures it"), said
        else:
            whom = "you" if gainer == 0 else f"seat {gainer + 1}"
            assert said.endswith(f"and gives it to {whom}"), said
        hidden = variant == "coperte" and gainer != 0
        assert (left in said) is not hidden, (said, left)
        for tile in state.hidden_from(0):
            assert tile not in said, (said, tile)


def test_with_several_people_at_the_screen_a_bots_move_names_nothing_hidden_from_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two people and a bot at one screen, coperte: the bot's move was told from the first
    person's view ("... pushes out 3F and gives it to you") while the screen was the
    other's, whose view hides that capture. It is now told so that no one at the screen
    learns what is hidden from them, and no one is "you"."""
    screen = Console(file=io.StringIO(), width=200, color_system=None)
    monkeypatch.setattr(play, "console", screen)
    told = 0
    for seed in range(40):
        state = find_game("scalafrutta").new_game("coperte", seed, 3)
        session = play.Session(state, ["you", "you", "greedy"], None, None)
        for _ in range(12):
            if state.is_over or state.stage != "insert":
                break
            if state.current_player != 2:
                state.apply(state.legal_moves()[0])
                continue
            session.bot_turn(2)
            said = screen.file.getvalue().splitlines()[-1]  # type: ignore[attr-defined]
            assert "you" not in said.split(), said
            for person in (0, 1):
                for tile in state.hidden_from(person):
                    assert tile not in said, (said, tile, person)
            told += "gives it to seat" in said
    assert told > 0  # (a gift was told: the case the leak was in)


def test_with_several_people_at_the_screen_a_tile_all_see_is_still_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Open captures (the default variant): what every person at the screen sees is told,
    the tile pushed out by name, to a seat, not to "you"."""
    screen = Console(file=io.StringIO(), width=200, color_system=None)
    monkeypatch.setattr(play, "console", screen)
    state = find_game("scalafrutta").new_game("scalafrutta", 4, 3)
    session = play.Session(state, ["you", "you", "greedy"], None, None)
    while state.current_player != 2:
        state.apply(state.legal_moves()[0])
    square = {tile for row in state.observation(0)["square"] for tile in row}
    session.bot_turn(2)
    said = screen.file.getvalue().splitlines()[-1]  # type: ignore[attr-defined]
    (left,) = square - {tile for row in state.observation(0)["square"] for tile in row}
    assert f"pushes out {left}" in said and "you" not in said.split(), said


def _bots_lines(game: str, variant: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """One game of a person (playing their first legal move) against a strong and a greedy
    bot: every line the bots' moves printed."""
    screen = Console(file=io.StringIO(), width=400, color_system=None)
    monkeypatch.setattr(play, "console", screen)
    state = find_game(game).new_game(variant, seed, 3)
    session = play.Session(state, ["you", "strong", "greedy"], None, None)
    while not state.is_over:
        if state.current_player == 0:
            state.apply(state.legal_moves()[0])
        else:
            session.bot_turn(state.current_player)
    return [line for line in screen.file.getvalue().splitlines() if line.startswith("seat ")]  # type: ignore[attr-defined]


def test_a_bots_split_says_what_it_shows_and_when_it_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rules (scalafrutta.md, End of a hand): each player scores their last split when the
    hand ends. A bot's split read "plays split 1P-1U-1F" or "plays split none"; it now says
    how many combinations it shows, worth how many points, counted when the hand ends, or
    that every tile goes back."""
    lines = [
        line
        for seed in range(3)
        for line in _bots_lines("scalafrutta", "mano", seed, monkeypatch)
        if " plays split" in line
    ]
    shows = [line for line in lines if "split none" not in line]
    assert shows and all(
        re.search(r"plays split \S+( \S+)*: shows \d+ combinations? worth \d+ points", line)
        for line in shows
    ), shows
    assert all(line.endswith("scored when the hand ends") for line in shows[:-1]), shows
    nones = [line for line in lines if "split none" in line]
    assert all(line.endswith(": makes no combination: every tile goes back") for line in nones)


def test_a_bots_draw_says_whether_the_tile_fitted_and_never_which_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rules (domino.md, A turn): a player who cannot place a tile draws a set-aside one,
    places it at once if it fits, else keeps it and the turn ends. A bot's draw read "plays
    draw", and its hand's count went up without a word; it now says which of the two
    happened, without the tile, which stays hidden while hands are hidden."""
    told = Counter[str]()
    for seed in range(12):
        for line in _bots_lines("domino", "domino", seed, monkeypatch):
            if line.endswith(" plays draw") or ": draws" in line:
                kept = line.endswith("and keeps it: it fits nowhere")
                fits = line.endswith("draws a set-aside tile, which fits: it places it next")
                assert kept or fits, line
                told["kept" if kept else "fits"] += 1
    assert told["kept"] and told["fits"], told


@pytest.mark.parametrize("game", ["scalafrutta", "domino"])
def test_at_a_hand_over_the_next_person_is_told_every_move_since_their_last_turn(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several people at one screen: the screen is cleared for the next person at once, so
    the mover never saw what their move did, and the next person saw only "last move: T2"
    (a terminal review). On the cleared screen each person now gets every move since their
    last hand-over, their own included, told as all the people at the screen may see it:
    nothing hidden from either of them (docs/rules: a hand, and under coperte the captures,
    are their player's alone)."""
    variant = "coperte" if game == "scalafrutta" else None
    screen = Console(file=io.StringIO(), width=400, color_system=None)
    monkeypatch.setattr(play, "console", screen)
    monkeypatch.setattr(play, "ask", lambda prompt: "")  # Enter at every hand-over
    state = find_game(game).new_game(variant, 7, 3)
    session = play.Session(state, ["you", "you", "greedy"], None, None)
    recaps = 0
    for _ in range(12):
        if state.is_over:
            break
        player = state.current_player
        if player in session.bots:
            session.bot_turn(player)
            continue
        before = len(screen.file.getvalue())  # type: ignore[attr-defined]
        assert session.hot_seat(player) is None
        shown = screen.file.getvalue()[before:]  # type: ignore[attr-defined]
        if f"Since seat {player + 1}'s last turn:" in shown:
            recaps += 1
            told = shown.split("last turn:")[1].split("Scalafrutta ·")[0].split("Domino")[0]
            assert "seat" in told and " plays " in told, told
            for person in (0, 1):
                for tile in state.hidden_from(person):
                    assert tile not in told, (told, tile, person)
        move = state.legal_moves_text()[0]
        session.command(move)
        mine = session.told[-1]
        assert mine.startswith(f"[magenta]seat {player + 1}[/] plays [bold]{move}[/]"), mine
    assert recaps >= 2


def test_a_replay_tells_each_move_as_play_does_and_names_nothing_hidden_from_its_seat(
    tmp_path: Path,
) -> None:
    """``replay`` told a move as its notation alone ("move 4 (seat 2): R1>P1") where play
    narrates it ("draws 4M, pushes out 2B and captures it"); it tells it alike now, from
    the views it shows. Docs ruling (docs/rules/scalafrutta.md, ``coperte``: another's
    captures are hidden): ``--as-player 1`` never names a tile hidden from seat 1 once the
    move is made, as play's narration does not."""
    from typer.testing import CliRunner

    from ludoteca.cli import app
    from ludoteca.core.registry import discover
    from ludoteca.core.rng import DealRng
    from ludoteca.core.saves import snapshot

    discover("ludoteca.cli")
    state = find_game("scalafrutta").new_game("coperte", 4, 3)
    rng = DealRng(4, "replay-narration")
    hidden_after: list[set[str]] = []
    while len(hidden_after) < 40 and not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
        hidden_after.append(set(state.hidden_from(0)))
    save = tmp_path / "game.json"
    save.write_text(snapshot(state, ["you", "greedy", "greedy"]).dumps())
    shown = CliRunner().invoke(app, ["replay", str(save), "--as-player", "1"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    told: dict[int, str] = {}
    number = 0
    for line in shown.output.splitlines():
        if found := re.search(r"move (\d+) \(seat \d+\): ", line):
            number = int(found[1])
        elif re.match(r"seat \d+ \((you|greedy)\) \w", line) and number:
            told[number] = line
    assert any("draws" in line and "captures it" in line for line in told.values()), told
    assert any("pushes a tile out" in line for line in told.values()), told
    for number, line in told.items():
        for tile in hidden_after[number - 1]:
            assert not re.search(rf"\b{tile}\b", line), (number, line, tile)
