"""Il Muro in the terminal: the new wall (foundations) above the old wall, drawn from the
observation only, so a face-down tile is a plain back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.core.tiles import FRUITS
from ludoteca.tui._fruit import legend, tile_text
from ludoteca.tui.base import Fitted, append_outcome, register_renderer

BACK = Text("▒▒▒", style="blue")
EMPTY = Text(" · ", style="dim")


def _cell(tile: str | None) -> Text:
    return BACK if tile is None else Text(" ").append_text(tile_text(tile))


def _foundations(observation: Mapping[str, Any], padding: int = 1) -> Table:
    table = Table(
        box=box.SIMPLE, show_edge=False, title="new wall (foundations)", padding=(0, padding)
    )
    for letter in FRUITS:
        table.add_column(letter, justify="center")
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
    """Columns side by side, bottom tile first: the tile that may move is the lowest drawn."""
    wall: list[list[str | None]] = observation["wall"]
    table = Table(box=box.SIMPLE, show_edge=False, title="wall", padding=(0, padding))
    for number in range(1, len(wall) + 1):
        table.add_column(f"c{number}", justify="center")
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
        # Without padding where the terminal is narrow (the wall needs 41 columns with it,
        # 29 without): Rich cut the face-up tiles to "…" in a 40-column terminal.
        Fitted(_foundations(observation), _foundations(observation, 0)),
        Fitted(_wall(observation), _wall(observation, 0)),
        _status(observation),
        legend(),
    )


register_renderer("muro", render)
