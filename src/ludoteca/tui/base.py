"""Terminal renderers, one per game, registered by game name.

A renderer turns an *observation* (never a full state) into a Rich renderable, so the
terminal can show only what the player may see.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.text import Text

from ludoteca.core.registry import discover

Renderer = Callable[[Mapping[str, Any]], RenderableType]

_RENDERERS: dict[str, Renderer] = {}
_discovered = False


def unicode_output() -> bool:
    """Whether standard output can write the suits and the fruits: not where its encoding
    lacks them (``PYTHONIOENCODING=ascii``, a Latin-1 terminal). There a tile is written in
    its notation (``4M``), and other characters get ASCII stand-ins
    (:func:`ludoteca.cli.app.readable_output`)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        "\u2663\U0001f34e".encode(encoding)  # (a club, an apple)
    except (UnicodeError, LookupError):
        return False
    return True


def register_renderer(game: str, renderer: Renderer) -> Renderer:
    _RENDERERS[game] = renderer
    return renderer


def generic_renderer(observation: Mapping[str, Any]) -> RenderableType:
    """Fallback: the observation as indented JSON, minus the move list shown elsewhere."""
    shown = {k: v for k, v in observation.items() if k != "legal_moves"}
    return Text(json.dumps(shown, indent=1, ensure_ascii=False))


def renderer_for(game: str) -> Renderer:
    global _discovered
    if not _discovered:
        discover("ludoteca.tui")
        _discovered = True
    return _RENDERERS.get(game, generic_renderer)


class Fitted:
    """The first of ``drawings`` (roomiest first) that fits the width the console gives it,
    else the last: a table too wide for a narrow terminal had its cells cut to "…" by Rich,
    tiles and all (Il Muro's face-up tiles at 40 columns)."""

    def __init__(self, *drawings: RenderableType) -> None:
        self.drawings = drawings

    def _chosen(self, console: Console, options: ConsoleOptions) -> RenderableType:
        unbounded = options.update_width(10_000)
        for drawing in self.drawings[:-1]:
            if Measurement.get(console, unbounded, drawing).maximum <= options.max_width:
                return drawing
        return self.drawings[-1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._chosen(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._chosen(console, options))


def append_outcome(status: Text, observation: Mapping[str, Any]) -> Text:
    """Add "won"/"lost" and why to a solitaire's status line once the game is over."""
    outcome = observation.get("outcome")
    if outcome:
        won = bool(outcome["winners"])
        verdict = "won" if won else "lost"
        why = outcome["termination"]
        status.append(
            f"   {verdict}" + ("" if why == verdict else f" ({why})"),
            style="bold green" if won else "bold red",
        )
    return status
