"""Ways to play a solitaire deal for a study: generic ``random`` and ``greedy``, plus whatever
the game's solver registers (``solver`` for the exact answer, sometimes ``player``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludoteca.core.errors import UnknownGameError
from ludoteca.core.game import GameSpec, State
from ludoteca.core.rng import DealRng
from ludoteca.solvers.base import BatchPolicy, PlayResult, Policy, find_solver, has_solver


def _finish(state: State[Any], steps: int) -> PlayResult:
    outcome = state.outcome()
    if outcome is None:
        # The policy wandered for the game's longest length without ending it: a loss for it.
        return PlayResult(False, state.score(), steps, {"capped": True})
    return PlayResult(outcome.won, outcome.scores[0], steps, dict(outcome.details))


def random_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """A uniformly random legal move each turn."""
    steps = 0
    while not state.is_over and steps < state.spec.max_game_length:
        state.apply(rng.choice(state.legal_moves()))
        steps += 1
    return _finish(state, steps)


def greedy_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """The move whose result the game's heuristic likes best (ties: the first, then random)."""
    heuristic = state.spec.heuristic
    if heuristic is None:
        raise UnknownGameError(f"{state.spec.name} has no greedy heuristic")
    steps = 0
    while not state.is_over and steps < state.spec.max_game_length:
        state.apply(greedy_move(state, heuristic, rng))
        steps += 1
    return _finish(state, steps)


def greedy_move(state: State[Any], heuristic: Callable[[State[Any]], float], rng: DealRng) -> Any:
    """The legal move whose result ``heuristic`` likes best (ties at random by ``rng``)."""
    best: list[Any] = []
    best_value = float("-inf")
    for move in state.legal_moves():
        state.apply(move)
        value = heuristic(state)
        state.undo()
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


GENERIC: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


def policy_names(spec: GameSpec) -> list[str]:
    names = set(GENERIC) if spec.heuristic else {"random"}
    if has_solver(spec.name):
        names |= set(find_solver(spec.name).policies)
    return sorted(names)


def find_policy(spec: GameSpec, name: str) -> Policy:
    if has_solver(spec.name):
        found = find_solver(spec.name).policies.get(name)
        if found is not None:
            return found
    if name in GENERIC and (name != "greedy" or spec.heuristic is not None):
        return GENERIC[name]
    known = ", ".join(policy_names(spec))
    raise UnknownGameError(f"{spec.name} has no policy '{name}' (policies: {known})")


def searches(spec: GameSpec, name: str) -> bool:
    """Does the policy search, so that a state limit (``--max-states``) applies to it? The
    generic ones play one move at a time, and a solver says which of its own search nothing
    (all of Tappeto's)."""
    if not has_solver(spec.name) or name not in find_solver(spec.name).policies:
        return False
    entry = find_solver(spec.name)
    return entry.limited and name not in entry.unlimited_policies


def study_limit(spec: GameSpec, name: str, asked: int | None) -> int | None:
    """The state limit a study runs under: the one asked for, else the one the policy
    searches under given none (``SolverEntry.policy_limit``), where it searches."""
    if asked is not None or not searches(spec, name):
        return asked
    return find_solver(spec.name).policy_limit(name)


def find_batch(spec: GameSpec, name: str) -> BatchPolicy | None:
    """A solver's fast path for many deals at once, if it has one for this policy."""
    if has_solver(spec.name):
        return find_solver(spec.name).batch_policies.get(name)
    return None
