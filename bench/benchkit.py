"""What every bench script shares: a bad option or input is one line of error (status 2),
and Ctrl-C stops a run at once with one line (status 130), as ``ludoteca solve`` and
``study`` do (:mod:`ludoteca.cli.interrupt`)."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ludoteca.cli.interrupt import stop_at_once_on_ctrl_c, tell
from ludoteca.core.errors import LudotecaError
from ludoteca.core.rng import MAX_DEAL
from ludoteca.studies.executors import follow_the_parent
from ludoteca.studies.stats import wilson

__all__ = [
    "Parser",
    "check_seed_range",
    "deal_numbers",
    "distinct_deal_numbers",
    "follow_the_parent",
    "positive_seconds",
    "rate_text",
    "run",
    "seeds_text",
    "whole",
]

CUT_SHORT = "the run was cut short: no summary (the lines printed so far stand)"


class Parser(argparse.ArgumentParser):
    """``argparse`` with its error on one line, not after a usage block, and every default
    in ``--help`` (``--deals DEALS  (default: 200)``) unless the option's text names it."""

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        text = kwargs.get("help") or ""
        default = kwargs.get("default")
        shown = default not in (None, False, argparse.SUPPRESS) and args[0].startswith("-")
        if shown and "default" not in text:
            kwargs["help"] = f"{text} (default: %(default)s)".strip()
        return super().add_argument(*args, **kwargs)

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
    if min(seeds) < 0 or max(seeds) > MAX_DEAL:
        wrong = min(seeds) if min(seeds) < 0 else max(seeds)
        raise argparse.ArgumentTypeError(f"deal numbers are 0..{MAX_DEAL}, not {wrong}")
    return seeds


def distinct_deal_numbers(text: str) -> list[int]:
    """:func:`deal_numbers`, each once: a run's counts are of deals (``3,3`` was "deals 2")."""
    seeds = deal_numbers(text)
    twice = sorted({seed for seed in seeds if seeds.count(seed) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"a deal is named twice: {twice[0]}")
    return seeds


def check_seed_range(parser: Parser, first: int, deals: int) -> None:
    """``--first-seed`` and ``--deals`` name deals 0..MAX_DEAL only (as ``ludoteca study``)."""
    if first + deals - 1 > MAX_DEAL:
        parser.error(
            f"--first-seed {first} with --deals {deals} goes past the last deal, {MAX_DEAL}"
        )


def seeds_text(seeds: list[int]) -> str:
    """The deals of a run, short: "0..999" when they follow one another, else listed."""
    if seeds == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"seeds {seeds[0]}..{seeds[-1]}"
    shown = ",".join(map(str, seeds[:8]))
    return f"seeds {shown}{',…' if len(seeds) > 8 else ''}"


def rate_text(won: int, decided: int) -> str:
    """A win rate among decided deals with its 95% Wilson interval; "–" when none is."""
    if decided == 0:
        return "– (none decided)"
    low, high = wilson(won, decided)
    return f"{won / decided:.3f}  95% CI [{low:.3f}, {high:.3f}]"


def run(main: Callable[[], None]) -> None:
    """Run a bench script's ``main``: Ctrl-C ends it at once (worker processes first, which
    ignore it themselves: :func:`follow_the_parent`) with one line, status 130; a
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
