"""The ``ludoteca`` command. Each module of this package adds its subcommands to ``app``."""

from __future__ import annotations

import sys

from rich.markup import escape

from ludoteca.cli.app import app, err_console
from ludoteca.cli.interrupt import Interrupted
from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import discover


def main() -> None:
    discover("ludoteca.cli")
    try:
        app()
    except LudotecaError as err:
        err_console.print(f"[bold red]error:[/] {escape(str(err))}", soft_wrap=True)
        sys.exit(130 if isinstance(err, Interrupted) else 2)
