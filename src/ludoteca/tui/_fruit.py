"""Fruit tiles in the terminal: the fruit's symbol and the number, in the fruit's colour."""

from __future__ import annotations

from rich.text import Text

from ludoteca.core.tiles import FRUIT_NAMES_IT, FRUIT_SYMBOLS, FRUITS, Tile

FRUIT_STYLES = ("red", "green", "bright_green", "magenta", "bright_red", "yellow")
"""One colour per fruit, in the order ``M P C U F B``."""


def tile_text(text: str) -> Text:
    """A tile given in notation (``4B``) as its coloured fruit symbol and number."""
    tile = Tile.parse(text)
    return Text(tile.symbol, style=f"bold {FRUIT_STYLES[tile.fruit]}")


def tiles_text(texts: list[str]) -> Text:
    """Tiles side by side, or a dim ``-`` when there are none."""
    return Text(" ").join(tile_text(t) for t in texts) if texts else Text("-", style="dim")


def legend() -> Text:
    """Which symbol is which fruit letter, for typing moves in notation."""
    return Text("  ").join(
        Text(f"{symbol} {letter} {name}", style=style)
        for symbol, letter, name, style in zip(
            FRUIT_SYMBOLS, FRUITS, FRUIT_NAMES_IT, FRUIT_STYLES, strict=True
        )
    )
