"""``ludoteca serve``: the command starts the web app on the port and database it is given."""

from __future__ import annotations

import contextlib
import re
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from ludoteca.cli.app import app
from ludoteca.core.registry import all_games, discover
from ludoteca.server import create_app
from ludoteca.store.web import SavedGame, WebStore


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_serve_is_a_subcommand_with_its_options() -> None:
    discover("ludoteca.cli")
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--open", "--db", "--bot-delay", "--hint-seconds"):
        assert option in result.output


def test_serve_answers_on_its_port_with_its_database(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "served.sqlite3"
    command = [sys.executable, "-c", "from ludoteca.cli import main; main()"]
    server = subprocess.Popen(
        [*command, "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        names = [g["name"] for g in answer.json()["games"]]
        assert names == [g.name for g in all_games()]
        assert db.exists()
    finally:
        server.terminate()
        server.wait(10)


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "from ludoteca.cli import main; main()", "serve", *args]


def refused(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``serve`` with options it must refuse at once (a server that starts instead times out)."""
    db = tmp_path / "refused.sqlite3"
    return subprocess.run(
        serve_command(*args, "--db", str(db)), capture_output=True, text=True, timeout=30
    )


def test_a_port_outside_1_to_65535_is_one_line_of_error(tmp_path: Path) -> None:
    """--port 99999 printed 'ludoteca on http://127.0.0.1:99999/' and listened on another
    port; --port -1 printed a URL, then uvicorn's 'Servname not supported'. A port outside
    1..65535 (0 is any free port) is one line of error, status 2, before anything starts."""
    for port in ("99999", "65536", "-1"):
        result = refused(tmp_path, "--port", port)
        assert result.returncode == 2, (port, result.stdout, result.stderr)
        assert result.stdout == ""
        assert result.stderr.strip() == (
            f"error: --port must be between 1 and 65535 (0: any free port), not {port}"
        )
    assert not (tmp_path / "refused.sqlite3").exists()


def test_a_port_in_use_is_one_line_of_error(tmp_path: Path) -> None:
    """A port in use printed the URL, then uvicorn's '[Errno 98] ... address already in use'
    (status 3). Now it is one line that says what to do, status 2, and no URL."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = refused(tmp_path, "--port", str(port))
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.strip() == f"error: port {port} is in use: choose another with --port"


def test_the_url_is_printed_once_it_answers_and_port_0_is_any_free_port(tmp_path: Path) -> None:
    """The URL was printed before uvicorn bound its port, so a page opened on it could find
    nothing there. Now the socket listens first: the URL printed answers at once, and with
    --port 0 it names the port the system chose."""
    db = tmp_path / "served.sqlite3"
    server = subprocess.Popen(
        serve_command("--port", "0", "--db", str(db)), stdout=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.match(r"ludoteca on (http://127\.0\.0\.1:(\d+)/) ", line)
        assert found is not None and found[2] != "0", line
        answer = httpx.get(f"{found[1]}api/games", timeout=20)
        assert answer.status_code == 200
    finally:
        server.terminate()
        server.wait(10)


def refused_db(db: Path) -> str:
    """What ``serve --db db`` says as it refuses to start (status 2, nothing on stdout)."""
    result = subprocess.run(
        serve_command("--port", "0", "--db", str(db)), capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2 and result.stdout == "", (result.stdout, result.stderr)
    return result.stderr.strip()


def test_a_database_that_is_no_database_is_one_line_of_error(tmp_path: Path) -> None:
    """A --db file that is not SQLite ended in sqlite3.DatabaseError's traceback (stats
    said it in one line)."""
    db = tmp_path / "notes.sqlite3"
    db.write_text("shopping list\n" * 100)
    errors = refused_db(db)
    assert errors == f"error: {db}: cannot use it as the results database (file is not a database)"


def test_a_damaged_database_is_one_line_of_error(tmp_path: Path) -> None:
    """A database whose schema reads but whose web tables do not (a damaged page) started
    the server, which then answered every page 'Internal Server Error' with a traceback on
    its terminal. It is checked at start: one line, status 2."""
    db = tmp_path / "damaged.sqlite3"
    store = WebStore(db)
    store.create_game(
        SavedGame("r1", "tappeto", "tappeto", {}, 1, ["human"], ["t"], "p", "playing", [])
    )
    store.push_moves("r1", 0, [(0, "2H")])
    store.conn.close()
    with contextlib.closing(sqlite3.connect(db)) as connection:
        size = connection.execute("PRAGMA page_size").fetchone()[0]
        query = "SELECT rootpage FROM sqlite_master WHERE name = 'web_moves'"
        (root,) = connection.execute(query).fetchone()
    with db.open("r+b") as file:
        file.seek(size * (root - 1))
        file.write(b"\xff" * size)
    errors = refused_db(db)
    assert errors == (
        f"error: {db}: cannot use it as the results database (database disk image is malformed)"
    )


def test_a_database_damaged_within_a_page_is_one_line_of_error(tmp_path: Path) -> None:
    """Damage inside a page of moves (not its table's root) reads until that page is read;
    the check at start says so in one line, though SQLite's report is one line a cell."""
    db = tmp_path / "damaged.sqlite3"
    store = WebStore(db)
    store.create_game(
        SavedGame("r1", "tappeto", "tappeto", {}, 1, ["human"], ["t"], "p", "playing", [])
    )
    store.push_moves("r1", 0, [(0, f"move {i}") for i in range(3000)])
    store.conn.close()
    with contextlib.closing(sqlite3.connect(db)) as connection:
        size = connection.execute("PRAGMA page_size").fetchone()[0]
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
    with db.open("r+b") as file:
        file.seek(size * (pages - 2) + 100)  # (a page of the last moves)
        file.write(bytes(range(7, 247, 3)))
    errors = refused_db(db)
    assert len(errors.splitlines()) == 1, errors
    assert errors.startswith(f"error: {db}: cannot use it as the results database (")


def test_a_read_only_database_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only database opens and reads as ever: the server started, and then every new
    game failed as 'the server failed', with a traceback on its terminal."""
    db = tmp_path / "read-only.sqlite3"
    WebStore(db).open()
    opened = sqlite3.connect

    def read_only(target: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        # As a file without write permission opens (chmod takes nothing from root).
        return opened(f"file:{target}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(sqlite3.OperationalError, match="attempt to write a readonly database"):
        create_app(db)


def test_the_seconds_options_are_checked(tmp_path: Path) -> None:
    """--hint-seconds nan was taken, and every Il Muro hint then failed as 'the server
    failed' (no whole number of nodes in nan seconds)."""
    for option, value, message in [
        ("--hint-seconds", "nan", "--hint-seconds must be more than 0, at most 600, not nan"),
        ("--hint-seconds", "0", "--hint-seconds must be more than 0, at most 600, not 0"),
        ("--bot-delay", "-1", "--bot-delay must be 0..600 seconds, not -1"),
        ("--bot-delay", "inf", "--bot-delay must be 0..600 seconds, not inf"),
    ]:
        result = refused(tmp_path, option, value)
        assert result.returncode == 2, (option, value, result.stdout, result.stderr)
        assert result.stderr.strip() == f"error: {message}"
