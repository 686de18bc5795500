"""Fruit tiles in the terminal: the fruit's symbol and the number, in the fruit's colour."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from ludoteca.core.tiles import FRUIT_NAMES_IT, FRUIT_SYMBOLS, FRUITS, Tile
from ludoteca.tui.base import unicode_output

FRUIT_STYLES = ("red", "green", "bright_green", "magenta", "bright_red", "yellow")
"""One colour per fruit, in the order ``M P C U F B``."""


def tile_text(text: str) -> Text:
    """A tile given in notation (``4B``) as its coloured fruit symbol and number."""
    tile = Tile.parse(text)
    shown = tile.symbol if unicode_output() else str(tile)
    return Text(shown, style=f"bold {FRUIT_STYLES[tile.fruit]}")


def tile_width() -> int:
    """The terminal cells one tile takes: 3 for a fruit symbol (two cells wide) and its
    number, 2 where tiles are written in notation. A board's columns are made this wide
    (or wider) whatever they hold: sized by their contents, a column with no face-up tile
    was narrower, and the board shifted sideways as tiles came and went."""
    return cell_len(tile_text("1M").plain)


def tiles_text(texts: list[str]) -> Text:
    """Tiles side by side, or a dim ``-`` when there are none."""
    return Text(" ").join(tile_text(t) for t in texts) if texts else Text("-", style="dim")


def legend() -> Text:
    """Which symbol is which fruit letter, for typing moves in notation (where the symbols
    are not shown, which letter is which fruit)."""
    symbols = FRUIT_SYMBOLS if unicode_output() else ("",) * len(FRUITS)
    return Text("  ").join(
        Text(f"{symbol} {letter} {name}".lstrip(), style=style)
        for symbol, letter, name, style in zip(
            symbols, FRUITS, FRUIT_NAMES_IT, FRUIT_STYLES, strict=True
        )
    )


def seat_names(observation: Mapping[str, Any]) -> list[str] | None:
    """Who sits where ("you", a person, or a bot's name), when the caller gave the seats."""
    names = observation.get("seat_names")
    return list(names) if isinstance(names, list) else None


def seat_label(observation: Mapping[str, Any], seat: int, prefix: str) -> str:
    """A seat as the panel names it: ``P2 (strong)``, ``seat 3 (greedy)``, ``P1 (you)``.

    Given the seats, a bot's seat is named by its bot, even when its view is the one shown
    (a replay ``--as-player``), and a person's reads "(you)" when it is the view shown or the
    one person at the table; with several people, the others' seats are numbers only."""
    label = f"{prefix}{seat + 1}"
    viewer = observation.get("you", observation.get("seat"))
    names = seat_names(observation)
    if names is None or seat >= len(names):
        return label + " (you)" if seat == viewer else label
    people = [s for s, name in enumerate(names) if name in PEOPLE]
    if names[seat] not in PEOPLE:
        return f"{label} ({names[seat]})"
    return label + " (you)" if seat == viewer or people == [seat] else label


PEOPLE = frozenset({"you", "human"})
"""How a person's seat is named: ``you`` at the terminal, ``human`` in the web's records."""
