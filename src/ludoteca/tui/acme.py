"""Acme in the terminal: the reserve (top card and count), the four columns, the foundations,
the stock count and the waste's top, drawn from the observation only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ludoteca.core.cards import SUIT_NAMES, Card
from ludoteca.tui.base import append_outcome, register_renderer


def empty() -> Text:
    return Text(" · ", style="dim")  # a new Text each time: callers append to it


def card_text(notation: str | None) -> Text:
    if notation is None:
        return empty()
    card = Card.parse(notation)
    return Text(f"{card.symbol:>3}", style="bold red" if card.is_red else "bold")


def _foundations(observation: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE, show_edge=False, title="foundations")
    for name in SUIT_NAMES:
        table.add_column(name, justify="center")
    table.add_row(*(card_text(top) for top in observation["foundations"]))
    return table


def _piles(observation: Mapping[str, Any]) -> Table:
    table = Table(box=box.SIMPLE, show_edge=False)
    for title in ("reserve", "stock", "waste"):
        table.add_column(title, justify="center")
    reserve = card_text(observation["reserve_top"])
    reserve.append(f" ({observation['reserve_count']})", style="dim")
    waste = card_text(observation["waste_top"])
    waste.append(f" ({len(observation['waste'])})", style="dim")
    table.add_row(reserve, Text(f"{observation['stock_count']} face down"), waste)
    return table


def _columns(observation: Mapping[str, Any]) -> Table:
    columns: list[list[str]] = observation["columns"]
    table = Table(box=box.ROUNDED, title="columns")
    for i in range(len(columns)):
        table.add_column(f"c{i + 1}", justify="center")
    depth = max(1, *(len(col) for col in columns))
    for row in range(depth):
        cells = [card_text(col[row]) if row < len(col) else Text("") for col in columns]
        if row == 0:
            cells = [cell if col else empty() for cell, col in zip(cells, columns, strict=True)]
        table.add_row(*cells)
    return table


def _status(observation: Mapping[str, Any]) -> Text:
    left = observation["turns_left"]
    status = Text(f"on foundations {observation['score']}/52", style="bold")
    status.append(f"   waste turned {observation['turns_used']}×")
    status.append("" if left is None else f" ({left} left)")
    # As the other solitaires say it: a win read "won (won)".
    return append_outcome(status, observation)


def render(observation: Mapping[str, Any]) -> RenderableType:
    return Group(
        Text("Acme", style="bold"),
        _foundations(observation),
        _piles(observation),
        _columns(observation),
        _status(observation),
    )


register_renderer("acme", render)
