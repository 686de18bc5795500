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
import threading
from collections.abc import Callable

from rich.markup import escape

from ludoteca.cli.app import err_console, freeze_bars
from ludoteca.core.errors import LudotecaError
from ludoteca.launch import INTERRUPTED


class Interrupted(LudotecaError):
    """Ctrl-C while worker processes ran: raised in the main thread, which then only waits
    on them, so the pool is shut down as usual on the way out (``ludoteca``'s ``main``
    reports it, status 130, and calls :func:`told`)."""


GRACE_SECONDS = 5.0
"""After Ctrl-C with worker processes, how long the way out may take before the process
ends anyway (:func:`_end_anyway`). Once, in CI under load, a bench run with two worker
processes never ended after Ctrl-C: the shutdown of its pool waited for ever."""

_told = threading.Event()


def told() -> None:
    """The line of an :class:`Interrupted` is out: should the way out hang, the process
    ends without saying it twice."""
    _told.set()


def tell(err: LudotecaError) -> int:
    """Say a command's error in one line (marking an :class:`Interrupted` as told) and
    return its status: 130 for Ctrl-C, 2 for any other (``ludoteca``'s ``main`` and the
    bench scripts end this way)."""
    err_console.print(f"[bold red]error:[/] {escape(str(err))}", soft_wrap=True)
    if isinstance(err, Interrupted):
        told()
        return INTERRUPTED
    return 2


def _release_semaphores() -> None:
    """Unlink the named semaphores of the worker pools (spawned workers: the queues' locks)
    before the process ends without its usual way out: else the resource tracker, a process
    of its own that outlives this one, unlinks them and says so below the one line ("There
    appear to be 5 leaked semaphore objects"; CI, under load). Their finalizers do it
    (``multiprocessing.util``, exit priority 0 and above: the semaphores, and the queues'
    closing, which does not wait); in a thread of its own, given at most a second."""
    from multiprocessing import util

    run = util._run_finalizers  # type: ignore[attr-defined]  # (private, stable since 3.4)
    finishing = threading.Thread(target=run, args=(0,), daemon=True)
    finishing.start()
    finishing.join(1.0)


def _end_anyway(message: str) -> None:
    """The last resort, in a thread of its own: the way out after Ctrl-C took more than
    :data:`GRACE_SECONDS`. Kill what is left of the workers, say the line if no one has,
    and end (status 130)."""
    for child in multiprocessing.active_children():
        child.kill()
    _release_semaphores()
    if not _told.is_set():
        os.write(2, f"error: {message}\n".encode())
    if err_console.is_terminal:
        os.write(2, b"\x1b[?25h")  # the cursor a progress bar hid
    os._exit(130)


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
            last = threading.Timer(GRACE_SECONDS, _end_anyway, (message,))
            last.daemon = True  # (it never holds the process up)
            last.start()
            raise Interrupted(message)
        # The bar in use (its thread draws it ten times a second) draws nothing from now
        # on, the line takes its place, and the cursor it hid comes back: os._exit skips
        # the bar's own way out, which did that.
        freeze_bars()
        sys.stdout.flush()
        err_console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
        err_console.show_cursor(True)
        os._exit(130)

    signal.signal(signal.SIGINT, stop)
