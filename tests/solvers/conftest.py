"""What the solver tests share."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from ludoteca.solvers.gaps.board import Board
from ludoteca.solvers.gaps.reference import Answer

WaitingSearch = tuple[Callable[..., Answer], list[bool]]


@pytest.fixture
def waiting_search() -> WaitingSearch:
    """A stand-in for ``fast.search`` inside ``fast.decide``: a probe (no ``stop``) ends at
    once, undecided; the full search only waits, as a long one would, until its ``stop``
    is set (at most 60 s), then ends undecided. The list records, for each full search,
    whether it was stopped."""
    stopped: list[bool] = []

    def waiting(start: Board, max_states: int | None = None, **options: Any) -> Answer:
        stop = options.get("stop")
        if stop is None:  # a probe
            return Answer(None, 0, -1, 1, [], False, "states")
        until = time.perf_counter() + 60.0
        while not stop[0] and time.perf_counter() < until:
            time.sleep(0.01)
        stopped.append(bool(stop[0]))
        return Answer(None, 0, -1, 7, [], False, "time")

    return waiting, stopped
