"""Mosaico: an exact search with the draw order known, and a player who does not know it.

``solve`` answers winnable or not "with the draw order known" (the face-down order is read from
the position): a depth-first search over the cells of each tile in turn, pruned when the
closed empty cells of the figure cannot each get a different remaining tile. The ``player``
sees what a person sees (the mosaic, the tile to play, the set-aside pile, the set of
tiles still to come but not their order) and places each tile where the mosaic looks best
for those tiles (:func:`~ludoteca.solvers._mosaico_kernel.evaluate`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ludoteca.core.game import State
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES
from ludoteca.games.mosaico import MosaicMove, MosaicoState, from_position
from ludoteca.solvers import _mosaico_kernel as kernel
from ludoteca.solvers.base import Hint, PlayResult, SolverEntry, SolveResult, register_solver

LABEL = "with the draw order known"
DEFAULT_MAX_STATES = 1_000_000
WEIGHTS = np.array([3.0, 1.0, 0.2, -2.0])
"""The player's score weights: a tile with nowhere to go, 1 / its cells, its cells up to 6,
the placed cell's neighbours (tuned on deals 0-299: see docs/rules/mosaico.md)."""
HARD_WEIGHTS = np.array([3.0, 1.0, 0.2, -1.0])
NO_WEIGHTS = np.empty(0)
"""Tells the exact search to try cells with more neighbours first."""
SHORTLIST = 3
"""The player plays out its best cells only."""
SAMPLES = 8
"""Random orders of the unseen tiles played out for each shortlisted cell."""

MATCH = np.array(
    [
        sum(1 << u.index for u in ALL_TILES if t.matches(u))
        for t in sorted(ALL_TILES, key=lambda t: t.index)
    ],
    dtype=np.int64,
)


@dataclass
class Arrays:
    """A state in the kernel's terms."""

    grid: np.ndarray
    box: np.ndarray
    aside: np.ndarray
    n_aside: int
    draw: np.ndarray
    remaining: int
    difficile: bool


def _weights(difficile: bool) -> np.ndarray:
    return HARD_WEIGHTS if difficile else WEIGHTS


def to_cell(index: int) -> tuple[int, int]:
    return index // kernel.PAD - kernel.OFFSET, index % kernel.PAD - kernel.OFFSET


def arrays(state: MosaicoState) -> Arrays:
    grid = np.full(kernel.PAD * kernel.PAD, kernel.OUT, dtype=np.int64)
    for row in range(-kernel.REACH, kernel.REACH + 1):
        for col in range(-kernel.REACH, kernel.REACH + 1):
            grid[kernel.cell_index(row, col)] = kernel.EMPTY
    for (row, col), tile in state.mosaic.items():
        grid[kernel.cell_index(row, col)] = tile.index
    rows = [r for r, _ in state.mosaic]
    cols = [c for _, c in state.mosaic]
    box = np.array([min(rows), max(rows), min(cols), max(cols)], dtype=np.int64)
    aside = np.zeros(len(ALL_TILES), dtype=np.int64)
    aside[: len(state.aside)] = [t.index for t in state.aside]
    draw = np.array([t.index for t in state.draw], dtype=np.int64)
    remaining = sum(1 << t.index for t in [*state.aside, *state.draw])
    return Arrays(grid, box, aside, len(state.aside), draw, remaining, state.params.difficile)


def _fresh(state: State[Any]) -> MosaicoState:
    assert isinstance(state, MosaicoState)
    return from_position(state.position(), state.variant)


def solve(state: State[Any], max_states: int | None) -> SolveResult:
    """Decide the deal from ``state`` with the draw order known."""
    assert isinstance(state, MosaicoState)
    started = time.perf_counter()
    difficile = state.params.difficile
    limit = max_states or DEFAULT_MAX_STATES
    path = np.zeros(2 * len(ALL_TILES), dtype=np.int64)
    # Half the nodes for each cell order; a loss proved by either is a loss (both are complete).
    found, states = kernel.UNKNOWN, 0
    for weights, nodes in ((NO_WEIGHTS, (limit + 1) // 2), (_weights(difficile), limit // 2)):
        if found != kernel.UNKNOWN:
            break
        a = arrays(state)
        budget = np.array([nodes, 0], dtype=np.int64)
        found = kernel.search(
            a.grid, a.box, a.aside, a.n_aside, a.draw, 0, a.remaining, MATCH, a.difficile,
            budget, path, 0, weights,
        )  # fmt: skip
        states += int(budget[1])
    moves: list[str] = []
    if found == kernel.WIN:
        replay = _fresh(state)
        while not replay.is_over:
            moves.append(str(_move_for(replay, int(path[len(moves)]))))
            replay.apply(moves[-1])
    winnable = None if found == kernel.UNKNOWN else found == kernel.WIN
    extra: dict[str, Any] = {"max_states": limit}
    if winnable is None:
        extra["stopped"] = "states"  # what ran out, named as every solver's answer names it
    return SolveResult(winnable, states, time.perf_counter() - started, moves, LABEL, extra)


def _move_for(state: MosaicoState, cell: int) -> MosaicMove:
    turn = state.turn()
    assert turn is not None
    return MosaicMove(turn.tile, None if cell == kernel.SET_ASIDE else to_cell(cell))


def player_move(state: MosaicoState, seed: int, samples: int = SAMPLES) -> MosaicMove | None:
    """The player's move, from what a person sees: the mosaic, the tile to play, the
    set-aside pile and the set of unseen tiles (never their order)."""
    turn = state.turn()
    if turn is None:
        return None
    a = arrays(state)
    below = a.n_aside - 1 if turn.from_aside else a.n_aside
    unseen = sum(1 << t.index for t in state.draw if t != turn.tile)
    weights = _weights(a.difficile)
    cell = kernel.choose(
        a.grid, a.box, turn.tile.index, a.aside, below, unseen, MATCH, a.difficile, weights,
        SHORTLIST, samples, seed,
    )  # fmt: skip
    return MosaicMove(turn.tile, None if cell == kernel.SET_ASIDE else to_cell(int(cell)))


def hint(state: State[Any], seconds: float) -> Hint:
    """The player's choice; its sampling is seeded by what the player sees, so a hint is
    repeatable and owes nothing to the hidden draw order (the position, which holds it, once
    seeded it: one view could get two hints)."""
    assert isinstance(state, MosaicoState)
    seen = json.dumps(state.observation(0), sort_keys=True)
    move = player_move(state, DealRng(0, "mosaico-hint", seen).next64() >> 32)
    return Hint(
        str(move) if move else None,
        None,
        "the strong player's choice, from what you can see; the draw order is unknown",
    )


def solver_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """The exact answer with the draw order known (None when the node limit stops it)."""
    result = solve(state, max_states)
    score = 36.0 if result.winnable else 0.0
    return PlayResult(result.winnable, score, result.states, {"limit_hit": result.winnable is None})


def player_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    """Play the deal with :func:`player_move` at each turn."""
    assert isinstance(state, MosaicoState)
    moves = 0
    while (move := player_move(state, rng.next64() >> 32)) is not None:
        state.apply(move)
        moves += 1
    outcome = state.outcome()
    assert outcome is not None
    return PlayResult(outcome.won, outcome.scores[0], moves, dict(outcome.details))


register_solver(
    SolverEntry(
        game="mosaico",
        label=LABEL,
        solve=solve,
        hint=hint,
        policies={"solver": solver_policy, "player": player_policy},
        unlimited_policies=frozenset({"player"}),
        default_max_states=DEFAULT_MAX_STATES,
    )
)
