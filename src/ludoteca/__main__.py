"""The ``ludoteca`` command starts here, as ``python -m ludoteca`` and as the installed
``ludoteca`` script (``ludoteca.__main__:run``).

From this module's first statement until ``ludoteca``'s ``main`` gives Ctrl-C back to Python,
Ctrl-C ends the command in one line, status 130 (``launch.interrupted``), wherever the
loading is: a handler, not a ``try``, since a KeyboardInterrupt is raised wherever Python
next looks for signals, and once that was the first line of ``launch.main``, outside any
``try`` (a traceback). Only the entry points import this module, so nothing else that
imports ``ludoteca`` gets the handler.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # (CPython's own: ``signal`` loads enum first)
import sys


def _while_loading(signum: int, frame: object) -> None:
    if _a_worker():
        # A worker process starting (spawned from the installed script, it loads this
        # module too): its pool ignores Ctrl-C in it, and the command stops it.
        return
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # (a second Ctrl-C: no second line)
    from ludoteca.launch import interrupted

    interrupted()


def _a_worker() -> bool:
    """Is this process a worker of the command's pool? Ctrl-C may come while
    ``multiprocessing.process`` is half imported, in the command itself (the command line
    imports it as it loads): its ``parent_process`` then failed on a name not yet defined
    (NameError, a traceback, status 1). A worker has that module whole before it loads
    this one, so a module that cannot answer is the command's."""
    processes = sys.modules.get("multiprocessing.process")
    try:
        return processes is not None and processes.parent_process() is not None
    except Exception:  # (half imported: not a worker)
        return False


_signal.signal(_signal.SIGINT, _while_loading)

from ludoteca.launch import main as run  # noqa: E402  (after the handler, on purpose)

if __name__ == "__main__":
    run()
