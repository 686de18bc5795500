"""Mosaico in the terminal: the mosaic inside its frame, the tile to place, the set-aside pile."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.tui._fruit import legend, tile_text, tile_width, tiles_text
from ludoteca.tui.base import Fitted, register_renderer


def _open_cells(observation: Mapping[str, Any]) -> set[tuple[int, int]]:
    """The cells where the tile to place may go, read from the legal moves (``4B@-1,3``)."""
    cells = set()
    for move in observation["legal_moves"]:
        where = move.partition("@")[2]
        if "," in where:
            row, col = where.split(",")
            cells.add((int(row), int(col)))
    return cells


def _mosaic(observation: Mapping[str, Any], padding: int = 1) -> Table:
    top, left = observation["origin"]
    grid = observation["mosaic"]
    tiles = {
        (top + r, left + c): tile
        for r, row in enumerate(grid)
        for c, tile in enumerate(row)
        if tile is not None
    }
    frame = observation["frame"]
    # The figure with one more ring where the frame allows it: where the next tiles go.
    rows = range(max(frame["rows"][0], top - 1), min(frame["rows"][1], top + len(grid)) + 1)
    cols = range(max(frame["cols"][0], left - 1), min(frame["cols"][1], left + len(grid[0])) + 1)
    fixed = frame["rows"][1] - frame["rows"][0] == 5 and frame["cols"][1] - frame["cols"][0] == 5
    title = "frame fixed" if fixed else "the frame still floats"
    table = Table(box=box.ROUNDED if fixed else box.SIMPLE, title=title, padding=(0, padding))
    # Every column as wide whatever it holds (a tile, "+", "·"; numbers -5..5 head them):
    # sized by their contents, a column without a tile was narrower than one with a tile.
    table.add_column("", justify="right", style="dim", width=2)
    width = max(tile_width(), 2)
    for col in cols:
        table.add_column(str(col), justify="center", width=width)
    open_cells = _open_cells(observation)
    for row in rows:
        line: list[Text] = [Text(str(row))]
        for col in cols:
            if (row, col) in tiles:
                line.append(tile_text(tiles[(row, col)]))
            elif (row, col) in open_cells:
                line.append(Text("+", style="bold cyan"))
            else:
                line.append(Text("·", style="dim"))
        table.add_row(*line)
    return table


def render(observation: Mapping[str, Any]) -> RenderableType:
    # Without padding where the terminal is narrow: Rich cut the tiles to "…" in a
    # 40-column terminal.
    parts: list[RenderableType] = [Fitted(_mosaic(observation), _mosaic(observation, 0))]
    current = observation["current"]
    if current is not None:
        source = (
            "back from the set-aside pile" if observation["current_from"] == "aside" else "drawn"
        )
        line = Text("Tile to place: ").append_text(tile_text(current))
        line.append(f" {current} ({source})")
        if not _open_cells(observation) and observation["legal_moves"]:
            line.append("  fits nowhere: set it aside", style="yellow")
        parts.append(line)
    parts.append(Text("Set aside, top first: ").append_text(tiles_text(observation["aside"])))
    parts.append(
        Text(
            f"Draw pile: {observation['draw_count']} face down   placed: {observation['placed']}/36"
        )
    )
    if observation["difficile"]:
        parts.append(Text("difficile: a cell touching 3 or 4 tiles must match 2", style="dim"))
    parts.append(legend())
    outcome = observation["outcome"]
    if outcome:
        won = outcome["winners"] == [0]
        verdict = "The mosaic is complete!" if won else "Stuck: the set-aside tile fits nowhere."
        parts.append(Text(verdict, style="bold green" if won else "bold red"))
    return Group(*parts)


register_renderer("mosaico", render)
