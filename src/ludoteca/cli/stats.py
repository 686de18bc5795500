"""``ludoteca stats``: your finished games per game and variant (played, won, best, streaks)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Group
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ludoteca.cli.app import Unbroken, app, console
from ludoteca.cli.common import DbOpt, JsonOpt, db_exists, results_db
from ludoteca.core.errors import UnknownGameError
from ludoteca.core.game import key_shown
from ludoteca.core.registry import find_game, variant_for
from ludoteca.store.results import game_statistics


@app.command("stats")
def stats_command(
    game: Annotated[
        str | None,
        typer.Argument(help="Only this game, by name or alias; a variant's name: only it."),
    ] = None,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Completion statistics of the games you finished at the terminal.

    Solitaires and games against bots; Gaps' games, every variant's, count the redeals used too.

    The web app keeps its own, per browser."""
    wanted, named = _wanted(game)
    rows = []
    if db_exists(db):
        with results_db(db) as connection:
            rows = [r for r in game_statistics(connection) if wanted(r)]
    if as_json:
        for row in rows:
            print(json.dumps(row))
        return
    # Light rules, one space between columns, the figures' headings on two lines: in a boxed
    # table of eight columns each took a tenth of an 80-column terminal and a variant with
    # changed parameters folded mid-name ("gaps[suit" / "s=2,ranks" / "=4]"). The variant
    # sits under its game, as text (not markup: gaps[redeals=0]), broken after its "[" and
    # commas only; the default variant as dealt is the game's name alone.
    table = Table(title="your games", box=box.SIMPLE_HEAD, padding=0, show_edge=False)
    table.add_column("game\n  variant", overflow="fold")
    # Redeals only where some game had them (Gaps): a column of zeros for every other game.
    redeals = any(r["redeals_used"] for r in rows)
    figures = ["played", "won", "best\nscore", "streak", "best\nstreak"]
    for column in [*figures, *(["redeals\nused"] if redeals else [])]:
        table.add_column(column, justify="right")
    for r in rows:
        # As the game's title writes it (penalty=2, not the stored penalty=2.0).
        label = key_shown(str(r["variant"]))
        name = Text(r["game"], style="bold")
        cells = [
            name
            if label == r["game"]
            else Group(name, Padding(Unbroken.label(label), (0, 0, 0, 2))),
            str(r["played"]),
            str(r["won"]),
            best_text(r["game"], r["best_score"]),
            streak_text(r["streak"]),
            streak_text(r["best_streak"]),
        ]
        table.add_row(*cells, *([str(r["redeals_used"])] if redeals else []))
    # Of the game (and variant) named, where one is: "no finished games yet" beside a table
    # of other games' seemed to say there were none at all.
    of = f" of {named}" if named else ""
    console.print(table if rows else Text(f"no finished games{of} yet"), soft_wrap=True)


def best_text(game: str, score: float) -> str:
    """A best score as it reads: the number, or where the score is minus what is left
    (Domino, ``GameSpec.score_left``) how few were left, "1 tile left" (it read "-1")."""
    try:
        left = find_game(game).score_left
    except UnknownGameError:  # a game no longer known: its number as stored
        left = None
    if left is None:
        return f"{score:g}"
    count = -score
    return f"{count:g} {left[0] if count == 1 else left[1]} left"


def streak_text(streak: int) -> str:
    """A streak in words: "3 won" or "5 lost" in a row (the JSON keeps the signed number;
    the table showed a losing streak as a bare -5). Only a best streak can be 0, where no
    game was won: "none" (it read "-")."""
    if streak == 0:
        return "none"
    return f"{abs(streak)} {'won' if streak > 0 else 'lost'}"


def _wanted(game: str | None) -> tuple[Callable[[dict[str, Any]], bool], str]:
    """Which rows to show: a game found as ``play`` finds it (an unknown name is an error, not
    an empty table), and for a variant's name (``addiction``) that variant alone, whatever
    parameters were changed (``addiction[penalty=2]``). With it, what was asked for in the
    table's names ("gaps · no-redeal", "tappeto"; "" for every game)."""
    if game is None:
        return (lambda row: True), ""
    spec = find_game(game)
    variant = variant_for(spec, game, None)
    named = spec.name if variant is None else f"{spec.name} · {variant}"

    def wanted(row: dict[str, Any]) -> bool:
        return row["game"] == spec.name and variant in (None, str(row["variant"]).partition("[")[0])

    return wanted, named
