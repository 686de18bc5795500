"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated

import typer

from ludoteca.core.errors import LudotecaError, UnknownGameError, shown
from ludoteca.core.game import GameSpec, Variant
from ludoteca.core.registry import find_game, variant_for
from ludoteca.core.rng import MAX_DEAL
from ludoteca.store import db

VariantOpt = Annotated[
    str | None, typer.Option("--variant", "-v", help="Variant name (see 'ludoteca games').")
]
ParamOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        "-p",
        help="Set a variant parameter, e.g. -p redeals=1 in gaps (repeatable; each game's "
        "parameters: 'ludoteca games GAME').",
    ),
]
DbOpt = Annotated[
    Path | None,
    typer.Option("--db", envvar=db.ENV_VAR, help="SQLite database (default: user data dir)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def parse_params(items: list[str] | None) -> dict[str, str]:
    params: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UnknownGameError(f"--param needs key=value, not '{shown(item)}'")
        params[key.strip()] = value.strip()
    return params


def resolve(game: str, variant: str | None, params: list[str] | None) -> tuple[GameSpec, Variant]:
    spec = find_game(game)
    return spec, spec.variant(variant_for(spec, game, variant), parse_params(params))


def open_db(path: Path | None, writes: str | None = None) -> sqlite3.Connection:
    """The results database, or one line saying which file could not be used and why (a
    folder, a file that is no database: it was a traceback from SQLite). A file named by
    ``--db`` (or ``$LUDOTECA_DB``) must be in a folder that exists, as for ``save``: the
    folders were made without a word, so a typo made a new database elsewhere. The default
    database's folder is made when needed. ``writes``: a table the command will write to,
    checked now (a read-only file opens and reads as ever)."""
    check_db_folder(path)
    try:
        connection = db.connect(path)
        if writes is not None:
            try:
                db.check_writable(connection, writes)
            except sqlite3.Error:
                connection.close()
                raise
        return connection
    except (sqlite3.Error, OSError) as err:
        raise LudotecaError(
            f"{db_path(path)}: cannot use it as the results database ({err})"
        ) from None


@contextlib.contextmanager
def results_db(
    path: Path | None, kept: Callable[[], str | None] | None = None
) -> Iterator[sqlite3.Connection]:
    """:func:`open_db` for the span of a command, closed at its end; SQLite failing once
    the database is open is one line naming the file too. A database that opens but cannot
    be read or written (a damaged page, a disk full, a read-only file) ended ``stats`` and
    ``study`` in a traceback. ``kept``: what the line adds (what was stored before), if anything."""
    connection = open_db(path)
    try:
        with connection:
            yield connection
    except sqlite3.Error as err:
        said = kept() if kept is not None else None
        after = f"; {said}" if said else ""
        raise LudotecaError(
            f"{db_path(path)}: the results database failed ({err}){after}"
        ) from None
    finally:
        connection.close()


def db_exists(path: Path | None) -> bool:
    """Whether the results database is there to read. A command that only reads it (``stats``,
    ``study --list``) makes none: ``stats --db typo.sqlite3`` left a new, empty database behind.
    A database named in a folder that does not exist is still refused as :func:`open_db` does."""
    check_db_folder(path)
    return db_path(path).expanduser().exists()


def db_path(path: Path | None) -> Path:
    """The results database's file, as named in messages: ``path``, else the default one."""
    return db.default_path() if path is None else path


def asks_no_limit(max_states: int | None) -> bool:
    """Whether ``--max-states`` asks for no limit (0, where a limit applies by default); a
    negative one is refused."""
    if max_states is not None and max_states < 0:
        raise LudotecaError(f"--max-states must be positive, or 0 for no limit, not {max_states}")
    return max_states == 0


def check_db_folder(path: Path | None) -> None:
    """A database named by ``--db`` (or ``$LUDOTECA_DB``) must be in a folder that exists."""
    if path is not None and not (folder := path.expanduser().parent).is_dir():
        raise LudotecaError(
            f"{path}: cannot use it as the results database (the folder {folder} does not exist)"
        )


def random_seed(spec: GameSpec) -> int:
    """A fresh deal number for people who do not ask for one (printed so it can be replayed).
    With hidden tiles, any of the 2**63: from a billion, the deal could be found from one's
    own hand by dealing each number again, and every hand with it (it is shown only once
    the game is over)."""
    if spec.deal_is_secret:
        return secrets.randbelow(MAX_DEAL + 1)
    return secrets.randbelow(1_000_000_000)


def players_list(text: str | None, spec: GameSpec) -> list[str]:
    """Seats from ``you,strong,greedy``; a solitaire is one seat for the person."""
    if text is None:
        return ["you"] + ["greedy"] * (spec.min_players - 1)
    seats = seat_names(text)
    if spec.is_solitaire and len(seats) != 1:
        raise UnknownGameError(
            f"{spec.name} is a solitaire: --players can name only one player, not {len(seats)}"
        )
    if not spec.min_players <= len(seats) <= spec.max_players:
        raise UnknownGameError(
            f"{spec.name} is for {spec.players_text}: --players names {len(seats)}"
        )
    return seats


def seat_names(text: str) -> list[str]:
    """The seats named by ``--players``, one per comma. An empty entry is refused: it was
    dropped, and ``you,,strong`` sat two players where three were meant."""
    seats = [name.strip().lower() for name in text.split(",")]
    if "" in seats:
        raise UnknownGameError(
            f"--players has an empty entry (seat {seats.index('') + 1}) in '{shown(text)}': "
            "name every seat, one per comma"
        )
    return seats
