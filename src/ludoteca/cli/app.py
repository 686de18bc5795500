"""The Typer application that every ``ludoteca`` subcommand module adds itself to."""

from __future__ import annotations

import codecs
import io
import json
import re
import sys
import threading
from importlib import metadata
from typing import Annotated, Any

import typer
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markup import escape
from rich.measure import Measurement
from rich.progress import Progress, ProgressColumn
from rich.text import Text
from typer.core import TyperGroup

import ludoteca
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


class _FlagsTakeNoValue(TyperGroup):
    """The command group, whose help draws a flag (``--json``, ``--list``, ``-h``) with no
    type beside it: Typer wrote ``--json <bool>``, as if the flag took a value. A flag's
    metavar, empty, is its type as the help shows it; the help options are Typer's own,
    made as a command's help is asked for, so each command's flags are set when it is
    found."""

    # (Typer's Click types are its own, private: Any stands for them here.)
    def get_params(self, ctx: Any) -> list[Any]:
        return _no_type_for_flags(super().get_params(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _no_type_for_flags(command.get_params(ctx))
        return command


def _no_type_for_flags(params: list[Any]) -> list[Any]:
    for param in params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    return params


app = typer.Typer(
    cls=_FlagsTakeNoValue,
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


def _show_version(asked: bool) -> None:
    if asked:
        console.print(f"ludoteca {_version()}")
        raise typer.Exit()


def _version() -> str:
    """The installed package's version, from its metadata (the module's where it is run from
    a source tree that was never installed)."""
    try:
        return metadata.version("ludoteca")
    except metadata.PackageNotFoundError:
        return ludoteca.__version__


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """The options of ``ludoteca`` itself, before any command."""


class Unbroken:
    """Text that a narrow cell breaks only between its pieces, never inside a name a person
    types (``-p aces_start_on_foundations=true``, ``gaps[suits=2,ranks=4]``): a table folded
    them anywhere. Pieces sit ``sep`` apart on a line; one wider than the cell still folds
    (never cut). The cell is as wide as the widest piece where the table has the room. The
    pieces are text, never markup."""

    def __init__(self, pieces: list[str], sep: str = " ", style: str = "") -> None:
        self.pieces = pieces or [""]
        self.sep = sep
        self.style = style

    @classmethod
    def label(cls, text: str, style: str = "") -> Unbroken:
        """A variant label broken after its ``[`` and commas only: ``gaps[`` / ``suits=2,``."""
        return cls(re.findall(r"[^\[,]+[\[,]?|[\[,]", text), sep="", style=style)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max(cell_len(piece) for piece in self.pieces)
        whole = cell_len(self.sep.join(self.pieces))
        return Measurement(widest, whole).with_maximum(options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = [self.pieces[0]]
        for piece in self.pieces[1:]:
            joined = lines[-1] + self.sep + piece
            if cell_len(joined) <= options.max_width:
                lines[-1] = joined
            else:
                lines.append(piece)
        yield Text("\n".join(lines), style=self.style, overflow="fold")


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
