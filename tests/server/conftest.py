"""A web app on a temporary database and a client that speaks the protocol (as fixtures:
the test suite imports test modules by path, so helpers travel as fixtures, not imports)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ludoteca.server import create_app
from ludoteca.server.protocol import PROTOCOL
from ludoteca.server.rooms import RoomConfig


class Player:
    """One WebSocket connection: send requests, read events until the one wanted."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.seen: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None
        """The last state received since the last request sent."""
        self.welcome = self.receive()

    def send(self, kind: str, **fields: Any) -> None:
        self.latest = None
        self.socket.send_text(json.dumps({"protocol": PROTOCOL, "type": kind, **fields}))

    def receive(self) -> dict[str, Any]:
        event: dict[str, Any] = self.socket.receive_json()
        self.seen.append(event)
        if event["type"] == "state":
            self.latest = event
        return event

    def until(self, kind: str, **match: Any) -> dict[str, Any]:
        for _ in range(500):
            event = self.receive()
            if event["type"] == kind and all(event.get(k) == v for k, v in match.items()):
                return event
        raise AssertionError(f"no {kind} event")

    def ask(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a request and return the next event (the answer to it)."""
        self.send(kind, **fields)
        return self.receive()

    def my_turn(self) -> dict[str, Any]:
        """Read states until this seat is to move (bots move by themselves)."""
        if self.latest is not None and (self.latest["your_turn"] or self.latest["outcome"]):
            return self.latest
        for _ in range(500):
            event = self.receive()
            if event["type"] == "state" and (event["your_turn"] or event["outcome"]):
                return event
        raise AssertionError("the turn never came")

    def start(self, game: str, **fields: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        self.send("new", game=game, **fields)
        joined = self.until("joined")
        return joined, self.until("state")


def make_app(db: Path, **config: Any) -> FastAPI:
    return create_app(db, RoomConfig(**{"bot_delay": 0.0, "hint_seconds": 0.5, **config}))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "web.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db)) as test_client:
        yield test_client


@pytest.fixture
def player(client: TestClient) -> Iterator[Player]:
    with client.websocket_connect("/ws") as socket:
        yield Player(socket)


@pytest.fixture
def seated() -> Callable[[Any], Player]:
    """Wrap a WebSocket of another TestClient (a second player, a restarted server)."""
    return Player


@pytest.fixture
def app_on() -> Callable[..., FastAPI]:
    """make_app(db, **RoomConfig fields): the web app with test settings."""
    return make_app
