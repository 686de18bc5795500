"""``ludoteca study``: the win rate of a policy over many seeded deals, with its interval."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Annotated, Any

import typer
from rich import box
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from ludoteca.cli.app import app, console, fail, progress_bar
from ludoteca.cli.common import (
    DbOpt,
    JsonOpt,
    ParamOpt,
    VariantOpt,
    asks_no_limit,
    db_exists,
    parse_params,
    results_db,
)
from ludoteca.cli.interrupt import stop_at_once_on_ctrl_c
from ludoteca.core.registry import find_game
from ludoteca.solvers.base import find_solver, has_solver, no_unlimited_search
from ludoteca.store.results import list_studies
from ludoteca.studies.policies import searches, study_limit
from ludoteca.studies.runner import StudyPlan, run_study, takes_no_limit
from ludoteca.studies.stats import win_rates

COLUMNS = (
    "id",
    "game",
    "variant",
    "policy",
    "seeds",
    "states",
    "deals",
    "won",
    "unknown",
    "rate",
    "95% CI",
)


def _percent(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def _limit(states: int | None) -> str:
    """A study's state limit per search, short: 20M, 500k, or "none" (as solve says it)."""
    if states is None:
        return "none"
    for size, unit in ((1_000_000, "M"), (1_000, "k")):
        if states >= size and states % size == 0:
            return f"{states // size}{unit}"
    return str(states)


def _list(db: DbOpt, as_json: bool, game: str | None) -> None:
    """The stored studies (of ``game`` only, if named). Studies that differ only in their
    state limit looked alike: the table shows it."""
    name = find_game(game).name if game is not None else None
    rows = []
    if db_exists(db):
        with results_db(db) as connection:
            rows = [row for row in list_studies(connection) if name in (None, row["game"])]
    for row in rows:
        row.update(win_rates(row["won"], row["unknown"], row["deals"]))
        row["max_states"] = _ran_under(row)
    if as_json:
        for row in rows:
            print(json.dumps(row))
        return
    if not rows:  # (it printed the table's header alone)
        of = f" of {name}" if name is not None else ""
        console.print(f"no stored studies{of} yet", soft_wrap=True)
        return
    # Light rules, one space between columns: eleven columns fit 80 (the boxed table cut
    # its cells to "addic…" and "100.0…").
    table = Table(title="studies", box=box.SIMPLE_HEAD, padding=0)
    for column in COLUMNS:
        table.add_column(column)
    for row in rows:
        first, stored = row["first_seed"], row["deals"]
        seeds = f"{first}…{first + stored - 1}" if stored else "–"  # none yet (was "0…-1")
        low, high = row["ci95"]
        interval = "–" if low is None else f"{100 * low:.1f}–{100 * high:.1f}%"
        cells = (
            row["study_id"],
            row["game"],
            row["variant"],
            row["policy"],
            seeds,
            _limit(row["max_states"]),
            row["deals"],
            row["won"],
            row["unknown"],
            _percent(row["rate"], 1),
            interval,
        )
        table.add_row(*(escape(str(cell)) for cell in cells))  # gaps[redeals=1]: text
    console.print(table)


def _ran_under(row: dict[str, Any]) -> int | None:
    """The state limit a stored study ran under. One stored before the limit given none was
    stored says none (null), yet only Gaps' solver searches without one: the others'
    policies ran under their own."""
    limit: int | None = row["max_states"]
    game = row["game"]
    if limit is not None or not has_solver(game) or find_solver(game).searches_without_limit:
        return limit
    return study_limit(find_game(game), row["policy"], None)


def kept_line(stored: int | None, deals: int) -> str:
    """What an interrupted or failed study says it kept: the deals stored, once counted.
    Before the first count (a Ctrl-C, or a database failing, at once) it said "0 of N
    stored" though an earlier run's deals were stored and stay."""
    if stored is None:
        return "the deals stored so far stay; the same command goes on from there"
    return f"{stored} of {deals} deals stored; the same command goes on from there"


def _resumed(report: dict[str, Any]) -> str:
    """What a study run again says of the deals it found stored (it said the same as a fresh
    run, its "0.0 s" the only hint that it had played nothing)."""
    before = report["stored_before"]
    return f"; {before} of {report['deals']} deals already stored" if before else ""


def _typed_beside_list(ctx: typer.Context) -> list[str]:
    """The options typed with ``--list`` that only a study to run takes (``--deals``,
    ``--policy`` …): they were ignored without a word. The game (whose studies are listed),
    ``--json`` and ``--db`` go with it."""
    listing = {"list_", "as_json", "db", "game"}
    typed = []
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name or "")
        if param.name not in listing and source is not None and source.name == "COMMANDLINE":
            typed.append(next((o for o in param.opts if o.startswith("--")), param.opts[0]))
    return typed


@app.command("study")
def study_command(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Argument(help="A solitaire (see 'ludoteca games').")] = None,
    variant: VariantOpt = None,
    param: ParamOpt = None,
    deals: Annotated[int, typer.Option(help="How many deals to play.")] = 1000,
    seed: Annotated[
        int, typer.Option(help="First deal number: the deals are seed to seed+N-1.")
    ] = 0,
    policy: Annotated[
        str, typer.Option(help="solver, greedy, random, or a game's own.")
    ] = "solver",
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    max_states: Annotated[
        int | None,
        typer.Option(
            help="Stop each search after this many states; undecided deals count as unknown "
            "(default: the policy's own, 20,000,000 for gaps, as solve's; 0: no limit, gaps "
            "only)."
        ),
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the stored studies.")] = False,
    as_json: JsonOpt = False,
    db: DbOpt = None,
) -> None:
    """Play N seeded deals with a policy and report the win rate with its 95% Wilson interval.

    Results are stored per deal, so running the same study again resumes it."""
    if list_:
        if typed := _typed_beside_list(ctx):
            named = typed[0] if len(typed) == 1 else f"{', '.join(typed[:-1])} and {typed[-1]}"
            raise fail(
                f"{named} {'does' if len(typed) == 1 else 'do'} not go with --list, which "
                "lists the stored studies (of a game, if one is named): drop "
                f"{'it' if len(typed) == 1 else 'them'}"
            )
        _list(db, as_json, game)
        return
    if game is None:
        raise fail("name a game to study, or use --list")
    if jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}")
    # 0 asks for no limit where one would apply by default (a Gaps study stored before the
    # default came in goes on with it).
    unlimited = asks_no_limit(max_states)
    asked = None if unlimited else max_states
    plan = StudyPlan(game, variant, parse_params(param), policy, deals, seed, asked, jobs)
    spec, _ = plan.resolve()
    if unlimited and not searches(spec, policy):
        raise fail(takes_no_limit(spec, policy))
    if unlimited and not find_solver(spec.name).searches_without_limit:
        # (its policies fell back to a limit of their own, and the study said none)
        raise fail(no_unlimited_search(spec.name))
    if not unlimited:
        plan = replace(plan, max_states=study_limit(spec, policy, asked))
    columns = (
        TextColumn(f"[bold]{escape(game)}[/] {escape(policy)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    stored: list[int | None] = [None]  # (None until the study's stored deals are counted)

    def kept() -> str:
        return kept_line(stored[0], deals)

    def kept_if_counted() -> str | None:
        return None if stored[0] is None else kept()

    def progress(done: int, total: int) -> None:
        stored[0] = done
        bar.update(task, completed=done)

    with results_db(db, kept_if_counted) as connection, progress_bar(*columns) as bar:
        task = bar.add_task("deals", total=deals)
        stop_at_once_on_ctrl_c(kept)
        summary = run_study(plan, connection, progress)
    report = summary.as_json()
    if as_json:
        print(json.dumps(report))
        return
    low, high = report["ci95"]
    # The variant as stored (gaps[redeals=1]) and the names as typed: text, not markup.
    shown = {key: escape(report[key]) for key in ("game", "variant", "policy")}
    console.print(
        f"[bold]{shown['game']}[/] · {shown['variant']} · policy {shown['policy']}: "
        f"won {report['won']} of {report['deals'] - report['unknown']} decided deals = "
        f"[bold]{_percent(report['rate'])}[/] (95% Wilson {_percent(low)} – {_percent(high)}); "
        f"{report['unknown']} unknown; {report['seconds']:.1f} s{_resumed(report)}",
        soft_wrap=True,  # one line, in a pipe too (it was cut at 80 columns there)
    )
    if report["unknown"]:
        (lower, upper), (ci_low, ci_high) = report["rate_bounds"], report["ci95_bounds"]
        console.print(
            f"over all {report['deals']} deals (unknown as lost … as won): {_percent(lower)} … "
            f"{_percent(upper)} (95% Wilson {_percent(ci_low)} – {_percent(ci_high)})",
            soft_wrap=True,
        )
