"""``ludoteca serve``: the command starts the web app on the port and database it is given."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from typer.testing import CliRunner

from ludoteca.cli.app import app
from ludoteca.core.registry import all_games, discover


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
