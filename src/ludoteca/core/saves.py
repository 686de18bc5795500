"""Saved games as JSON: game, variant, parameters, seed (or start position), seats, moves.

Loading replays every move through the checked path, so a file that was edited by hand or
cut short is refused with a message that says where it went wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.errors import LudotecaError, SaveFileError, shown
from ludoteca.core.game import State
from ludoteca.core.registry import find_game
from ludoteca.core.rng import check_deal_numbers

FORMAT = "ludoteca-save"
VERSION = 1


@dataclass
class SavedGame:
    game: str
    variant: str
    params: dict[str, Any]
    seed: int | None
    moves: list[str]
    players: int = 1
    seats: list[str] = field(default_factory=list)
    start: str | None = None
    """A start position in the game's notation, for games begun from ``--position``."""
    game_id: str | None = None
    """Which game this is (the terminal gives each game one when it begins): a game that
    ends, saved before its end, and ends again from the save is counted once."""
    practice: bool = False
    """Taken back past a move that showed hidden tiles (``ludoteca.core.practice``): its end
    is not counted. Written only when true; a file without it is not practice."""

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "variant": self.variant,
            "params": self.params,
            "seed": self.seed,
            "start": self.start,
            "players": self.players,
            "seats": self.seats,
            "moves": self.moves,
            **({"game_id": self.game_id} if self.game_id is not None else {}),
            **({"practice": True} if self.practice else {}),
        }

    def dumps(self) -> str:
        return json.dumps(self.as_json(), indent=1, ensure_ascii=False) + "\n"


def snapshot(
    state: State[Any],
    seats: list[str] | None = None,
    start: str | None = None,
    game_id: str | None = None,
    practice: bool = False,
) -> SavedGame:
    """What to write to disk for ``state``: its deal and its moves so far."""
    return SavedGame(
        game=state.spec.name,
        variant=state.variant.name,
        params=state.variant.params_json(),
        seed=state.seed,
        moves=state.history_text(),
        players=state.players,
        seats=list(seats or []),
        start=start,
        game_id=game_id,
        practice=practice,
    )


def parse_saved(text: str, source: str = "save") -> SavedGame:
    """Read the JSON of a save; :class:`SaveFileError` naming the problem if it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        # (err.msg may end in "at": "Unterminated string starting at: line 24 column 3")
        where = f"line {err.lineno} column {err.colno}"
        raise SaveFileError(f"{source}: not JSON ({err.msg}: {where})") from None
    except RecursionError:
        raise SaveFileError(f"{source}: not a saved game (lists nested too deep)") from None
    except ValueError:  # (Python reads no whole number of more than 4,300 digits)
        raise SaveFileError(f"{source}: not a saved game (a number far too long)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFileError(f'{source}: not a ludoteca saved game (no "format": "{FORMAT}")')
    if "version" not in data:
        raise SaveFileError(f'{source}: no "version" (this program reads version {VERSION})')
    if data["version"] != VERSION:
        raise SaveFileError(
            f"{source}: save format version {data['version']!r} is unknown "
            f"(this program reads version {VERSION})"
        )
    try:
        saved = SavedGame(
            game=_typed(data, "game", str),
            variant=_typed(data, "variant", str),
            params=_typed(data, "params", dict),
            seed=_optional_int(data, "seed"),
            start=data.get("start") if isinstance(data.get("start"), str) else None,
            players=_typed(data, "players", int),
            seats=_texts(
                _typed(data, "seats", list), "every seat must be text: 'you' or a bot's name"
            ),
            moves=_texts(
                _typed(data, "moves", list), "every move must be a string in the game's notation"
            ),
            game_id=_optional_text(data, "game_id"),
            practice=_optional_flag(data, "practice"),
        )
    except (KeyError, TypeError) as err:
        raise SaveFileError(f"{source}: {err.args[0]}") from None
    # One seat a player, or none named (a save of the engine's own, for a program to read):
    # a game of two with one seat failed later with an IndexError.
    if saved.seats and len(saved.seats) != saved.players:
        raise SaveFileError(
            f"{source}: {len(saved.seats)} seat{'' if len(saved.seats) == 1 else 's'} for a game "
            f"of {saved.players} player{'' if saved.players == 1 else 's'}"
        )
    return saved


KINDS = {
    str: "text",
    int: "a whole number",
    list: "a list",
    dict: 'an object of names and values ({"redeals": 1})',
}
"""How a save's field should be, in words for people (not Python's type names)."""


def _typed(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise KeyError(f'the field "{key}" is missing')
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f'the field "{key}" must be {KINDS.get(kind, kind.__name__)}')
    return value


def _optional_int(data: Mapping[str, Any], key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f'the field "{key}" must be an integer or null')
    return value


def _optional_text(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise TypeError(f'the field "{key}" must be text')
    return value


def _optional_flag(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise TypeError(f'the field "{key}" must be true or false')
    return value


def _texts(values: list[Any], why: str) -> list[str]:
    """A list of the save whose every item must be text (``why`` says what each should be)."""
    if not all(isinstance(value, str) for value in values):
        raise TypeError(why)
    return values


def restore(saved: SavedGame, source: str = "save") -> State[Any]:
    """Rebuild the game by replaying its moves; :class:`SaveFileError` if it does not replay."""
    try:
        spec = find_game(saved.game)
        if saved.variant.strip().lower() not in {v.name for v in spec.variants}:
            # Of the file, not of the user: "tappeto has no variant 'gaps'" read as if they
            # had asked for one.
            raise SaveFileError(
                f"{source}: the saved game of {spec.name} names variant "
                f"'{shown(saved.variant)}', which {spec.name} does not have"
            )
        variant = spec.variant(saved.variant, {k: _text(v) for k, v in saved.params.items()})
        if saved.seed is not None:
            check_deal_numbers(saved.seed)  # (replay showed "deal -5"; play refused it)
        if saved.start is not None:
            state = spec.from_position(saved.start, variant)
        elif saved.seed is not None:
            state = spec.new_game(variant, saved.seed, saved.players)
        else:
            raise SaveFileError(f"{source}: neither a seed nor a start position")
    except SaveFileError:
        raise
    except LudotecaError as err:
        raise SaveFileError(f"{source}: {err}") from None
    for number, move in enumerate(saved.moves, start=1):
        try:
            state.apply(move)
        except LudotecaError as err:
            raise SaveFileError(f"{source}: move {number} does not replay: {err}") from None
    return state


def _text(value: object) -> str:
    return "none" if value is None else str(value)


def loads(text: str, source: str = "save") -> tuple[SavedGame, State[Any]]:
    saved = parse_saved(text, source)
    return saved, restore(saved, source)
