"""Domino della Frutta bots: ``greedy`` (best immediate gain) and ``strong`` (ISMCTS).

Both see only their seat's observation. ``strong`` samples the hidden tiles with the game's
``determinize`` (consistent with the hand sizes and the set-aside count) and runs
single-observer information-set MCTS over those samples, with random placements as rollouts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ludoteca.bots._domino_rollout import encode, rollout
from ludoteca.bots._ismcts import Node, backpropagate
from ludoteca.bots.base import BotEntry, register_bot
from ludoteca.core.game import GameSpec
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import Tile
from ludoteca.games._domino_table import Table
from ludoteca.games.domino import (
    BLOCK,
    DRAW,
    OPEN,
    OUT,
    PLACE,
    DominoMove,
    DominoState,
    determinize,
    observed_table,
    parse_move,
)

STRONG_ITERATIONS = 200
EXPLORATION = 0.7


def _playable(table: Table, hand: list[Tile]) -> int:
    return sum(1 for t in hand if table.can_place(t))


def _open_cells(table: Table) -> int:
    return len(table.open_cells())


class GreedyBot:
    """Best immediate gain, in this order of preference:

    1. place a tile (one tile out of the hand), choosing the placement after which most of
       its remaining tiles can still be placed;
    2. else draw a set-aside tile (it may fit);
    3. else use the special move on the table tile whose blocking leaves the fewest placeable
       cells (it keeps the bot in the game one more turn);
    4. else go out. It never declares open play (no immediate gain).
    Ties are broken at random.
    """

    name = "greedy"

    def choose(self, observation: Mapping[str, Any], rng: DealRng) -> str:
        table = observed_table(observation)
        hand = [Tile.parse(t) for t in observation["hand"]]
        best: list[str] = []
        best_value = -math.inf
        for text in observation["legal_moves"]:
            value = self._value(parse_move(text), table, hand)
            if value > best_value:
                best, best_value = [text], value
            elif value == best_value:
                best.append(text)
        return rng.choice(best)

    @staticmethod
    def _value(move: DominoMove, table: Table, hand: list[Tile]) -> float:
        if move.kind == PLACE:
            assert move.tile is not None
            after = table.copy()
            after.place(move.tile, move.row)
            rest = [t for t in hand if t != move.tile]
            return 1000.0 + _playable(after, rest)
        if move.kind == DRAW:
            return 500.0
        if move.kind == BLOCK:
            assert move.tile is not None
            after = table.copy()
            after.block(move.tile)
            return 100.0 - _open_cells(after)
        if move.kind == OUT:
            return 0.0
        return -1.0  # open: no immediate gain


def _rewards(state: DominoState) -> list[float]:
    outcome = state.outcome()
    assert outcome is not None
    share = 1.0 / len(outcome.winners)
    return [share if p in outcome.winners else 0.0 for p in range(state.players)]


def _rollout(state: DominoState, rng: DealRng) -> list[float]:
    """Compiled random playout from ``state``; each player's reward (winners share 1)."""
    grid, hands, aside, flags = encode(state)
    left = rollout(grid, hands, aside, flags, rng.next64() >> 33)
    fewest = min(left)
    winners = [p for p in range(state.players) if left[p] == fewest]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(state.players)]


def _resample(base: DominoState, me: int, rng: DealRng) -> DominoState:
    """A fresh determinization: the hidden tiles of ``base`` dealt again at random.

    Equivalent to calling ``determinize`` on the observation again, but without re-reading it.
    """
    state = base.clone()
    hidden = [] if state.opened else [p for p in range(state.players) if p != me]
    pool = list(state.aside) + [t for p in hidden for t in state.hands[p]]
    rng.shuffle(pool)
    for p in hidden:
        size = len(state.hands[p])
        state.hands[p] = sorted(pool[:size])
        del pool[:size]
    state.aside = pool
    return state


def _searchable(state: DominoState) -> list[DominoMove]:
    # Declaring open play only reveals information, which a determinized search cannot value.
    return [m for m in state.legal_moves() if m.kind != OPEN]


class StrongBot:
    """Single-observer ISMCTS: ``iterations`` determinized descents per decision."""

    name = "strong"

    def __init__(self, iterations: int = STRONG_ITERATIONS) -> None:
        self.iterations = iterations

    def choose(self, observation: Mapping[str, Any], rng: DealRng) -> str:
        legal = [parse_move(t) for t in observation["legal_moves"]]
        candidates = [m for m in legal if m.kind != OPEN] or legal
        if len(candidates) == 1:
            return str(candidates[0])
        hand_size = len(observation["hand"])
        for move in candidates:
            if move.kind == PLACE and hand_size == 1:
                return str(move)  # the last tile: the game is won
        root: Node[DominoMove] = Node()
        # The bot moves only on its own turn, so a pending drawn tile is its own and known:
        # re-dealing the unseen tiles of one determinization gives every other sample.
        base = determinize(observation, rng)
        for _ in range(self.iterations):
            self._iterate(root, _resample(base, observation["you"], rng), rng)
        allowed = set(candidates)
        best = max(
            (m for m in root.children if m in allowed),
            key=lambda m: (root.children[m].visits, root.children[m].reward),
        )
        return str(best)

    def _iterate(self, root: Node[DominoMove], state: DominoState, rng: DealRng) -> None:
        path = [root]
        node = root
        while not state.is_over:
            moves = _searchable(state)
            untried = node.untried(moves)
            mover = state.to
            if untried:
                move = untried[rng.below(len(untried))]
                child = node.add(move, mover)
                state.advance(move)
                path.append(child)
                break
            move = node.select(moves, EXPLORATION)
            node = node.children[move]
            state.advance(move)
            path.append(node)
        backpropagate(path, _rewards(state) if state.is_over else _rollout(state, rng))


def _make_greedy(spec: GameSpec) -> GreedyBot:
    return GreedyBot()


def _make_strong(spec: GameSpec) -> StrongBot:
    return StrongBot()


register_bot(
    "domino",
    BotEntry(
        "greedy",
        "places the tile that leaves most of its hand still placeable, else draws",
        _make_greedy,
    ),
)
register_bot(
    "domino",
    BotEntry(
        "strong",
        f"plays out {STRONG_ITERATIONS} guesses at the hidden hands before each move",
        _make_strong,
    ),
)
