"""``ludoteca games``: every game and variant with a one-line description."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from ludoteca.cli.app import app, console, json_line
from ludoteca.cli.common import JsonOpt
from ludoteca.core.registry import all_games


def _shown(value: object) -> str:
    """A parameter's value as typed after -p: true/false, none."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    return f"{value:g}" if isinstance(value, float) else str(value)


@app.command("games")
def games_command(as_json: JsonOpt = False) -> None:
    """List every game and its variants."""
    specs = all_games()
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
                    }
                )
            )
        return
    table = Table(title="ludoteca: the games", show_lines=True)
    table.add_column("game", style="bold cyan", no_wrap=True)
    table.add_column("players", justify="center")
    table.add_column("variants", overflow="fold")  # a long parameter name folds, never cut
    table.add_column("description")
    for spec in specs:
        players = "1" if spec.is_solitaire else f"{spec.min_players}–{spec.max_players}"
        variants = "\n".join(
            f"[bold]{v.name}[/]{' (default)' if i == 0 else ''}: {v.description}"
            for i, v in enumerate(spec.variants)
        )
        # The parameters (-p NAME=VALUE) with the default variant's values: only --json
        # named them, so the Gaps penalty could not be found.
        params = " ".join(
            f"{key}={_shown(value)}" for key, value in spec.variants[0].params_json().items()
        )
        variants += f"\n[dim]-p {escape(params)}[/]" if params else ""
        # One alias a line: on one line they made this column half of an 80-column terminal.
        name = "\n".join([spec.name, *(f"[dim]{alias}[/]" for alias in spec.aliases)])
        table.add_row(name, players, variants, spec.description)
    console.print(table)
