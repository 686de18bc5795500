"""Il Muro in the terminal: the new wall (foundations) above the old wall, drawn from the
observation only, so a face-down tile is a plain back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.core.tiles import FRUITS
from ludoteca.tui._fruit import legend, tile_text, tile_width
from ludoteca.tui.base import Fitted, append_outcome, register_renderer

BACK = Text("▒▒▒", style="blue")
EMPTY = Text(" · ", style="dim")


def _cell(tile: str | None) -> Text:
    return BACK if tile is None else tile_text(tile)


def _foundations(observation: Mapping[str, Any], padding: int = 1, fixed: bool = True) -> Table:
    """The six foundations; ``fixed``: each column as wide as a built one ("🍎4 4↑"), so
    the letters stay put as foundations start (not where the terminal is too narrow)."""
    table = Table(
        box=box.SIMPLE, show_edge=False, title="new wall (foundations)", padding=(0, padding)
    )
    width = tile_width() + cell_len(" 6↑") if fixed else None
    for letter in FRUITS:
        table.add_column(letter, justify="center", width=width)
    row = []
    for built in observation["foundations"]:
        if not built:
            row.append(EMPTY)
            continue
        direction = "↑" if built[0].startswith("1") else "↓"
        row.append(tile_text(built[-1]).append(f" {len(built)}{direction}", style="dim"))
    table.add_row(*row)
    return table


def _wall(observation: Mapping[str, Any], padding: int = 1) -> Table:
    """Columns side by side, bottom tile first: the tile that may move is the lowest drawn.
    Every column is as wide as its widest possible cell, in terminal cells (a fruit symbol
    is two wide), whatever it holds: sized by its contents, a column with no face-up tile
    was a cell narrower than the others and the board moved sideways."""
    wall: list[list[str | None]] = observation["wall"]
    table = Table(box=box.SIMPLE, show_edge=False, title="wall", padding=(0, padding))
    width = max(tile_width(), cell_len(BACK.plain))
    for number in range(1, len(wall) + 1):
        table.add_column(f"c{number}", justify="center", width=width)
    height = max((len(column) for column in wall), default=0)
    for depth in range(max(height, 1)):
        table.add_row(
            *(_cell(column[depth]) if depth < len(column) else Text("") for column in wall)
        )
    return table


def _status(observation: Mapping[str, Any]) -> Text:
    status = Text(f"on foundations {observation['on_foundations']}/36", style="bold")
    status.append(f"   moves without progress {observation['idle']}/{observation['idle_limit']}")
    return append_outcome(status, observation)


def render(observation: Mapping[str, Any]) -> RenderableType:
    title = "Il Muro" + (" (facile)" if observation.get("may_start_with_six") else "")
    return Group(
        Text(title, style="bold"),
        # Without padding where the terminal is narrow (the foundations need 53 columns with
        # it, 41 without, and fit in fewer only as wide as their tiles): Rich cut the
        # face-up tiles to "…" in a 40-column terminal.
        Fitted(
            _foundations(observation),
            _foundations(observation, 0),
            _foundations(observation, 0, fixed=False),
        ),
        Fitted(_wall(observation), _wall(observation, 0)),
        _status(observation),
        legend(),
    )


register_renderer("muro", render)
