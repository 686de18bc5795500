"""Invitations to a table's other people (docs/web.md, Multiplayer): whoever starts a table
gets their own seat's token and, for each other person's seat, an invitation claimed once,
so that a creator who opens a friend's seat to read its hand is found out."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludoteca.server.rooms import Room

USED = "this seat's invitation was used already; ask whoever holds the seat"


def joining(sockets: ExitStack, client: TestClient, seated: Any, **fields: Any) -> Any:
    """A new connection's join, closed with ``sockets``: the connection and its first
    answer (joined or error)."""
    other = seated(sockets.enter_context(client.websocket_connect("/ws")))
    return other, other.ask("join", **fields)


@pytest.fixture
def join(seated: Any) -> Iterator[Callable[..., tuple[Any, dict[str, Any]]]]:
    """join(client, **fields): :func:`joining`, the connections closed at the test's end."""
    with ExitStack() as sockets:
        yield lambda client, **fields: joining(sockets, client, seated, **fields)


def test_the_creator_gets_invitations_not_the_other_seats_tokens(
    client: TestClient, player: Any, join: Any
) -> None:
    """The creator was sent every person's token: opening another seat's link, at any
    time, showed that seat's hand, and its player could not tell."""
    joined, _ = player.start("scalafrutta", seats=["human", "human", "greedy", "human"])
    assert set(joined["tokens"]) == {"0"}
    assert set(joined["invites"]) == {"1", "3"}
    room: Room = client.app.state.rooms.get(joined["room"])  # type: ignore[attr-defined]
    assert room.saved.tokens == [joined["tokens"]["0"], None, None, None]
    # A seat not claimed yet opens with no token at all, and a bot's with no invitation.
    _, refused = join(client, room=joined["room"], seat=1, token="")
    assert refused["code"] == "forbidden"
    assert refused["message"] == "player 2's seat is not taken yet: its invitation opens it"
    _, bot = join(client, room=joined["room"], seat=2, invite=joined["invites"]["1"])
    assert bot["code"] == "forbidden" and bot["message"] == "player 3 is a bot"


def test_an_invitation_gives_its_seat_once_and_its_token_then(
    client: TestClient, player: Any, join: Any
) -> None:
    joined, _ = player.start("domino", seats=["human", "human"])
    room, code = joined["room"], joined["invites"]["1"]
    friend, claimed = join(client, room=room, seat=1, invite=code)
    assert claimed["type"] == "joined" and claimed["seat"] == 1 and claimed["invites"] == {}
    token = claimed["tokens"]["1"]
    state = friend.receive()
    assert state["type"] == "state" and state["seat"] == 1
    # Only the claimer heard the token: not the creator, who is at the same table.
    player.send("ping")
    player.until("pong")
    assert token not in json.dumps(player.seen)
    # The creator (or anyone) opening the link now is refused, with the reason.
    for _ in range(2):
        _, again = join(client, room=room, seat=1, invite=code)
        assert again["type"] == "error" and again["code"] == "forbidden"
        assert again["message"] == USED
    _, wrong = join(client, room=room, seat=1, invite="guess")
    assert wrong["message"] == "wrong invitation for player 2"
    _, own = join(client, room=room, seat=0, invite=code)
    assert own["message"] == "player 1's seat has no invitation: it opens with its token"
    _, nowhere = join(client, room=room, seat=2, invite=code)
    assert nowhere["code"] == "bad-seat"
    # The token the claim gave reconnects, as any seat's token does.
    back, rejoined = join(client, room=room, seat=1, token=token)
    assert rejoined["type"] == "joined" and rejoined["seat"] == 1 and rejoined["tokens"] == {}
    assert back.receive()["observation"] == state["observation"]


@pytest.mark.parametrize("fields", [{}, {"token": "t", "invite": "i"}])
def test_a_join_takes_a_token_or_an_invitation(player: Any, fields: dict[str, Any]) -> None:
    refused = player.ask("join", room="r", seat=0, **fields)
    assert refused["code"] == "malformed"
    assert refused["message"] == "'join' needs one of token or invite"


def test_invitations_are_kept_across_a_restart_and_a_used_one_stays_used(
    db: Path, seated: Any, app_on: Any
) -> None:
    with TestClient(app_on(db)) as server, server.websocket_connect("/ws") as socket:
        joined, _ = seated(socket).start("domino", seats=["human", "human", "human"])
    room, invites = joined["room"], joined["invites"]
    with TestClient(app_on(db)) as server, ExitStack() as sockets:
        _, claimed = joining(sockets, server, seated, room=room, seat=1, invite=invites["1"])
        assert claimed["type"] == "joined"
    with TestClient(app_on(db)) as server, ExitStack() as sockets:
        _, again = joining(sockets, server, seated, room=room, seat=1, invite=invites["1"])
        assert again["message"] == USED
        token = claimed["tokens"]["1"]
        _, rejoined = joining(sockets, server, seated, room=room, seat=1, token=token)
        assert rejoined["type"] == "joined"
        _, other = joining(sockets, server, seated, room=room, seat=2, invite=invites["2"])
        assert other["type"] == "joined" and other["seat"] == 2


def test_a_claim_the_database_fails_leaves_the_invitation_to_claim(
    client: TestClient, player: Any, join: Any, db: Path, caplog: Any
) -> None:
    """Marking the invitation used and storing the seat's token are one transaction: a
    claim whose token was not stored must not use up the invitation. And the log, every
    table's, never shows an invitation's code or a token."""
    caplog.set_level(logging.DEBUG)
    joined, _ = player.start("domino", seats=["human", "human"])
    room, code = joined["room"], joined["invites"]["1"]
    with sqlite3.connect(db) as outside:
        outside.execute(
            "CREATE TRIGGER disk_full BEFORE UPDATE OF tokens ON web_games"
            " BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END"
        )
    _, failed = join(client, room=room, seat=1, invite=code)
    assert failed["code"] == "storage"
    assert failed["message"] == "the database failed: database or disk is full"
    with sqlite3.connect(db) as outside:
        outside.execute("DROP TRIGGER disk_full")
    _, claimed = join(client, room=room, seat=1, invite=code)
    assert claimed["type"] == "joined" and claimed["seat"] == 1
    secrets = [code, claimed["tokens"]["1"], joined["tokens"]["0"]]
    assert caplog.records and not [s for s in secrets if s in caplog.text]


def test_the_same_deal_again_invites_the_other_people(
    client: TestClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`again` makes a new table: its other people's seats get invitations, not tokens.
    (No game offers it to a table of people today; were one to, this holds.)"""
    joined, _ = player.start("domino", seats=["human", "human"])
    room: Room = client.app.state.rooms.get(joined["room"])  # type: ignore[attr-defined]
    while not room.state.is_over:
        room.play(room.state.current_player, room.state.legal_moves_text()[0], None)
    monkeypatch.setattr(Room, "can_again", property(lambda self: True))
    player.send("again")
    again = player.until("joined")
    assert again["room"] != joined["room"] and again["seat"] == 0
    assert set(again["tokens"]) == {"0"} and set(again["invites"]) == {"1"}
    assert again["invites"]["1"] != joined["invites"]["1"]


def test_a_game_stored_before_invitations_still_opens_with_its_tokens(
    db: Path, seated: Any, app_on: Any
) -> None:
    """A table started before invitations holds every person's token and no invitation:
    its seats open with their tokens as they did, and there is nothing to claim."""
    with TestClient(app_on(db)) as server, server.websocket_connect("/ws") as socket:
        joined, _ = seated(socket).start("domino", seats=["human", "human"])
    room = joined["room"]
    with sqlite3.connect(db) as old:  # the database and the row as they were stored before
        old.execute("DROP TABLE web_invites")
        old.execute(
            "UPDATE web_games SET tokens = ? WHERE id = ?", (json.dumps(["zero", "one"]), room)
        )
    with TestClient(app_on(db)) as server, ExitStack() as sockets:
        _, first = joining(sockets, server, seated, room=room, seat=0, token="zero")
        _, second = joining(sockets, server, seated, room=room, seat=1, token="one")
        assert (first["seat"], second["seat"]) == (0, 1)
        code = joined["invites"]["1"]
        _, claim = joining(sockets, server, seated, room=room, seat=1, invite=code)
        assert claim["message"] == "player 2's seat has no invitation: it opens with its token"
