"""What the home page offers: the games, their variants and parameters, bots, rules."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from ludoteca.bots.base import bots_for
from ludoteca.core.game import GameSpec
from ludoteca.core.registry import all_games
from ludoteca.hints import has_hint
from ludoteca.rules_docs import PACKAGE, PLAYERS_END, players_part, without_sections

WEB = PACKAGE / "web"
__all__ = ["PLAYERS_END", "WEB", "catalog", "rules_html"]


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
        # Where the score is minus what is left (Domino): its units, to word a best score.
        "score_left": list(spec.score_left) if spec.score_left else None,
        "variants": [
            {
                "name": v.name,
                "title": v.title,
                "description": v.description,
                "params": v.params_json(),
            }
            for v in spec.variants
        ],
        "param_help": spec.param_help_json(),
        "param_limits": spec.param_limits_json(),
        "bots": [{"name": b.name, "description": b.description} for b in bots.values()],
        "hint": has_hint(spec),
        "table": (WEB / "games" / f"{spec.name}.js").is_file(),
    }


def rules_html(spec: GameSpec, docs: Path | None = None) -> str:
    """The player's part of the game's rules document (up to :data:`PLAYERS_END`) as HTML,
    with a line that says where the rest is; a short note when the file is missing."""
    found = players_part(spec, docs)
    if found is not None:
        text, cut = found
        text = without_sections(text, TERMINAL_ONLY)
        # js-default: tables on, raw HTML off (the page shows the output as-is).
        text = _in_players_words(CODE_ASIDE.sub("", _without_sources(text)))
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


CODE_ASIDE = re.compile(r"\s*\(`[A-Za-z_][\w.]*\([^`]*\)`[^()]*\)")
"""An aside for developers that opens with a call in code, such as the seed's shuffle
(`` (`DealRng(seed, "gaps")`) ``): the rules dialog leaves it out."""

CITES_A_FILE = re.compile(r"`[^`]*(?:/|\.(?:md|txt|py))[^`]*`|RULES\.md")
"""A sentence that names a file of the project (`src/...`, a seed's `.txt`, RULES.md)."""


FILE_ASIDE = re.compile(r"\s*\(`?[\w./-]+\.(?:py|md|txt)`?\)")
"""An aside that only names a file of the project, such as ``(tests/games/test_x.py)``."""

RULED = re.compile(r"RULES\.md(?: \*?(assumption)\*?)?")
"""Our rulings file, cited after a rule; players read "our ruling" (or "our assumption")."""

THE_TEXT = re.compile(
    r"(?<!from )(?<!from the )\b(?:([Tt]he) )?seed(?=(?:'s|,|:| (?:says|sets|forbids|places"
    r"|moves|calls|ends|only|is silent|has|leaves)\b))"
)
""""The seed" meaning the original rule text (as the documents cite it), not a deal number
("shuffled from the seed"): cited with a comma or colon, owning something, saying something."""

OPENS = re.compile(r"(?:^|[.|]|^\s*(?:[-*]|\d+\.))[\s*]*$")
"""What comes before the first word of a sentence, a list item or a table cell."""


def _in_players_words(text: str) -> str:
    """The rules documents cite their sources for developers: ``RULES.md``, "the seed" (the
    original rule text), a test file. The dialog says "our ruling" and "the original text",
    and leaves out an aside that only names a file."""
    text = FILE_ASIDE.sub("", text)

    def ruled(match: re.Match[str]) -> str:
        line = text[text.rfind("\n", 0, match.start()) + 1 : match.start()]
        our = "Our" if OPENS.search(line) else "our"
        return f"{our} {match.group(1) or 'ruling'}"

    def the_text(match: re.Match[str]) -> str:
        return f"{match.group(1)} original text" if match.group(1) else "original text"

    text = RULED.sub(ruled, text)
    return THE_TEXT.sub(the_text, text)


TERMINAL_ONLY = ("Notation", "Terminal board")
"""Sections of a rules document for the terminal and the tools (moves typed as text, the
board drawn in characters): the web's rules dialog leaves them out."""


def _without_sources(text: str) -> str:
    """The rules without the opening's sentences for developers: which seed text, rulings,
    engine, solver and board files the game comes from. The opening is what comes before the
    first section heading; its other sentences (who plays, with what) stay."""
    head, heading, body = text.partition("\n## ")
    kept = []
    for paragraph in re.split(r"\n\s*\n", head):
        if paragraph.lstrip().startswith("#"):
            kept.append(paragraph)
            continue
        sentences = re.split(r"(?<=[.;])\s+(?=[A-Z])", " ".join(paragraph.split()))
        left = " ".join(s for s in sentences if not CITES_A_FILE.search(s))
        if left:
            kept.append(left)
    return "\n\n".join(kept) + "\n" + heading + body


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
