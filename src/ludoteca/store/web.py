"""The web app's own tables: games in progress (replayed from their moves) and results.

A game in progress is kept as what rebuilds it exactly: game, variant, parameter overrides,
seed, seats and the move list, with the seats' tokens and the invitations to the seats of
the other people at the table (each claimed once). Each move is written in its own
transaction, so a server that stops at any moment loses nothing that a player saw. Results,
one for each person's seat under that person's name, feed the players' statistics.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ludoteca.store.db import add_schema, check_writable, connect
from ludoteca.store.results import Stats, statistics

RESULTS = """
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    won INTEGER NOT NULL,
    score REAL NOT NULL,
    finished REAL NOT NULL,
    details TEXT NOT NULL DEFAULT '{}',
    UNIQUE (game_id, seat)
"""
"""A result is a person's seat's at a finished game: one row for each, once."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS web_games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    params TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    player TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'playing',
    practice INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS web_moves (
    game_id TEXT NOT NULL REFERENCES web_games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS web_results ({RESULTS});
CREATE INDEX IF NOT EXISTS web_results_by_player ON web_results (player, game, variant, id);
CREATE TABLE IF NOT EXISTS web_invites (
    game_id TEXT NOT NULL REFERENCES web_games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    code TEXT NOT NULL,
    claimed REAL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS web_players (
    game_id TEXT NOT NULL REFERENCES web_games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS web_players_by_player ON web_players (player);
"""
# (Games stored before invitations have no rows in web_invites: every person's seat has
# its token, as then, and no invitation to claim. A seat's player, in web_players, is the
# name its person plays under: the creator's, given with the new game, and each claimer's,
# given with the claim; the seats of people who gave none have no row and record nothing.)


TABLES = ("web_games", "web_moves", "web_results", "web_invites", "web_players")

HUMAN = "human"
"""A person's seat (as ``ludoteca.server.protocol.HUMAN``: the store is below the server)."""

Claim = Literal["claimed", "repeated", "used", "wrong", "none"]
"""What claiming an invitation did: gave the seat, or found it given to this claim already
(the same token: its claimer trying again, whose answer was lost), or not (used already by
another claim, a wrong code, no invitation to that seat)."""


def same_secret(kept: str, given: str) -> bool:
    """Whether ``given`` (a client's text) is the secret ``kept``, in constant time. As
    bytes: ``compare_digest`` refuses a str with a letter past ASCII (a TypeError: the
    server failed, with a traceback, for a join with an invitation or token like "é")."""
    return secrets.compare_digest(kept.encode(), given.encode())


@add_schema
def _create(connection: sqlite3.Connection) -> None:
    connection.executescript(SCHEMA.replace("{RESULTS}", RESULTS))
    # A database made before results kept their details (redeals used) gets the column;
    # its older results count no redeals.
    if "details" not in _columns(connection, "web_results"):
        try:
            connection.execute(
                "ALTER TABLE web_results ADD COLUMN details TEXT NOT NULL DEFAULT '{}'"
            )
        except sqlite3.OperationalError as err:  # another connection added it meanwhile
            if "duplicate column" not in str(err):
                raise
    if "seat" not in _columns(connection, "web_results"):
        _results_per_seat(connection)
    if "practice" not in _columns(connection, "web_games"):
        _games_may_be_practice(connection)


def creator_seat(seats: Sequence[str], invited: Collection[int] | None = None) -> int:
    """The seat of whoever started a table: the first person's seat not opened by an
    invitation (the first person's at a table from before invitations)."""
    people = [seat for seat, kind in enumerate(seats) if kind == HUMAN]
    free = [seat for seat in people if seat not in (invited or ())]
    return (free or people)[0]


def _columns(connection: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


def _results_per_seat(connection: sqlite3.Connection) -> None:
    """Bring a database from before results per seat up to date, in one transaction: its
    ``web_results`` kept one row a game (``game_id UNIQUE``), the first person's seat's under
    the creator's name, so that the other people's games never counted for them. The table
    is rebuilt with a seat in each row (SQLite drops no constraint in place), its rows
    kept, ids and all, as the first person's seat's, which they were; and each game's
    creator gets their seat's name in ``web_players`` (the first person's seat not opened
    by an invitation: whoever asked for the same deal again sat where they were). The
    others' names come when they next join. Immediate, and checked again inside: of two
    connections that found it to do, the second waits, then finds it done."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        if "seat" not in _columns(connection, "web_results"):
            games = connection.execute("SELECT id, seats, player FROM web_games").fetchall()
            invited: dict[str, set[int]] = {}
            for game_id, seat in connection.execute("SELECT game_id, seat FROM web_invites"):
                invited.setdefault(game_id, set()).add(seat)
            first: dict[str, int] = {}
            creators: list[tuple[str, int, str]] = []
            for game_id, seats_text, player in games:
                seats = json.loads(seats_text)
                if HUMAN in seats:
                    first[game_id] = seats.index(HUMAN)
                    creators.append((game_id, creator_seat(seats, invited.get(game_id)), player))
            connection.executemany(
                "INSERT OR IGNORE INTO web_players (game_id, seat, player) VALUES (?, ?, ?)",
                creators,
            )
            columns = "id, game_id, player, game, variant, won, score, finished, details"
            rows = connection.execute(f"SELECT {columns} FROM web_results").fetchall()
            connection.execute(f"CREATE TABLE web_results_per_seat ({RESULTS})")
            connection.executemany(
                f"INSERT INTO web_results_per_seat ({columns}, seat)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(*row, first.get(row[1], 0)) for row in rows],
            )
            connection.execute("DROP TABLE web_results")
            connection.execute("ALTER TABLE web_results_per_seat RENAME TO web_results")
            connection.execute(
                "CREATE INDEX web_results_by_player ON web_results (player, game, variant, id)"
            )
        connection.commit()
    except BaseException:
        connection.rollback()
        raise


def _games_may_be_practice(connection: sqlite3.Connection) -> None:
    """Bring a database from before practice games up to date, in one transaction: its
    games get ``practice`` 0 (none was taken back knowing a hidden tile, as far as anyone
    can tell now). Immediate, and checked again inside, as :func:`_results_per_seat`."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        if "practice" not in _columns(connection, "web_games"):
            connection.execute(
                "ALTER TABLE web_games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0"
            )
        connection.commit()
    except BaseException:
        connection.rollback()
        raise


@dataclass(frozen=True)
class SavedGame:
    id: str
    game: str
    variant: str
    params: dict[str, str]
    seed: int
    seats: list[str]
    tokens: list[str | None]
    """Each person's seat's token; None for a bot, or a seat whose invitation is unclaimed."""
    player: str
    status: str
    moves: list[tuple[int, str]]
    """(seat, move) in the order played."""
    invites: dict[int, str] = field(default_factory=dict)
    """seat → the code of its invitation, claimed or not (the other people's seats)."""
    players: dict[int, str] = field(default_factory=dict)
    """seat → the name its person plays under (the creator's; each claimer's, once given):
    its results count for that name. Not a secret. Stored empty, the creator's seat
    (:func:`creator_seat`) is ``player``'s."""
    practice: bool = False
    """Taken back past a move that showed its person hidden tiles: its end records no
    result (``ludoteca.core.practice``)."""


@dataclass(frozen=True)
class Result:
    """A finished game's result for one person's seat: what ``web_results`` keeps, under the
    name of whoever plays that seat."""

    variant_key: str
    won: bool
    score: float
    details: dict[str, Any]
    seat: int = 0


class WebStore:
    """The web tables; each thread gets its own connection, every write its own transaction."""

    def __init__(self, path: str | Path) -> None:
        self.path = path
        self._local = threading.local()

    @property
    def conn(self) -> sqlite3.Connection:
        # sqlite3 connections belong to the thread that opened them, and the server may
        # answer from more than one thread (uvicorn's loop, a test client's portal).
        found: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if found is None:
            found = connect(self.path)
            self._local.conn = found
        return found

    def open(self) -> None:
        """Open (creating it and its tables if needed) the database from this thread now, and
        check the web's tables: a damaged one, or a database that takes no writes, fails
        here (:class:`sqlite3.Error`), at start. A damaged one started, and each page then
        answered 'Internal Server Error' with a traceback on the server's terminal."""
        for table in TABLES:
            # (only these tables and their indexes: a damaged study elsewhere is no matter)
            found = self.conn.execute(f"PRAGMA quick_check({table})").fetchone()[0]
            if found != "ok":
                # Its first problem, on one line: SQLite's report is several ("*** in
                # database main ***", then one a page and cell).
                lines = [line for line in found.splitlines() if not line.startswith("***")]
                first = lines[0] if lines else "no detail"
                raise sqlite3.DatabaseError(f"the table {table} is damaged: {first}")
        # A read-only file reads as ever: the server started, and every new game and move
        # failed, the new games as 'the server failed' with a traceback on its terminal.
        check_writable(self.conn, "web_games")

    def create_game(self, game: SavedGame, results: Sequence[Result] = ()) -> None:
        """Store a new game, and with it its ``results`` where it is over at the deal (no
        move to store them with), in one transaction."""
        now = time.time()
        with self.conn as db:
            db.execute(
                "INSERT INTO web_games (id, game, variant, params, seed, seats, tokens, player,"
                " created, updated, status, practice) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.game,
                    game.variant,
                    json.dumps(game.params),
                    game.seed,
                    json.dumps(game.seats),
                    json.dumps(game.tokens),
                    game.player,
                    now,
                    now,
                    game.status,
                    int(game.practice),
                ),
            )
            db.executemany(
                "INSERT INTO web_invites (game_id, seat, code) VALUES (?, ?, ?)",
                [(game.id, seat, code) for seat, code in game.invites.items()],
            )
            players = game.players or {creator_seat(game.seats, game.invites): game.player}
            db.executemany(
                "INSERT INTO web_players (game_id, seat, player) VALUES (?, ?, ?)",
                [(game.id, seat, name) for seat, name in players.items()],
            )
            for result in results:
                self._insert_result(db, game.id, result)

    def claim_invite(
        self, game_id: str, seat: int, code: str, token: str, player: str | None = None
    ) -> Claim:
        """Claim the invitation to ``seat`` with ``code``: once claimed, the seat's token is
        ``token`` (the claimer's choice), and its player ``player`` (the claimer's name, where
        given: the seat's results count for it). Marking it used and storing the token and
        the name are one transaction, and the mark is conditional, so that of two claims at
        once only one gets the seat. A claim repeated with the token stored is the same
        claimer's (it names the seat if the first did not)."""
        with self.conn as db:
            row = db.execute(
                "SELECT code FROM web_invites WHERE game_id = ? AND seat = ?", (game_id, seat)
            ).fetchone()
            if row is None:
                return "none"
            if not same_secret(row["code"], code):
                return "wrong"
            marked = db.execute(
                "UPDATE web_invites SET claimed = ? WHERE game_id = ? AND seat = ?"
                " AND claimed IS NULL",
                (time.time(), game_id, seat),
            )
            # (The update began the transaction: no other writer comes in between.)
            found = db.execute("SELECT tokens FROM web_games WHERE id = ?", (game_id,))
            tokens = json.loads(found.fetchone()["tokens"])
            if marked.rowcount != 1:
                held = tokens[seat]
                same = isinstance(held, str) and same_secret(held, token)
                if same and player:
                    self._name_seat(db, game_id, seat, player)
                return "repeated" if same else "used"
            tokens[seat] = token
            db.execute(
                "UPDATE web_games SET tokens = ? WHERE id = ?", (json.dumps(tokens), game_id)
            )
            if player:
                self._name_seat(db, game_id, seat, player)
            return "claimed"

    def name_seat(self, game_id: str, seat: int, player: str) -> str:
        """Give ``seat`` its player's name, unless it has one already (a seat's results
        count for the name it was taken under); the seat's name, as stored."""
        with self.conn as db:
            self._name_seat(db, game_id, seat, player)
            row = db.execute(
                "SELECT player FROM web_players WHERE game_id = ? AND seat = ?", (game_id, seat)
            ).fetchone()
            return str(row["player"])

    @staticmethod
    def _name_seat(db: sqlite3.Connection, game_id: str, seat: int, player: str) -> None:
        db.execute(
            "INSERT OR IGNORE INTO web_players (game_id, seat, player) VALUES (?, ?, ?)",
            (game_id, seat, player),
        )

    def push_moves(
        self,
        game_id: str,
        first_ply: int,
        moves: Sequence[tuple[int, str]],
        results: Sequence[Result] = (),
    ) -> None:
        """Record moves played from ``first_ply`` on, and with the last move of a game its
        results, in one transaction: a game is never stored finished without them."""
        with self.conn as db:
            db.executemany(
                "INSERT INTO web_moves (game_id, ply, seat, move) VALUES (?, ?, ?, ?)",
                [(game_id, first_ply + i, seat, move) for i, (seat, move) in enumerate(moves)],
            )
            self._touch(db, game_id, "playing")
            for result in results:
                self._insert_result(db, game_id, result)

    def truncate_moves(
        self, game_id: str, plies: int, over: bool = False, practice: bool = False
    ) -> None:
        """Keep only the first ``plies`` moves (undo, restart); the game is in progress
        again, unless it is ``over`` there (a deal with no move, restarted). ``practice``:
        a move taken back showed its person hidden tiles, and the game is practice from now
        on (never again counted), in the same transaction."""
        with self.conn as db:
            db.execute("DELETE FROM web_moves WHERE game_id = ? AND ply >= ?", (game_id, plies))
            if practice:
                db.execute("UPDATE web_games SET practice = 1 WHERE id = ?", (game_id,))
            self._touch(db, game_id, "finished" if over else "playing")

    def set_status(self, game_id: str, status: str) -> None:
        with self.conn as db:
            self._touch(db, game_id, status)

    def record_result(
        self,
        game_id: str,
        variant_key: str,
        won: bool,
        score: float,
        details: Mapping[str, Any] | None = None,
        seat: int = 0,
    ) -> bool:
        """Record a finished game's result for ``seat`` once (the first ending counts);
        False if already recorded, or if no one's name is on the seat. ``details``: the
        outcome's game-specific figures (``redeals_used`` in Gaps)."""
        result = Result(variant_key, won, score, dict(details or {}), seat)
        return self.record(game_id, [result]) == 1

    def record(self, game_id: str, results: Sequence[Result]) -> int:
        """Record a finished game's ``results`` (one a person's seat) in one transaction,
        each once; how many were new."""
        with self.conn as db:
            return sum(self._insert_result(db, game_id, result) for result in results)

    def _insert_result(self, db: sqlite3.Connection, game_id: str, result: Result) -> bool:
        """Record ``result`` under the name of its seat's player, unless that seat has a
        result already (UNIQUE (game_id, seat): a game ended again, reloaded, counts once),
        or the game is practice (it is finished all the same)."""
        row = db.execute(
            "SELECT g.game, g.practice, p.player FROM web_games g LEFT JOIN web_players p"
            " ON p.game_id = g.id AND p.seat = ? WHERE g.id = ?",
            (result.seat, game_id),
        )
        found = row.fetchone()
        if found is None:
            return False
        self._touch(db, game_id, "finished")
        if found["player"] is None:  # (a seat whose person gave no name: nobody to count)
            return False
        if found["practice"]:  # (played on knowing what a move taken back showed)
            return False
        cursor = db.execute(
            "INSERT OR IGNORE INTO web_results (game_id, seat, player, game, variant, won,"
            " score, finished, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                result.seat,
                found["player"],
                found["game"],
                result.variant_key,
                int(result.won),
                result.score,
                time.time(),
                json.dumps(result.details),
            ),
        )
        return cursor.rowcount == 1

    def counted(self, game_id: str, seat: int) -> bool:
        """Whether ``seat``'s result at this game is recorded (it ended once, and counts)."""
        row = self.conn.execute(
            "SELECT 1 FROM web_results WHERE game_id = ? AND seat = ?", (game_id, seat)
        ).fetchone()
        return row is not None

    @staticmethod
    def _touch(db: sqlite3.Connection, game_id: str, status: str) -> None:
        db.execute(
            "UPDATE web_games SET updated = ?, status = ? WHERE id = ?",
            (time.time(), status, game_id),
        )

    def has_game(self, game_id: str) -> bool:
        row = self.conn.execute("SELECT 1 FROM web_games WHERE id = ?", (game_id,)).fetchone()
        return row is not None

    def load_game(self, game_id: str) -> SavedGame | None:
        row = self.conn.execute("SELECT * FROM web_games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        moves = self.conn.execute(
            "SELECT seat, move FROM web_moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ).fetchall()
        invites = self.conn.execute(
            "SELECT seat, code FROM web_invites WHERE game_id = ?", (game_id,)
        ).fetchall()
        players = self.conn.execute(
            "SELECT seat, player FROM web_players WHERE game_id = ?", (game_id,)
        ).fetchall()
        return SavedGame(
            id=row["id"],
            game=row["game"],
            variant=row["variant"],
            params=json.loads(row["params"]),
            seed=row["seed"],
            seats=json.loads(row["seats"]),
            tokens=json.loads(row["tokens"]),
            player=row["player"],
            status=row["status"],
            moves=[(m["seat"], m["move"]) for m in moves],
            invites={i["seat"]: i["code"] for i in invites},
            players={p["seat"]: p["player"] for p in players},
            practice=bool(row["practice"]),
        )

    def games_in_progress(
        self, player: str | None = None, rooms: Sequence[str] = ()
    ) -> list[dict[str, Any]]:
        """Unfinished games, latest first, without their seat tokens: ``player``'s (a seat of
        theirs: started or joined under that name) and those of ``rooms`` (a browser's own,
        whatever name they were taken under); every one when neither is given. Each says
        its creator's name (``player``) and each seat's (``players``: null for a bot, or a
        seat no name is given for)."""
        query = (
            "SELECT g.id, g.game, g.variant, g.params, g.seed, g.seats, g.player, g.updated,"
            " (SELECT COUNT(*) FROM web_moves m WHERE m.game_id = g.id) AS plies"
            " FROM web_games g WHERE g.status = 'playing'"
        )
        wanted: list[str] = []
        args: list[str] = []
        if player is not None:
            wanted.append(
                "EXISTS (SELECT 1 FROM web_players p WHERE p.game_id = g.id AND p.player = ?)"
            )
            args.append(player)
        if rooms:
            wanted.append(f"g.id IN ({', '.join('?' * len(rooms))})")
            args.extend(rooms)
        if wanted:
            query += f" AND ({' OR '.join(wanted)})"
        rows = self.conn.execute(query + " ORDER BY g.updated DESC LIMIT 50", args).fetchall()
        names: dict[str, dict[int, str]] = {}
        if rows:
            ids = [r["id"] for r in rows]
            found = self.conn.execute(
                "SELECT game_id, seat, player FROM web_players"
                f" WHERE game_id IN ({', '.join('?' * len(ids))})",
                ids,
            )
            for name in found:
                names.setdefault(name["game_id"], {})[name["seat"]] = name["player"]
        listed = []
        for r in rows:
            seats = json.loads(r["seats"])
            named = names.get(r["id"], {})
            listed.append(
                {
                    "room": r["id"],
                    "game": r["game"],
                    "variant": r["variant"],
                    "params": json.loads(r["params"]),
                    "seed": r["seed"],
                    "seats": seats,
                    "player": r["player"],
                    "players": [named.get(s) for s in range(len(seats))],
                    "updated": r["updated"],
                    "plies": r["plies"],
                }
            )
        return listed

    def stats(self, player: str) -> list[Stats]:
        rows = self.conn.execute(
            "SELECT game, variant, won, score, details FROM web_results WHERE player = ?"
            " ORDER BY id",
            (player,),
        ).fetchall()
        return statistics(rows)
