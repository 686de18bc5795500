"""The ``ludoteca`` command. Each module of this package adds its subcommands to ``app``."""

from __future__ import annotations

import signal
import sys

import typer
from rich.markup import escape

from ludoteca.cli.app import app, err_console, readable_input, readable_output
from ludoteca.cli.interrupt import tell
from ludoteca.core.errors import LudotecaError, shown
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
    message = _number_refused(err) or f"{err.format_message()}{where}"
    err_console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return err.exit_code


NUMBERS = {
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "int_type": "a whole number",
    "float_parsing": "a number",
    "float_type": "a number",
}
"""What a number option takes, by the error Typer's validation (pydantic) gives for a value
that is not one."""


def _number_refused(err: typer.TyperException) -> str | None:
    """``--seed needs a whole number, not '1.5'`` for any number option given something else:
    it was pydantic's "Invalid value for '--seed': Input should be a valid integer, unable
    to parse string as an integer". None for any other error."""
    from pydantic import ValidationError  # (Typer's own dependency, loaded by then)

    cause, param = err.__cause__, getattr(err, "param", None)
    if not isinstance(cause, ValidationError) or param is None:
        return None
    for found in cause.errors():
        wanted = NUMBERS.get(found["type"])
        if wanted is not None:
            names = [name for name in getattr(param, "opts", []) if name.startswith("--")]
            name = names[0] if names else str(param.human_readable_name)
            return f"{name} needs {wanted}, not '{shown(str(found['input']))}'"
    return None
