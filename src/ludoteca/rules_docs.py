"""The rules documents, ``docs/rules/<game>.md``: the part for players, up to a marker line,
which the web's rules dialog and the terminal's ``rules`` command show."""

from __future__ import annotations

import re
from pathlib import Path

from ludoteca.core.game import GameSpec

PACKAGE = Path(__file__).resolve().parent
REPO = PACKAGE.parents[1]
PLAYERS_END = "<!-- the rules for players end here -->"
"""In a rules document, the line after which come the sources, rulings, solvers, bots and
measured figures: players are shown what comes before it."""


def players_part(spec: GameSpec, docs: Path | None = None) -> tuple[str, bool] | None:
    """The part of the game's rules document before :data:`PLAYERS_END`, and whether more
    follows it; None when no document is found (``docs``: a folder holding ``rules/``,
    looked in first)."""
    for path in _rules_paths(spec, docs):
        if path.is_file():
            text, cut, _ = path.read_text(encoding="utf-8").partition(PLAYERS_END)
            return text, bool(cut)
    return None


def without_sections(text: str, titles: tuple[str, ...]) -> str:
    """``text`` without its ``## `` sections of these titles (each up to the next ``## ``)."""
    parts = re.split(r"(?m)^(?=## )", text)
    return "".join(p for p in parts if not any(p.startswith(f"## {t}\n") for t in titles))


def _rules_paths(spec: GameSpec, docs: Path | None) -> list[Path]:
    name = f"{spec.name}.md"
    paths = [docs / "rules" / name] if docs else []
    if spec.rules_doc:
        paths.append(REPO / spec.rules_doc)
    return [*paths, REPO / "docs" / "rules" / name, PACKAGE / "rules" / name]
