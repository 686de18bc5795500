"""The WebSocket protocol through Starlette's TestClient: requests, errors, seats, secrecy."""

from __future__ import annotations

import asyncio
import html
import json
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.core.game import TERMINAL
from ludoteca.core.registry import find_game
from ludoteca.server.catalog import PLAYERS_END
from ludoteca.server.protocol import PROTOCOL, REQUESTS, ProtocolError
from ludoteca.server.rooms import Room

ROOM_FACTS = {
    "type",
    "protocol",
    "room",
    "seat",
    "game",
    "title",
    "variant",
    "variant_title",
    "variant_key",
    "params",
    "seed",
    "seats",
    "to_move",
    "your_turn",
    "ply",
    "last_move",
    "legal_moves",
    "can_undo",
    "can_redo",
    "can_hint",
    "can_restart",
    "can_again",
    "practice",
    "practice_label",
    "practice_notice",
    "outcome",
    "observation",
}


def room_of(client: TestClient, room_id: str) -> Room:
    room: Room = client.app.state.rooms.get(room_id)  # type: ignore[attr-defined]
    return room


def long_tappeto_seed(moves: int = 6) -> int:
    """A deal where at least ``moves`` plays are made by always taking the first one."""
    spec = find_game("tappeto")
    for seed in range(200):
        state = spec.new_game(seed=seed)
        for _ in range(moves):
            if state.is_over:
                break
            state.apply(state.legal_moves_text()[0])
        else:
            return seed
    raise AssertionError("no long deal")


def strings(value: Any, skip: frozenset[str] = frozenset({"room", "tokens"})) -> list[str]:
    """Every string leaf of an event, leaving out the random room id and seat tokens."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in skip for s in strings(v, skip)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v, skip)]
    return []


def assert_no_leak(event: dict[str, Any], hidden: frozenset[str]) -> None:
    for text in strings(event):
        upper = text.upper()
        leaked = [token for token in hidden if token.upper() in upper]
        assert not leaked, f"{leaked} leaked in {text!r}"


def test_new_game_sends_the_seat_its_observation_and_nothing_else(
    client: TestClient, player: Any
) -> None:
    """docs/web.md: a state event is the seat's observation plus the room's public facts."""
    assert player.welcome == {"type": "welcome", "protocol": PROTOCOL, "server": "0.1.0"}
    joined, state = player.start("tappeto", seed=3)
    assert joined["seat"] == 0 and set(joined["tokens"]) == {"0"}
    assert set(state) == ROOM_FACTS
    room = room_of(client, state["room"])
    assert state["observation"] == room.state.observation(0)
    assert state["legal_moves"] == room.state.legal_moves_text()
    assert state["ply"] == 0 and state["your_turn"] and state["protocol"] == PROTOCOL


MALFORMED = [
    ("not json at all", "malformed"),
    ("[1, 2]", "malformed"),
    ('"a string"', "malformed"),
    ("null", "malformed"),
    ('{"type": "ping"}', "protocol"),
    ('{"protocol": 2, "type": "ping"}', "protocol"),
    ('{"protocol": "1", "type": "ping"}', "protocol"),
    ('{"protocol": 1, "type": "fly"}', "malformed"),
    ('{"protocol": 1}', "malformed"),
    ('{"protocol": 1, "type": "move"}', "malformed"),
    ('{"protocol": 1, "type": "move", "move": 5}', "malformed"),
    ('{"protocol": 1, "type": "move", "move": null}', "malformed"),
    ('{"protocol": 1, "type": "move", "move": "2C", "extra": 1}', "malformed"),
    ('{"protocol": 1, "type": "view", "seat": true}', "malformed"),
    ('{"protocol": 1, "type": "move", "move": "2C", "ply": 1.5}', "malformed"),
    ('{"protocol": 1, "type": "new", "game": "tappeto", "seats": "human"}', "malformed"),
    (json.dumps({"protocol": 1, "type": "move", "move": "x" * 500}), "malformed"),
    (json.dumps({"protocol": 1, "type": "ping", "pad": "x" * 20_000}), "malformed"),
    # JSON beyond what Python reads: 'the server failed' with a traceback, before.
    ('{"protocol": 1, "type": "new", "game": "tappeto", "seed": ' + "9" * 5000 + "}", "malformed"),
    ("[" * 5000 + "]" * 5000, "malformed"),
    # The client's text was repeated whole (15,000 characters) or over two lines.
    (json.dumps({"protocol": 1, "type": "y" * 15_000}), "malformed"),
    (json.dumps({"protocol": [[0] * 2000], "type": "ping"}), "protocol"),
    (json.dumps({"protocol": 1, "type": "ping", "a\nb": 1}), "malformed"),
    (
        json.dumps({"protocol": 1, "type": "join", "room": "a\nb", "seat": 0, "token": "t"}),
        "unknown-room",
    ),
]


@pytest.mark.parametrize(("text", "code"), MALFORMED)
def test_a_malformed_message_gets_an_error_and_changes_nothing(
    player: Any, text: str, code: str
) -> None:
    """docs/web.md: a malformed message gets an error event, one line that quotes little of
    the client's text; the game and the connection live."""
    _, before = player.start("tappeto", seed=long_tappeto_seed())
    player.socket.send_text(text)
    error = player.receive()
    assert error["type"] == "error" and error["code"] == code, error
    assert "\n" not in error["message"] and len(error["message"]) <= 300, error["message"]
    assert error["request"] is None or len(error["request"]) <= 40, error["request"]
    assert player.ask("ping")["type"] == "pong"
    after = player.ask("view", seat=0)
    assert after["ply"] == before["ply"] and after["observation"] == before["observation"]


def test_a_binary_frame_is_refused(player: Any) -> None:
    """docs/web.md: messages are JSON text frames."""
    player.socket.send_bytes(b'{"protocol": 1, "type": "ping"}')
    assert player.receive()["code"] == "malformed"
    assert player.ask("ping")["type"] == "pong"


def test_requests_before_sitting_down_are_refused(player: Any) -> None:
    """docs/web.md: move, undo, view... need a table ('new' or 'join') first."""
    for kind in ("move", "undo", "redo", "hint", "restart", "view"):
        fields = {"move": "2C"} if kind == "move" else {"seat": 0} if kind == "view" else {}
        assert player.ask(kind, **fields)["code"] == "no-table"


@pytest.mark.parametrize(
    ("request_fields", "fragment"),
    [
        ({"game": "chess"}, "no game called"),
        ({"game": "tappeto", "variant": "huge"}, "no variant"),
        ({"game": "tappeto", "params": {"rows": "many"}}, "needs a whole number"),
        ({"game": "tappeto", "params": {"colour": 1}}, "no parameter"),
        ({"game": "tappeto", "seed": -4}, "0 or more"),
        ({"game": "gaps", "seed": 2**63}, f"at most {2**63 - 1}"),
        # Digits as text (the page's way past 2**53, which JavaScript rounds), checked alike.
        ({"game": "gaps", "seed": str(2**63)}, f"at most {2**63 - 1}"),
        ({"game": "gaps", "seed": "1e3"}, "0 or more, not '1e3'"),
        ({"game": "gaps", "seed": "-4"}, "0 or more, not '-4'"),
        (
            {"game": "tappeto", "seats": ["human", "human"]},
            "Tappeto is a solitaire: one seat, not 2",
        ),
        ({"game": "domino", "seats": ["random", "random"]}, "must be a person"),
        ({"game": "domino", "seats": ["human", "deep-blue"]}, "a seat is one of"),
    ],
)
def test_a_bad_new_game_is_refused(
    player: Any, request_fields: dict[str, Any], fragment: str
) -> None:
    error = player.ask("new", **request_fields)
    assert error["type"] == "error" and error["code"] == "bad-request"
    assert fragment in error["message"]


def test_an_illegal_move_is_refused_and_changes_nothing(client: TestClient, player: Any) -> None:
    """The server owns the rules: IllegalMoveError and NotationError become error events."""
    _, state = player.start("tappeto", seed=long_tappeto_seed())
    illegal = next(c for c in state["observation"]["carpet"] if c not in state["legal_moves"])
    error = player.ask("move", move=illegal)
    assert error["code"] == "illegal" and illegal in error["message"]
    assert player.ask("move", move="Z9")["code"] == "notation"
    assert player.ask("move", move=state["legal_moves"][0], ply=7)["code"] == "stale"
    after = player.ask("view", seat=0)
    assert after["ply"] == 0 and after["observation"] == state["observation"]
    assert room_of(client, state["room"]).store.load_game(state["room"]).moves == []  # type: ignore[union-attr]


def test_every_move_is_saved_before_it_is_shown(client: TestClient, player: Any) -> None:
    """Games in progress are written after every move (one transaction each)."""
    _, state = player.start("tappeto", seed=long_tappeto_seed())
    room = room_of(client, state["room"])
    for ply in range(1, 5):
        state = player.ask("move", move=state["legal_moves"][0], ply=state["ply"])
        saved = room.store.load_game(room.id)
        assert saved is not None and len(saved.moves) == state["ply"] == ply
        assert [m for _, m in saved.moves] == room.state.history_text()


def test_undo_redo_and_restart_in_a_solitaire(player: Any) -> None:
    _, start = player.start("tappeto", seed=long_tappeto_seed())
    first = player.ask("move", move=start["legal_moves"][0])
    second = player.ask("move", move=first["legal_moves"][0])
    undone = player.ask("undo")
    assert undone["ply"] == 1 and undone["observation"] == first["observation"]
    assert undone["can_redo"]
    redone = player.ask("redo")
    assert redone["observation"] == second["observation"] and not redone["can_redo"]
    assert player.ask("restart")["observation"] == start["observation"]
    assert player.ask("undo")["code"] == "illegal"
    assert player.ask("redo")["code"] == "illegal"


def test_the_game_survives_a_server_restart(db: Any, seated: Any, app_on: Any) -> None:
    """A saved game is rebuilt by replaying its moves; the player resumes with the token."""
    with TestClient(app_on(db)) as first, first.websocket_connect("/ws") as socket:
        player = seated(socket)
        joined, state = player.start("tappeto", seed=long_tappeto_seed())
        for _ in range(3):
            state = player.ask("move", move=state["legal_moves"][0])
    with TestClient(app_on(db)) as second, second.websocket_connect("/ws") as socket:
        player = seated(socket)
        player.send("join", room=joined["room"], seat=0, token=joined["tokens"]["0"])
        assert player.receive()["type"] == "joined"
        resumed = player.receive()
        assert resumed["ply"] == 3 and resumed["observation"] == state["observation"]
        assert player.ask("undo")["ply"] == 2
        rooms = second.get("/api/rooms").json()["rooms"]
        assert [(r["room"], r["plies"]) for r in rooms] == [(joined["room"], 2)]
        assert "tokens" not in rooms[0]


def test_joining_needs_the_seat_token(client: TestClient, player: Any, seated: Any) -> None:
    """A seat is taken only with its token; bot seats cannot be taken at all. The refusals
    name players from 1, as the page does (it read "wrong token for seat 1" for the page's
    "Player 2")."""
    joined, _ = player.start("domino", seats=["human", "random"], seed=5)
    room = joined["room"]
    with client.websocket_connect("/ws") as socket:
        other = seated(socket)
        wrong = other.ask("join", room=room, seat=0, token="guess")
        assert wrong["code"] == "forbidden" and wrong["message"] == "wrong token for player 1"
        bot = other.ask("join", room=room, seat=1, token="guess")
        assert bot["code"] == "forbidden" and bot["message"] == "player 2 is a bot"
        assert other.ask("join", room=room, seat=9, token="x")["code"] == "bad-seat"
        assert other.ask("join", room="nothing", seat=0, token="x")["code"] == "unknown-room"
        assert other.ask("view", seat=0)["code"] == "no-table"


def test_a_player_asking_for_another_seat_gets_an_error_and_no_tiles(
    client: TestClient, player: Any
) -> None:
    """Hidden information: a seat hears only its observation; asking for more is an error."""
    joined, _ = player.start("domino", seats=["human", "greedy", "greedy"], seed=11)
    room = room_of(client, joined["room"])
    checked = 0
    for _ in range(12):
        state = player.my_turn()
        hidden = room.state.hidden_from(0)
        if not hidden:  # a bot declared open hands: nothing is secret any more
            break
        checked += 1
        for seat in (1, 2, -1, 3):
            error = player.ask("view", seat=seat)
            assert error["type"] == "error" and error["code"] == "forbidden"
            assert_no_leak(error, hidden)
        for event in player.seen:
            if event["type"] == "state" and event["ply"] == state["ply"]:
                assert_no_leak(event, hidden)
        if state["outcome"]:
            break
        player.send("move", move=[m for m in state["legal_moves"] if m != "open"][-1])
    assert checked >= 3


def test_two_people_each_see_only_their_own_hand(
    client: TestClient, player: Any, seated: Any
) -> None:
    """Two human seats: each connection gets its own observation, never the other's hand."""
    joined, _ = player.start("domino", seats=["human", "human"])
    room = room_of(client, joined["room"])
    with client.websocket_connect("/ws") as socket:
        other = seated(socket)
        other.send(
            "join",
            room=joined["room"],
            seat=1,
            invite=joined["invites"]["1"],
            token="friend-chose-this-token",
        )
        other.until("joined")
        mine = other.until("state")
        assert mine["observation"] == room.state.observation(1)
        assert_no_leak(mine, room.state.hidden_from(1))
        # The claim told the table (seat 1 taken): read it, so that the asks below read
        # their answers (who moves first depends on the random deal).
        told = player.until("state")
        assert told["seats"][1]["taken"] and told["observation"] == room.state.observation(0)
        to_move = mine["to_move"]
        mover, waiter = (player, other) if to_move == 0 else (other, player)
        assert (
            waiter.ask("move", move=mine["legal_moves"][0] if mine["legal_moves"] else "draw")[
                "code"
            ]
            == "not-your-turn"
        )
        assert waiter.ask("undo")["code"] == "forbidden"
        legal = room.state.legal_moves_text()
        mover.send("move", move=legal[0])
        for connection, seat in ((player, 0), (other, 1)):
            seen = connection.until("state", ply=1)
            assert seen["observation"] == room.state.observation(seat)
            assert_no_leak(seen, room.state.hidden_from(seat))


def test_bots_answer_and_undo_takes_back_their_replies(client: TestClient, player: Any) -> None:
    """Against bots, undo takes back the person's last move and the bots' replies to it."""
    player.start("domino", seats=["human", "random"], seed=4)
    state = player.my_turn()
    before = state["observation"]
    player.send("move", move=state["legal_moves"][0], ply=state["ply"])
    after = player.my_turn()
    assert after["ply"] >= state["ply"] + 2 or after["outcome"], "the bot replied"
    assert after["last_move"]["seat"] == 1 or after["outcome"]
    player.send("undo")
    undone = player.until("state", ply=state["ply"])
    assert undone["observation"] == before and undone["your_turn"] and undone["can_redo"]


def test_bots_move_at_a_readable_pace(db: Any, seated: Any, app_on: Any) -> None:
    """RoomConfig.bot_delay: a bot waits before each move, so people can follow it."""
    with TestClient(app_on(db, bot_delay=0.3)) as slow, slow.websocket_connect("/ws") as socket:
        player = seated(socket)
        player.send("new", game="domino", seats=["human", "random"], seed=4)
        player.until("joined")
        state = player.my_turn()
        sent = time.monotonic()
        player.send("move", move=state["legal_moves"][0])
        player.until("state", ply=state["ply"] + 1)
        player.until("state", ply=state["ply"] + 2)
        assert time.monotonic() - sent >= 0.29


def test_hints_come_from_the_solver_or_the_best_bot(player: Any) -> None:
    """A solitaire's hint calls its solver; with others, the best bot answers from the
    player's own observation (ludoteca.hints)."""
    _, state = player.start("tappeto", seed=long_tappeto_seed())
    assert state["can_hint"]
    hint = player.ask("hint")
    assert hint["type"] == "hint" and hint["move"] in state["legal_moves"]
    player.start("domino", seats=["human", "random"], seed=1)
    state = player.my_turn()
    hint = player.ask("hint")
    assert hint["type"] == "hint" and hint["move"] in state["legal_moves"]
    assert "bot's choice, from what you can see" in hint["note"]


def test_the_last_deal_number_opens_that_deal_when_sent_as_digits(
    client: TestClient, player: Any
) -> None:
    """The page rounded 9223372036854775807 to 9223372036854776000 (a JavaScript number)
    and the server refused it; it sends the digits as text past 2**53 now."""
    joined, state = player.start("gaps", seed=str(2**63 - 1))
    assert state["type"] == "state"
    assert client.app.state.rooms.get(joined["room"]).saved.seed == 2**63 - 1


def test_a_move_does_not_wait_behind_a_hint(app_on: Any, db: Path, seated: Any) -> None:
    """docs/web.md: a hint is worked out beside the connection's other requests, one at a
    time, and says the move number it is for. Each hint held up the moves sent after it
    (about 1.6 s on a hard deal), and three presses of H queued three hints."""
    with TestClient(app_on(db, hint_seconds=2.0)) as slow, slow.websocket_connect("/ws") as ws:
        player = seated(ws)
        _, state = player.start("gaps", variant="no-redeal", seed=194)
        player.send("hint")
        busy = player.ask("hint")
        assert busy["type"] == "error" and busy["code"] == "busy", busy
        player.send("move", move=state["legal_moves"][0], ply=0)
        # The move's state comes first: the hint (2 s on this lost deal) is still thinking.
        first = player.receive()
        assert first["type"] == "state" and first["ply"] == 1, first
        hint = player.until("hint")
        assert hint["ply"] == 0 and hint["move"] in state["legal_moves"]


def test_the_replay_for_a_hint_comes_out_of_its_time(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint searches a copy of the game, made by replaying its moves, which took up to
    0.2 s on a long game (``bench/bench_hints.py``) on top of ``--hint-seconds``, on the
    event loop. The replay now runs beside it and its time comes out of the budget: on a
    clock the replay moves on by half a second, a 2 s hint searches for 1.5 s."""
    import ludoteca.server.rooms as rooms_module
    from ludoteca.server.rooms import RoomConfig, Rooms
    from ludoteca.solvers.base import Hint
    from ludoteca.store.web import WebStore

    now = [100.0]

    class Clock:
        @staticmethod
        def perf_counter() -> float:
            return now[0]

    real_replay = rooms_module.replay

    def slow_replay(*args: Any) -> Any:
        now[0] += 0.5
        return real_replay(*args)

    searched: list[float] = []

    def spy(state: Any, seat: int, seconds: float) -> Hint:
        searched.append(seconds)
        return Hint(state.legal_moves_text()[0], None)

    rooms = Rooms(WebStore(db), RoomConfig(bot_delay=0.0, hint_seconds=2.0))
    room = rooms.create({"game": "tappeto", "seats": ["human"], "seed": 1})
    monkeypatch.setattr(rooms_module, "time", Clock, raising=False)
    monkeypatch.setattr(rooms_module, "replay", slow_replay)
    monkeypatch.setattr(rooms_module, "hint_for", spy)
    hint = run_apart(room.hint(0))
    assert searched == [1.5] and hint.move in room.state.legal_moves_text()


def test_a_finished_game_counts_in_the_statistics(client: TestClient, player: Any) -> None:
    """Results feed played / won / best score / streaks, per game and variant."""
    for seed in (1, 2):
        _, state = player.start("muro", seed=seed)
        over = player.ask("move", move="resign")
        assert over["outcome"] is not None and over["legal_moves"] == []
        assert player.ask("move", move=state["legal_moves"][0])["code"] == "illegal"
    stats = client.get("/api/stats").json()["stats"]
    assert stats == [
        {
            "game": "muro",
            "variant": "muro",
            "played": 2,
            "won": 0,
            "best_score": stats[0]["best_score"],
            "streak": -2,
            "best_streak": 0,
            "redeals_used": 0,
        }
    ]
    assert client.get("/api/rooms").json()["rooms"] == []
    assert client.get("/api/stats?player=someone-else").json()["stats"] == []


def test_the_move_that_ends_a_game_is_stored_with_its_result_or_not_at_all(
    client: TestClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Brief: nothing is lost. The last move was stored, then its result in a second
    transaction; when that one failed (a busy database), the player was told 'the server
    failed', the game was over in memory and in the moves, and its result was never stored:
    the game stayed 'in progress' for ever. Both are one transaction now: the move is
    refused as not stored, and played again it counts."""
    from ludoteca.store.web import WebStore

    real = WebStore._insert_result
    calls = {"n": 0}

    def busy_once(self: WebStore, db: Any, game_id: str, result: Any) -> bool:
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError("database is locked")
        return real(self, db, game_id, result)

    monkeypatch.setattr(WebStore, "_insert_result", busy_once)
    player.start("muro", seed=1)
    refused = player.ask("move", move="resign")
    assert refused["code"] == "storage" and "not saved" in refused["message"], refused
    assert client.get("/api/stats").json()["stats"] == []
    assert [r["plies"] for r in client.get("/api/rooms").json()["rooms"]] == [0]
    over = player.ask("move", move="resign")
    assert over["outcome"] is not None
    assert [s["played"] for s in client.get("/api/stats").json()["stats"]] == [1]
    assert client.get("/api/rooms").json()["rooms"] == []


def test_what_the_database_refuses_is_told_in_one_line_and_changes_nothing(
    client: TestClient, player: Any, monkeypatch: pytest.MonkeyPatch, caplog: Any
) -> None:
    """Only a move the database refused was told 'not saved'; an undo, a restart, a new
    game (a disk full, a lock held past the timeout) were 'the server failed', with a
    traceback on the server's terminal, and a look-up an 'Internal Server Error'. Each is
    now the code 'storage' (503 for a look-up) and one line in the log; the game is as
    it was."""
    from ludoteca.store.web import WebStore

    player.start("tappeto", seed=1)
    moved = player.ask("move", move="2H")
    assert moved["ply"] == 1, moved

    def full(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    for method in ("truncate_moves", "create_game", "games_in_progress"):
        monkeypatch.setattr(WebStore, method, full)
    for kind, fields in (("undo", {}), ("restart", {}), ("new", {"game": "acme"})):
        refused = player.ask(kind, **fields)
        assert refused["type"] == "error", refused
        assert refused["code"] == "storage", refused
        assert refused["message"] == "not saved: database or disk is full", refused
    looked_up = client.get("/api/rooms")
    assert looked_up.status_code == 503
    assert looked_up.json() == {"detail": "the database failed: database or disk is full"}
    assert [r.exc_info for r in caplog.records if r.name.startswith("ludoteca")] == [None] * 4
    assert player.ask("view", seat=0)["ply"] == 1  # nothing undone


def test_a_join_the_database_fails_is_not_told_it_was_not_saved(
    player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A join only reads its saved game; the database failing it (a lock held past the
    timeout, a damaged page) answered 'not saved', as if a change had been refused."""
    from ludoteca.store.web import WebStore

    def locked(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(WebStore, "load_game", locked)
    refused = player.ask("join", room="r1", seat=0, token="t")
    assert refused["type"] == "error" and refused["code"] == "storage", refused
    assert refused["message"] == "the database failed: database is locked", refused


def test_a_game_stored_over_without_its_result_counts_when_loaded(
    db: Path, seated: Any, app_on: Any
) -> None:
    """A database written before the last move and its result were stored together may hold
    a game over but still 'playing': its result counts once the server loads it."""
    from ludoteca.store.web import WebStore

    with TestClient(app_on(db)) as first, first.websocket_connect("/ws") as socket:
        joined, _ = seated(socket).start("muro", seed=2)
    WebStore(db).push_moves(joined["room"], 0, [(0, "resign")])  # (no result, as before)
    with TestClient(app_on(db)) as second, second.websocket_connect("/ws") as socket:
        player = seated(socket)
        assert [r["plies"] for r in second.get("/api/rooms").json()["rooms"]] == [1]
        player.send("join", room=joined["room"], seat=0, token=joined["tokens"]["0"])
        assert player.until("state")["outcome"] is not None
        assert [s["played"] for s in second.get("/api/stats").json()["stats"]] == [1]
        assert second.get("/api/rooms").json()["rooms"] == []


def test_a_bot_move_the_database_refuses_is_tried_again(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When a bot's move could not be stored, the fallback move was tried, failed the same
    way, and its exception ended the bots' task: the bot stayed to move and no one was
    told. (With one failure the bot silently played the first legal move instead of its
    own.) Now the bot's own move is tried again after a pause."""
    import asyncio

    from ludoteca.server.rooms import RoomConfig, Rooms
    from ludoteca.store.web import WebStore

    real = WebStore.push_moves
    failures = {"left": 2}

    def busy_twice(self: WebStore, game_id: str, first_ply: int, moves: Any, *rest: Any) -> None:
        if moves[0][0] == 1 and failures["left"] > 0:
            failures["left"] -= 1
            raise sqlite3.OperationalError("database is locked")
        real(self, game_id, first_ply, moves, *rest)

    monkeypatch.setattr(WebStore, "push_moves", busy_twice)
    rooms = Rooms(WebStore(db), RoomConfig(bot_delay=0.01, hint_seconds=0.5))
    room = rooms.create({"game": "domino", "seats": ["human", "greedy"], "seed": 4})
    if room.state.current_player == 0:
        room.play(0, room.state.legal_moves_text()[0], None)
    expected = room.bots[1].choose(room.state.observation(1), room_rng(room))
    run_apart(asyncio.wait_for(room._run_bots(), timeout=30))
    assert failures["left"] == 0 and room.moves[-1] == (1, expected)
    assert room.state.current_player in (0, TERMINAL)


def test_a_failing_bot_or_engine_names_no_tile_in_the_log(
    db: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Hidden information stays hidden in the logs too, which every table shares. A bot's
    error and an engine's failure were logged with their text, which may name a tile hidden
    from the other seats (a split of hidden captures, the drawn tile); where tiles are
    hidden they are now logged by their kind only, and the table goes on."""
    import asyncio
    import logging

    from ludoteca.server.rooms import RoomConfig, Rooms
    from ludoteca.store.web import WebStore

    rooms = Rooms(WebStore(db), RoomConfig(bot_delay=0.01, hint_seconds=0.5))
    room = rooms.create({"game": "domino", "seats": ["human", "greedy"], "seed": 4})
    if room.state.current_player == 0:
        room.play(0, room.state.legal_moves_text()[0], None)
    secret = sorted(room.state.hidden_from(0))[0]

    def leaky(observation: Any, rng: Any) -> str:
        raise ValueError(f"cannot place {secret}")

    monkeypatch.setattr(room.bots[1], "choose", leaky)
    with caplog.at_level(logging.ERROR, logger="ludoteca"):
        run_apart(asyncio.wait_for(room._run_bots(), timeout=30))
    assert room.state.current_player != 1  # the bot's first legal move was played instead
    assert "ValueError" in caplog.text and secret not in caplog.text

    def broken(text: str) -> Any:
        raise RuntimeError(f"lost {secret}")

    caplog.clear()
    assert room.state.current_player == 0
    monkeypatch.setattr(room.state, "apply", broken)
    with pytest.raises(ProtocolError, match="the engine failed"):
        room.play(0, "draw", None)
    assert "RuntimeError" in caplog.text and secret not in caplog.text


def run_apart(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: in a test process that ran the browser tests
    first, Playwright's loop is the main thread's, and asyncio.run() there is refused."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def room_rng(room: Any) -> Any:
    """The random source a room gives its bot for the next move."""
    from ludoteca.core.rng import DealRng

    return DealRng(room.saved.seed, "bot", room.state.current_player, len(room.moves))


def test_an_addiction_game_on_the_web_keeps_its_redeals_in_the_statistics(
    client: TestClient, player: Any
) -> None:
    """The issue's Addiction statistics (games, wins, redeals used, best score) for a game
    played in the browser: a small Addiction deal played move by move (the first legal
    move each time, so the redeal whenever it is the move left) to its end."""
    _, state = player.start(
        "gaps", variant="addiction", params={"suits": "2", "ranks": "4"}, seed=0
    )
    redeals = 0
    while state["outcome"] is None:
        move = state["legal_moves"][0]
        redeals += move == "redeal"
        state = player.ask("move", move=move)
    assert redeals == 2  # deal 0 of this board, played this way
    (stats,) = client.get("/api/stats").json()["stats"]
    assert (stats["game"], stats["played"], stats["redeals_used"]) == ("gaps", 1, redeals)


def test_the_catalog_and_the_rules(client: TestClient) -> None:
    from ludoteca.core.registry import all_games

    games = client.get("/api/games").json()
    assert games["protocol"] == PROTOCOL
    assert [g["name"] for g in games["games"]] == [g.name for g in all_games()]
    for game in games["games"]:
        assert game["variants"] and all("params" in v and v["title"] for v in game["variants"])
        assert game["solitaire"] == (game["max_players"] == 1)
        assert bool(game["bots"]) != game["solitaire"]
        rules = client.get(f"/api/rules/{game['name']}").json()
        assert rules["title"] == game["title"] and "<" in rules["html"]
        # Players get the rules, not the solvers' workings and figures (PLAYERS_END).
        doc = Path(__file__).parents[2] / "docs" / "rules" / f"{game['name']}.md"
        players, cut, rest = doc.read_text(encoding="utf-8").partition(PLAYERS_END)
        heading = rest.strip().splitlines()[0].removeprefix("## ")
        assert cut and f"<h2>{html.escape(heading)}</h2>" not in rules["html"]
        assert "<h2>Measured" not in rules["html"] and players.count("\n## ") >= 2
        assert rules["html"].endswith(f"docs/rules/{game['name']}.md in the project.</em></p>")
    assert client.get("/api/rules/chess").status_code == 404
    page = client.get("/")
    assert page.status_code == 200 and "/web/app.js" in page.text


def test_every_request_type_is_documented() -> None:
    """docs/web.md lists every request the server accepts."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "web.md").read_text()
    for kind in REQUESTS:
        assert f"`{kind}`" in text, kind


def test_any_message_gets_an_answer_and_a_refusal_changes_nothing(
    client: TestClient, seated: Any
) -> None:
    """Fuzz: whatever arrives, the server answers, stays up, and an error leaves the game as is."""
    values = st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=6,
    )
    kinds = st.sampled_from([*REQUESTS, "fly"]).filter(lambda k: k not in ("new", "join", "again"))
    messages = st.fixed_dictionaries(
        {"protocol": st.sampled_from([PROTOCOL, PROTOCOL, 0, "1"]), "type": kinds},
        optional={"move": values, "seat": values, "ply": values, "game": values, "x": values},
    )
    with client.websocket_connect("/ws") as socket:
        player = seated(socket)
        player.start("tappeto", seed=long_tappeto_seed())

        @settings(max_examples=120, deadline=None)
        @given(messages)
        def check(message: dict[str, Any]) -> None:
            before = player.ask("view", seat=0)
            socket.send_text(json.dumps(message))
            answer = player.receive()
            assert answer["type"] in {"error", "state", "pong", "hint"}
            if answer["type"] == "error":
                after = player.ask("view", seat=0)
                assert after["ply"] == before["ply"]
                assert after["observation"] == before["observation"]

        check()


def test_the_deal_number_of_a_hidden_multiplayer_game_is_never_sent(
    client: TestClient, player: Any
) -> None:
    """The seed would let a player rebuild every hidden hand: views and lists leave it out."""
    _, state = player.start("domino", seats=["human", "random"], seed=77)
    assert state["seed"] is None
    seed = long_tappeto_seed()  # (deal 78 has no move: it is not in progress)
    _, solitaire = player.start("tappeto", seed=seed)
    assert solitaire["seed"] == seed
    seeds = {r["game"]: r["seed"] for r in client.get("/api/rooms").json()["rooms"]}
    assert seeds == {"domino": None, "tappeto": seed}


def test_an_abandoned_game_leaves_the_games_in_progress(client: TestClient, player: Any) -> None:
    _, state = player.start("tappeto", seed=long_tappeto_seed())
    assert [r["room"] for r in client.get("/api/rooms").json()["rooms"]] == [state["room"]]
    assert player.ask("abandon")["type"] == "state"
    assert client.get("/api/rooms").json()["rooms"] == []
    assert client.get("/api/stats").json()["stats"] == []


def test_a_hidden_deal_cannot_be_chosen_or_guessed_with_other_people(
    client: TestClient, player: Any
) -> None:
    """Hidden information stays hidden: deals were drawn from a million numbers, so a seat
    could find its deal by shuffling each with the public DealRng until one dealt its own
    hand (about 25 s), and with it every hand; now any of the 2**63 deals. And with other
    people at the table no one may choose the deal (its chooser would know every hand)."""
    refused = player.ask("new", game="domino", seats=["human", "human"], seed=7)
    assert refused["code"] == "bad-request" and "drawn at random" in refused["message"]
    seeds = []
    for _ in range(3):
        joined, _ = player.start("domino", seats=["human", "greedy"])
        seeds.append(client.app.state.rooms.get(joined["room"]).saved.seed)
    assert max(seeds) >= 2**40, seeds  # (below 2**40 by chance: one in 2**23 each)
    joined, _ = player.start("tappeto")  # a solitaire keeps a short number to note
    assert client.app.state.rooms.get(joined["room"]).saved.seed < 1_000_000


def test_the_same_deal_again_is_a_new_game_counted_on_its_own(
    client: TestClient, player: Any
) -> None:
    """'Play this deal again' at a hidden-hand game: the page is never told the deal number,
    so it restarted the finished game in place, and the second ending was not counted (a game
    counts once). `again` deals the same tiles as a new game, its number kept secret."""
    assert player.ask("again")["code"] == "no-table"
    joined, first = player.start("domino", seats=["human", "greedy"], seed=41)
    # Not before the end: with its new table's tokens anyone at this table could have read
    # the other seats' hands of the same deal.
    refused = player.ask("again")
    assert refused["code"] == "forbidden" and "once this game is over" in refused["message"]
    state = first
    while not state["outcome"]:
        if state["your_turn"]:
            player.send("move", move=state["legal_moves"][0])
        state = player.my_turn()
    player.send("again")
    again = player.until("joined")
    state = player.until("state")
    assert again["room"] != joined["room"] and again["seat"] == 0 and "0" in again["tokens"]
    assert state["seed"] is None and state["ply"] == 0
    assert state["observation"]["hand"] == first["observation"]["hand"]
    assert client.app.state.rooms.get(again["room"]).saved.seed == 41
    player.start("muro", seed=5)
    assert player.ask("move", move="resign")["outcome"] is not None
    player.send("again")
    player.until("joined")
    player.until("state")
    assert player.ask("move", move="resign")["outcome"] is not None
    stats = client.get("/api/stats").json()["stats"]
    assert [(s["game"], s["played"]) for s in stats] == [("domino", 1), ("muro", 2)]


def test_a_hidden_deal_is_not_dealt_again_to_a_table_of_people(
    client: TestClient, player: Any
) -> None:
    """docs/web.md, `again`: with hidden tiles and other people at the table, the same deal
    again let each start knowing what the others had held (the hands are not all shown at
    the end; the reason given, 'every hand is shown anyway', was not true), as a chosen deal
    would. It is refused, and the page is told not to offer it (`can_again`)."""
    joined, state = player.start("domino", seats=["human", "human"])
    assert state["can_again"] is False
    rooms = client.app.state.rooms
    room = rooms.get(joined["room"])
    while not room.state.is_over:
        room.play(room.state.current_player, room.state.legal_moves_text()[0], None)
    refused = player.ask("again")
    assert refused["code"] == "forbidden" and "a new deal, not the same one" in refused["message"]
    _, against_bots = player.start("domino", seats=["human", "greedy"])
    assert against_bots["can_again"] is True


def test_a_split_of_tiles_everyone_saw_is_shown_though_they_go_back_to_the_pile(
    db: Path,
) -> None:
    """docs/web.md, `last_move`: a move is hidden from a seat only when it names something
    hidden from that seat. A Scalafrutta split that ends a hand names tiles shown to all
    until then, which it sends back into the face-down pile: it was judged after the move
    and shown as 'a move you cannot see'. A move naming what was hidden both before and
    after it stays hidden."""
    import random

    from ludoteca.server.rooms import RoomConfig, Rooms
    from ludoteca.server.views import _names_hidden
    from ludoteca.store.web import WebStore

    rooms = Rooms(WebStore(db), RoomConfig(bot_delay=0.0, hint_seconds=0.5))
    seats = ["human", "greedy", "random"]
    room = rooms.create(
        {"game": "scalafrutta", "variant": "scalafrutta", "seats": seats, "seed": 1}
    )
    pick = random.Random(1)
    shown = 0
    while not room.state.is_over and shown < 3:
        seat = room.state.current_player
        room._apply(seat, pick.choice(room.state.legal_moves_text()))
        by, text = room.moves[-1]
        if by != 0 and _names_hidden(text, room.state.hidden_from(0)):
            assert text.startswith("split"), text  # (only a split names such tiles here)
            assert room.view(0)["last_move"] == {"seat": by, "move": text}
            shown += 1
            # The other half: the same move, had its tiles been hidden before it too, stays
            # hidden (a made-up 'before': no Scalafrutta move names a tile hidden so).
            seen = room.hidden_before_last
            room.hidden_before_last = [room.state.hidden_from(s) for s in range(len(seats))]
            assert room.view(0)["last_move"] == {"seat": by, "move": None}
            room.hidden_before_last = seen
    assert shown, "no split of shown tiles went back to the pile"
    room.undo(0)
    assert room.hidden_before_last is None  # (after an undo, what was seen is not known)


def test_the_rules_open_with_the_game_not_the_source_files(client: TestClient) -> None:
    """The rules dialog opened on notes for developers (the seed texts, RULES.md, the engine,
    solver and board files); players get the opening's other sentences, then the rules."""
    for game in client.get("/api/games").json()["games"]:
        html = client.get(f"/api/rules/{game['name']}").json()["html"]
        opening = html[: html.index("<h2>")]
        for source in ("src/", ".txt", "RULES.md", "Engine"):
            assert source not in opening, (game["name"], source, opening)
        assert "<h2>Goal</h2>" in html and "<h2>Setup</h2>" in html, game["name"]
    domino = client.get("/api/rules/domino").json()["html"]
    assert "<p>For 2, 3 or 4 players, with the 36 fruit tiles" in domino


def players_part(tmp_path: Path, rules: str) -> str:
    """The rules dialog's HTML for a Gaps rules document whose players' part is ``rules``
    (under a heading), on one line."""
    from ludoteca.server.catalog import rules_html

    (tmp_path / "rules").mkdir(exist_ok=True)
    doc = f"# Gaps\n\n## Rules\n\n{rules}\n{PLAYERS_END}\n\n## The solver\n"
    (tmp_path / "rules" / "gaps.md").write_text(doc, encoding="utf-8")
    return " ".join(rules_html(find_game("gaps"), tmp_path).split())


def test_the_rules_dialog_cites_sources_in_players_words(
    client: TestClient, tmp_path: Path
) -> None:
    """The rules documents cite RULES.md, "the seed" (the original text) and test files for
    developers; the dialog said so to players too. It says "our ruling" and "the original
    text", and "seed" stays only as a deal number ("shuffled from the seed")."""
    for game in client.get("/api/games").json()["games"]:
        html = " ".join(client.get(f"/api/rules/{game['name']}").json()["html"].split())
        assert "RULES.md" not in html and ".py" not in html, game["name"]
        cited = re.findall(r"(?<!from )(?<!from the )(?:the )?seed(?:'s|,|:| says| sets)", html)
        assert cited == [], (game["name"], cited)
    # The players' parts now speak to players without citing; a part that cites is still
    # put in players' words (the citations as the documents below the marker write them).
    cited = players_part(
        tmp_path,
        "2. **When the game ends (the stuck rule).** RULES.md: the game ends when no move"
        " changes anything.\n"
        "- **Redeal** (seed, Gameplay 4; RULES.md): the cards are shuffled from the seed"
        ' (`DealRng(seed, "gaps", "redeal", k)` for the k-th redeal), and dealt.\n\n'
        "| The square's shape | 3 × 3 | RULES.md *assumption*: the seed's figure is lost |\n",
    )
    assert "(the stuck rule).</strong> Our ruling: the game ends" in cited
    assert "(original text, Gameplay 4; our ruling)" in cited
    assert "shuffled from the seed, and dealt" in cited
    assert "Our assumption: the original text's figure is lost" in cited.replace("&#x27;", "'")


def test_the_rules_dialog_leaves_out_asides_that_open_with_code(
    client: TestClient, tmp_path: Path
) -> None:
    """Each rules document names the seed's shuffle in code for developers (e.g. Gaps:
    ``(`DealRng(seed, "gaps")`)``); players read "shuffled from the seed", and the
    sentence around the aside stays whole."""
    for game in client.get("/api/games").json()["games"]:
        html = client.get(f"/api/rules/{game['name']}").json()["html"]
        assert "DealRng" not in html, game["name"]
    # A part that names the shuffle in code loses the aside, not the sentence around it.
    aside = players_part(
        tmp_path,
        "- the four aces (clubs, diamonds, hearts, spades), shuffled from the seed"
        ' (`DealRng(seed, "gaps", "redeal", k)` for the k-th redeal), and dealt row by'
        " row.\n- Hands follow one another (a new deal from the seed"
        ' (`DealRng(seed, "scalafrutta", "hand", h)`); the first player moves one seat'
        " round each hand).\n",
    )
    assert "DealRng" not in aside
    assert "hearts, spades), shuffled from the seed, and dealt row by row" in aside
    assert "(a new deal from the seed; the first player moves one seat round" in aside


def test_a_deal_number_past_2_53_comes_back_as_its_digits(client: TestClient, player: Any) -> None:
    """docs/web.md, `state`: the page showed deal 9007199254740993 as ...992, and deal
    2**63 - 1 as 9223372036854776000, which it then refused (a JavaScript number rounds
    past 2**53). The server sends such a number as its digits, as ``new`` takes it."""
    joined, state = player.start("gaps", seed=str(2**53 + 1))
    assert state["seed"] == str(2**53 + 1)
    _, small = player.start("gaps", seed=2**53 - 1)
    assert small["seed"] == 2**53 - 1
    rooms = {r["room"]: r["seed"] for r in client.get("/api/rooms").json()["rooms"]}
    assert rooms[joined["room"]] == str(2**53 + 1)


def test_the_rules_dialog_leaves_out_what_is_for_the_terminal(client: TestClient) -> None:
    """The web's rules dialog showed the notation typed at the terminal and the terminal
    board's signs, and Gaps' columns counted from 0 where the table counts from 1 (a review
    of the web table). Those sections are left out; the Gaps rules say "the first column"."""
    for game in client.get("/api/games").json()["games"]:
        html = client.get(f"/api/rules/{game['name']}").json()["html"]
        assert "<h2>Notation</h2>" not in html and "<h2>Terminal board</h2>" not in html
    gaps = " ".join(client.get("/api/rules/gaps").json()["html"].split())
    assert "column 0" not in gaps and "IllegalMoveError" not in gaps and "Outcome" not in gaps
    assert "A gap in the first column takes any 2" in gaps


def test_the_games_in_progress_are_listed_by_name_and_by_the_rooms_asked(
    client: TestClient, player: Any
) -> None:
    """A browser renamed still lists the tables it holds seats at (their rooms, asked by
    id), beside its new name's; another name's others are not listed."""
    _, mine = player.start("tappeto", seed=long_tappeto_seed(), player="old")
    _, theirs = player.start("tappeto", seed=long_tappeto_seed(), player="other")
    _, new = player.start("acme", seed=1, player="new")
    asked = client.get(f"/api/rooms?player=new&room={mine['room']}&room=nope").json()["rooms"]
    assert sorted(r["room"] for r in asked) == sorted([mine["room"], new["room"]])
    assert {r["room"]: r["player"] for r in asked}[mine["room"]] == "old"
    only = client.get(f"/api/rooms?room={theirs['room']}").json()["rooms"]
    assert [r["room"] for r in only] == [theirs["room"]]


def test_a_game_over_at_the_deal_is_counted_and_not_in_progress(
    client: TestClient, player: Any
) -> None:
    """A deal with no move (Tappeto deal 931454) or won at move 0 (Gaps, one suit of three
    ranks, deal 1) showed its end, but its result was only stored with a move: it stayed
    "in progress · 0 moves" forever and was never counted. It is stored as it starts, once;
    restarted, it is not in progress again."""
    _, lost = player.start("tappeto", seed=931454, player="dealt")
    assert lost["outcome"] is not None and lost["legal_moves"] == []
    _, won = player.start("gaps", seed=1, params={"suits": 1, "ranks": 3}, player="dealt")
    assert won["outcome"]["winners"] == [0]
    assert client.get("/api/rooms?player=dealt").json()["rooms"] == []
    stats = client.get("/api/stats?player=dealt").json()["stats"]
    assert sorted((s["game"], s["played"], s["won"]) for s in stats) == [
        ("gaps", 1, 1),
        ("tappeto", 1, 0),
    ]
    assert player.ask("restart")["type"] == "state"
    assert client.get("/api/rooms?player=dealt").json()["rooms"] == []
    stats = client.get("/api/stats?player=dealt").json()["stats"]
    assert sum(s["played"] for s in stats) == 2


def test_an_unknown_game_is_said_not_to_exist(client: TestClient, player: Any) -> None:
    """An unknown room answered "no game 'nothing'"; it says the game does not exist, and
    the page may ask whether a room exists (and nothing else about it)."""
    refused = player.ask("join", room="nothing", seat=0, token="x")
    assert refused["code"] == "unknown-room"
    assert refused["message"] == (
        "there is no game 'nothing' on this server: it does not exist, or no longer exists"
    )
    assert client.get("/api/rooms/nothing").json() == {"room": "nothing", "exists": False}
    _, state = player.start("tappeto", seed=long_tappeto_seed())
    found = client.get(f"/api/rooms/{state['room']}").json()
    assert found == {"room": state["room"], "exists": True}
