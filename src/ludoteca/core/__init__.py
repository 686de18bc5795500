"""The shared contract: cards, tiles, seeded deals, games, states, errors, notation."""

from ludoteca.core.cards import FULL_DECK, Card
from ludoteca.core.errors import (
    IllegalMoveError,
    LudotecaError,
    NotationError,
    SaveFileError,
    UnknownGameError,
)
from ludoteca.core.game import TERMINAL, GameSpec, Outcome, State, Variant
from ludoteca.core.registry import all_games, find_game, register
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES, Tile

__all__ = [
    "ALL_TILES",
    "FULL_DECK",
    "TERMINAL",
    "Card",
    "DealRng",
    "GameSpec",
    "IllegalMoveError",
    "LudotecaError",
    "NotationError",
    "Outcome",
    "SaveFileError",
    "State",
    "Tile",
    "UnknownGameError",
    "Variant",
    "all_games",
    "find_game",
    "register",
]
