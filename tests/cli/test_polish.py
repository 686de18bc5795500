"""What a person reads at the terminal: tables at 80 and 60 columns, the order and wording of
errors, help texts, and commands that only read the database (the terminal review's items 3,
12, 13, 14, 21, 22, 23 and 24)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from ludoteca.cli import app
from ludoteca.core.game import typed_value
from ludoteca.core.registry import all_games, discover, find_game

discover("ludoteca.cli")
runner = CliRunner()


def ludoteca(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    """``ludoteca ARGS`` in a fresh process, in a terminal ``columns`` wide."""
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run(
        [sys.executable, "-m", "ludoteca", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stdout
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize("columns", [80, 60])
def test_games_keeps_each_parameter_whole_on_a_line(columns: int) -> None:
    """At 80 columns the variants' column was 23 wide and broke the names copied into -p in
    the middle ("may_start_with_six=fa" / "lse"). Each "-p NAME=VALUE" is whole on a line,
    at 60 columns too, and no line is wider than the terminal."""
    shown = ludoteca("games", columns=columns).stdout
    assert all(len(line) <= columns for line in shown.splitlines()), shown
    for spec in all_games():
        for key, value in spec.variants[0].params_json().items():
            assert f"-p {key}={typed_value(value)}" in shown, (key, shown)
        for name in (spec.name, *spec.aliases):
            assert name in shown.split(), name


@pytest.mark.parametrize("columns", [80, 60])
def test_games_shows_each_variants_title_beside_its_name(columns: int) -> None:
    """``ludoteca games`` named variants by their key alone ("acme (default)"), where the web
    page says "Standard" and "13-card reserve". The title is beside the key where it says
    more than the key spelt for reading ("no-redeal" is "No redeal": nothing added); the key,
    typed after -v, stays whole on its line, and no line is wider than the terminal."""
    shown = ludoteca("games", columns=columns).stdout
    assert all(len(line) <= columns for line in shown.splitlines()), shown
    flat = " ".join(shown.replace("│", " ").split())  # (the cells wrap at the spaces)
    assert "acme (Standard, default): 15-card reserve" in flat, shown
    assert "reserve-13 (13-card reserve): a 13-card reserve" in flat, shown
    assert "gaps (Standard, default): two redeals" in flat, shown
    assert "no-redeal: no redeal: the hardest form" in flat and "No redeal" not in flat
    words = shown.split()
    for spec in all_games():
        for variant in spec.variants:
            assert variant.name in words or f"{variant.name}:" in words, (variant.name, shown)
    one = ludoteca("games", "acme", columns=columns).stdout
    assert all(len(line) <= columns for line in one.splitlines()), one
    rows = {line.split()[0]: " ".join(line.split()) for line in one.splitlines() if line.strip()}
    assert rows["acme"].startswith("acme (default) Standard 15-card reserve"), one
    assert "13-card" in rows["reserve-13"].split(), one
    gaps = ludoteca("games", "gaps", columns=columns).stdout
    no_redeal = next(line for line in gaps.splitlines() if line.strip().startswith("no-redeal"))
    assert "No redeal" not in gaps and "no redeal: the hardest" in no_redeal, gaps


@pytest.mark.parametrize("columns", [80, 60])
def test_stats_breaks_a_variant_only_after_its_bracket_and_commas(columns: int) -> None:
    """``stats`` folded ``gaps[suits=2,ranks=4]`` into "gaps[suit" / "s=2,ranks" / "=4]"
    while the figures took wide columns."""
    from ludoteca.store import db
    from ludoteca.store.results import record_finished

    labels = ["no-redeal[suits=2,ranks=4]", "addiction[penalty=2,redeals=3,suits=3,ranks=5]"]
    with db.connect() as connection:
        for label in labels:
            record_finished(connection, "gaps", label, 5, True, 10, 30, {"redeals_used": 1}, "t")
        record_finished(connection, "tappeto", "tappeto", 5, False, 10, 30, {}, "t")
    shown = ludoteca("stats", columns=columns).stdout
    assert all(len(line) <= columns for line in shown.splitlines()), shown
    words = shown.split()
    for label in labels:
        name, _, rest = label.partition("[")
        pieces = [f"{name}[", *(f"{pair}," for pair in rest[:-1].split(",")[:-1])]
        for piece in [*pieces, rest[:-1].split(",")[-1] + "]"]:
            assert any(piece in word for word in words), (piece, shown)
    assert "1 won" in shown and "1 lost" in shown


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # The game first: it was told to say what to solve.
        (["solve", "chess"], "no game called 'chess' (games: acme, domino,"),
        # Then what goes with what: the bad position was told first.
        (["solve", "gaps", "--seed", "1", "--position", "x"], "--seed does not go with --position"),
        (["solve", "gaps", "--seed", "1", "--positions", "nowhere.txt"], "not go with --positions"),
        (["play", "gaps", "--players", "you,greedy"], "error: gaps is a solitaire: --players can "),
        (["play", "domino", "--players", "you,a,b,c,d"], "domino is for 2-4 players: --players "),
        # Not pydantic's "Input should be a valid integer, unable to parse string as an integer".
        (["play", "gaps", "--seed", "1.5"], "error: --seed needs a whole number, not '1.5'"),
        (["solve", "gaps", "--seed", "abc"], "error: --seed needs a whole number, not 'abc'"),
        (["study", "gaps", "--deals", "1e3"], "error: --deals needs a whole number, not '1e3'"),
        (["solve", "gaps", "--seed", "1", "--seconds", "x"], "--seconds needs a number, not 'x'"),
    ],
)
def test_errors_are_told_in_order_and_in_words(args: list[str], message: str) -> None:
    assert message in one_line_error(ludoteca(*args))


def test_a_position_error_names_the_sections_in_words() -> None:
    """Domino's said "needs 9 sections: ('to', 'turn', 'hands', ...)", a Python tuple."""
    said = one_line_error(ludoteca("play", "domino", "--position", "x"))
    assert said.endswith(
        "needs 9 sections separated by |: to, turn, hands, aside, table, special, out, open, drawn"
    ), said
    for spec in all_games():
        for position in ("x", "a | b | c"):
            said = one_line_error(ludoteca("play", spec.name, "--position", position))
            assert "('" not in said and "['" not in said, said


def test_addiction_is_described_as_every_gaps_variant_keeps_its_statistics() -> None:
    """The Addiction variant was "three redeals; completion statistics kept", and ``stats
    --help`` "(Addiction keeps redeals used too)": every variant's games are counted, with
    their redeals used."""
    assert find_game("gaps").variant("addiction").description == "three redeals"
    told = " ".join(runner.invoke(app, ["stats", "--help"], terminal_width=200).stdout.split())
    assert "Addiction keeps" not in told and "every variant" in told, told


def _help(command: str, option: str) -> str:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    found = group.commands[command]
    (param,) = (p for p in found.params if option in getattr(p, "opts", []))
    return str(getattr(param, "help", ""))


def test_the_help_texts_say_what_each_command_takes() -> None:
    """``tournament``'s -p named gaps (no tournament game) and --players said "(required)"
    though the parser asks it of no one; ``solve --max-states`` was eight lines."""
    assert "gaps" not in _help("tournament", "-p") and "domino" in _help("tournament", "-p")
    players = _help("tournament", "--players")
    assert "(required)" not in players and "strong, greedy or random" in players
    for command in ("solve", "study"):
        assert len(_help(command, "--max-states")) < 160, _help(command, "--max-states")


def test_version() -> None:
    result = ludoteca("--version")
    assert result.returncode == 0 and result.stdout == f"ludoteca {metadata.version('ludoteca')}\n"


def test_reading_the_statistics_makes_no_database(tmp_path: Path) -> None:
    """``stats --db FILE`` of a file not there said "no finished games yet" and left a new
    database behind; ``study --list`` likewise."""
    missing = tmp_path / "nonexistent.sqlite3"
    said = runner.invoke(app, ["stats", "--db", str(missing)])
    assert said.exit_code == 0 and said.stdout.strip() == "no finished games yet"
    assert runner.invoke(app, ["stats", "--json", "--db", str(missing)]).stdout == ""
    listed = runner.invoke(app, ["study", "--list", "--json", "--db", str(missing)])
    assert listed.exit_code == 0 and listed.stdout == ""
    assert not missing.exists() and list(tmp_path.iterdir()) == []


def test_a_study_run_again_says_what_was_stored_and_no_limit_is_none(
    private_database: Path,
) -> None:
    """A study run again printed the same line as a fresh one; ``study --list`` wrote no
    limit "any" where ``solve`` says "none"."""
    args = ["study", "tappeto", "--policy", "random"]
    first = runner.invoke(app, [*args, "--deals", "3"]).stdout
    assert "already stored" not in first, first
    again = runner.invoke(app, [*args, "--deals", "5"])
    assert "; 3 of 5 deals already stored" in " ".join(again.stdout.split()), again.stdout
    report = json.loads(runner.invoke(app, [*args, "--deals", "3", "--json"]).stdout)
    assert report["stored_before"] == 3 and report["deals"] == 3
    from ludoteca.store import db
    from ludoteca.store.results import study_id

    with db.connect(private_database) as connection:
        study_id(connection, "gaps", "no-redeal", "solver", 0, None)
    rows = runner.invoke(app, ["study", "gaps", "--list"], terminal_width=100).stdout
    cells = [line.split() for line in rows.splitlines() if " gaps " in f" {line} "]
    assert [row[5] for row in cells] == ["none"], rows
