"""``ludoteca serve``: the web app on uvicorn."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from ludoteca.cli.app import app, console


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
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
    import uvicorn

    from ludoteca.server import create_app
    from ludoteca.server.rooms import RoomConfig
    from ludoteca.store.db import default_path

    where = db or default_path()
    web = create_app(where, RoomConfig(bot_delay=bot_delay, hint_seconds=hint_seconds))
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    console.print(f"ludoteca on [bold]{url}[/] (database {where})")
    if open_page:
        # The browser asks once uvicorn listens; a second is plenty on a local machine.
        threading.Timer(1.0, webbrowser.open, [url]).start()
    uvicorn.run(web, host=host, port=port, log_level="warning")
