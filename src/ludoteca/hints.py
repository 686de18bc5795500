"""One hint for every game and every interface (terminal and web).

A solitaire asks its solver (which promises to use only what the player sees). A game with
others asks its best bot, which is handed the seat's observation and nothing else.
"""

from __future__ import annotations

from typing import Any

from ludoteca.bots.base import bots_for, make_bot
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import GameSpec, State
from ludoteca.core.rng import DealRng
from ludoteca.solvers.base import Hint, find_solver, has_solver

BOT_PREFERENCE = ("strong", "greedy", "random")


def has_hint(spec: GameSpec) -> bool:
    if not spec.is_solitaire:
        return True
    return has_solver(spec.name) and find_solver(spec.name).hint is not None


def hint_for(state: State[Any], seat: int, seconds: float) -> Hint:
    """The suggested move for ``seat``, the player to move, within about ``seconds``."""
    spec = state.spec
    if not has_hint(spec):
        raise LudotecaError(f"{spec.name} has no hint")
    if state.current_player != seat:
        raise LudotecaError("a hint is for the player to move")
    if spec.is_solitaire:
        hint = find_solver(spec.name).hint
        assert hint is not None
        return hint(state, seconds)
    kinds = bots_for(spec.name)
    kind = next(k for k in BOT_PREFERENCE if k in kinds)
    rng = DealRng(len(state.history), "hint", seat)
    move = make_bot(spec, kind).choose(state.observation(seat), rng)
    return Hint(move, None, f"what the {kind} bot would play")
