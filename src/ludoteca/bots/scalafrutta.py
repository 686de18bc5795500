"""Scalafrutta bots: ``greedy`` (best immediate gain) and ``strong`` (information-set MCTS).

Both see only their seat's observation. ``strong`` samples full states with the game's
``determinize`` (the unseen tiles dealt at random, consistent with the counts it sees) and
runs single-observer information-set MCTS over those samples: every iteration plays one
sample down the shared tree (UCB over the moves legal in that sample, with availability
counts), then plays it out to the end of the hand with a quick "tile fit" policy. At the
root it searches only the few insertions with the best immediate gain (greedy's measure).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ludoteca.bots._ismcts import Node, backpropagate
from ludoteca.bots.base import BotEntry, register_bot
from ludoteca.core.game import GameSpec
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import Tile
from ludoteca.games._scalafrutta_split import has_scalafrutta, holding_value
from ludoteca.games.scalafrutta import (
    GIFTS,
    LINES,
    PLAIN,
    Move,
    ScalafruttaState,
    determinize,
)

STRONG_ITERATIONS = 50
STRONG_CANDIDATES = {2: 4, 3: 4, 4: 2}
"""How many insertions, by player count, the search weighs: those with the best immediate
gains (see ``shortlist``). Measured: 4 wins most with 3 players, 2 with 4 (rules doc)."""
EXPLORATION = 0.7
ROLLOUT_NOISE = 0.1
"""Share of rollout moves played at random, so that samples do not all play alike."""


def _tile_masks() -> tuple[list[int], list[int], list[int]]:
    """Per tile: the other tiles of its number, of its fruit one apart, two apart."""
    same, near, far = [], [], []
    for t in range(36):
        number, fruit = t % 6, t // 6
        same.append(sum(1 << (f * 6 + number) for f in range(6) if f != fruit))
        near.append(sum(1 << (fruit * 6 + n) for n in range(6) if abs(n - number) == 1))
        far.append(sum(1 << (fruit * 6 + n) for n in range(6) if abs(n - number) == 2))
    return same, near, far


SAME, NEAR, FAR = _tile_masks()


def fit(holding: int, tile: int) -> int:
    """How much a tile helps a holding towards combinations (a cheap rollout estimate)."""
    if has_scalafrutta(holding | 1 << tile):
        return 1000
    return (
        2 * (holding & SAME[tile]).bit_count()
        + 3 * (holding & NEAR[tile]).bit_count()
        + (holding & FAR[tile]).bit_count()
    )


def _mask(tiles: list[str]) -> int:
    return sum(1 << Tile.parse(t).index for t in tiles)


def _known_holding(observation: Mapping[str, Any], seat: int) -> int:
    """A seat's captured tiles as far as the observer sees them (shown ones under coperte)."""
    captured = observation["captured"][seat]
    if captured is not None:
        return _mask(captured)
    return _mask([t for combo in observation["shown"][seat] for t in combo])


def greedy_gains(observation: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Every insertion with its immediate gain for the mover: how much the captured tile
    raises the mover's best split (a full fruit counts 500), or for a gift minus how much it
    raises the receiver's (as far as the mover sees the receiver's tiles)."""
    square = [Tile.parse(t).index for row in observation["square"] for t in row]
    me = observation["seat"]
    holdings = [_known_holding(observation, s) for s in range(observation["players"])]
    gains = []
    for text in observation["legal_moves"]:
        edge, line = text[0], int(text[1])
        out = square[LINES["LRTB".index(edge) * 3 + line - 1][2][2]]
        receiver = int(text[-1]) - 1 if ">" in text else me
        before = holdings[receiver]
        gain = holding_value(before | 1 << out) - holding_value(before)
        gains.append((text, gain if receiver == me else -gain))
    return gains


class GreedyBot:
    """Best immediate gain (``greedy_gains``): the insertion that raises the bot's best split
    the most; with no matching insertion, the gift that raises the receiver's value the least.
    Ties are broken at random; splits are the best split."""

    name = "greedy"

    def choose(self, observation: Mapping[str, Any], rng: DealRng) -> str:
        moves: list[str] = list(observation["legal_moves"])
        if observation["stage"] != "insert" or len(moves) == 1:
            return moves[0]
        gains = greedy_gains(observation)
        top = max(gain for _, gain in gains)
        return rng.choice([text for text, gain in gains if gain == top])


class StrongBot:
    """Single-observer ISMCTS over determinizations, ``iterations`` samples per move."""

    name = "strong"

    def __init__(self, iterations: int = STRONG_ITERATIONS, candidates: int | None = None) -> None:
        self.iterations = iterations
        self.candidates = candidates

    def choose(self, observation: Mapping[str, Any], rng: DealRng) -> str:
        moves: list[str] = list(observation["legal_moves"])
        if len(moves) == 1:
            return moves[0]
        allowed = set(self.shortlist(observation))
        if len(allowed) == 1:
            return allowed.pop()
        root: Node[Move] = Node()
        for _ in range(self.iterations):
            state = determinize(observation, rng)
            self._iterate(root, state, allowed, rng)
        best = max(root.children.items(), key=lambda item: item[1].visits)
        return str(best[0])

    def shortlist(self, observation: Mapping[str, Any]) -> list[str]:
        """The root moves worth searching: the ``candidates`` best by immediate gain (all
        moves when ``candidates`` is 0; ``STRONG_CANDIDATES`` for the player count when
        None). With up to 24 moves (12 insertions, each gift to 3 receivers with 4 players)
        a few dozen samples cannot tell them apart, while most are plainly poor; the search
        then spends its samples on what greedy cannot see (what the square offers the next
        players, a run growing over several turns)."""
        gains = sorted(greedy_gains(observation), key=lambda item: -item[1])
        count = self.candidates
        if count is None:
            count = STRONG_CANDIDATES[observation["players"]]
        return [text for text, _ in gains[: count or len(gains)]]

    def _iterate(
        self, root: Node[Move], state: ScalafruttaState, allowed: set[str], rng: DealRng
    ) -> None:
        hand = state.hand
        node, path = root, [root]
        while state.stage != "over" and state.hand == hand:
            moves = state.legal_moves()
            if node is root:
                moves = [m for m in moves if str(m) in allowed]
            if len(moves) == 1:  # splits and forced insertions need no statistics
                state.advance(moves[0])
                continue
            untried = node.untried(moves)
            player = state.to_move
            if untried:
                move = _rollout_move(state, rng)
                move = move if move in untried else rng.choice(untried)
                node = node.add(move, player)
                path.append(node)
                state.advance(move)
                break
            move = node.select(moves, EXPLORATION)
            node = node.children[move]
            path.append(node)
            state.advance(move)
        backpropagate(path, _play_out(state, hand, rng))


def _rollout_move(state: ScalafruttaState, rng: DealRng) -> Move:
    """The fit policy: capture the tile that best fits the mover's holding; with nothing
    matching, give away the tile that fits its receiver least."""
    if state.stage == "split":
        return state.best_split_move(state.to_move)
    square, held, me = state.square, state.held, state.to_move
    matching = state.matching_lines()
    noisy = rng.random() < ROLLOUT_NOISE
    if matching:
        if noisy:
            return PLAIN[rng.choice(matching)]
        scores = [fit(held[me], square[LINES[i][2][2]]) for i in matching]
        top = max(scores)
        return PLAIN[rng.choice([i for i, s in zip(matching, scores, strict=True) if s == top])]
    if noisy:
        return rng.choice(state.legal_moves())
    options = [
        (fit(held[s], square[cells[2]]), i, s)
        for i, (_, _, cells) in enumerate(LINES)
        for s in range(state.players)
        if s != me
    ]
    low = min(o[0] for o in options)
    _, line, seat = rng.choice([o for o in options if o[0] == low])
    return GIFTS[line][seat]


def _play_out(state: ScalafruttaState, hand: int, rng: DealRng) -> list[float]:
    """Play to the end of the hand; reward 1 to the leader(s) on the totals (shared)."""
    while state.stage != "over" and state.hand == hand:
        state.advance(_rollout_move(state, rng))
    totals = state.totals
    top = max(totals)
    leaders = [s for s in range(state.players) if totals[s] == top]
    return [1.0 / len(leaders) if s in leaders else 0.0 for s in range(state.players)]


register_bot(
    "scalafrutta",
    BotEntry("greedy", "the insertion that raises its best split most", lambda spec: GreedyBot()),
)


def _strong(spec: GameSpec) -> StrongBot:
    return StrongBot()


register_bot(
    "scalafrutta",
    BotEntry(
        "strong",
        f"weighs the greedy bot's best few moves over {STRONG_ITERATIONS} guesses at the "
        "hidden tiles",
        _strong,
    ),
)
