"""What every bench script shares: Ctrl-C stops a run at once with one line (status 130), as
``ludoteca solve`` and ``study`` do (:mod:`ludoteca.cli.interrupt`)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from rich.markup import escape

from ludoteca.cli.app import err_console
from ludoteca.cli.interrupt import Interrupted, stop_at_once_on_ctrl_c
from ludoteca.studies.executors import leave_ctrl_c_to_the_parent

__all__ = ["leave_ctrl_c_to_the_parent", "run"]

CUT_SHORT = "the run was cut short: no summary (the lines printed so far stand)"


def run(main: Callable[[], None]) -> None:
    """Run a bench script's ``main``: Ctrl-C ends it at once (worker processes first, which
    ignore it themselves: :func:`leave_ctrl_c_to_the_parent`) with one line, status 130."""
    stop_at_once_on_ctrl_c(lambda: CUT_SHORT)
    try:
        main()
    except Interrupted as err:
        err_console.print(f"[bold red]error:[/] {escape(str(err))}", soft_wrap=True)
        sys.exit(130)
