"""One hint for every game and every interface (terminal and web).

A solitaire asks its solver (which promises to use only what the player sees). A game with
others asks its best bot, which is handed the seat's observation and nothing else.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from ludoteca.bots.base import bots_for, make_bot
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import GameSpec, State
from ludoteca.core.rng import DealRng
from ludoteca.solvers import memory
from ludoteca.solvers.base import Hint, find_solver, has_solver

log = logging.getLogger(__name__)

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
    return Hint(move, None, f"the {kind} bot's choice, from what you can see")


READY_SEED = 290
"""The deal :func:`load_kernels` hints on: in Gaps one that stays open for minutes, so that
its hint runs every stage (probes, beams, the search for the best dead end, the nested
search, the tidying of the line) and loads each stage's kernel."""

READY_SECONDS = 0.5
"""The budget of that hint: the loading comes on top (0.3-1.8 s a game, once a process)."""


def load_kernels(spec: GameSpec) -> None:
    """Load the compiled code ``spec``'s hints use, by one hint on a deal no player chose,
    whose plan is remembered nowhere (:func:`ludoteca.solvers.memory.apart`).

    The first hint of a process loaded the cached kernels of its game itself, 0.3-1.8 s on
    top of its search (Gaps: 2.0-2.3 s where the second takes 1.7-1.8 s; Il Muro and Mosaico
    1.2-1.8 s where the next takes a few hundredths), so it overran its 2 s. ``play`` and
    ``serve`` call this in the background when they start (:func:`load_in_background`)."""
    if not has_hint(spec):
        return
    state = spec.new_game(None, seed=READY_SEED)
    if state.current_player < 0:
        return
    with memory.apart():
        hint_for(state, state.current_player, READY_SECONDS)


def load_in_background(specs: list[GameSpec]) -> threading.Thread:
    """:func:`load_kernels` for each game, in a daemon thread, where their compiled code is
    cached and fresh (:func:`ludoteca.solvers.warm.fresh_compiled_code`). A failure there
    is left for the real hint to meet and say in its one line (logged at debug level only:
    at a terminal a traceback would be written across the board)."""

    def load() -> None:
        from ludoteca.solvers.warm import fresh_compiled_code

        if not fresh_compiled_code():
            # Nothing to load, only to compile (25 s for Gaps, after an install that did not
            # warm them or a change of their sources): the pools of a Gaps hint compiling here
            # kept a player who quit waiting for them (74 s; Python joins pool threads at exit).
            return
        for spec in specs:
            try:
                load_kernels(spec)
            except Exception:  # (the hint itself will say what is wrong, if anything)
                log.debug("loading the %s hint's kernels failed", spec.name, exc_info=True)

    thread = threading.Thread(target=load, name="load hint kernels", daemon=True)
    thread.start()
    return thread
