"""What a solver offers the rest of the project, and the registry that finds it by game.

A solver module registers a :class:`SolverEntry` for its game. ``solve`` decides a position,
``hint`` answers a player within a time budget, and ``policies`` are named ways to play a
whole deal for studies (``solver`` at least: the exact answer, or the best play the game has).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.errors import UnknownGameError
from ludoteca.core.game import State, Variant
from ludoteca.core.registry import discover
from ludoteca.core.rng import DealRng


@dataclass
class SolveResult:
    """The answer for one position. ``winnable`` is ``None`` when a limit stopped the search."""

    winnable: bool | None
    states: int
    seconds: float
    moves: list[str]
    label: str
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "winnable": self.winnable,
            "states": self.states,
            "seconds": round(self.seconds, 6),
            "moves": self.moves,
            "label": self.label,
            **self.extra,
        }


@dataclass
class Hint:
    """A suggested move (``None`` if there is no move) and what the search learned."""

    move: str | None
    winnable: bool | None
    note: str = ""


@dataclass
class PlayResult:
    """One deal played to its end by a policy. ``won`` is ``None`` when undecided."""

    won: bool | None
    score: float
    states: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


Policy = Callable[[State[Any], int | None, DealRng], PlayResult]
"""``policy(state, max_states, rng)`` plays the deal in ``state`` to its end."""

BatchPolicy = Callable[[Variant, Sequence[int], int | None], list[PlayResult]]
"""``batch(variant, seeds, max_states)``: a fast path deciding many seeded deals at once; it
must give the same answers as the per-deal policy of the same name (a differential test)."""


@dataclass(frozen=True)
class SolverEntry:
    game: str
    label: str
    """What a verdict is judged on, e.g. ``"exact, without redeals"`` or ``"with all cards
    known"``: ``solve`` prints it after the verdict, ``winnable (with all cards known)``."""
    solve: Callable[[State[Any], int | None], SolveResult]
    solve_timed: Callable[[State[Any], int | None, float, int | None], SolveResult] | None = None
    """``solve_timed(state, max_states, seconds, memory)``: the same answer under a time
    budget, for solvers that can stop on the clock (``ludoteca solve --seconds``), with at
    most ``memory`` bytes for their tables (``None``: the solver's default; ``--memory``).
    An undecided answer's ``extra["stopped"]`` says what ran out: ``"time"``, ``"states"``
    or ``"room"`` (the table is full: only more memory helps)."""
    hint: Callable[[State[Any], float], Hint] | None = None
    policies: Mapping[str, Policy] = field(default_factory=dict)
    batch_policies: Mapping[str, BatchPolicy] = field(default_factory=dict)
    default_max_states: int | None = None
    study_max_states: int | None = None
    """The state limit of each search of a ``study`` given no ``--max-states`` (None: the
    policy's own, :meth:`policy_limit`). Gaps sets one: without it a study's hard deals
    searched for minutes each, in gigabytes."""
    policy_max_states: Mapping[str, int] = field(default_factory=dict)
    """The limit a policy given no state limit searches under, where it is not
    ``default_max_states`` (Il Muro's player: a small search per sample)."""
    limited: bool = True
    """Whether a state limit applies (``--max-states``); Tappeto's answer is one line of at
    most 52 plays, so none does."""
    unlimited_policies: frozenset[str] = frozenset()
    """Policies that search nothing a state limit could bound."""
    searches_without_limit: bool = False
    """Whether ``max_states=None`` searches to the end (``--max-states 0``). Gaps' does; the
    others fall back to a limit of their own, so 0 is refused for them."""
    warm: Callable[[], object] | None = None
    """Calls the paths that the warming solves of :mod:`ludoteca.solvers.warm` may not
    reach, so that their kernels are compiled at install time too."""

    def policy_limit(self, policy: str) -> int | None:
        """The state limit ``policy`` searches under when given none: a study reports and
        stores this one (it said "none" while the search ran under the solver's default)."""
        if self.study_max_states is not None:
            return self.study_max_states
        return self.policy_max_states.get(policy, self.default_max_states)


def no_unlimited_search(game: str) -> str:
    """What ``--max-states 0`` (no limit) is told for a solver that has no such search."""
    able = sorted(e.game for e in _SOLVERS.values() if e.searches_without_limit)
    return (
        f"the {game} solver always searches under a state limit: --max-states 0 (none) is "
        f"for {', '.join(able) or 'no game'}"
    )


_SOLVERS: dict[str, SolverEntry] = {}
_discovered = False


def register_solver(entry: SolverEntry) -> SolverEntry:
    _SOLVERS[entry.game] = entry
    return entry


def find_solver(game: str) -> SolverEntry:
    global _discovered
    if not _discovered:
        discover("ludoteca.solvers")
        _discovered = True
    if game not in _SOLVERS:
        raise UnknownGameError(f"{game} has no solver")
    return _SOLVERS[game]


def has_solver(game: str) -> bool:
    try:
        find_solver(game)
    except UnknownGameError:
        return False
    return True
