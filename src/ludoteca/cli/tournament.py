"""``ludoteca tournament``: bots against bots, seats rotated, win rates with intervals."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from ludoteca.cli.app import app, console, fail, progress_bar
from ludoteca.cli.common import JsonOpt, VariantOpt, parse_params, seat_names
from ludoteca.cli.interrupt import stop_at_once_on_ctrl_c
from ludoteca.core.registry import find_game
from ludoteca.studies.tournament import run_tournament


@app.command("tournament")
def tournament_command(
    game: Annotated[str, typer.Argument(help="A game for 2-4 players.")],
    players: Annotated[
        str | None,
        typer.Option(
            help="The bots, one per seat, e.g. strong,greedy: strong, greedy or random "
            "(no default: name one for each seat)."
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="How many games.")] = 100,
    variant: VariantOpt = None,
    param: Annotated[
        list[str] | None,
        typer.Option(
            "--param",
            "-p",
            help="Set a variant parameter, e.g. -p square_ban=false in domino (repeatable; "
            "each game's parameters: 'ludoteca games GAME').",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="First deal number.")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Play bots against each other with seats rotated; report win rates and 95% intervals."""
    if players is None:
        # The game first: a solitaire was told that --players was missing.
        spec = find_game(game)
        if spec.is_solitaire:
            raise fail(f"{spec.name} is a solitaire: use 'ludoteca study'")
        raise fail("say which bots sit at the table: --players strong,greedy (one per seat)")
    bots = seat_names(players)
    if jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}")
    columns = (
        TextColumn(f"[bold]{escape(game)}[/] {escape(','.join(bots))}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with progress_bar(*columns) as bar:
        task = bar.add_task("games", total=games)
        # Ctrl-C ended one game and the tournament went on (one process), or waited for
        # every game still to play (worker processes): now it stops at once.
        stop_at_once_on_ctrl_c(lambda: "a tournament keeps nothing: no results")
        summary = run_tournament(
            game,
            variant,
            parse_params(param),
            bots,
            games,
            seed,
            jobs,
            lambda done, total: bar.update(task, completed=done),
        )
    report = summary.as_json()
    if as_json:
        print(json.dumps(report))
        return
    # The variant with its parameters (domino[square_ban=false]): text, not markup.
    title = f"{report['game']} · {report['variant']} · {report['games']} games"
    table = Table(title=escape(title))
    for column in ("entrant", "wins", "win rate", "95% Wilson", "mean score"):
        table.add_column(column)
    for row in report["players"]:
        low, high = row["ci95"]
        table.add_row(
            escape(row["seat_label"]),
            f"{row['wins']:g}",
            f"{100 * row['rate']:.1f}%",
            f"{100 * low:.1f}% – {100 * high:.1f}%",
            f"{row['mean_score']:.1f}",
        )
    console.print(table)
