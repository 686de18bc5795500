"""What the home page offers: the games, their variants and parameters, bots, rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from ludoteca.bots.base import bots_for
from ludoteca.core.game import GameSpec
from ludoteca.core.registry import all_games
from ludoteca.hints import has_hint

PACKAGE = Path(__file__).resolve().parents[1]
REPO = PACKAGE.parents[1]
WEB = PACKAGE / "web"
PLAYERS_END = "<!-- the rules for players end here -->"
"""In a rules document, the line after which come the solvers, bots and measured figures:
the web's rules dialog shows players what comes before it."""


def catalog() -> list[dict[str, Any]]:
    return [_game(spec) for spec in all_games()]


def _game(spec: GameSpec) -> dict[str, Any]:
    bots = {} if spec.is_solitaire else bots_for(spec.name)
    return {
        "name": spec.name,
        "title": spec.title,
        "description": spec.description,
        "solitaire": spec.is_solitaire,
        "min_players": spec.min_players,
        "max_players": spec.max_players,
        "hidden_information": spec.hidden_information,
        "variants": [
            {"name": v.name, "description": v.description, "params": v.params_json()}
            for v in spec.variants
        ],
        "bots": [{"name": b.name, "description": b.description} for b in bots.values()],
        "hint": has_hint(spec),
        "table": (WEB / "games" / f"{spec.name}.js").is_file(),
    }


def rules_html(spec: GameSpec, docs: Path | None = None) -> str:
    """The player's part of the game's rules document (up to :data:`PLAYERS_END`) as HTML,
    with a line that says where the rest is; a short note when the file is missing."""
    for path in _rules_paths(spec, docs):
        if path.is_file():
            text, cut, _ = path.read_text(encoding="utf-8").partition(PLAYERS_END)
            # js-default: tables on, raw HTML off (the page shows the output as-is).
            html = str(MarkdownIt("js-default").render(text))
            if cut:
                where = _escape(spec.rules_doc or f"docs/rules/{spec.name}.md")
                html += (
                    "<p><em>How the solvers and bots work, and the measured figures, are in"
                    f" {where} in the project.</em></p>"
                )
            return html
    return (
        f"<h1>{_escape(spec.title)}</h1><p>{_escape(spec.description)}</p>"
        f"<p><em>The full rules ({_escape(spec.rules_doc or spec.name)}) are not"
        " available on this server.</em></p>"
    )


def _rules_paths(spec: GameSpec, docs: Path | None) -> list[Path]:
    name = f"{spec.name}.md"
    paths = [docs / "rules" / name] if docs else []
    if spec.rules_doc:
        paths.append(REPO / spec.rules_doc)
    return [*paths, REPO / "docs" / "rules" / name, PACKAGE / "rules" / name]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
