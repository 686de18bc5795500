"""Il Muro solvers, in two kinds that answer different questions:

- ``solver`` (winnable or not "with every tile known"): the compiled depth-first search over the
  whole deal, face-down tiles included, with a transposition table and a node limit.
- ``player`` ("a strong player who sees only what a player sees"): it reads the observation
  only, deals the unseen tiles at random into the face-down places, searches that sample, and
  follows the plan up to the next tile it turns; then it plans again with what it has seen.

The hint uses the player, so it never knows more than the person asking.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
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
from ludoteca.solvers.memory import remembering

EXACT_LABEL = "with every tile known"
PLAYER_LABEL = "the strong player's choice, from what you can see"
EXACT_NODES = 1_000_000
"""Default node limit of the all-known search (``--max-states`` overrides it)."""
PLAYER_NODES = 4_000
"""Node limit of each search the player makes on a sample (``--max-states`` overrides it)."""
ROBUST_SAMPLES = 3
"""Samples per plan of the ``player-3`` policy (the ``player`` policy uses one)."""
HINT_NODES = 20_000
HINT_SAMPLES = 3
HINT_PROOF_NODES_A_SECOND = 250_000
"""When no sample's search found progress, the hint makes one more search, of this many
nodes a second of its time (a fifth of the kernel's speed or less), that finds some or
proves there is none: the hint says resign only then."""
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
    return _observed_arrays(obs, lambda c, k: unseen.pop() + kernel.DOWN)


def _observed_arrays(obs: Mapping[str, Any], face_down: Callable[[int, int], int]) -> Arrays:
    """The arrays of an observation, ``face_down(column, height)`` giving the code of each
    face-down tile (called column by column, bottom first)."""
    cols, h, fc, fd, sc = _empty_arrays()
    for c, column in enumerate(obs["wall"]):
        h[c] = len(column)
        for k, text in enumerate(column):
            cols[c, k] = Tile.parse(text).index if text else face_down(c, k)
    _fill_tail(fc, fd, sc, obs)
    sc[kernel.FACE_DOWN] = sum(t is None for column in obs["wall"] for t in column)
    return cols, h, fc, fd, sc


Seen = tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]
"""Positions a search must not come back to: their table keys and idle counts."""


def seen_in_sample(sample: Arrays, played: Sequence[Mapping[str, Any]]) -> Seen:
    """The keys, in ``sample``, of positions played since the last progress: no tile was
    turned since, so their face-down tiles are the sample's, in the same places."""
    arrays = [_observed_arrays(obs, lambda c, k: int(sample[0][c, k])) for obs in played]
    keys = np.array([_key(a) for a in arrays], dtype=np.uint64)
    return keys, np.array([obs["idle"] for obs in played], dtype=np.int64)


def _key(arrays: Arrays) -> int:
    """The search's key of a position (its table entry)."""
    cols, h, fc, fd, sc = arrays
    ch = kernel.column_hashes(cols, h, kernel.ZOBRIST_COLUMN)
    zf, zb = kernel.ZOBRIST_FOUNDATION, kernel.ZOBRIST_BEST
    return int(kernel.position_key(ch, fc, fd, sc, zf, zb))


NOTHING_SEEN: Seen = (np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64))


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
many more idle moves in a row: their wins are wins under the rules too, and short ones are
found far sooner. Only the last search, under the rules' limit, can prove a deal lost."""


def run_search(
    arrays: Arrays,
    six: bool,
    idle_limit: int,
    node_limit: int,
    mode: int = kernel.PRUNED,
    seen: Seen = NOTHING_SEEN,
) -> Found:
    """What the staged search found for a position in arrays (``mode``: see the kernel),
    never coming back to a position in ``seen``."""
    total = 0
    best_line: list[int] = []
    best_gain = -1
    # The stages count from the idle moves already made: counted from 0 (as they were),
    # a position 20 idle moves in had only the search under the rules' limit left, whose
    # depth-first lines wander for dozens of moves before they turn a tile.
    idle = int(arrays[4][kernel.IDLE])
    stages = [idle + k for k in IDLE_STAGES if idle + k < idle_limit] + [idle_limit]
    for stage in stages:
        left = node_limit - total
        budget = left if stage == idle_limit else min(left, max(1, node_limit // 8))
        if budget <= 0:
            break
        result, nodes, path, line, gain = _search_once(arrays, six, mode, stage, budget, seen)
        total += nodes
        if gain > best_gain:
            best_line, best_gain = line, gain
        if result == kernel.WON or stage == idle_limit:
            return Found(result, total, path, best_line, best_gain)
    return Found(kernel.LIMIT, total, [], best_line, best_gain)


def _search_once(
    arrays: Arrays, six: bool, mode: int, idle_limit: int, node_limit: int, seen: Seen
) -> tuple[int, int, list[int], list[int], int]:
    cols, h, fc, fd, sc = (a.copy() for a in arrays)
    table = _table()
    generation = table.next_generation()
    kernel.mark_seen(table.keys, table.values, table.stamps, generation, *seen)
    path = np.zeros(kernel.MAX_DEPTH, dtype=np.int32)
    best = np.zeros(kernel.MAX_DEPTH, dtype=np.int32)
    result, nodes, length, best_length, gain = kernel.search(
        cols, h, fc, fd, sc, six, mode, idle_limit, node_limit,
        kernel.ZOBRIST_COLUMN, kernel.ZOBRIST_FOUNDATION, kernel.ZOBRIST_BEST,
        table.keys, table.values, table.stamps, generation, path, best,
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
    outcome = state.outcome()
    if outcome is not None:
        # The game is over (a resigned one was searched as if play went on, and "won").
        over = {"max_states": limit, "over": outcome.termination}
        return SolveResult(outcome.won, 0, 0.0, [], EXACT_LABEL, over)
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

    def __init__(
        self, six: bool, idle_limit: int, nodes: int, samples: int, proof_nodes: int = 0
    ) -> None:
        """``proof_nodes``: see :data:`HINT_PROOF_NODES_A_SECOND`; with 0 (the study
        policies) the player gives up as soon as its searches find no progress."""
        self.six = six
        self.idle_limit = idle_limit
        self.nodes = nodes
        self.proof_nodes = proof_nodes
        self.samples = samples
        self.plan: list[str] = []
        self.searched = 0
        self.searches = 0
        self.limit_hits = 0
        self.sure = False
        self.progress = True
        """The last plan leads to progress (or a win); False when no search found any."""
        self.hopeless = False
        """A search saw every line and none makes progress: the game is lost whatever is
        played (this does not depend on the sample: until a tile is turned, only face-up
        tiles move)."""

    def next_move(
        self, obs: Mapping[str, Any], rng: DealRng, played: Sequence[Mapping[str, Any]] = ()
    ) -> str:
        """The plan's next move, planning again when there is none; ``played``: the
        observations since the last progress (this one too), which a new plan avoids unless
        only a line through one of them makes progress (a plan remembered from another way
        to this position may pass one too: Il Muro has no repetition rule)."""
        if not self.plan or self.plan[0] not in obs["legal_moves"]:
            self.plan = self._make_plan(obs, rng, played)
        return self.plan.pop(0)

    def _make_plan(
        self, obs: Mapping[str, Any], rng: DealRng, played: Sequence[Mapping[str, Any]]
    ) -> list[str]:
        samples = [sample_arrays(obs, rng) for _ in range(self.samples)]
        plan = self._plan_on(obs, samples, played)
        if not plan and len(played) > 1:
            # Progress only by way of a position played before (the last move was wrong).
            plan = self._plan_on(obs, samples, ())
        if not plan and not self.hopeless and self.proof_nodes:
            # Whether progress can be made does not depend on the sample: one longer search
            # finds it or proves there is none.
            plan = self._plan_on(obs, samples[:1], (), self.proof_nodes)
        self.progress = bool(plan)
        if plan:
            return plan
        if self.hopeless or not self.proof_nodes:
            return ["resign"]
        # The longer search ran out too, which proves nothing: a move to a position not
        # played yet, and look again.
        return [self._fresh_move(samples[0], played)]

    def _plan_on(
        self,
        obs: Mapping[str, Any],
        samples: list[Arrays],
        played: Sequence[Mapping[str, Any]],
        nodes: int | None = None,
    ) -> list[str]:
        """The plan the samples agree on best: a winning line up to its first turn, else the
        line that made the most progress, or none when no search found progress."""
        wins: list[tuple[Arrays, list[int]]] = []
        fallback: list[str] = []
        fallback_gain = -1
        for arrays in samples:
            found = self._search(arrays, seen_in_sample(arrays, played), nodes)
            if found.result == kernel.WON:
                wins.append((arrays, _until_turn(found.path)))
            elif found.best_line and found.gain > fallback_gain:
                fallback = move_texts(arrays, found.best_line, until_turn=True)
                fallback_gain = found.gain
            elif not found.best_line and found.result == kernel.LOST and len(played) <= 1:
                self.hopeless = True
                break
        if not wins:
            return fallback
        self.sure = all(t is not None for column in obs["wall"] for t in column)
        chosen = wins[0]
        if len(samples) > 1:
            support = [self._support(win, samples) for win in wins]
            chosen = wins[support.index(max(support))]
        return move_texts(*chosen)

    def _fresh_move(self, arrays: Arrays, played: Sequence[Mapping[str, Any]]) -> str:
        """The first move (in the search's order) to a position not in ``played``."""
        moves = np.zeros(kernel.MAX_MOVES, dtype=np.int32)
        cols, h, fc, fd, sc = arrays
        count = kernel.gen_moves(cols, h, fc, fd, sc, self.six, kernel.PRUNED, moves)
        seen = set(seen_in_sample(arrays, played)[0].tolist())
        for move in moves[:count].tolist():
            if _key(_after(arrays, [move])) not in seen:
                return move_texts(arrays, [move])[0]
        return move_texts(arrays, moves[:1].tolist())[0] if count else "resign"

    def _search(self, arrays: Arrays, seen: Seen = NOTHING_SEEN, nodes: int | None = None) -> Found:
        limit = nodes or self.nodes
        found = run_search(arrays, self.six, self.idle_limit, limit, kernel.FORCED, seen)
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
    played: list[dict[str, Any]] = []  # since the last progress
    while not state.is_over:
        obs = state.observation(0)
        played = [*played, obs] if obs["idle"] else [obs]
        state.apply(planner.next_move(obs, rng, played))
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
    """The player's move for this position (the hint sees only the observation and the
    moves played). A hint goes on along the plan of the hint before it (:func:`_recall`), so
    hints followed move after move play each plan to its end."""
    assert isinstance(state, MuroState)
    six, idle_limit = _params(state)
    obs = state.observation(0)
    if not obs["legal_moves"]:
        return Hint(None, None, "the game is over")
    kept = _recall(state, obs)
    if kept is not None:
        return kept
    nodes = HINT_NODES if seconds >= 1 else PLAYER_NODES
    proof = max(nodes, int(seconds * HINT_PROOF_NODES_A_SECOND))  # 125,000 in 0.5 s
    planner = Planner(six, idle_limit, nodes, HINT_SAMPLES, proof)
    rng = DealRng(len(state.history), "muro", "hint")
    move = planner.next_move(obs, rng, _played_since_progress(state))
    left = idle_limit - state.idle
    if planner.hopeless:
        record = f"{state.best} tile" + ("" if state.best == 1 else "s")
        found = Hint(move, False, _HOPELESS.format(record=record, left=left))
    elif not planner.progress:
        found = Hint(move, None, f"{PLAYER_LABEL}: {_NOTHING_FOUND.format(left=left)}")
    elif planner.sure:
        found = Hint(move, True, "a sure win")
    else:
        found = Hint(move, None, f"{PLAYER_LABEL}, planned on guesses at the face-down tiles")
    if planner.progress:
        _remember(state, [move, *planner.plan], found)
    return found


_HOPELESS = (
    "no line of moves turns a tile or puts more than {record} on the new wall within the "
    "{left} moves left before the no-progress limit: the game is lost whatever you play"
)
_NOTHING_FOUND = (
    "the search found no way to turn a tile or add to the new wall, nor proved there is "
    "none; {left} moves left before the no-progress limit"
)


def _played_since_progress(state: MuroState) -> list[dict[str, Any]]:
    """What the player saw since the last progress, this position too: the game is walked
    back along its own moves (and forward again)."""
    played = [state.observation(0)]
    taken_back = []
    try:
        while state.idle > 0 and state.history:
            taken_back.append(state.undo())
            played.append(state.observation(0))
    finally:
        for move in reversed(taken_back):
            state.apply(move)
    return played


PLAN_POSITIONS = 20_000
"""Positions remembered across plans (the oldest go first): the hint's memory."""

_plans: OrderedDict[str, tuple[tuple[str, ...], int, Hint]] = OrderedDict()
_plans_lock = threading.Lock()


def _plan_key(state: MuroState, obs: Mapping[str, Any]) -> str:
    """What the player sees (never a face-down tile), idle count included."""
    seen = [obs["wall"], obs["foundations"], obs["idle"], obs["best"]]
    return f"{state.params!r} {json.dumps(seen)}"


def _remember(state: MuroState, moves: list[str], found: Hint) -> None:
    """Keep the plan behind a hint for every position along it. Each hint searched afresh
    on new samples, and the first move of the new plan often undid the last one: followed
    hint by hint, deal 3 sent 5U between c1 and c2 for 98 moves. A hint run only to load
    the kernels keeps nothing (:func:`ludoteca.solvers.memory.apart`)."""
    if not remembering():
        return
    copy = state.spec.from_position(state.position(), state.variant)
    assert isinstance(copy, MuroState)
    keys = []
    for move in moves:
        if move == "resign" or move not in copy.legal_moves_text():
            break
        keys.append(_plan_key(copy, copy.observation(0)))
        copy.apply(move)
    with _plans_lock:
        for at, key in enumerate(keys):
            _plans[key] = (tuple(moves), at, found)
            _plans.move_to_end(key)
        while len(_plans) > PLAN_POSITIONS:
            _plans.popitem(last=False)


def _recall(state: MuroState, obs: Mapping[str, Any]) -> Hint | None:
    """The next move of a remembered plan through this position, if it is legal here."""
    with _plans_lock:
        kept = _plans.get(_plan_key(state, obs))
    if kept is None:
        return None
    moves, at, found = kept
    return replace(found, move=moves[at]) if moves[at] in obs["legal_moves"] else None


def forget_plans() -> None:
    with _plans_lock:
        _plans.clear()


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
        policy_max_states={"player": PLAYER_NODES, "player-3": PLAYER_NODES},
    )
)
