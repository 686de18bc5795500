"""Ctrl-C for the long commands (``solve``, ``study``, ``tournament``, the bench scripts):
stop at once, with one line.

A compiled search hears a signal only when it reads its clock, and the threads and worker
processes beside it not at all, so a plain ``KeyboardInterrupt`` came as a traceback from
inside the kernel, or not until a budget ran out. These commands keep nothing unsaved in
memory (an answer is printed, a deal stored, as soon as it is known; SQLite rolls back a
write cut short), so stopping the process at once loses only the work in progress.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable

from rich.markup import escape

from ludoteca.cli.app import err_console
from ludoteca.core.errors import LudotecaError


class Interrupted(LudotecaError):
    """Ctrl-C while worker processes ran: raised in the main thread, which then only waits
    on them, so the pool is shut down as usual on the way out (``ludoteca``'s ``main``
    reports it, status 130)."""


def stop_at_once_on_ctrl_c(what_is_kept: Callable[[], str]) -> None:
    """From now on Ctrl-C ends the process (status 130) with the line
    ``error: interrupted: <what_is_kept()>``. Worker processes are ended first; with none,
    the process ends at once, since the main thread may be inside a compiled search."""

    def stop(signum: int, frame: object) -> None:
        message = f"interrupted: {what_is_kept()}"
        children = multiprocessing.active_children()
        for child in children:
            child.terminate()
        if children:
            raise Interrupted(message)
        sys.stdout.flush()
        err_console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
        os._exit(130)

    signal.signal(signal.SIGINT, stop)
