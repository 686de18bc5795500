"""The Typer application that every ``ludoteca`` subcommand module adds itself to."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import Progress, ProgressColumn

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


def progress_bar(*columns: str | ProgressColumn) -> Progress:
    """A progress bar on stderr that leaves nothing behind, and none at all when stderr is no
    terminal: a log or a pipe got an empty line from it, before any error line too."""
    return Progress(
        *columns, console=err_console, transient=True, disable=not err_console.is_terminal
    )
