"""Il Muro solvers, in two kinds that answer different questions:

- ``solver`` ("winnable with every tile known"): the compiled depth-first search over the
  whole deal, face-down tiles included, with a transposition table and a node limit.
- ``player`` ("a strong player who sees only what a player sees"): it reads the observation
  only, deals the unseen tiles at random into the face-down places, searches that sample, and
  follows the plan up to the next tile it turns; then it plans again with what it has seen.

The hint uses the player, so it never knows more than the person asking.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.core.game import State
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES, Tile
from ludoteca.games.muro import MuroState
from ludoteca.solvers import _muro_kernel as kernel
from ludoteca.solvers.base import Hint, PlayResult, SolverEntry, SolveResult, register_solver

EXACT_LABEL = "winnable with every tile known"
PLAYER_LABEL = "strong player seeing only what a player sees"
EXACT_NODES = 1_000_000
"""Default node limit of the all-known search (``--max-states`` overrides it)."""
PLAYER_NODES = 4_000
"""Node limit of each search the player makes on a sample (``--max-states`` overrides it)."""
ROBUST_SAMPLES = 3
"""Samples per plan of the ``player-3`` policy (the ``player`` policy uses one)."""
HINT_NODES = 20_000
HINT_SAMPLES = 3
TABLE_BITS = 20

Arrays = tuple[npt.NDArray[Any], ...]


class Table:
    """One transposition table reused across searches (a generation stamp clears it)."""

    def __init__(self, bits: int = TABLE_BITS) -> None:
        self.keys = np.zeros(1 << bits, dtype=np.uint64)
        self.values = np.zeros(1 << bits, dtype=np.int16)
        self.stamps = np.zeros(1 << bits, dtype=np.uint32)
        self.generation = 0

    def next_generation(self) -> int:
        self.generation += 1
        return self.generation


_LOCAL = threading.local()


def _table() -> Table:
    """This thread's table: the server runs hints in threads, and two searches must never
    share one."""
    table: Table | None = getattr(_LOCAL, "table", None)
    if table is None:
        table = _LOCAL.table = Table()
    return table


def _empty_arrays() -> Arrays:
    cols = np.zeros((6, kernel.HEIGHT), dtype=np.int8)
    return cols, *(np.zeros(6, dtype=np.int64) for _ in range(3)), np.zeros(4, dtype=np.int64)


def _fill_tail(
    fc: npt.NDArray[Any], fd: npt.NDArray[Any], sc: npt.NDArray[Any], obs: Mapping[str, Any]
) -> None:
    for fruit, built in enumerate(obs["foundations"]):
        fc[fruit] = len(built)
        if built:
            fd[fruit] = kernel.UP if Tile.parse(built[0]).number == 1 else kernel.DOWN_DIR
    sc[kernel.IDLE] = obs["idle"]
    sc[kernel.BEST] = obs["best"]
    sc[kernel.ON_FOUNDATIONS] = int(fc.sum())


def arrays_from_state(state: MuroState) -> Arrays:
    """The whole deal, face-down tiles included: only for the all-known search."""
    cols, h, fc, fd, sc = _empty_arrays()
    for c, column in enumerate(state.wall):
        h[c] = len(column)
        for k, tile in enumerate(column):
            cols[c, k] = tile.index + (kernel.DOWN if tile in state.face_down else 0)
    _fill_tail(fc, fd, sc, state.observation(0))
    sc[kernel.FACE_DOWN] = len(state.face_down)
    return cols, h, fc, fd, sc


def sample_arrays(obs: Mapping[str, Any], rng: DealRng) -> Arrays:
    """A deal consistent with the observation: the unseen tiles, shuffled, fill the places of
    the face-down tiles. This is the only way the player learns anything about them."""
    seen = {t for column in obs["wall"] for t in column if t is not None}
    seen |= {t for built in obs["foundations"] for t in built}
    unseen = [t.index for t in ALL_TILES if str(t) not in seen]
    rng.shuffle(unseen)
    cols, h, fc, fd, sc = _empty_arrays()
    for c, column in enumerate(obs["wall"]):
        h[c] = len(column)
        for k, text in enumerate(column):
            cols[c, k] = Tile.parse(text).index if text else unseen.pop() + kernel.DOWN
    _fill_tail(fc, fd, sc, obs)
    sc[kernel.FACE_DOWN] = sum(t is None for column in obs["wall"] for t in column)
    return cols, h, fc, fd, sc


@dataclass
class Found:
    """A search's answer: ``result`` (kernel WON, LOST or LIMIT), the nodes it visited, the
    winning line, and the line that made the most progress with that progress."""

    result: int
    nodes: int
    path: list[int]
    best_line: list[int]
    gain: int


IDLE_STAGES = (2, 3, 5, 10, 20)
"""Before the search under the game's own no-progress limit, searches that allow only this
many idle moves in a row: their wins are wins under the rules too, and short ones are found
far sooner. Only the last search, under the rules' limit, can prove a deal lost."""


def run_search(
    arrays: Arrays, six: bool, idle_limit: int, node_limit: int, mode: int = kernel.PRUNED
) -> Found:
    """What the staged search found for a position in arrays (``mode``: see the kernel)."""
    total = 0
    best_line: list[int] = []
    best_gain = -1
    stages = [k for k in IDLE_STAGES if k < idle_limit] + [idle_limit]
    for stage in stages:
        left = node_limit - total
        budget = left if stage == idle_limit else min(left, max(1, node_limit // 8))
        if budget <= 0:
            break
        result, nodes, path, line, gain = _search_once(arrays, six, mode, stage, budget)
        total += nodes
        if gain > best_gain:
            best_line, best_gain = line, gain
        if result == kernel.WON or stage == idle_limit:
            return Found(result, total, path, best_line, best_gain)
    return Found(kernel.LIMIT, total, [], best_line, best_gain)


def _search_once(
    arrays: Arrays, six: bool, mode: int, idle_limit: int, node_limit: int
) -> tuple[int, int, list[int], list[int], int]:
    cols, h, fc, fd, sc = (a.copy() for a in arrays)
    table = _table()
    path = np.zeros(kernel.MAX_DEPTH, dtype=np.int32)
    best = np.zeros(kernel.MAX_DEPTH, dtype=np.int32)
    result, nodes, length, best_length, gain = kernel.search(
        cols, h, fc, fd, sc, six, mode, idle_limit, node_limit,
        kernel.ZOBRIST_COLUMN, kernel.ZOBRIST_FOUNDATION, kernel.ZOBRIST_BEST,
        table.keys, table.values, table.stamps, table.next_generation(), path, best,
    )  # fmt: skip
    line = best[:best_length].tolist()
    return int(result), int(nodes), path[:length].tolist(), line, int(gain)


def move_texts(arrays: Arrays, moves: list[int], until_turn: bool = False) -> list[str]:
    """Kernel moves as game notation, replayed on a copy of the arrays; with ``until_turn``
    only up to the first tile turned (after it, a plan made on a sample may be wrong)."""
    cols, h, fc, fd, sc = (a.copy() for a in arrays)
    ch = kernel.column_hashes(cols, h, kernel.ZOBRIST_COLUMN)
    texts = []
    for move in moves:
        source, target = move >> 4, move & 15
        if target == kernel.TURN:
            texts.append(f"turn c{source + 1}")
            if until_turn:
                break
        else:
            tile = (
                int(cols[source, h[source] - 1]) if source < 6 else _foundation_top(fc, fd, source)
            )
            where = "F" if target == kernel.TO_FOUNDATION else f"c{target + 1}"
            texts.append(f"{Tile.from_index(tile)} {where}")
        kernel.play(cols, h, fc, fd, sc, ch, kernel.ZOBRIST_COLUMN, move)
    return texts


def _foundation_top(fc: npt.NDArray[Any], fd: npt.NDArray[Any], source: int) -> int:
    fruit = source - 6
    number = int(fc[fruit]) if fd[fruit] == kernel.UP else 7 - int(fc[fruit])
    return fruit * 6 + number - 1


def _params(state: State[Any]) -> tuple[bool, int]:
    assert isinstance(state, MuroState)
    return state.params.may_start_with_six, state.params.idle_limit


def solve(state: State[Any], max_states: int | None) -> SolveResult:
    """Winnable with every tile known: an exact search of the deal (face-down tiles included)."""
    assert isinstance(state, MuroState)
    six, idle_limit = _params(state)
    limit = max_states or EXACT_NODES
    started = time.perf_counter()
    arrays = arrays_from_state(state)
    found = run_search(arrays, six, idle_limit, limit)
    winnable = {kernel.WON: True, kernel.LOST: False}.get(found.result)
    extra: dict[str, Any] = {"max_states": limit}
    if winnable is None:
        extra["stopped"] = "states"  # what ran out, named as every solver's answer names it
    return SolveResult(
        winnable, found.nodes, time.perf_counter() - started, move_texts(arrays, found.path),
        EXACT_LABEL, extra,
    )  # fmt: skip


class Planner:
    """The strong player: plans on sampled deals, never on the hidden tiles themselves."""

    def __init__(self, six: bool, idle_limit: int, nodes: int, samples: int) -> None:
        self.six = six
        self.idle_limit = idle_limit
        self.nodes = nodes
        self.samples = samples
        self.plan: list[str] = []
        self.searched = 0
        self.searches = 0
        self.limit_hits = 0
        self.sure = False

    def next_move(self, obs: Mapping[str, Any], rng: DealRng) -> str:
        if not self.plan or self.plan[0] not in obs["legal_moves"]:
            self.plan = self._make_plan(obs, rng)
        return self.plan.pop(0)

    def _make_plan(self, obs: Mapping[str, Any], rng: DealRng) -> list[str]:
        samples = [sample_arrays(obs, rng) for _ in range(self.samples)]
        wins: list[tuple[Arrays, list[int]]] = []
        fallback: list[str] = []
        fallback_gain = -1
        for arrays in samples:
            found = self._search(arrays)
            if found.result == kernel.WON:
                wins.append((arrays, _until_turn(found.path)))
            elif found.best_line and found.gain > fallback_gain:
                fallback = move_texts(arrays, found.best_line, until_turn=True)
                fallback_gain = found.gain
        if not wins:
            # No sample found a win: follow the line that made the most progress, or give
            # up when nothing can be gained any more.
            return fallback or ["resign"]
        self.sure = all(t is not None for column in obs["wall"] for t in column)
        chosen = wins[0]
        if len(samples) > 1:
            support = [self._support(win, samples) for win in wins]
            chosen = wins[support.index(max(support))]
        return move_texts(*chosen)

    def _search(self, arrays: Arrays) -> Found:
        found = run_search(arrays, self.six, self.idle_limit, self.nodes, kernel.FORCED)
        self.searched += found.nodes
        self.searches += 1
        self.limit_hits += found.result == kernel.LIMIT
        return found

    def _support(self, win: tuple[Arrays, list[int]], samples: list[Arrays]) -> int:
        """In how many samples the deal can still be won after the plan's first moves (its
        own sample counts without a search): a plan that relies on one guess about the
        face-down tiles loses support in the others."""
        own, prefix = win
        others = [arrays for arrays in samples if arrays is not own]
        return 1 + sum(self._search(_after(a, prefix)).result == kernel.WON for a in others)


def _until_turn(moves: list[int]) -> list[int]:
    """A plan is followed up to the first tile it turns: after that the sample may be wrong."""
    for i, move in enumerate(moves):
        if move & 15 == kernel.TURN:
            return moves[: i + 1]
    return moves


def _after(arrays: Arrays, moves: list[int]) -> Arrays:
    cols, h, fc, fd, sc = (a.copy() for a in arrays)
    ch = kernel.column_hashes(cols, h, kernel.ZOBRIST_COLUMN)
    for move in moves:
        kernel.play(cols, h, fc, fd, sc, ch, kernel.ZOBRIST_COLUMN, move)
    return cols, h, fc, fd, sc


def player_policy(
    state: State[Any], max_states: int | None, rng: DealRng, samples: int = 1
) -> PlayResult:
    """The strong player on one deal: it sees ``state`` only through its observation."""
    six, idle_limit = _params(state)
    planner = Planner(six, idle_limit, max_states or PLAYER_NODES, samples)
    while not state.is_over:
        state.apply(planner.next_move(state.observation(0), rng))
    outcome = state.outcome()
    assert outcome is not None
    details = {
        **outcome.details,
        "termination": outcome.termination,
        "searches": planner.searches,
        "limit_hits": planner.limit_hits,
    }
    return PlayResult(outcome.won, outcome.scores[0], planner.searched, details)


def solver_policy(state: State[Any], max_states: int | None, rng: DealRng) -> PlayResult:
    result = solve(state, max_states)
    score = 36.0 if result.winnable else 0.0
    return PlayResult(result.winnable, score, result.states, {"limit_hit": result.winnable is None})


def hint(state: State[Any], seconds: float) -> Hint:
    """The player's move for this position (the hint sees only the observation)."""
    six, idle_limit = _params(state)
    obs = state.observation(0)
    if not obs["legal_moves"]:
        return Hint(None, None, "the game is over")
    planner = Planner(six, idle_limit, HINT_NODES if seconds >= 1 else PLAYER_NODES, HINT_SAMPLES)
    move = planner.next_move(obs, DealRng(len(state.history), "muro", "hint"))
    note = "a sure win" if planner.sure else f"{PLAYER_LABEL}, planned on sampled face-down tiles"
    return Hint(move, True if planner.sure else None, note)


register_solver(
    SolverEntry(
        game="muro",
        label=EXACT_LABEL,
        solve=solve,
        hint=hint,
        policies={
            "solver": solver_policy,
            "player": player_policy,
            "player-3": partial(player_policy, samples=ROBUST_SAMPLES),
        },
        default_max_states=EXACT_NODES,
    )
)
