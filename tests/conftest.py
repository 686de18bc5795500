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


@pytest.fixture(autouse=True)
def no_remembered_hints() -> Iterator[None]:
    """The Gaps hint remembers its lines (``solvers.gaps.plans``, process-wide): a test
    starts with none, so that no hint is answered from another test's line."""
    from ludoteca.solvers.gaps import plans

    plans.forget()
    yield
    plans.forget()
