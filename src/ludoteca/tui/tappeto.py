"""Tappeto in the terminal: foundations, the carpet grid and the size of the face-down reserve,
drawn from the observation only. Cards that may go up now are underlined."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.core.cards import SUIT_NAMES, Card
from ludoteca.tui.base import append_outcome, register_renderer

GAP = Text(" · ", style="dim")


def card_text(notation: str, playable: bool = False) -> Text:
    card = Card.parse(notation)
    style = "bold red" if card.is_red else "bold"
    return Text(f"{card.symbol:>3}", style=style + (" underline" if playable else ""))


def _foundations(observation: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE, show_edge=False, title="foundations")
    for name in SUIT_NAMES:
        table.add_column(name, justify="center")
    table.add_row(*(GAP if top is None else card_text(top) for top in observation["foundations"]))
    return table


def _carpet(observation: Mapping[str, Any]) -> Table:
    cols: int = observation["cols"]
    playable = set(observation["legal_moves"])
    table = Table(box=box.ROUNDED, show_header=False, title="carpet")
    for _ in range(cols):
        table.add_column(justify="center")
    cells = [GAP if c is None else card_text(c, c in playable) for c in observation["carpet"]]
    for row in range(observation["rows"]):
        table.add_row(*cells[row * cols : (row + 1) * cols])
    return table


def _status(observation: Mapping[str, Any]) -> Text:
    status = Text(f"reserve {observation['reserve_count']} face down", style="bold")
    status.append(f"   on foundations {observation['score']}/52")
    return append_outcome(status, observation)


def render(observation: Mapping[str, Any]) -> RenderableType:
    return Group(
        Text("Tappeto", style="bold"),
        _foundations(observation),
        _carpet(observation),
        _status(observation),
    )


register_renderer("tappeto", render)
