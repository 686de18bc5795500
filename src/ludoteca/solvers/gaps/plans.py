"""The hint's memory: the line behind a hint, so the next hint goes on along it.

Each hint searched afresh, and a fresh search of the next position may find another line to
the same figure, whose first move undoes the last one: followed hint by hint, a lost deal
sent a 2 and its 3 round the first column for dozens of moves, and the repetition rule
then refused the line's move (RULES.md, repetition). A plan keeps the line a hint came
from, keyed by every position along it: a hint at one of those positions continues the line
(at once where the search that found it was exact: the line is then as good as any from
there), so following the hints plays the line to its end.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from ludoteca.games.gaps import GapsState
from ludoteca.solvers.memory import remembering


@dataclass(frozen=True)
class Plan:
    """A line of engine moves from a position, what its search said, and how far it gets."""

    moves: tuple[str, ...]
    winnable: bool | None
    note: str
    reached: int
    """Cards in sequence where the line ends (the full count for a win)."""
    exact: bool
    """The search that found it finished: nothing better exists from its positions."""


POSITIONS = 20_000
"""Positions remembered, across plans (the oldest go first): several long lines of every
game a server holds."""

_plans: OrderedDict[str, tuple[Plan, int]] = OrderedDict()
_lock = threading.Lock()


def _key(game: GapsState) -> str:
    return f"{game.params!r} {game.position()}"


def remember(game: GapsState, plan: Plan) -> None:
    """Keep ``plan``, found at ``game``, for every position along its line (not in a hint
    run only to load the kernels: :func:`ludoteca.solvers.memory.apart`)."""
    if not remembering():
        return
    copy = game.spec.from_position(game.position(), game.variant)
    assert isinstance(copy, GapsState)
    keys = []
    for move in plan.moves:
        if move not in copy.legal_moves_text():
            break  # (a line that would repeat a position goes no further: see recall)
        keys.append(_key(copy))
        copy.apply(move)
    with _lock:
        for at, key in enumerate(keys):
            _plans[key] = (plan, at)
            _plans.move_to_end(key)
        while len(_plans) > POSITIONS:
            _plans.popitem(last=False)


def recall(game: GapsState) -> tuple[Plan, tuple[str, ...]] | None:
    """The plan through ``game``'s position and its moves from here, if the game allows the
    next one here (the repetition rule may not)."""
    with _lock:
        found = _plans.get(_key(game))
    if found is None:
        return None
    plan, at = found
    rest = plan.moves[at:]
    return (plan, rest) if rest[0] in game.legal_moves_text() else None


def forget() -> None:
    with _lock:
        _plans.clear()
