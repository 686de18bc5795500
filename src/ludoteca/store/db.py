"""The SQLite database: where it lives, how to open it, and its schema.

The path is ``--db`` where a command offers it, else ``$LUDOTECA_DB``, else ``ludoteca.sqlite3``
in the user's data directory. Every write happens in a transaction (``with connection:``), and
the journal is WAL so readers never block the writer.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from platformdirs import user_data_dir

ENV_VAR = "LUDOTECA_DB"

Migration = Callable[[sqlite3.Connection], None]
_SCHEMAS: list[Migration] = []


def default_path() -> Path:
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return Path(user_data_dir("ludoteca", appauthor=False)) / "ludoteca.sqlite3"


def add_schema(migration: Migration) -> Migration:
    """Register a function that creates its tables (``CREATE TABLE IF NOT EXISTS``)."""
    _SCHEMAS.append(migration)
    return migration


def connect(path: Path | str | None = None) -> sqlite3.Connection:
    target = Path(path).expanduser() if path is not None else default_path()
    if str(target) != ":memory:":
        target.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(target, timeout=30.0)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA foreign_keys = ON")
    if str(target) != ":memory:":
        connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    with connection:
        for migration in _SCHEMAS:
            migration(connection)
    return connection


def check_writable(connection: sqlite3.Connection, table: str) -> None:
    """Raise :class:`sqlite3.OperationalError` ("attempt to write a readonly database") if
    the database takes no writes: a read-only file opens, and reads, as ever. The probe is
    a write that changes nothing (a delete of no row of ``table``), rolled back."""
    try:
        connection.execute(f"DELETE FROM {table} WHERE 0")
    finally:
        connection.rollback()
