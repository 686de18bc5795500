"""The registry of games. Each module in :mod:`ludoteca.games` registers its :class:`GameSpec`.

Adding a game is adding one module there: discovery imports every module of the package.
"""

from __future__ import annotations

import importlib
import pkgutil

from ludoteca.core.errors import UnknownGameError, shown
from ludoteca.core.game import GameSpec

_GAMES: dict[str, GameSpec] = {}
_discovered = False


def register(spec: GameSpec) -> GameSpec:
    if spec.name in _GAMES and _GAMES[spec.name] is not spec:
        raise ValueError(f"game '{spec.name}' registered twice")
    _GAMES[spec.name] = spec
    return spec


def discover(package: str) -> None:
    """Import every module of ``package`` (the games, solvers or bots) so they register."""
    root = importlib.import_module(package)
    for info in pkgutil.iter_modules(root.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{package}.{info.name}")


def _ensure() -> None:
    global _discovered
    if not _discovered:
        discover("ludoteca.games")
        _discovered = True


def all_games() -> list[GameSpec]:
    _ensure()
    return sorted(_GAMES.values(), key=lambda g: (g.max_players > 1, g.name))


def find_game(name: str) -> GameSpec:
    """Find a game by name, alias or variant name, ignoring case: ``find_game("montana")``."""
    _ensure()
    wanted = name.strip().lower()
    for spec in _GAMES.values():
        if wanted == spec.name or wanted in spec.aliases:
            return spec
    for spec in _GAMES.values():
        if any(wanted == v.name for v in spec.variants):
            return spec
    known = ", ".join(sorted(_GAMES))
    raise UnknownGameError(f"no game called '{shown(name)}' (games: {known})")


def variant_for(spec: GameSpec, name: str, variant: str | None) -> str | None:
    """The variant a user means: ``--variant`` if given, else a variant named like the game
    they typed (``play montana`` plays Gaps' ``montana`` variant)."""
    if variant is not None:
        return variant
    wanted = name.strip().lower()
    names = {v.name for v in spec.variants}
    return wanted if wanted in names and wanted != spec.name else None
