"""The Typer application that every ``ludoteca`` subcommand module adds itself to."""

from __future__ import annotations

import typer
from rich.console import Console

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
    """Print a one-line error to stderr and return the Exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}", soft_wrap=True)
    return typer.Exit(code)
