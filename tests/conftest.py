"""Shared fixtures: every test gets its own SQLite database, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "ludoteca.sqlite3"
    monkeypatch.setenv("LUDOTECA_DB", str(path))
    yield path
