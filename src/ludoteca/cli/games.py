"""``ludoteca games``: every game and variant with a one-line description."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ludoteca.cli.app import Unbroken, app, console, json_line
from ludoteca.cli.common import JsonOpt
from ludoteca.core.game import GameSpec, Variant, typed_value
from ludoteca.core.registry import all_games, find_game


@app.command("games")
def games_command(
    game: Annotated[
        str | None,
        typer.Argument(help="One game (name or alias): its variants and parameters in full."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List every game and its variants; with a game, its parameters (-p) explained."""
    specs = all_games() if game is None else [find_game(game)]
    if as_json:
        for spec in specs:
            print(
                json_line(
                    {
                        "name": spec.name,
                        "title": spec.title,
                        "aliases": list(spec.aliases),
                        "players": [spec.min_players, spec.max_players],
                        "hidden_information": spec.hidden_information,
                        "chance": spec.chance,
                        "description": spec.description,
                        "variants": [
                            {
                                "name": v.name,
                                "description": v.description,
                                "params": v.params_json(),
                            }
                            for v in spec.variants
                        ],
                        "param_help": spec.param_help_json(),
                    }
                )
            )
        return
    if game is not None:
        _one(specs[0])
        return
    # Two columns: the parameters, copied into -p, take a line of their own in a column as
    # wide as the widest ("-p aces_start_on_foundations=true") at 60 columns too. With the
    # players and the description in columns of their own, the variants' was 23 wide at 80
    # and folded the names mid-word ("may_start_with_six=fa" / "lse").
    table = Table(title="ludoteca: the games", show_lines=True)
    table.add_column("game", style="bold cyan", no_wrap=True)
    table.add_column("players · what it is · variants (-v) · parameters (-p)")
    for spec in specs:
        players = (
            "1 player" if spec.is_solitaire else f"{spec.min_players}–{spec.max_players} players"
        )
        about = "\n".join(
            [
                f"{players} · {escape(spec.description)}",
                *(
                    f"[bold]{escape(v.name)}[/]{_aside(v, i == 0)}: {escape(v.description)}"
                    for i, v in enumerate(spec.variants)
                ),
            ]
        )
        # The parameters (-p NAME=VALUE) with the default variant's values: only --json
        # named them, so the Gaps penalty could not be found. Each "-p NAME=VALUE" is kept
        # whole on a line, as typed.
        params = [
            f"-p {key}={typed_value(value)}"
            for key, value in spec.variants[0].params_json().items()
        ]
        cell: RenderableType = Text.from_markup(about)
        if params:
            cell = Group(cell, Unbroken(params, style="dim"))
        # One alias a line: on one line they made this column half of an 80-column terminal.
        name = "\n".join([spec.name, *(f"[dim]{alias}[/]" for alias in spec.aliases)])
        table.add_row(name, cell)
    console.print(table)


def _title(variant: Variant) -> str:
    """The variant's title where it tells more than its name, which is what is typed after
    ``-v`` ("Standard" for ``acme``, "13-card reserve" for ``reserve-13``); none where it is
    the name spelt for reading ("No redeal" for ``no-redeal``)."""
    title = variant.title.strip()
    if title.lower().replace(" ", "-") == variant.name.lower():
        return ""
    return title


def _aside(variant: Variant, default: bool) -> str:
    """What follows a variant's name in the list: `` (Standard, default)``, `` (default)``,
    `` (13-card reserve)`` or nothing (markup, escaped)."""
    words = [w for w in (_title(variant), "default" if default else "") if w]
    return f" ({escape(', '.join(words))})" if words else ""


def _one(spec: GameSpec) -> None:
    """One game in full: its variants, and each parameter with its default (the first
    variant's), what a variant sets otherwise, and what it does."""
    console.print(
        f"[bold]{escape(spec.title)}[/] · {spec.players_text} · {escape(spec.description)}"
    )
    if spec.aliases:
        console.print(f"[dim]also: {escape(', '.join(spec.aliases))}[/]")
    variants = Table(title="variants (-v)", box=box.SIMPLE, title_justify="left")
    variants.add_column("variant", style="bold cyan", no_wrap=True)
    # (the variant's title, as the web page names it, where it says more than the name)
    variants.add_column("title")
    variants.add_column("what it is")
    for i, variant in enumerate(spec.variants):
        default = " (default)" if i == 0 else ""
        variants.add_row(
            escape(variant.name) + default, escape(_title(variant)), escape(variant.description)
        )
    console.print(variants)
    first = spec.variants[0].params_json()
    if not first:
        return
    params = Table(title="parameters (-p NAME=VALUE)", box=box.SIMPLE, title_justify="left")
    params.add_column("name", style="bold cyan", no_wrap=True)
    params.add_column("default", no_wrap=True)
    params.add_column("what it does")
    for name, value in first.items():
        # (the label is for the web page's form; here the name is what is typed)
        _, text = spec.param_help.get(name, ("", ""))
        others = [
            escape(f"{v.name}: {typed_value(v.params_json()[name])}")
            for v in spec.variants[1:]
            if v.params_json()[name] != value
        ]
        told = escape(text)
        if others:
            told += (
                f" [dim]({'; '.join(others)})[/dim]" if told else f"[dim]{'; '.join(others)}[/dim]"
            )
        params.add_row(escape(name), typed_value(value), told)
    console.print(params)
