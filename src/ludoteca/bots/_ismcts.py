"""The tree shared by the strong bots: single-observer information-set MCTS.

Each iteration searches one determinization, so a move may be legal in some samples and not in
others; a child therefore counts how often it was *available*, and UCB uses that count in
place of the parent's visits.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

M = TypeVar("M", bound=Hashable)


@dataclass
class Node(Generic[M]):
    player: int = -1
    """Who made the move into this node: its rewards are that player's."""
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[M, Node[M]] = field(default_factory=dict)

    def untried(self, moves: Sequence[M]) -> list[M]:
        """Count every known child of ``moves`` as available once more; return the new ones."""
        for move in moves:
            if move in self.children:
                self.children[move].available += 1
        return [m for m in moves if m not in self.children]

    def add(self, move: M, player: int) -> Node[M]:
        child: Node[M] = Node(player, available=1)
        self.children[move] = child
        return child

    def select(self, moves: Sequence[M], exploration: float) -> M:
        """The child of ``moves`` with the best upper confidence bound (all tried)."""
        return max(moves, key=lambda m: self.children[m].ucb(exploration))

    def ucb(self, exploration: float) -> float:
        mean = self.reward / self.visits
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


def backpropagate(path: Sequence[Node[M]], rewards: Sequence[float]) -> None:
    """Credit each node below the root with the reward of the player who moved into it."""
    for visited in path[1:]:
        visited.visits += 1
        visited.reward += rewards[visited.player]
