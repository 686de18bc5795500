"""``ludoteca serve``: the web app on uvicorn."""

from __future__ import annotations

import errno
import math
import socket
import sqlite3
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from ludoteca.cli.app import app, console, fail
from ludoteca.cli.common import check_db_folder

PORTS = range(0, 65536)
MAX_SECONDS = 600.0
"""The longest a bot's pause or a hint's search may be set to (ten minutes)."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening, or a one-line error (status 2).

    Bound here rather than by uvicorn, so that the URL is printed only once it answers
    (connections wait in the backlog until uvicorn accepts them) and so that a port in use
    is one clear line, not uvicorn's log record after the URL was already printed.
    """
    if port not in PORTS:
        raise fail(f"--port must be between 1 and 65535 (0: any free port), not {port}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        # As uvicorn binds: a port left in TIME_WAIT by a server just stopped is taken again.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise fail(f"port {port} is in use: choose another with --port") from None
        raise fail(f"cannot listen on {host} port {port}: {err.strerror or err}") from None
    return sock


def page_url(host: str, port: int) -> str:
    """The address a browser on this machine opens (an address for every interface is not one)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8000,
    open_page: Annotated[
        bool, typer.Option("--open", help="Open the page in the default browser.")
    ] = False,
    db: Annotated[
        Path | None,
        typer.Option(envvar="LUDOTECA_DB", help="SQLite file (default: user data folder)."),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds before each bot move.")] = 0.8,
    hint_seconds: Annotated[float, typer.Option(help="Time budget of a hint.")] = 2.0,
) -> None:
    """Serve the seven games in the browser (games in progress survive a restart)."""
    # (nan passed, and every Il Muro hint then failed as 'the server failed')
    if not (math.isfinite(bot_delay) and 0 <= bot_delay <= MAX_SECONDS):
        raise fail(f"--bot-delay must be 0..{MAX_SECONDS:g} seconds, not {bot_delay:g}")
    if not (math.isfinite(hint_seconds) and 0 < hint_seconds <= MAX_SECONDS):
        raise fail(
            f"--hint-seconds must be more than 0, at most {MAX_SECONDS:g}, not {hint_seconds:g}"
        )
    check_db_folder(db)  # (a typo made a new database, folders and all)
    sock = listen(host, port)
    import uvicorn

    from ludoteca.core.registry import all_games
    from ludoteca.hints import has_hint, load_in_background
    from ludoteca.server import create_app
    from ludoteca.server.rooms import RoomConfig
    from ludoteca.store.db import default_path

    where = db or default_path()
    try:
        web = create_app(where, RoomConfig(bot_delay=bot_delay, hint_seconds=hint_seconds))
    except (sqlite3.Error, OSError) as err:  # (a file that is no database: a traceback)
        sock.close()
        raise fail(f"{where}: cannot use it as the results database ({err})") from None
    url = page_url(host, sock.getsockname()[1])
    # One line, never wrapped: scripts (and the tests) read the URL from it.
    console.print(f"ludoteca on [bold]{url}[/] (database {where})", soft_wrap=True)
    if open_page:
        # The socket listens already: the browser's request waits until uvicorn accepts it.
        threading.Thread(target=webbrowser.open, args=[url], daemon=True).start()
    # Every game's hint and bots load their compiled code now, beside the first requests,
    # not in the first hint of each game (0.3-1.8 s on top of its 2 s).
    load_in_background([spec for spec in all_games() if has_hint(spec)])
    server = uvicorn.Server(uvicorn.Config(web, log_level="warning"))
    server.run(sockets=[sock])
