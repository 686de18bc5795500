"""The Typer application that every ``ludoteca`` subcommand module adds itself to."""

from __future__ import annotations

import codecs
import io
import json
import sys
import threading

import typer
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markup import escape
from rich.progress import Progress, ProgressColumn

from ludoteca.tui.base import unicode_output

ASCII_FOR = {
    "\u2663": "C",  # the suits, as in the notation: 10♣ is 10C
    "\u2666": "D",
    "\u2665": "H",
    "\u2660": "S",
    "\u00b7": ".",  # the dim dot of an empty place, and the " · " between moves
    "\u25b6": ">",  # the player to move
    "\u203a": ">",  # the prompt
    "\u2715": "x",  # a dead gap
    "\u2191": "^",  # a foundation building up,
    "\u2193": "v",  # or down
    "\u2592": "#",  # a tile face down
    "\u2013": "-",
    "\u2014": "-",
    "\u2026": "...",
    "\u00d7": "x",
    "\u2190": "<-",
    "\u2192": "->",
}
"""ASCII stand-ins for the characters the commands write, where the terminal's encoding has
none of them; a character of the same width, but for the ellipsis and the arrows."""


def _ascii_stand_in(err: UnicodeError) -> tuple[str, int]:
    if not isinstance(err, UnicodeEncodeError):
        raise err
    return "".join(ASCII_FOR.get(c, "?") for c in err.object[err.start : err.end]), err.end


codecs.register_error("ludoteca-ascii", _ascii_stand_in)


def readable_output() -> None:
    """Where the terminal's encoding lacks a character written (``PYTHONIOENCODING=ascii``,
    a Latin-1 locale), an ASCII stand-in is written: every command that wrote one (``games``'
    dash, any board's dots, suits and fruits) ended in a UnicodeEncodeError traceback. A
    stream given an error handler of its own (``PYTHONIOENCODING=ascii:replace``) keeps it."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="ludoteca-ascii")


def readable_input() -> None:
    """A line typed or piped in bytes that standard input cannot decode (a Latin-1 terminal
    sending è to UTF-8, a suit pasted from the board where the encoding is ASCII) is read
    with a stand-in (U+FFFD) and refused as any unknown move: it ended the game in a
    UnicodeDecodeError traceback. Where Python already makes do (its C locale) it goes on."""
    if isinstance(sys.stdin, io.TextIOWrapper) and sys.stdin.errors == "strict":
        sys.stdin.reconfigure(errors="replace")


def json_line(value: object) -> str:
    """``value`` as one line of JSON, its text as written (a game's description) where the
    output takes it, else escaped: the stand-ins of :func:`readable_output` would change it."""
    return json.dumps(value, ensure_ascii=not unicode_output())


app = typer.Typer(
    name="ludoteca",
    help="Seven games: play and replay them, solve them, study win rates, run bot "
    "tournaments, keep statistics, and serve them in the browser.",
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
