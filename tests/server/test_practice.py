"""Practice on the web: an undo or a restart that takes back a move that showed the person
hidden tiles makes the game practice, kept in the database and not counted in
``web_results`` (docs/web.md, *Practice*; docs/architecture.md, *Practice*)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from ludoteca.store.web import WebStore


def play_out(player: Any, state: dict[str, Any]) -> dict[str, Any]:
    """The first legal move each turn (the bots answer by themselves) until the end."""
    while not state["outcome"]:
        player.send("move", move=state["legal_moves"][0], ply=state["ply"])
        state = player.my_turn()
    return state


def results(db: Path, room: str) -> int:
    with sqlite3.connect(db) as connection:
        found = connection.execute("SELECT COUNT(*) FROM web_results WHERE game_id = ?", (room,))
        return int(found.fetchone()[0])


def test_domino_open_hands_undone_make_the_game_practice_and_uncounted(
    db: Path, client: TestClient, player: Any
) -> None:
    """docs/rules/domino.md, ruling *Practice*: after *Declare open hands* every bot's hand
    is shown; Undo puts them face down again, but the player has read them, so the game is
    practice: said once (the state's ``practice_notice``), marked on every state, and its
    end records no result."""
    joined, state = player.start("domino", seats=["human", "greedy", "greedy"], seed=0)
    state = player.my_turn()
    while "open" not in state["legal_moves"]:
        player.send("move", move=state["legal_moves"][0], ply=state["ply"])
        state = player.my_turn()
    assert not state["practice"] and state["practice_notice"] is None
    player.send("move", move="open", ply=state["ply"])
    opened = player.my_turn()
    assert all(opened["observation"]["hands"]) and not opened["practice"]
    undone = player.ask("undo")
    assert undone["type"] == "state" and undone["practice"]
    assert undone["practice_notice"] == (
        "You took back a move that showed hidden tiles: this game is practice now and won't"
        " count in your statistics."
    )
    assert "practice" in undone["practice_label"].lower()
    end = play_out(player, player.my_turn())
    assert end["practice"] and results(db, joined["room"]) == 0
    assert client.get("/api/rooms").json()["rooms"] == []  # over: not in progress


def test_a_tappeto_restart_after_a_reserve_card_is_shown_stays_counted(
    db: Path, client: TestClient, player: Any
) -> None:
    """docs/rules/tappeto.md, ruling *Practice*: every complete game of a deal ends alike, so
    a restart after a play that turned up the reserve's top card is no practice, and the
    game's end is counted."""
    joined, state = player.start("tappeto", variant="con-scarti", seed=1)
    player.ask("move", move=state["legal_moves"][0])
    restarted = player.ask("restart")
    assert restarted["ply"] == 0 and not restarted["practice"]
    end = play_out(player, restarted)
    assert end["outcome"] and results(db, joined["room"]) == 1


def test_restart_after_a_reveal_is_practice_and_survives_a_server_restart(
    db: Path, seated: Any, app_on: Any
) -> None:
    """docs/rules/acme.md, ruling *Practice*; docs/web.md, *Practice*: Restart after a draw
    that turned up the stock's top deals the same cards to a player who has seen it; the flag
    is in the database, so a server restarted since still knows it, and the game's end is
    not counted (it leaves the games in progress all the same)."""
    with TestClient(app_on(db)) as first, first.websocket_connect("/ws") as socket:
        player = seated(socket)
        joined, state = player.start("acme", seed=1)
        assert "draw" in state["legal_moves"]
        player.ask("move", move="draw")
        restarted = player.ask("restart")
        assert restarted["ply"] == 0 and restarted["practice"]
        assert "showed hidden cards" in restarted["practice_notice"]
    with TestClient(app_on(db)) as second, second.websocket_connect("/ws") as socket:
        player = seated(socket)
        player.send("join", room=joined["room"], seat=0, token=joined["tokens"]["0"])
        assert player.receive()["type"] == "joined"
        resumed = player.receive()
        assert resumed["practice"] and resumed["practice_notice"] is None  # told once, then
        end = play_out(player, resumed)
        assert end["outcome"] and results(db, joined["room"]) == 0
        assert second.get("/api/rooms").json()["rooms"] == []


def test_undo_of_a_move_that_showed_nothing_keeps_the_game_counted(db: Path, player: Any) -> None:
    """docs/rules/gaps.md, ruling *Practice*: a card moved in sight, taken back, shows the
    player nothing new; the game stays counted."""
    joined, state = player.start("gaps", variant="no-redeal", seed=12)
    moved = player.ask("move", move=state["legal_moves"][0])
    undone = player.ask("undo")
    assert moved["type"] == undone["type"] == "state" and not undone["practice"]
    end = play_out(player, undone)
    assert not end["practice"] and results(db, joined["room"]) == 1


def test_an_ending_recorded_before_the_undo_stays_recorded(db: Path, player: Any) -> None:
    """docs/web.md, *Practice*: the first ending counts. Undone after the end (which shows
    every hand: the greedy bot never declares open hands), the game is practice from then
    on, and says its first ending stays."""
    joined, _ = player.start("domino", seats=["human", "greedy"], seed=4)
    end = play_out(player, player.my_turn())
    assert results(db, joined["room"]) == 1
    undone = player.ask("undo")
    assert undone["practice"]
    assert "its first ending stays in your statistics" in undone["practice_notice"]
    play_out(player, player.my_turn())
    assert results(db, joined["room"]) == 1 and end["outcome"]


def test_a_database_from_before_practice_games_gets_the_column(tmp_path: Path) -> None:
    """docs/web.md, *Games in progress*: a database made before practice games is brought up
    to date when opened, in one transaction; its games are not practice."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(
            """
            CREATE TABLE web_games (
                id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL,
                params TEXT NOT NULL, seed INTEGER NOT NULL, seats TEXT NOT NULL,
                tokens TEXT NOT NULL, player TEXT NOT NULL, created REAL NOT NULL,
                updated REAL NOT NULL, status TEXT NOT NULL DEFAULT 'playing'
            );
            INSERT INTO web_games VALUES
                ('g1', 'tappeto', 'tappeto', '{}', 1, '["human"]', '["t"]', 'ada', 0, 0,
                 'playing');
            """
        )
    store = WebStore(path)
    store.open()
    loaded = store.load_game("g1")
    assert loaded is not None and not loaded.practice
    store.truncate_moves("g1", 0, practice=True)
    again = WebStore(path).load_game("g1")
    assert again is not None and again.practice
