"""Players for the multiplayer games. A bot sees exactly what its seat sees.

A bot gets the observation of its seat (the same JSON a remote person gets) and returns a move
in notation; it never touches the full state, so it cannot cheat. Game modules that let a bot
search over hidden tiles provide a ``determinize`` function in their ``GameSpec.extra``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ludoteca.core.errors import UnknownGameError
from ludoteca.core.game import GameSpec
from ludoteca.core.registry import discover
from ludoteca.core.rng import DealRng


class Bot(Protocol):
    name: str

    def choose(self, observation: Mapping[str, Any], rng: DealRng) -> str:
        """The move (notation) to play, chosen from ``observation["legal_moves"]``."""
        ...


BotFactory = Callable[[GameSpec], Bot]


@dataclass(frozen=True)
class BotEntry:
    name: str
    description: str
    factory: BotFactory


_BOTS: dict[tuple[str, str], BotEntry] = {}
"""Keyed by (game name or ``*`` for every game, bot name)."""
_discovered = False


def register_bot(game: str, entry: BotEntry) -> BotEntry:
    _BOTS[(game, entry.name)] = entry
    return entry


def _ensure() -> None:
    global _discovered
    if not _discovered:
        discover("ludoteca.bots")
        _discovered = True


def bots_for(game: str) -> dict[str, BotEntry]:
    _ensure()
    found = {name: e for (g, name), e in _BOTS.items() if g == "*"}
    found.update({name: e for (g, name), e in _BOTS.items() if g == game})
    return found


def make_bot(spec: GameSpec, name: str) -> Bot:
    found = bots_for(spec.name)
    if name not in found:
        raise UnknownGameError(
            f"no bot '{name}' for {spec.name} (bots: {', '.join(sorted(found))})"
        )
    return found[name].factory(spec)


class RandomBot:
    """Plays a uniformly random legal move: the baseline every other bot must beat."""

    name = "random"

    def choose(self, observation: Mapping[str, Any], rng: DealRng) -> str:
        moves = list(observation["legal_moves"])
        return str(rng.choice(moves))


register_bot("*", BotEntry("random", "a uniformly random legal move", lambda spec: RandomBot()))
