"""What every bench script shares: a bad option or input is one line of error (status 2),
and Ctrl-C stops a run at once with one line (status 130), as ``ludoteca solve`` and
``study`` do (:mod:`ludoteca.cli.interrupt`)."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from ludoteca.cli.interrupt import stop_at_once_on_ctrl_c, tell
from ludoteca.core.errors import LudotecaError
from ludoteca.studies.executors import leave_ctrl_c_to_the_parent

__all__ = [
    "Parser",
    "deal_numbers",
    "leave_ctrl_c_to_the_parent",
    "positive_seconds",
    "run",
    "whole",
]

CUT_SHORT = "the run was cut short: no summary (the lines printed so far stand)"


class Parser(argparse.ArgumentParser):
    """``argparse`` with its error on one line, not after a usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def whole(least: int) -> Callable[[str], int]:
    """An option's type: a whole number, at least ``least``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"needs a whole number, not '{text}'") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return parse


def positive_seconds(text: str) -> float:
    """An option's type: a time budget, a positive finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"needs a number of seconds, not '{text}'") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value


def deal_numbers(text: str) -> list[int]:
    """An option's type: comma-separated deal numbers (0 or more), e.g. ``40,105,493``."""
    try:
        seeds = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"takes comma-separated whole numbers, not '{text}'"
        ) from None
    if min(seeds) < 0:
        raise argparse.ArgumentTypeError(f"deal numbers are 0 or more, not {min(seeds)}")
    return seeds


def run(main: Callable[[], None]) -> None:
    """Run a bench script's ``main``: Ctrl-C ends it at once (worker processes first, which
    ignore it themselves: :func:`leave_ctrl_c_to_the_parent`) with one line, status 130; a
    game, variant, bot or parameter that does not exist is one line of error, status 2; a
    reader that stops early (``| head``) ends it quietly, status 1."""
    stop_at_once_on_ctrl_c(lambda: CUT_SHORT)
    try:
        main()
        sys.stdout.flush()  # here, where a reader gone away can still be told apart
    except LudotecaError as err:
        sys.exit(tell(err))
    except BrokenPipeError:
        # The reader stopped early (``| head``): nothing more to say, and no traceback; the
        # output goes nowhere from now on, so the flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
