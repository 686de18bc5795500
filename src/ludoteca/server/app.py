"""The FastAPI application: the page, a few JSON look-ups, and the game WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, WebSocket
from fastapi import Request as HttpRequest
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ludoteca import __version__
from ludoteca.core.errors import UnknownGameError, shown
from ludoteca.core.registry import find_game
from ludoteca.server.catalog import WEB, catalog, rules_html
from ludoteca.server.protocol import (
    HUMAN,
    PROTOCOL,
    ProtocolError,
    Request,
    deal_number,
    error_event,
    event,
    parse_request,
)
from ludoteca.server.rooms import DEFAULT_PLAYER, Room, RoomConfig, Rooms
from ludoteca.store.db import default_path
from ludoteca.store.web import WebStore

MAX_MESSAGE = 16_384
MAX_ROOMS_ASKED = 200
log = logging.getLogger(__name__)


def create_app(
    db_path: str | Path | None = None,
    config: RoomConfig | None = None,
    docs: Path | None = None,
) -> FastAPI:
    """The web app on the SQLite database at ``db_path`` (default: ``store.db.default_path``)."""
    store = WebStore(db_path or default_path())
    store.open()  # a bad database path fails at start, not during play
    rooms = Rooms(store, config or RoomConfig())
    app = FastAPI(title="ludoteca", version=__version__, docs_url=None, redoc_url=None)
    app.state.rooms = rooms
    app.mount("/web", StaticFiles(directory=WEB), name="web")

    @app.exception_handler(sqlite3.Error)
    async def database_failed(request: HttpRequest, err: Exception) -> JSONResponse:
        # A look-up the database refused (a lock held past the timeout, a damaged page):
        # one line in the log, not a traceback, and the page told why.
        log.error("%s %s: the database failed: %s", request.method, request.url.path, err)
        return JSONResponse({"detail": f"the database failed: {err}"}, status_code=503)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/api/games")
    def games() -> dict[str, Any]:
        return {"protocol": PROTOCOL, "games": catalog()}

    @app.get("/api/stats")
    def stats(player: str = DEFAULT_PLAYER) -> dict[str, Any]:
        return {"player": player, "stats": [s.as_json() for s in store.stats(player)]}

    @app.get("/api/rooms")
    async def in_progress(
        player: str | None = None, room: Annotated[list[str] | None, Query()] = None
    ) -> dict[str, Any]:
        # ``room``: the tables a browser holds seats at, listed whatever name they were
        # started under (a rename hid them all). At most the latest 200 of them.
        rooms = store.games_in_progress(player, (room or [])[-MAX_ROOMS_ASKED:])
        for found in rooms:
            secret = _seed_is_secret(found["game"])
            found["seed"] = None if secret else deal_number(found["seed"])
        return {"rooms": rooms}

    @app.get("/api/rooms/{room}")
    def room_exists(room: str) -> dict[str, Any]:
        """Whether a game exists (nothing else about it): a link to a table this browser
        holds no seat at says which of the two it is. (Not a 404: the page's console
        counts one as an error.)"""
        return {"room": room, "exists": store.has_game(room)}

    @app.get("/api/rules/{game}")
    def rules(game: str) -> dict[str, Any]:
        try:
            spec = find_game(game)
        except UnknownGameError as err:
            raise HTTPException(404, str(err)) from err
        return {"game": spec.name, "title": spec.title, "html": rules_html(spec, docs)}

    @app.websocket("/ws")
    async def play(socket: WebSocket) -> None:
        await socket.accept()
        session = Session(socket, rooms)
        await session.send(event("welcome", server=__version__))
        try:
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await session.handle(message.get("text"))
        except WebSocketDisconnect:
            pass
        finally:
            session.leave()

    return app


def _seed_is_secret(game: str) -> bool:
    """In a multiplayer game with hidden tiles the deal number would reveal them all."""
    try:
        spec = find_game(game)
    except UnknownGameError:
        return True
    return spec.deal_is_secret


LOOK_UPS = frozenset({"join", "view"})
"""Requests that write nothing (a join that claims an invitation writes its claim, or
nothing: the invitation stays unclaimed; one that names a seat taken before seats had
names writes the name, or does not and joins all the same): the database failing them is
not a change 'not saved'."""


class Session:
    """One WebSocket connection, seated at most at one table at a time."""

    def __init__(self, socket: WebSocket, rooms: Rooms) -> None:
        self.socket = socket
        self.rooms = rooms
        self.room: Room | None = None
        self.seat = 0
        self.hinting: asyncio.Task[None] | None = None

    async def send(self, data: dict[str, Any]) -> None:
        if self.socket.application_state == WebSocketState.CONNECTED:
            # The page may go away meanwhile (a hint still thinking when it was closed): no
            # one to tell, and nothing failed (it logged a traceback).
            with contextlib.suppress(WebSocketDisconnect):
                await self.socket.send_text(json.dumps(data))

    async def handle(self, text: str | None) -> None:
        kind: str | None = None
        try:
            if text is None or len(text) > MAX_MESSAGE:
                raise ProtocolError("malformed", "a message is one JSON text frame under 16 KiB")
            try:
                raw = json.loads(text)
            except json.JSONDecodeError as err:
                raise ProtocolError("malformed", f"not JSON: {err.msg}") from err
            except (ValueError, RecursionError) as err:
                # JSON, but beyond what is read: a number of thousands of digits, or arrays
                # nested thousands deep (they were 'the server failed', with a traceback).
                raise ProtocolError("malformed", f"JSON beyond what is read: {err}") from err
            if isinstance(raw, dict) and isinstance(raw.get("type"), str):
                kind = shown(raw["type"])
            await self.dispatch(parse_request(raw))
        except ProtocolError as err:
            await self.send(error_event(err.code, err.message, kind))
        except sqlite3.Error as err:
            # The database refused (a disk full, a lock held past the timeout): the store is
            # written before memory, so nothing changed. A move said so; an undo, a restart,
            # a new game said 'the server failed', with a traceback on the terminal.
            # A join only reads (its saved game): nothing was to be saved, and it was told
            # 'not saved'.
            said = "the database failed" if kind in LOOK_UPS else "not saved"
            log.error("request %r: %s: %s", kind, said, err)
            await self.send(error_event("storage", f"{said}: {err}", kind))
        except Exception as err:
            log.exception("request %r failed", kind)
            await self.send(error_event("internal", f"the server failed: {err}", kind))

    async def dispatch(self, request: Request) -> None:
        kind = request.type
        if kind == "ping":
            await self.send(event("pong"))
        elif kind == "new":
            room = self.rooms.create(request.fields)
            await self._seat(room, None, created=True)
        elif kind == "again":
            # The same deal as a new game (counted on its own), from this table's seat; the
            # deal number stays on the server, hidden as it is at the table.
            room = self.rooms.again(self._table(), self.seat)
            await self._seat(room, self.seat, created=True)
        elif kind == "join":
            room = self.rooms.get(request.get("room"))
            seat: int = request.get("seat")
            player: str | None = request.get("player") or None
            if request.get("invite") is not None:
                await self._claim(room, seat, request.get("invite"), request.get("token"), player)
            else:
                room.check_token(seat, request.get("token"))
                if player is not None:
                    self._name(room, seat, player)
            await self._seat(room, seat)
        elif kind == "view":
            room = self._table()
            if request.get("seat") != self.seat:
                raise ProtocolError("forbidden", f"you are seat {self.seat}: no other seat's view")
            await self.send(room.view(self.seat))
        elif kind == "hint":
            # Worked out beside the connection's other requests: a move made meanwhile no
            # longer waits behind it (a hint takes up to 2 s). One at a time per connection.
            if self.hinting is not None and not self.hinting.done():
                raise ProtocolError("busy", "a hint is on its way already")
            self.hinting = asyncio.create_task(self._hint(self._table(), self.seat))
        else:
            await self._change(request)

    async def _hint(self, room: Room, seat: int) -> None:
        """A hint for the position at the time it was asked (its ``ply``: the page drops one
        that comes after a move)."""
        ply = len(room.moves)
        try:
            hint = await room.hint(seat)
        except ProtocolError as err:
            await self.send(error_event(err.code, err.message, "hint"))
            return
        except Exception as err:
            log.exception("request 'hint' failed")
            await self.send(error_event("internal", f"the server failed: {err}", "hint"))
            return
        answer = event("hint", move=hint.move, winnable=hint.winnable, note=hint.note, ply=ply)
        await self.send(answer)

    async def _change(self, request: Request) -> None:
        room = self._table()
        async with room.lock:
            if request.type == "move":
                room.play(self.seat, request.get("move"), request.get("ply"))
            elif request.type == "undo":
                room.undo(self.seat)
            elif request.type == "redo":
                room.redo(self.seat)
            elif request.type == "restart":
                room.restart(self.seat)
            elif request.type == "abandon":
                room.abandon(self.seat)
            await room.broadcast()
        room.wake_bots()

    async def _claim(
        self, room: Room, seat: int, code: str, token: str, player: str | None
    ) -> None:
        """Claim ``seat``'s invitation with the ``token`` this connection chose, under the
        claimer's ``player`` name, and tell the table that the seat is taken (its creator's
        page stops offering the link)."""
        async with room.lock:
            room.claim(seat, code, token, player)
            self.leave()  # (this connection hears its new seat's state once it sits)
            await room.broadcast()

    @staticmethod
    def _name(room: Room, seat: int, player: str) -> None:
        """Name a seat taken before seats had names (:meth:`Room.name_seat`). Not a reason
        to refuse the join: if the database fails it now, the next join names it."""
        try:
            room.name_seat(seat, player)
        except sqlite3.Error as err:
            log.error("room %s: player %d's name not stored yet: %s", room.id, seat + 1, err)

    async def _seat(self, room: Room, seat: int | None, created: bool = False) -> None:
        """Sit at ``room``'s ``seat`` and say so. Whoever ``created`` it gets their seat's
        token and the invitations to the other people's seats, to pass on; whoever joins
        has their token already (a claimer chose it). Never another seat's token: it would
        show that seat's hand to its holder, unseen."""
        self.leave()
        self.room = room
        self.seat = room.saved.seats.index(HUMAN) if seat is None else seat
        room.listeners[self.send] = self.seat
        tokens: dict[str, str] = {}
        invites: dict[str, str] = {}
        if created:
            own = room.saved.tokens[self.seat]
            tokens = {} if own is None else {str(self.seat): own}
            invites = {str(s): code for s, code in room.saved.invites.items()}
        joined = event("joined", room=room.id, seat=self.seat, tokens=tokens, invites=invites)
        await self.send(joined)
        await self.send(room.view(self.seat))
        room.wake_bots()

    def _table(self) -> Room:
        if self.room is None:
            raise ProtocolError("no-table", "start a game ('new') or join one ('join') first")
        return self.room

    def leave(self) -> None:
        if self.room is not None:
            self.room.listeners.pop(self.send, None)
            self.room = None
