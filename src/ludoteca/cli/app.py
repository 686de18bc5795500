"""The Typer application that every ``ludoteca`` subcommand module adds itself to."""

from __future__ import annotations

import threading

import typer
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
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


class _Bar(Progress):
    """A progress bar that draws nothing once :func:`freeze_bars` is called."""

    def get_renderable(self) -> RenderableType:
        return _UnlessFrozen(super().get_renderable())


class _UnlessFrozen:
    """A bar's drawing, asked at each draw whether bars are frozen: the live display keeps
    the last one it was given and draws it again below any line printed meanwhile."""

    def __init__(self, drawing: RenderableType) -> None:
        self.drawing = drawing

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not _frozen.is_set():
            yield self.drawing


_frozen = threading.Event()


def freeze_bars() -> None:
    """From now on every progress bar draws nothing (Ctrl-C, on the way to ending the process
    at once): the one line of error is then the last thing on the terminal. Before, a bar
    in use was drawn again below that line, since a line printed while a bar shows is put
    above it."""
    _frozen.set()


def progress_bar(*columns: str | ProgressColumn) -> Progress:
    """A progress bar on stderr that leaves nothing behind, and none at all when stderr is no
    terminal: a log or a pipe got an empty line from it, before any error line too."""
    return _Bar(*columns, console=err_console, transient=True, disable=not err_console.is_terminal)
