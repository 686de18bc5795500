"""Loading the ``ludoteca`` command: Ctrl-C while the command line loads is one line.

Loading the command line (Typer, Rich, every command's module) takes about a second, and a
KeyboardInterrupt raised while Python imports it came back as a traceback. The entry point
(``ludoteca.__main__``) hands Ctrl-C to :func:`interrupted` before it imports this module;
:class:`Loading` catches the KeyboardInterrupt where ``ludoteca``'s ``main`` is called
without that entry point. This module imports nothing of its own, not even ``typing``
(about 10 ms), so that loading it leaves no window of its own.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # (not ``typing``'s: importing it takes about 10 ms, unprotected)
    from types import TracebackType
    from typing import NoReturn

INTERRUPTED = 130
"""The status of a command stopped by Ctrl-C (128 + SIGINT), as shells report it."""


def main() -> None:
    """Load the command line and run it. Called from the entry point only, whose handler
    has Ctrl-C while this loads (no KeyboardInterrupt to catch here)."""
    from ludoteca.cli import main as run

    run()


class Loading:
    """``with Loading():`` around code that loads the command line: Ctrl-C there (a
    KeyboardInterrupt, or an error it caused: :func:`by_interrupt`) ends the command in
    one line (:func:`interrupted`); any other error goes on."""

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        err: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if err is not None and by_interrupt(err):
            interrupted()


def by_interrupt(err: BaseException) -> bool:
    """Was this error caused by Ctrl-C? A compiled module whose loading is interrupted
    (SciPy's, for one) reports it as ``ImportError: initialization failed``, caused by the
    KeyboardInterrupt."""
    seen: BaseException | None = err
    for _ in range(32):  # (a chain of causes is short; this bounds a cycle)
        if seen is None:
            return False
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def interrupted() -> NoReturn:
    """End the command after Ctrl-C while it loads: one line, status :data:`INTERRUPTED`.

    It leaves at once (``os._exit``: nothing has run yet that needs closing). A normal exit
    sometimes ended killed by the signal instead (status -2, about 1 run in 30: strace
    shows CPython killing itself with SIGINT on its way out, as it does after an unhandled
    interrupt; most likely it marked this one unhandled when it escaped Python code that a
    compiled module ran while loading, though it is caught further up). Ctrl-C is ignored
    from the start of this on."""
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    print("error: interrupted", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(INTERRUPTED)
