"""The Typer application that every ``ludoteca`` subcommand module adds itself to."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

app = typer.Typer(
    name="ludoteca",
    help="Seven games: play, replay, solve, study and serve them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a one-line error to stderr and return the Exit to raise (``message`` is plain
    text: a file name or a move typed in brackets is shown as typed, never read as markup)."""
    err_console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)
