"""Practice at the terminal: undo past a move that showed the person hidden tiles makes the
game practice, not counted in ``ludoteca stats`` (docs/architecture.md, *Practice*; the
ruling *Practice* of each game in docs/rules/<game>.md; README, statistics)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludoteca.cli import app
from ludoteca.cli.play import Session
from ludoteca.core.registry import discover, find_game

discover("ludoteca.cli")  # (every command: replay too)
runner = CliRunner()

DEALS = {
    "gaps": ("gaps", 12),
    "tappeto": ("con-scarti", 1),
    "acme": (None, 1),
    "muro": (None, 1),
    "mosaico": (None, 4),
    "domino": (None, 0),
    "scalafrutta": (None, 2),
}
"""A deal of each game with a move that shows something hidden and one that shows nothing."""


def sit_down(game: str) -> Session:
    spec = find_game(game)
    variant, seed = DEALS[game]
    seats = ["you"] if spec.is_solitaire else ["you", "random"]
    return Session(spec.new_game(variant, seed, len(seats)), seats, None, None)


def bots_reply(session: Session) -> None:
    state = session.state
    while not state.is_over and state.current_player in session.bots:
        session.bot_turn(state.current_player)


def play_out(session: Session) -> None:
    """To the end (the person plays the first legal move, Il Muro's resign last), counted."""
    state = session.state
    while not state.is_over:
        bots_reply(session)
        if not state.is_over:
            moves = state.legal_moves_text()
            state.apply(next((m for m in moves if m != "resign"), moves[0]))
    session.finish()


def play_until(session: Session, revealing: bool) -> None:
    """Play until the person's last move, with the bots' replies to it, showed them something
    hidden (``revealing``), or until the person may make a move that shows nothing: made,
    before any bot replies."""
    state, you = session.state, 0
    while not state.is_over:
        bots_reply(session)
        moves = state.legal_moves()
        quiet = [m for m in moves if you not in state.reveals_to(m)]
        if not revealing and quiet:
            state.apply(quiet[0])
            return
        shows = [m for m in moves if you in state.reveals_to(m)]
        before = len(state.history)
        state.apply((shows or quiet or moves)[0])
        bots_reply(session)
        if revealing and state.revealed_in_last(you, len(state.history) - before):
            return
    raise AssertionError("the game ended first")


def played(database: Path, game: str) -> int:
    if not database.exists():
        return 0
    with sqlite3.connect(database) as connection:
        row = connection.execute("SELECT COUNT(*) FROM finished_games WHERE game = ?", (game,))
        return int(row.fetchone()[0])


DECIDED_BY_PLAY = [game for game in DEALS if find_game(game).play_decides]
"""Every game but Tappeto, whose result no choice changes (docs/rules/tappeto.md)."""


@pytest.mark.parametrize("game", DECIDED_BY_PLAY)
def test_undo_past_a_move_that_showed_hidden_tiles_makes_the_game_practice(
    game: str, private_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/rules/<game>.md, ruling *Practice*: after the undo the person knows what the
    move showed; the game goes on as practice, said once and on the board, not counted."""
    session = sit_down(game)
    play_until(session, revealing=True)
    session.command("undo")
    assert session.practice
    said = capsys.readouterr().out
    pieces = "tiles" if game in ("muro", "mosaico", "domino", "scalafrutta") else "cards"
    assert f"You took back a move that showed hidden {pieces}" in said
    assert " · practice" in said  # the board's header
    play_until(session, revealing=True)
    session.command("undo")
    assert "You took back" not in capsys.readouterr().out  # told once
    play_out(session)
    assert "not counted in your statistics" in capsys.readouterr().out
    assert played(private_database, game) == 0


@pytest.mark.parametrize("game", list(DEALS))
def test_undo_past_a_move_that_showed_nothing_keeps_the_game_counted(
    game: str, private_database: Path
) -> None:
    """docs/rules/<game>.md, ruling *Practice*: a move that showed nothing hidden (a card
    moved in sight; a person's own tile, taken back before any bot replied) may be undone."""
    session = sit_down(game)
    play_until(session, revealing=False)
    session.command("undo")
    assert not session.practice
    play_out(session)
    assert played(private_database, game) == 1


def test_a_tappeto_undo_that_showed_a_reserve_card_keeps_the_game_counted(
    private_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/rules/tappeto.md, ruling *Practice*: every complete game of a Tappeto deal ends
    alike (*The order of plays never matters*), so seeing the reserve's top card and taking
    the play back gains nothing: the game stays counted, and nothing is said."""
    assert not find_game("tappeto").play_decides
    session = sit_down("tappeto")
    play_until(session, revealing=True)
    session.command("undo")
    assert not session.practice
    assert "You took back" not in capsys.readouterr().out
    play_out(session)
    assert played(private_database, "tappeto") == 1


def test_practice_is_kept_in_the_save_file_and_told_by_replay(
    tmp_path: Path, private_database: Path
) -> None:
    """docs/rules/muro.md, ruling *Practice*; README, statistics: `turn`, then `undo`, is
    practice; `save FILE` keeps it, `play --load` goes on with it (the board says so) and
    its end is not counted; `replay` says it too."""
    state = find_game("muro").new_game(None, 1)
    moves: list[str] = []
    while not any(m.startswith("turn") for m in state.legal_moves_text()):
        moves.append(state.legal_moves_text()[0])
        state.apply(moves[-1])
    turn = next(m for m in state.legal_moves_text() if m.startswith("turn"))
    save = tmp_path / "practice.json"
    typed = [*moves, turn, "undo", f"save {save}", "quit"]
    first = runner.invoke(app, ["play", "muro", "--seed", "1"], input="\n".join(typed) + "\n")
    assert first.exit_code == 0, first.stdout
    told = [
        line.removeprefix("› ") for line in first.stdout.splitlines() if "You took back" in line
    ]
    assert told == [
        "You took back a move that showed hidden tiles: this game is practice now and won't"
        " count in your statistics."
    ]
    assert json.loads(save.read_text())["practice"] is True
    again = runner.invoke(app, ["play", "--load", str(save)], input="resign\nresign\nquit\n")
    assert " · practice" in again.stdout and "game over" in again.stdout, again.stdout
    assert "not counted in your statistics" in again.stdout
    assert played(private_database, "muro") == 0
    replayed = runner.invoke(app, ["replay", str(save), "--as-player", "1"])
    assert replayed.stdout.splitlines()[0].endswith("· practice"), replayed.stdout


def test_addiction_keeps_no_completion_statistics_of_a_redeal_taken_back(
    private_database: Path,
) -> None:
    """docs/rules/gaps.md, ruling *Practice*: Addiction's completion statistics (games,
    wins, redeals used) leave out a game whose redeal was undone: the player saw the layout
    it deals, and could redeal again knowing it (the shuffle is the deal's)."""
    state = find_game("gaps").new_game("addiction", 12)
    session = Session(state, ["you"], None, None)
    while "redeal" not in state.legal_moves_text():
        state.apply(state.legal_moves()[0])
    session.command("redeal")
    session.command("undo")
    assert session.practice
    play_out(session)
    assert played(private_database, "gaps") == 0
    stats = runner.invoke(app, ["stats", "addiction", "--json"])
    assert stats.stdout == "", stats.stdout
