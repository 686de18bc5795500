"""The ``ludoteca`` command. Each module of this package adds its subcommands to ``app``."""

from __future__ import annotations

import signal
import sys

import typer
from rich.markup import escape

from ludoteca.cli.app import app, err_console, readable_input, readable_output
from ludoteca.cli.interrupt import tell
from ludoteca.core.errors import LudotecaError
from ludoteca.core.registry import discover
from ludoteca.launch import INTERRUPTED, Loading


def main() -> None:
    with Loading():  # Ctrl-C while the modules load: a traceback before
        discover("ludoteca.cli")
    readable_output()
    readable_input()
    try:
        # The entry point (``ludoteca.__main__``) ended the command itself on Ctrl-C while
        # it loaded; from here on Ctrl-C is Python's KeyboardInterrupt again, which the
        # commands handle (or set a handler of their own).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # Not standalone: a wrong option comes back here, to be told in one line.
        code = app(standalone_mode=False)
    except KeyboardInterrupt:  # inside a command that set no handler of its own
        code = INTERRUPTED
    except typer.Abort:  # the end of input at a prompt that does not expect it
        err_console.print("[bold red]error:[/] aborted: end of input", soft_wrap=True)
        code = 1
    except typer.TyperException as err:
        code = _usage_error(err)
    except LudotecaError as err:
        sys.exit(tell(err))
    if code == INTERRUPTED:
        # Ctrl-C inside a command that set no handler of its own (``play`` at its prompt),
        # which Typer turns into this status without a word.
        err_console.print("[bold red]error:[/] interrupted", soft_wrap=True)
    sys.exit(code if isinstance(code, int) else 0)


def _usage_error(err: typer.TyperException) -> int:
    """A wrong option, value or command, in one line: Typer drew the usage, a hint and the
    message in a box, five lines or more for one mistake."""
    if type(err).__name__ == "NoArgsIsHelpError":  # ``ludoteca`` alone: the help is shown
        return err.exit_code
    context = getattr(err, "ctx", None)
    where = "" if context is None else f" (see '{context.command_path} --help')"
    err_console.print(f"[bold red]error:[/] {escape(err.format_message())}{where}", soft_wrap=True)
    return err.exit_code
