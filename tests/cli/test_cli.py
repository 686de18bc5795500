"""The ``ludoteca`` command as a person uses it: output, one-line errors, saves and replays."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ludoteca.cli import app
from ludoteca.core.errors import LudotecaError
from ludoteca.core.game import TERMINAL
from ludoteca.core.registry import all_games, discover, find_game
from ludoteca.solvers.base import find_solver

discover("ludoteca.cli")
runner = CliRunner()


def ludoteca(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed command in a fresh process, exactly as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "ludoteca", *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_games_lists_every_game_and_variant() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0
    listed = {json.loads(line)["name"]: json.loads(line) for line in result.stdout.splitlines()}
    for spec in all_games():
        assert [v["name"] for v in listed[spec.name]["variants"]] == [v.name for v in spec.variants]
    table = runner.invoke(app, ["games"])
    assert "tappeto" in table.stdout and "con-scarti" in table.stdout


def test_help_everywhere() -> None:
    for command in ["games", "play", "replay", "solve", "study", "tournament", "stats"]:
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout, command


def test_help_draws_flags_without_a_type_and_sentences_unbroken() -> None:
    """Each help drew a flag as ``--json <bool>``, as if it took a value; ``stats --help``
    broke a sentence where its docstring had a line break ("count the" / "redeals"), Typer
    keeping it in its rich help. A flag has no type beside it now (options with a value
    keep theirs), and every paragraph of a command's help is one line of text."""
    import typer

    group = typer.main.get_command(app)
    for name in ["", "games", "play", "replay", "serve", "solve", "study", "tournament", "stats"]:
        result = runner.invoke(app, [name, "--help"] if name else ["--help"], terminal_width=200)
        assert result.exit_code == 0, name
        assert "<bool>" not in result.stdout, name
        assert re.search(r"--help +-h +Show this message", result.stdout), name
        command = group.commands[name] if name else group  # type: ignore[attr-defined]
        for paragraph in (command.help or "").split("\n\n"):
            assert "\n" not in paragraph.strip(), (name, paragraph)
    study = runner.invoke(app, ["study", "--help"], terminal_width=200).stdout
    assert re.search(r"--deals +<int> +How many deals", study)
    assert re.search(r"--list +List the stored studies", study)


def test_play_save_and_replay(tmp_path: Path) -> None:
    save = tmp_path / "deal.json"
    session = "\n".join(["9Z", "7D", "2H", "undo", "2H", f"save {save}", "quit"]) + "\n"
    result = runner.invoke(app, ["play", "tappeto", "--seed", "1"], input=session)
    assert result.exit_code == 0, result.stdout
    assert "bad move '9Z'" in result.stdout
    assert "7D: the diamonds foundation needs 2D" in result.stdout
    data = json.loads(save.read_text())
    assert data["moves"] == ["2H"] and data["seed"] == 1 and data["game"] == "tappeto"
    replay = runner.invoke(app, ["replay", str(save)])
    assert replay.exit_code == 0 and "move 1: 2H" in replay.stdout


def test_play_records_a_finished_game_in_the_statistics() -> None:
    moves: list[str] = []
    from ludoteca.core import find_game

    state = find_game("tappeto").new_game(seed=1)
    while not state.is_over:
        moves.append(state.apply(state.legal_moves()[0]).__str__())
    result = runner.invoke(
        app, ["play", "tappeto", "--seed", "1"], input="\n".join(moves) + "\nquit\n"
    )
    assert "game over" in result.stdout
    stats = runner.invoke(app, ["stats", "tappeto", "--json"])
    row = json.loads(stats.stdout)
    assert row["played"] == 1 and row["won"] == int(state.outcome().won)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "no game called 'chess'"),
        (["games", "chess"], "no game called 'chess'"),
        (["play", "[/x]"], "no game called '[/x]'"),
        (["solve", "gaps", "--position", "[/x]"], "bad position '[/x]'"),
        (["play", "tappeto", "--variant", "huge"], "tappeto has no variant 'huge'"),
        (["play", "tappeto", "-p", "rows"], "--param needs key=value"),
        (["solve", "tappeto"], "say what to solve"),
        (["solve", "tappeto", "--position", "2H 3C"], "bad position"),
        (["solve", "tappeto", "--seed", "1", "--seconds", "5"], "takes no --seconds"),
        (["solve", "gaps", "--seed", "1", "--seconds", "0"], "--seconds must be positive"),
        (["solve", "gaps", "--seed", "1", "--seconds", "nan"], "positive and finite, not nan"),
        (["solve", "gaps", "--seed", "1", "--seconds", "inf"], "positive and finite, not inf"),
        (["solve", "gaps", "--seed", "1", "--seconds", "5", "--memory", "0.001"], "at least 1/64"),
        (["solve", "gaps", "--seed", "1", "--memory", "1"], "--memory goes with --seconds"),
        # Each pointed to an option the solver refuses as well (--max-states, --seconds).
        (["solve", "tappeto", "--seed", "3", "--seconds", "1"], "no --seconds (it searches"),
        (["solve", "acme", "--seed", "3", "--seconds", "1"], "no --seconds; give --max-states"),
        (["solve", "tappeto", "--seed", "3", "--memory", "2"], "tappeto solver takes no --memory"),
        (["solve", "acme", "--seed", "3", "--memory", "2"], "acme solver takes no --memory"),
        (["solve", "gaps", "--seed", "1", "--seconds", "5", "--memory", "0"], "must be positive"),
        (["solve", "gaps", "--seed", "1", "--seconds", "5", "--memory", "1e6"], "more than this"),
        (["replay", "/nonexistent/game.json"], "no such file"),
        (["solve", "gaps", "--seed", "abc"], "--seed needs a whole number, not 'abc'"),
        (["solve", "gaps", "--seed", "1", "--frob"], "No such option: --frob"),
        (["solve"], "Missing argument 'game'"),
        (["chess"], "No such command 'chess'"),
        (["study", "tappeto", "--deals", "5", "--policy", "nope"], "no policy 'nope'"),
        # (0 is no limit where one applies: Tappeto's policy has none to lift.)
        (["study", "tappeto", "--deals", "5", "--max-states", "0"], "takes no --max-states"),
        (["study", "gaps", "--deals", "5", "--max-states", "-1"], "--max-states must be positive"),
        (["solve", "gaps", "--seed", "1", "--max-states", "-1"], "or 0 for no limit, not -1"),
        # A solitaire was told "Missing option '--players'" before it was told what it is.
        (["tournament", "tappeto", "--games", "3"], "tappeto is a solitaire: use 'ludoteca study'"),
        (["tournament", "domino"], "say which bots sit at the table: --players"),
        # An empty entry was dropped: a 2-player game where three seats were meant.
        (["play", "domino", "--players", "you,,strong"], "--players has an empty entry (seat 2)"),
        (["tournament", "domino", "--players", "strong,greedy,"], "empty entry (seat 3)"),
        # Il Muro's solver fell back to its own limit (1,000,000) and said none.
        (["solve", "muro", "--seed", "3", "--max-states", "0"], "always searches under a"),
        (["study", "muro", "--deals", "2", "--max-states", "0"], "--max-states 0 (none) is for"),
    ],
)
def test_bad_input_gets_a_one_line_error(args: list[str], message: str) -> None:
    result = ludoteca(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_errors_name_a_folder_and_echo_a_number_as_typed(tmp_path: Path) -> None:
    """A folder given as a saved game or a file of positions was told in Python's words
    ("Is a directory"), and ``--memory 0`` was echoed "not 0.0": what was typed comes back,
    and a folder is said to be one, as ``save`` says it."""
    folder = tmp_path / "adir.json"
    folder.mkdir()
    for args, said in [
        (["replay", str(folder)], f"{folder} is a folder, not a saved game"),
        (["play", "--load", str(folder)], f"{folder} is a folder, not a saved game"),
        (["solve", "gaps", "--positions", str(folder)], f"{folder} is a folder, not a file of"),
        (["solve", "gaps", "--seed", "1", "--seconds", "1", "--memory", "0"], "positive, not 0\n"),
    ]:
        result = ludoteca(*args)
        assert result.returncode == 2, args
        assert result.stderr.startswith("error: ") and said in result.stderr, result.stderr


def test_solve_max_states_0_is_no_limit_as_for_study() -> None:
    """``study --max-states 0`` is no limit; ``solve`` refused 0 as not positive. It now
    searches to the end too: Gaps deal 3 is proved lost, with no limit in its answer."""
    result = runner.invoke(
        app, ["solve", "gaps", "-v", "no-redeal", "--seed", "3", "--max-states", "0", "--json"]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["winnable"] is False and answer["max_states"] is None, answer


def test_solve_says_what_a_verdict_was_judged_on_without_contradicting_it() -> None:
    """README, *Analysis*: every answer's ``label`` says what its verdict was judged on. Shown
    after a dash it read as a second verdict: "not winnable — winnable with all cards known"
    (Acme deal 3). The label now follows the verdict in brackets, and reads alone in JSON."""
    said = runner.invoke(app, ["solve", "acme", "--seed", "3", "--max-states", "20000"])
    assert said.exit_code == 0, said.output
    assert said.stdout.startswith("seed 3: not winnable (with all cards known); "), said.stdout
    answer = json.loads(
        runner.invoke(
            app, ["solve", "acme", "--seed", "3", "--max-states", "20000", "--json"]
        ).stdout
    )
    assert answer["winnable"] is False and answer["label"] == "with all cards known", answer
    tappeto = runner.invoke(app, ["solve", "tappeto", "--seed", "1"]).stdout
    expected = "seed 1: winnable (exact, with all cards known: it reads the reserve's order); "
    assert tappeto.startswith(expected), tappeto
    for entry in (find_solver(spec.name) for spec in all_games() if spec.is_solitaire):
        assert not entry.label.startswith(("winnable", "not winnable")), entry


def test_solve_gaps_under_a_time_budget() -> None:
    """``--seconds`` replaces the state limit: deal 3 is proved lost at once, deal 0 is won
    with a line (docs/rules/gaps.md, the solver)."""
    result = runner.invoke(
        app, ["solve", "gaps", "-v", "no-redeal", "--seed", "3", "--seconds", "10", "--json"]
    )
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["winnable"] is False
    result = runner.invoke(
        app, ["solve", "gaps", "-v", "no-redeal", "--seed", "0", "--seconds", "10", "--json"]
    )
    answer = json.loads(result.stdout)
    assert answer["winnable"] is True and answer["moves"]


def test_solve_gaps_says_what_an_undecided_search_ran_out_of() -> None:
    """Deal 150 needs about 30 M nodes to be proved lost: a 1-second budget runs out of
    time, and a long budget with a 16 MiB table runs out of table room first, which the
    answer says (JSON ``stopped``, and in words), since only more memory helps then."""
    timed = runner.invoke(
        app, ["solve", "gaps", "-v", "no-redeal", "--seed", "150", "--seconds", "1", "--json"]
    )
    assert timed.exit_code == 0, timed.stdout
    answer = json.loads(timed.stdout)
    assert (answer["winnable"], answer["stopped"]) == (None, "time")
    # The nested search's dead end, reached in what the budget left (see solve).
    assert 0 <= answer["in_sequence_found"] <= 47
    small = runner.invoke(
        app,
        [
            "solve",
            "gaps",
            "-v",
            "no-redeal",
            "--seed",
            "150",
            "--seconds",
            "120",
            "--memory",
            "0.016",
        ],
    )
    assert small.exit_code == 0, small.stdout
    assert "unknown (the table is full" in small.stdout and "--memory" in small.stdout


@pytest.mark.parametrize("game", ["gaps", "acme", "tappeto", "muro", "mosaico"])
def test_every_answer_names_its_state_limit_alike(game: str) -> None:
    """Each solver named its limit its own way (Acme ``max_states`` and ``node_limit_hit``,
    Il Muro ``node_limit`` and ``limit_hit``, Mosaico ``limit_hit`` alone, Gaps and Tappeto
    nothing); every answer now says ``max_states`` (null where none applies) and, when
    undecided, ``stopped`` (README, Analysis)."""
    answer = json.loads(runner.invoke(app, ["solve", game, "--seed", "3", "--json"]).stdout)
    assert "max_states" in answer
    assert not {"node_limit", "node_limit_hit", "limit_hit"} & set(answer)
    if game == "tappeto":
        assert answer["max_states"] is None
    else:
        assert answer["max_states"] == find_solver(game).default_max_states


def test_solve_tappeto_refuses_a_state_limit_it_would_ignore() -> None:
    """Tappeto's answer is one line of plays, found without search: ``--max-states`` was
    taken and ignored without a word."""
    result = runner.invoke(app, ["solve", "tappeto", "--seed", "1", "--max-states", "5"])
    assert result.exit_code == 2
    assert "the tappeto solver takes no --max-states" in result.stderr


@pytest.mark.parametrize("game", ["acme", "muro", "mosaico"])
def test_every_undecided_answer_says_what_ran_out(game: str) -> None:
    """The README: an undecided answer says what ran out (``stopped``). Only Gaps said it
    (test_solve_gaps_says_what_an_undecided_search_ran_out_of); Acme, Il Muro and Mosaico
    answered null with a flag of their own (``node_limit_hit``, ``limit_hit``), and the
    text said "unknown (limit reached)"."""
    args = ["solve", game, "--seed", "3", "--max-states", "10"]
    answer = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert (answer["winnable"], answer["stopped"]) == (None, "states")
    assert "unknown (state limit reached)" in runner.invoke(app, args).stdout


def test_solve_positions_gives_one_json_object_per_position_errors_included(
    tmp_path: Path,
) -> None:
    """``solve --positions FILE --json``: one JSON object per position, each naming the game
    and variant (a line that was no position gave an object without them); a file with no
    position at all (empty, or notes only) printed nothing and ended with status 0."""
    from ludoteca.core.registry import find_game

    good = find_game("gaps").new_game("no-redeal", 3).position()
    file = tmp_path / "positions.txt"
    file.write_text(f"# deal 3\n{good}\n\ngarbage\n", encoding="utf-8")
    args = ["solve", "gaps", "-v", "no-redeal", "--positions", str(file), "--json"]
    result = ludoteca(*args)
    assert result.returncode == 2, result.stderr
    answer, error = (json.loads(line) for line in result.stdout.splitlines())
    assert answer["line"] == 2 and answer["winnable"] is False
    assert error["line"] == 4 and "bad position 'garbage'" in error["error"]
    for record in (answer, error):
        assert (record["game"], record["variant"]) == ("gaps", "no-redeal")
    file.write_text("# nothing yet\n\n", encoding="utf-8")
    empty = ludoteca(*args)
    assert empty.returncode == 2 and empty.stdout == ""
    expected = f"error: {file}: no position in it (one per line; a line starting # is a note)"
    assert empty.stderr.strip() == expected


def test_corrupt_save_is_refused_and_left_alone(tmp_path: Path) -> None:
    save = tmp_path / "broken.json"
    save.write_text('{"format": "ludoteca-save", "version": 1, "game": "tappeto"')
    result = ludoteca("replay", str(save))
    assert result.returncode == 2 and "not JSON" in result.stderr
    assert save.read_text().endswith('"tappeto"')


def test_study_json_has_the_promised_keys() -> None:
    result = runner.invoke(
        app, ["study", "tappeto", "--deals", "50", "--policy", "random", "--json"]
    )
    assert result.exit_code == 0, result.stdout
    report = json.loads(result.stdout)
    for key in ("game", "variant", "policy", "deals", "won", "unknown", "rate", "ci95"):
        assert key in report
    assert report["deals"] == 50 and report["ci95"][0] <= report["rate"] <= report["ci95"][1]
    assert report["rate_bounds"] == [report["won"] / 50, (report["won"] + report["unknown"]) / 50]
    listing = runner.invoke(app, ["study", "--list", "--json"])
    assert json.loads(listing.stdout.splitlines()[0])["deals"] == 50


def test_a_listed_study_names_its_figures_as_the_study_does() -> None:
    """``study --list --json`` called the study ``id`` where ``study --json`` says
    ``study_id``, and had no ``lost``, ``rate_bounds`` or ``ci95_bounds``: a listed study
    now carries the study's figures under the study's names."""
    args = ["study", "acme", "--deals", "5", "--policy", "solver", "--max-states", "200"]
    report = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    listed = json.loads(runner.invoke(app, ["study", "--list", "--json"]).stdout)
    for key in (
        *("study_id", "game", "variant", "policy", "first_seed", "max_states", "deals"),
        *("won", "lost", "unknown", "rate", "ci95", "rate_bounds", "ci95_bounds"),
    ):
        assert listed[key] == report[key], key


def test_a_database_that_cannot_be_used_is_one_line_of_error(tmp_path: Path) -> None:
    """``--db`` naming a folder, or a file that is no SQLite database, ended ``study`` and
    ``stats`` in a traceback from sqlite3; the file is left as it was."""
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n")
    for args, why in [
        (["study", "tappeto", "--deals", "2", "--db", str(tmp_path)], "unable to open"),
        (["study", "--list", "--db", str(junk)], "file is not a database"),
        (["study", "gaps", "--db", str(tmp_path / "typo" / "x.db")], "typo does not exist"),
        (["stats", "--db", str(tmp_path / "typo" / "x.db")], "typo does not exist"),
        (["serve", "--port", "0", "--db", str(tmp_path / "typo" / "x.db")], "typo does not"),
        # One person against bots: the result is stored, so the database is checked first.
        (
            ["play", "domino", "--players", "you,random", "--db", str(tmp_path / "typo" / "x")],
            "typo",
        ),
        (["stats", "--db", str(junk)], "file is not a database"),
    ]:
        result = ludoteca(*args)
        assert result.returncode == 2, result.stderr
        assert "cannot use it as the results database" in result.stderr and why in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert junk.read_text() == "not a database\n"
    assert not (tmp_path / "typo").exists()  # a typo made the folders and a new database


def test_play_checks_its_database_before_the_game_and_keeps_the_game_if_it_fails_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``play --db`` naming a folder let the whole game be played, then ended the session
    with its last move (status 2): no undo, no save. Now the database is checked first;
    and if storing the result fails all the same, the session goes on."""
    refused = ludoteca("play", "gaps", "--seed", "1", "--db", str(tmp_path))
    assert refused.returncode == 2 and refused.stdout == "", refused.stdout
    assert "cannot use it as the results database" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr

    from ludoteca.cli import play
    from ludoteca.core.errors import LudotecaError

    opened = play.open_db
    calls = []

    def fails_after_the_check(path: Path | None, writes: str | None = None) -> Any:
        calls.append(path)
        if len(calls) > 1:
            raise LudotecaError(f"{path}: cannot use it as the results database (disk gone)")
        return opened(path, writes)

    monkeypatch.setattr(play, "open_db", fails_after_the_check)
    # A small deal played to its end (dealt, so its end is stored), then undone.
    args, line = small_deal_won()
    typed = "\n".join([*line, "undo", "quit"]) + "\n"
    session = runner.invoke(app, [*args, "--db", str(tmp_path / "r.db")], input=typed)
    assert session.exit_code == 0, session.output
    said = f"error: {tmp_path / 'r.db'}: cannot use it as the results database (disk gone): "
    assert f"{said}the result is not stored" in session.output.splitlines(), session.output
    after = session.output.split("the result is not stored", 1)[1]
    assert "You won!" in session.output and line[-1] in after.split("legal:")[-1]  # undone
    assert len(calls) == 2


def damage(path: Path, table: str) -> None:
    """Overwrite the root page of ``table`` with garbage: the schema stays readable, so the
    database opens as ever, and the table's rows can be neither read nor written."""
    from ludoteca.store import db

    db.connect(path).close()  # (made, and its write-ahead log folded in at the close)
    with contextlib.closing(sqlite3.connect(path)) as connection:
        size = connection.execute("PRAGMA page_size").fetchone()[0]
        query = "SELECT rootpage FROM sqlite_master WHERE name = ?"
        (root,) = connection.execute(query, (table,)).fetchone()
    with path.open("r+b") as file:
        file.seek(size * (root - 1))
        file.write(b"\xff" * size)


def test_a_result_the_database_refuses_keeps_the_session(tmp_path: Path) -> None:
    """A database that opens but refuses the write of the result (damaged here; read-only,
    full, or locked past the timeout alike) ended the session with its last move in a
    traceback from sqlite3: no undo, no save, the game gone. Now it is one line and the
    session goes on."""
    path = tmp_path / "r.db"
    damage(path, "finished_games")
    args, line = small_deal_won()
    typed = "\n".join([*line, "undo", "quit"]) + "\n"
    session = runner.invoke(app, [*args, "--db", str(path)], input=typed)
    assert session.exit_code == 0, session.output
    assert session.exception is None, session.exception
    said = f"error: {path}: the result is not stored (database disk image is malformed)"
    assert said in session.output.splitlines(), session.output  # (one line, path and all)
    after = session.output.split("the result is not stored", 1)[1]
    assert "You won!" in session.output and line[-1] in after.split("legal:")[-1]  # undone


def small_deal_won() -> tuple[list[str], list[str]]:
    """`play` of a dealt 2 x 4 Gaps game (dealt: only dealt games are counted, so its end is
    stored) and a line that wins it without a redeal."""
    from ludoteca.core import find_game

    spec = find_game("gaps")
    variant = spec.variant("gaps", {"suits": "2", "ranks": "4"})
    for seed in range(50):
        answer = find_solver("gaps").solve(spec.new_game(variant, seed), 100_000)
        if answer.winnable and len(answer.moves) >= 2:
            args = ["play", "gaps", "-p", "suits=2", "-p", "ranks=4", "--seed", str(seed)]
            return args, list(answer.moves)
    raise AssertionError("no 2 x 4 deal of 0..49 is won in two moves or more")


def test_a_database_that_opens_but_fails_later_is_one_line_of_error(tmp_path: Path) -> None:
    """A database whose schema reads but whose tables do not (a damaged page; a disk full
    or a read-only file fail the same way once it is open) ended ``stats``, ``study
    --list`` and ``study`` in a traceback from sqlite3: only opening it was checked."""
    results, deals = tmp_path / "results.db", tmp_path / "deals.db"
    damage(results, "finished_games")
    damage(deals, "study_deals")
    for args, then in [
        (["stats", "--db", str(results)], ""),
        (["study", "tappeto", "--deals", "3", "--policy", "greedy", "--db", str(deals)], ""),
        (["study", "--list", "--db", str(deals)], ""),  # (the study above is listed)
    ]:
        result = ludoteca(*args)
        assert result.returncode == 2, result.stderr
        assert result.stderr == (
            f"error: {args[-1]}: the results database failed (database disk image is "
            f"malformed){then}\n"
        ), result.stderr


def test_play_refuses_a_read_only_database_before_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only database opens and reads as ever, so the check before the game passed
    it, and the game was played to its end, where the result could not be stored."""
    from ludoteca.store import db

    path = tmp_path / "r.db"
    db.connect(path).close()
    opened = sqlite3.connect

    def read_only(target: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        # As a file without write permission opens (chmod takes nothing from root).
        return opened(f"file:{target}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    session = runner.invoke(app, ["play", "tappeto", "--seed", "1", "--db", str(path)])
    # (``ludoteca``'s main says a LudotecaError in one line, status 2)
    assert isinstance(session.exception, LudotecaError), session.output
    assert str(session.exception) == (
        f"{path}: cannot use it as the results database (attempt to write a readonly database)"
    )
    assert session.output == ""  # no game


def test_a_study_the_database_fails_says_what_it_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A study whose database fails says how many deals are stored, once it knows: a
    failure before they were counted (a read-only file refuses the study's settings) said
    none were, beside the deals an earlier run had stored."""
    from ludoteca.store import results

    path = tmp_path / "r.db"
    study = ["study", "tappeto", "--policy", "greedy", "--db", str(path)]
    assert runner.invoke(app, [*study, "--deals", "2"]).exit_code == 0
    stored = results.add_deals

    def full_after_one(*args: Any) -> None:
        if not hasattr(full_after_one, "called"):
            full_after_one.called = True  # type: ignore[attr-defined]
            return stored(*args)
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(results, "add_deals", full_after_one)
    failed = runner.invoke(app, [*study, "--deals", "5"])
    assert str(failed.exception) == (
        f"{path}: the results database failed (database or disk is full); 3 of 5 deals "
        "stored; the same command goes on from there"
    )
    opened = sqlite3.connect

    def read_only(target: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        return opened(f"file:{target}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    refused = runner.invoke(app, [*study, "--deals", "5"])  # (3 stored: it said 0)
    assert str(refused.exception) == (
        f"{path}: the results database failed (attempt to write a readonly database)"
    )


def test_hidden_tiles_stay_hidden_at_the_terminal(tmp_path: Path) -> None:
    """Hidden information stays hidden (an audit): the title showed the deal number of a
    game with hidden tiles (dealing it again showed every hand), random deals came from a
    billion numbers (a seat could find its deal from its own hand), and ``replay
    --as-player`` showed a bot's hand in a game not over. A solitaire keeps its number."""
    from ludoteca.cli.common import random_seed

    played = runner.invoke(
        app, ["play", "domino", "--players", "you,greedy", "--seed", "5"], input="quit\n"
    )
    assert played.exit_code == 0 and "Domino" in played.output
    assert "deal 5" not in played.output
    solitaire = runner.invoke(app, ["play", "tappeto", "--seed", "5"], input="quit\n")
    assert "deal 5" in solitaire.output
    deals = [random_seed(find_game("domino")) for _ in range(3)]
    assert max(deals) >= 2**40, deals  # (below by chance: one in 2**23 each)
    save = tmp_path / "game.json"
    runner.invoke(
        app,
        ["play", "domino", "--players", "you,greedy", "--seed", "5"],
        input=f"save {save}\nquit\n",
    )
    bot = runner.invoke(app, ["replay", str(save), "--as-player", "2"])
    assert bot.exit_code == 2 and "its view stays hidden until the game is over" in bot.output
    mine = runner.invoke(app, ["replay", str(save), "--as-player", "1"])
    assert mine.exit_code == 0 and "deal 5" not in mine.output, mine.output


def test_replay_shows_no_hand_of_a_game_at_one_screen_before_its_end(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Hidden information (docs/rules/domino.md: a hand is its player's alone): with several
    people at one screen, ``--seed`` is refused since its chooser could see every hand, but
    ``save`` then ``replay FILE --as-player N`` showed any seat's hand of the game not over.
    Refused now, as for a save that names no seats; a finished game, and one person against
    bots, replay as before. A solitaire's seat is named plainly."""
    from ludoteca.core.saves import snapshot

    monkeypatch.setattr("ludoteca.cli.play.random_seed", lambda spec: 11)  # (no --seed here)
    save = tmp_path / "people.json"
    played = runner.invoke(
        app, ["play", "domino", "--players", "you,you"], input=f"\nsave {save}\nquit\n"
    )
    assert played.exit_code == 0 and save.exists(), played.output
    for asked in (["--as-player", "1"], ["--as-player", "2"], []):
        refused = runner.invoke(app, ["replay", str(save), *asked], terminal_width=400)
        assert refused.exit_code == 2 and "Your hand" not in refused.output, refused.output
        assert "several people play this game at one screen and it is not over" in refused.output
        assert len(refused.output.strip().splitlines()) == 1, refused.output
    state = find_game("domino").new_game(None, 11, 2)
    seatless = tmp_path / "seatless.json"
    seatless.write_text(snapshot(state).dumps())
    unknown = runner.invoke(app, ["replay", str(seatless), "--as-player", "1"])
    assert unknown.exit_code == 2 and "the save names no seats" in unknown.output
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    over = tmp_path / "over.json"
    over.write_text(snapshot(state, ["you", "you"]).dumps())
    finished = runner.invoke(app, ["replay", str(over), "--as-player", "2"])
    assert finished.exit_code == 0 and "Your hand" in finished.output, finished.output
    solitaire = tmp_path / "gaps.json"
    solitaire.write_text(snapshot(find_game("gaps").new_game(seed=1)).dumps())
    one = runner.invoke(app, ["replay", str(solitaire), "--as-player", "2"])
    assert one.exit_code == 2 and "gaps is a solitaire: --as-player can only be 1" in one.output


def test_at_one_screen_a_hand_is_drawn_only_after_it_is_handed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two people at one terminal: after seat 1's move the board was drawn for seat 2 and
    only then the screen cleared (seat 2's hand stayed in the scrollback), and after the
    hand-over prompt nothing was drawn."""
    monkeypatch.setattr("ludoteca.cli.play.random_seed", lambda spec: 11)  # (no --seed here)
    first = find_game("domino").new_game(None, 11, 2).legal_moves_text()[0]
    result = runner.invoke(
        app,
        ["play", "domino", "--players", "you,you"],
        input=f"\n{first}\n\nquit\n",
        terminal_width=150,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("Seat 1, your turn") < out.index("· seat 1")
    assert out.index("Seat 2, your turn") < out.index("· seat 2")


@pytest.mark.parametrize("game", ["domino", "scalafrutta"])
def test_text_typed_at_the_hand_over_shows_no_hand(
    game: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Hidden information (docs/rules/domino.md, docs/rules/scalafrutta.md: a hand is its
    player's alone): at "Seat 2, your turn: press Enter when only you can see" any text
    (``quit``, ``save x.json``) was ignored and opened the gate, showing seat 2's hand to
    whoever typed it, often seat 1 on their way out. Only an empty line opens it; ``quit``
    there is quit (asked once, moves not saved), ``save FILE`` a save, anything else a
    note, the gate still shut."""
    monkeypatch.setattr("ludoteca.cli.play.random_seed", lambda spec: 11)  # (no --seed here)
    first = find_game(game).new_game(None, 11, 2).legal_moves_text()[0]
    left = runner.invoke(
        app,
        ["play", game, "--players", "you,you"],
        input=f"\n{first}\nhint\nnew\nquit\nquit\n",
        terminal_width=150,
    )
    assert left.exit_code == 0, left.output
    out = left.output
    assert "· seat 1" in out and "· seat 2" not in out, out  # seat 2's panel never drawn
    refused = "press Enter alone to show seat 2's hand, or type save FILE or quit"
    assert out.count(refused) == 2, out
    assert out.count("this game is not saved") == 1
    assert out.count("Seat 2, your turn") == 4  # the gate each time, shut
    shown = runner.invoke(
        app,
        ["play", game, "--players", "you,you"],
        input=f"\n{first}\nhelp\n\nquit\n",
        terminal_width=150,
    )
    out = shown.output
    assert out.index("press Enter alone") < out.index("· seat 2"), out  # Enter alone opens it
    assert "this game is not saved" in out and shown.exit_code == 0


@pytest.mark.parametrize("game", ["domino", "scalafrutta"])
def test_save_at_the_hand_over_keeps_the_game_and_the_hand_hidden(
    game: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """README (the hand-over): ``quit`` at "Seat 2, your turn: press Enter when only you can
    see" said "this game is not saved: save FILE keeps it", but ``save FILE`` was refused
    there, and following the advice meant showing seat 2's hand. ``save FILE`` is taken at
    the hand-over as at the prompt (the same errors), seat 2's hand stays hidden, the gate
    comes back, and ``quit`` then leaves at once (nothing is left unsaved)."""
    monkeypatch.setattr("ludoteca.cli.play.random_seed", lambda spec: 11)  # (no --seed here)
    first = find_game(game).new_game(None, 11, 2).legal_moves_text()[0]
    save = tmp_path / "x y.json"
    result = runner.invoke(
        app,
        ["play", game, "--players", "you,you"],
        input=f'\n{first}\nquit\nsave\nsave {tmp_path}\nSave "{save}"\nquit\n',
        terminal_width=150,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "· seat 1" in out and "· seat 2" not in out, out  # seat 2's panel never drawn
    assert "error: save needs a file name: save FILE" in out
    assert f"error: {tmp_path} is a folder: save FILE needs a file name" in out
    assert f"saved to {save}" in out and save.exists()
    assert json.loads(save.read_text())["moves"] == [first]
    assert out.count("this game is not saved") == 1  # the second quit needs no warning
    assert out.count("Seat 2, your turn") == 5  # the gate after each, shut
    assert "nothing else is taken here" not in out


def test_solve_reads_its_inputs_before_it_solves_anything(tmp_path: Path) -> None:
    """``solve --seed 12 --positions MISSING`` solved and printed deal 12, then said the
    file was missing; a malformed ``--position`` beside ``--seed`` likewise. Both are now
    refused before any search (and ``--seed`` goes with neither now: a position carries
    its own deal number, as for ``play``)."""
    from ludoteca.core.registry import find_game

    good = find_game("gaps").new_game("gaps", 12).position()
    file = tmp_path / "good.txt"
    file.write_text(f"{good}\n", encoding="utf-8")
    for extra, why in [
        (["--positions", str(tmp_path / "missing.txt")], "no such file"),
        (["--position", "2C 3C"], "bad position '2C 3C'"),
        # (the two together are refused now: see the next test)
        (["--position", good, "--positions", str(tmp_path / "missing.txt")], "not go with"),
        (["--positions", str(file), "--position", "2C 3C"], "--position does not go with"),
    ]:
        result = ludoteca("solve", "gaps", *extra, "--json")
        assert result.returncode == 2 and result.stdout == "", result.stdout
        assert why in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_solve_takes_a_position_or_a_file_of_them_not_both(tmp_path: Path) -> None:
    """README (Analysis): ``--position`` and ``--positions`` do not go together. Both were
    solved, the ``--position`` first, which nothing said; ``--seed`` beside either was
    already refused."""
    good = find_game("gaps").new_game("gaps", 12).position()
    file = tmp_path / "good.txt"
    file.write_text(f"{good}\n", encoding="utf-8")
    result = ludoteca("solve", "gaps", "--position", good, "--positions", str(file))
    assert result.returncode == 2 and result.stdout == "", result.stdout
    assert result.stderr.startswith("error: --position does not go with --positions")
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize(
    "typed",
    [
        ["--deals", "5"],
        ["--deals", "1000"],  # (the default, typed: refused as well)
        ["--seed", "3"],
        ["--policy", "greedy"],
        ["--jobs", "2"],
        ["--max-states", "10"],
        ["-v", "no-redeal"],
        ["-p", "redeals=1"],
    ],
)
def test_study_list_refuses_the_options_of_a_study_to_run(typed: list[str]) -> None:
    """README (Analysis): ``study --list`` takes only ``--json`` and ``--db`` beside it (and
    a game, whose studies it lists). ``study --list --deals 5`` listed the studies and
    ignored ``--deals`` without a word, where ``play --load ... --seed 3`` is refused."""
    result = runner.invoke(app, ["study", "gaps", "--list", *typed, "--json"])
    assert result.exit_code == 2 and result.stdout == "", result.stdout
    option = "--variant" if typed[0] == "-v" else "--param" if typed[0] == "-p" else typed[0]
    assert result.stderr.startswith(f"error: {option} does not go with --list"), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    several = runner.invoke(app, ["study", "--list", "--policy", "random", "--deals", "5"])
    assert "error: --deals and --policy do not go with --list" in several.stderr
    assert several.exit_code == 2


def test_an_empty_study_list_says_so() -> None:
    """README (Analysis): ``study --list`` with no study stored printed the table's header
    alone; it says "no stored studies yet" (of a game, where one is named), and with
    ``--json`` prints no line, as ever (one line a study)."""
    listed = runner.invoke(app, ["study", "--list"])
    assert listed.exit_code == 0 and listed.stdout == "no stored studies yet\n"
    of_one = runner.invoke(app, ["study", "tappeto", "--list"])
    assert of_one.exit_code == 0 and of_one.stdout == "no stored studies of tappeto yet\n"
    as_json = runner.invoke(app, ["study", "--list", "--json"])
    assert as_json.exit_code == 0 and as_json.stdout == ""
    runner.invoke(app, ["study", "tappeto", "--deals", "2", "--policy", "random"])
    assert (
        runner.invoke(app, ["study", "gaps", "--list"]).stdout == "no stored studies of gaps yet\n"
    )
    assert "tappeto" in runner.invoke(app, ["study", "--list"]).stdout


def test_play_refuses_a_seed_beside_a_position() -> None:
    """``play --seed 5 --position P`` quietly dropped the seed (the redeals of a position
    without its own '| seed N' shuffle as deal 0)."""
    position = "2C 3C 4C -- / 2D 3D -- 4D"
    result = ludoteca(
        "play", "gaps", "-p", "suits=2", "-p", "ranks=4", "--seed", "5", "--position", position
    )
    assert result.returncode == 2, result.stdout
    assert result.stderr.startswith("error: --seed does not go with --position")
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_study_and_tournament_write_no_stray_line_where_stderr_is_no_terminal() -> None:
    """The progress bar, gone at the end, still left an empty line on stderr when it was a
    log or a pipe: every study and tournament wrote one, and every error line came after
    one. Where stderr is no terminal there is no bar now."""
    done = ludoteca("study", "tappeto", "--deals", "3", "--policy", "random")
    assert done.returncode == 0 and done.stderr == ""
    played = ludoteca("tournament", "domino", "--players", "greedy,greedy", "--games", "2")
    assert played.returncode == 0 and played.stderr == ""
    refused = ludoteca("study", "tappeto", "--deals", "3", "--policy", "nope")
    assert refused.returncode == 2 and refused.stderr.startswith("error: tappeto has no policy")


def test_a_study_stopped_before_its_first_deal_is_listed_without_seeds(
    private_database: Path,
) -> None:
    """A study stopped before its first deal was stored (the worker processes were still
    starting) was listed with the seeds "0…-1"."""
    from ludoteca.store import db
    from ludoteca.store.results import study_id

    with db.connect(private_database) as connection:
        study_id(connection, "gaps", "no-redeal", "solver", 0, 300_000)
    rows = runner.invoke(app, ["study", "--list"]).stdout.splitlines()
    assert "…-1" not in "".join(rows)
    cells = rows[4].split()  # (columns a space apart: box.SIMPLE_HEAD)
    assert (cells[4], cells[5], cells[6]) == ("–", "300k", "0"), cells  # seeds, states, deals


def test_hot_seat_hides_each_hand_until_its_player_is_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two people at one screen: each turn starts with a blank prompt, not the other's hand."""
    game = next((s for s in all_games() if not s.is_solitaire), None)
    if game is None:
        pytest.skip("no multiplayer game registered")
    monkeypatch.setattr("ludoteca.cli.play.random_seed", lambda spec: 2)  # (no --seed here)
    result = runner.invoke(
        app, ["play", game.name, "--players", "you,you"], input="\n" * 3 + "quit\n"
    )
    assert result.exit_code == 0, result.stdout
    assert "Seat 1" in result.stdout and "press Enter when only you can see" in result.stdout


def typed_at_a_terminal(monkeypatch: pytest.MonkeyPatch, output_too: bool) -> None:
    """Standard input a terminal (standard output too where ``output_too``), readline
    loaded: where ``ask`` gives readline the prompt."""
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO()))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO()))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: output_too)
    monkeypatch.setitem(sys.modules, "readline", sys.modules.get("readline", object()))


def test_the_hand_over_erases_the_scrollback_and_shows_the_board_on_its_own_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hand-over cleared only the screen (ESC[2J): the previous seat's hand stayed in the
    terminal's scrollback. And a bare Enter (readline loaded) echoed no newline, so the board
    was drawn on the prompt's line: the prompt is now readline's, which ends the line."""
    import io

    from rich.console import Console

    from ludoteca.cli import play

    screen = Console(file=io.StringIO(), force_terminal=True, width=100)

    def readline(prompt: str = "") -> str:
        """Enter, at a terminal: readline draws the prompt, then the newline."""
        screen.file.write(prompt.replace("\x01", "").replace("\x02", "") + "\n")
        return ""

    monkeypatch.setattr(play, "console", screen)
    monkeypatch.setattr("builtins.input", readline)
    typed_at_a_terminal(monkeypatch, output_too=True)
    state = find_game("domino").new_game(seed=2, players=2)
    play.Session(state, ["you", "you"], None, None).hot_seat(0)
    written = screen.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[2J" in written and "\x1b[3J" in written
    prompt_line = next(line for line in written.splitlines() if "press Enter" in line)
    assert "Domino" not in prompt_line and "Your hand" in written


def test_the_readline_prompt_is_not_written_where_output_is_no_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Typed at a terminal, output piped (``| tee log``) with ``FORCE_COLOR`` set, so that
    Rich draws styles: Python's ``input`` uses readline only where standard output is a
    terminal too, and wrote the prompt with readline's marks (\\x01, \\x02) into the pipe."""
    import io

    from rich.console import Console

    from ludoteca.cli import play

    screen = Console(file=io.StringIO(), force_terminal=True, width=100)
    asked: list[str] = []

    def typed(prompt: str = "") -> str:
        asked.append(prompt)
        return "quit"

    monkeypatch.setattr(play, "console", screen)
    monkeypatch.setattr("builtins.input", typed)
    typed_at_a_terminal(monkeypatch, output_too=False)
    assert play.ask("[bold]›[/] ") == "quit"
    written = screen.file.getvalue()  # type: ignore[attr-defined]
    assert "›" in written and "\x01" not in written + "".join(asked), (written, asked)


def test_people_at_one_screen_may_not_choose_a_deal_with_hidden_tiles() -> None:
    """docs/web.md (``new``): with hidden tiles and more than one person at the table the deal
    is drawn at random, since its chooser could deal it again and see every hand. The
    terminal took ``--seed``, ``--position`` and ``new 7`` from any of them."""
    chosen = ludoteca("play", "domino", "--players", "you,you", "--seed", "7")
    assert chosen.returncode == 2 and "the deal is drawn at random" in chosen.stderr
    assert len(chosen.stderr.strip().splitlines()) == 1, chosen.stderr
    position = find_game("domino").new_game(None, 7, 2).position()
    placed = ludoteca("play", "domino", "--players", "you,you", "--position", position)
    assert placed.returncode == 2 and "drop --position" in placed.stderr
    # Both given: both named (it said "drop --position" only), deal 0 too.
    both = ludoteca("play", "domino", "--players", "you,you", "--seed", "0", "--position", position)
    assert both.returncode == 2 and "drop --seed and --position" in both.stderr, both.stderr
    again = runner.invoke(
        app, ["play", "domino", "--players", "you,you"], input="\nnew 7\nnew\n\nquit\n"
    )
    said = " ".join(again.stdout.split())
    assert "the deal is drawn at random (a chosen deal would tell" in said, said
    assert said.count("your turn: press Enter") == 2, said  # (new alone deals another)
    alone = runner.invoke(app, ["play", "domino", "--players", "you,strong", "--seed", "7"])
    assert alone.exit_code == 0, alone.stdout


def test_hint_in_a_game_with_others_is_a_legal_move_for_your_seat() -> None:
    game = next((s for s in all_games() if not s.is_solitaire), None)
    if game is None:
        pytest.skip("no multiplayer game registered")
    result = runner.invoke(
        app, ["play", game.name, "--players", "you,random", "--seed", "4"], input="hint\nquit\n"
    )
    assert result.exit_code == 0, result.stdout
    hinted = result.stdout.split("hint: ")[1].split(" (")[0]
    legal = result.stdout.split("legal: ")[1].splitlines()[0]
    assert hinted in (legal.split(" · ") if " · " in legal else legal.split())


def test_every_game_offers_a_hint() -> None:
    """Solitaires through their solver, the others through their best bot (ludoteca.hints)."""
    from ludoteca.hints import has_hint, hint_for

    for spec in all_games():
        assert has_hint(spec), spec.name
        state = spec.new_game(seed=3, players=spec.min_players)
        hint = hint_for(state, state.current_player, 0.5)
        assert hint.move in state.legal_moves_text(), spec.name


def test_a_save_that_cannot_be_written_is_a_one_line_error_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    """``save`` into a folder, or under a name the system refuses, used to end the game with a
    traceback (and lose it): now it is an error line and the prompt again. A folder that
    takes no new file (/proc) is named as such: the error named the temporary file the new
    text goes to first, which said nothing to the reader."""
    too_long = tmp_path / ("x" * 300 + ".json")
    session = (
        f"save {tmp_path}\nsave {too_long}\nsave /proc/version\nKC\n"
        f"save {tmp_path / 'ok.json'}\nquit\n"
    )
    result = runner.invoke(app, ["play", "gaps", "--seed", "7"], input=session)
    assert result.exit_code == 0, result.stdout
    shown = " ".join(result.stdout.split())
    assert f"error: {tmp_path} is a folder" in shown
    assert "error: cannot save to" in shown and "File name too long" in shown
    assert "error: /proc/version: cannot make a new file in /proc" in shown
    assert ".tmp" not in shown
    assert json.loads((tmp_path / "ok.json").read_text())["moves"] == ["KC"]


def test_an_error_at_the_prompt_and_a_save_are_one_line_however_long_the_path(
    tmp_path: Path,
) -> None:
    """An error at the play prompt (a save refused) and "saved to" name the file: in a pipe
    (80 columns) Rich cut a long path's line in two, as 796665a found for 'not stored'."""
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3)
    missing = deep / "and-a-long-file-name.json"
    deep.mkdir()
    kept = deep / "the-game-kept-under-a-long-name-too.json"
    result = runner.invoke(
        app, ["play", "gaps", "--seed", "7"], input=f"save {missing}x/y\nsave {kept}\nquit\n"
    )
    assert result.exit_code == 0, result.stdout
    lines = [line.removeprefix("› ") for line in result.stdout.splitlines()]
    refused = f"error: {missing}x/y: the folder {missing}x does not exist"
    assert refused in lines, result.stdout
    assert f"saved to {kept}" in lines, result.stdout


def test_a_finished_game_counts_once_with_its_parameters(tmp_path: Path) -> None:
    """A game ended, taken back and ended again, or a finished save loaded again, is one
    game in ``stats`` (as on the web: the first ending counts); a deal played with changed
    parameters is counted apart from the variant as declared (gaps[redeals=0] style)."""
    args = ["gaps", "-v", "no-redeal", "-p", "suits=2", "-p", "ranks=4", "--seed", "5"]
    from ludoteca.core import find_game

    spec = find_game("gaps")
    state = spec.new_game(spec.variant("no-redeal", {"suits": "2", "ranks": "4"}), 5)
    moves: list[str] = []
    while not state.is_over:
        moves.append(str(state.apply(state.legal_moves()[0])))
    save = tmp_path / "over.json"
    session = [*moves, "undo", moves[-1], f"save {save}", "quit"]
    result = runner.invoke(app, ["play", *args], input="\n".join(session) + "\n")
    assert result.exit_code == 0, result.stdout
    assert result.stdout.count("game over") == 2
    again = runner.invoke(app, ["play", "gaps", "--load", str(save)], input="quit\n")
    assert again.exit_code == 0 and "game over" in again.stdout
    stats = runner.invoke(app, ["stats", "--json"]).stdout
    rows = [json.loads(line) for line in stats.splitlines()]
    assert [(r["variant"], r["played"]) for r in rows] == [("no-redeal[suits=2,ranks=4]", 1)]


def test_after_the_end_the_prompt_says_what_is_left_and_a_hint_says_the_game_is_over() -> None:
    """A hint asked once the game is over said "a hint is for the player to move", to the
    only player there is; now it says that the game is over and what can still be done."""
    from ludoteca.core import find_game

    spec = find_game("gaps")
    state = spec.new_game(spec.variant("no-redeal", {"suits": "2", "ranks": "4"}), 5)
    moves: list[str] = []
    while not state.is_over:
        moves.append(str(state.apply(state.legal_moves()[0])))
    args = ["play", "gaps", "-v", "no-redeal", "-p", "suits=2", "-p", "ranks=4", "--seed", "5"]
    result = runner.invoke(app, args, input="\n".join([*moves, "hint", "quit"]) + "\n")
    assert result.exit_code == 0, result.stdout
    assert "undo, new, save FILE or quit" in result.stdout
    assert "error: the game is over: no hint" in result.stdout
    assert "for the player to move" not in result.stdout


def test_the_prompt_has_line_editing() -> None:
    """An arrow key at the prompt typed ``^[[D`` into the move ('QH^[[D^[[Dx' was read as a
    move) because ``readline`` was never loaded; a game in the terminal loads it."""
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('readline:', 'readline' in sys.modules))\n"
        "sys.argv = ['ludoteca', 'play', 'gaps', '--seed', '1']\n"
        "from ludoteca.cli import main\n"
        "main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "readline: True" in result.stdout


def test_a_saved_game_resumes_without_naming_the_game_again(tmp_path: Path) -> None:
    """``play --load FILE`` needed a game argument it then ignored (``play tappeto --load``
    of a Gaps save played Gaps, and -v, -p and --seed were dropped without a word)."""
    save = tmp_path / "gaps.json"
    runner.invoke(app, ["play", "gaps", "--seed", "7"], input=f"KC\nsave {save}\nquit\n")
    resumed = runner.invoke(app, ["play", "--load", str(save)], input="quit\n")
    assert resumed.exit_code == 0, resumed.stdout
    assert "deal 7" in resumed.stdout
    assert (
        runner.invoke(app, ["play", "montana", "--load", str(save)], input="quit\n").exit_code == 0
    )
    for args, message in [
        (["play", "tappeto", "--load", str(save)], "is a saved game of gaps, not of tappeto"),
        (["play", "gaps", "--load", str(save), "--seed", "3"], "takes the game, variant, deal"),
        (["play", "--load", str(save), "-v", "no-redeal"], "takes the game, variant, deal"),
        (["play"], "say which game"),
    ]:
        result = ludoteca(*args)
        assert result.returncode == 2 and message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_text_in_brackets_is_shown_as_typed_not_read_as_markup() -> None:
    """A move typed as '[/x]' ended the game with a MarkupError traceback, and the variant
    label gaps[redeals=1] lost its parameters in the title and in ``stats`` (read as tags)."""
    result = runner.invoke(
        app, ["play", "gaps", "-p", "redeals=1", "--seed", "3"], input="[/x]\n[red]KC\nquit\n"
    )
    assert result.exit_code == 0, result.stdout
    assert "Gaps · gaps[redeals=1] · deal 3" in result.stdout
    assert "error: bad move '[/x]'" in result.stdout
    assert "error: bad move '[red]KC'" in result.stdout
    args = ["gaps", "-v", "no-redeal", "-p", "suits=2", "-p", "ranks=4", "--seed", "5"]
    from ludoteca.core import find_game

    spec = find_game("gaps")
    state = spec.new_game(spec.variant("no-redeal", {"suits": "2", "ranks": "4"}), 5)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    runner.invoke(app, ["play", *args], input="\n".join(state.history_text()) + "\n")
    table = runner.invoke(app, ["stats"]).stdout  # 80 columns: the label folds in its cell
    assert "no-redeal" in table and "[suits=2," in table and "ranks=4]" in table


def test_a_hint_says_what_the_search_learned_without_a_verdict_it_lacks() -> None:
    """Seed, Gameplay 4 (a redeal when no more moves are possible): the hint on a stuck deal
    said "hint: redeal (not known) no other move: redeal"; without a verdict it says only
    what the search learned, as the web does."""
    position = "2C 3C 4C -- / 2D 4D -- 3D"
    args = ["play", "gaps", "-p", "suits=2", "-p", "ranks=4", "-p", "redeals=1"]
    result = runner.invoke(app, [*args, "--position", position], input="hint\nquit\n")
    assert result.exit_code == 0, result.stdout
    assert "hint: redeal (no other move: redeal)" in result.stdout
    assert "not known" not in result.stdout


def test_replay_names_the_variant_with_its_parameters_and_a_position_start(tmp_path: Path) -> None:
    """``replay`` of a game begun from a position said "deal None", dropped the changed
    parameters (gaps, for a 2 x 4 board with one redeal) and counted "1 moves"."""
    save = tmp_path / "small.json"
    args = ["play", "gaps", "-p", "suits=2", "-p", "ranks=4", "-p", "redeals=1"]
    position = "2C 3C -- 4D / 2D 4C 3D --"
    runner.invoke(app, [*args, "--position", position], input=f"4C\nsave {save}\nquit\n")
    result = runner.invoke(app, ["replay", str(save)])
    assert result.exit_code == 0, result.stdout
    assert "Gaps · gaps[redeals=1,suits=2,ranks=4] · from a position · 1 move\n" in result.stdout
    assert "deal None" not in result.stdout


def _wrapped_interrupt() -> SystemError:
    error = SystemError("a compiled function's callback returned with an exception set")
    error.__cause__ = KeyboardInterrupt()
    return error


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, _wrapped_interrupt])
def test_ctrl_c_stops_a_hint_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch, interrupt: Any
) -> None:
    """Ctrl-C while the hint searched ended the session (exit 130, or a SystemError traceback
    when it landed in the Gaps kernel's clock callback) and lost the game; it now stops the
    search only, which works on a copy, so the position is as it was."""
    import ludoteca.cli.play as play

    def interrupted(state: object, seat: int, seconds: float) -> None:
        raise interrupt()

    monkeypatch.setattr(play, "hint_for", interrupted)
    result = runner.invoke(app, ["play", "gaps", "--seed", "7"], input="KC\nhint\nundo\nquit\n")
    assert result.exit_code == 0, result.stdout
    assert "error: hint stopped" in result.stdout
    # The undo found the position intact.
    assert result.stdout.count("legal: KC · QH · 4D · JS") == 2


def test_the_copy_for_a_hint_comes_out_of_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint searches a copy of the game, rebuilt by replaying its moves; the copy's
    time came on top of the hint's 2 s. On a clock the copy moves on by half a second, the
    search now gets 1.5 s."""
    import ludoteca.cli.play as play
    from ludoteca.solvers.base import Hint

    now = [100.0]

    class Clock:
        @staticmethod
        def perf_counter() -> float:
            return now[0]

    real_restore = play.restore

    def slow_restore(*args: Any) -> Any:
        now[0] += 0.5
        return real_restore(*args)

    searched: list[float] = []

    def spy(state: Any, seat: int, seconds: float) -> Hint:
        searched.append(seconds)
        return Hint(state.legal_moves_text()[0], None)

    monkeypatch.setattr(play, "time", Clock, raising=False)
    monkeypatch.setattr(play, "restore", slow_restore)
    monkeypatch.setattr(play, "hint_for", spy)
    result = runner.invoke(app, ["play", "gaps", "--seed", "7"], input="KC\nhint\nquit\n")
    assert result.exit_code == 0, result.stdout
    assert searched == [play.HINT_SECONDS - 0.5] and "hint: " in result.stdout


def test_ctrl_c_at_the_prompt_asks_as_quit_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is lost: Ctrl-C at the prompt ended the game at once ("error: interrupted",
    status 130), moves not saved and all, though Ctrl-C is also what stops a hint. It is now
    quit: asked once with moves not saved, and the game goes on; a second one leaves."""
    import ludoteca.cli.play as play

    typed: list[str | type[BaseException]] = ["KC", KeyboardInterrupt, "QH", KeyboardInterrupt]
    typed.append(KeyboardInterrupt)

    def keyboard(prompt: str = "") -> str:
        got = typed.pop(0)
        if isinstance(got, str):
            return got
        raise got()

    monkeypatch.setattr(play.console, "input", keyboard)
    result = runner.invoke(app, ["play", "gaps", "--seed", "7"])
    assert result.exit_code == 0, result.stdout
    asked = "this game is not saved: save FILE keeps it, quit again leaves it"
    assert result.stdout.count(asked) == 2  # after KC, and again after QH
    assert not typed and "interrupted" not in result.stdout


def test_stats_finds_a_game_as_play_does() -> None:
    """Variants (docs/rules/gaps.md: Addiction keeps completion statistics): ``stats
    addiction`` printed "no finished games yet" beside finished Addiction games (it matched
    the game's name only), and ``stats chess`` said the same instead of an error."""
    from ludoteca.core import find_game

    spec = find_game("gaps")
    for variant in ("addiction", "gaps"):
        chosen = spec.variant(variant, {"suits": "2", "ranks": "4"})
        state = spec.new_game(chosen, 5)
        while not state.is_over:
            state.apply(state.legal_moves()[0])
        args = ["play", "gaps", "-v", variant, "-p", "suits=2", "-p", "ranks=4", "--seed", "5"]
        runner.invoke(app, args, input="\n".join(state.history_text()) + "\n")

    def variants(*args: str) -> list[str]:
        stats = runner.invoke(app, ["stats", *args, "--json"]).stdout
        return sorted(json.loads(line)["variant"] for line in stats.splitlines())

    assert variants("addiction") == ["addiction[suits=2,ranks=4]"]
    assert variants("spaces") == variants("gaps") == variants()
    assert len(variants()) == 2
    result = ludoteca("stats", "chess")
    assert result.returncode == 2 and "no game called 'chess'" in result.stderr


def test_stats_of_a_game_with_none_finished_names_it() -> None:
    """README (statistics): ``stats no-redeal`` where only other games were finished said
    "no finished games yet", as if none were; it names what was asked for as the table
    names it (the game, and the variant under it)."""
    spec = find_game("gaps")
    chosen = spec.variant("gaps", {"suits": "2", "ranks": "4"})
    state = spec.new_game(chosen, 5)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    args = ["play", "gaps", "-p", "suits=2", "-p", "ranks=4", "--seed", "5"]
    runner.invoke(app, args, input="\n".join(state.history_text()) + "\n")
    assert "gaps" in runner.invoke(app, ["stats"]).stdout
    said = {
        name: runner.invoke(app, ["stats", name]).stdout
        for name in ("no-redeal", "montana", "tappeto")
    }
    assert said == {
        "no-redeal": "no finished games of gaps · no-redeal yet\n",
        "montana": "no finished games of gaps · montana yet\n",
        "tappeto": "no finished games of tappeto yet\n",
    }


def test_stats_tells_a_streak_in_words() -> None:
    """A losing streak was a bare "-3" in the table; it is "3 lost" now, a winning one "2
    won" (the JSON keeps the signed numbers)."""
    from ludoteca.store.db import connect
    from ludoteca.store.results import record_finished

    connection = connect()
    for seed, won in enumerate([True, True, False, False, False]):
        record_finished(connection, "gaps", "gaps", seed, won, 10.0, 50, {}, "terminal")
    record_finished(connection, "scalafrutta", "mano", 1, False, 0.0, 30, {}, "terminal")
    connection.close()
    table = " ".join(runner.invoke(app, ["stats"]).stdout.split())
    assert "gaps 5 2 10 3 lost 2 won" in table, table
    # At 80 columns: no name cut ("scalafr…"), and no column of zeros where no game had a
    # redeal.
    assert "scalafrutta" in table and "…" not in table and "redeals" not in table, table
    row = json.loads(runner.invoke(app, ["stats", "gaps", "--json"]).stdout)
    assert (row["streak"], row["best_streak"]) == (-3, 2)


def test_stats_tells_domino_best_as_the_tiles_left() -> None:
    """docs/rules/domino.md (ruling *End*: a score is minus the tiles left in hand): ``stats``
    showed the best as "-1", and a best streak of no win as "-"; it says "1 tile left" and
    "none" now. The JSON keeps its numbers, as scripts read them."""
    from ludoteca.store.db import connect
    from ludoteca.store.results import record_finished

    connection = connect()
    for seed, score in enumerate([-3.0, -1.0]):
        record_finished(connection, "domino", "domino", seed, False, score, 30, {}, "terminal")
    connection.close()
    table = " ".join(runner.invoke(app, ["stats"]).stdout.split())
    assert "domino 2 0 1 tile left 2 lost none" in table, table
    row = json.loads(runner.invoke(app, ["stats", "domino", "--json"]).stdout)
    assert (row["best_score"], row["streak"], row["best_streak"]) == (-1, -2, 0)


def test_a_game_against_bots_at_the_terminal_counts_in_stats() -> None:
    """Only solitaires were counted at the terminal, though the web counts a game against
    bots: one person's seat against bots now counts, won when that seat is among the
    winners (Domino: the seed's "vince chi ..."), with that seat's score."""
    from ludoteca.cli.play import Session
    from ludoteca.core import find_game

    mine = []
    for seed, seats in ((4, ["you", "random"]), (5, ["random", "you"]), (6, ["you", "you"])):
        state = find_game("domino").new_game(None, seed, 2)
        session = Session(state, seats, None, None)
        while not state.is_over:
            player = state.current_player
            if player in session.bots:
                session.bot_turn(player)
            else:
                state.apply(state.legal_moves()[0])
        session.finish()
        outcome = state.outcome()
        assert outcome is not None
        you = seats.index("you")
        mine.append((you in outcome.winners, outcome.scores[you]))
    stats = json.loads(runner.invoke(app, ["stats", "domino", "--json"]).stdout)
    # The third game, two people at one screen, is no one's to count.
    assert stats["played"] == 2, stats
    assert stats["won"] == sum(won for won, _ in mine[:2])
    assert stats["best_score"] == max(score for _, score in mine[:2])


@pytest.mark.parametrize("seed", ["-1", str(2**63)])
def test_a_deal_number_the_statistics_cannot_store_is_refused_at_the_start(seed: str) -> None:
    """A deal number of 2**63 or more played to the end crashed with "OverflowError: Python
    int too large to convert to SQLite INTEGER" when the result was stored; it is refused
    before the game, as the web refuses a negative one."""
    result = ludoteca("play", "gaps", "--seed", seed, input="quit\n")
    assert result.returncode == 2, result.stdout
    assert f"a deal number is 0..{2**63 - 1}, not {seed}" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "gaps", "--seed", "-1"],
        ["solve", "gaps", "--seed", str(2**63)],
        ["study", "tappeto", "--deals", "3", "--seed", str(2**63 - 2)],
        ["study", "tappeto", "--deals", "2", "--seed", "-1"],
        ["tournament", "domino", "--players", "greedy,greedy", "--games", "2", "--seed", "-1"],
    ],
)
def test_the_analysis_commands_refuse_a_deal_number_outside_the_deals(args: list[str]) -> None:
    """Deal numbers are 0..2**63-1, as ``play`` says: ``study`` past the last one crashed
    with "OverflowError: Python int too large to convert to SQLite INTEGER" when it stored
    its first deal; ``solve`` and ``tournament`` played deal -1 as if it were one."""
    result = ludoteca(*args)
    assert result.returncode == 2, result.stdout
    assert f"a deal number is 0..{2**63 - 1}, not" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_study_may_end_at_the_last_deal_number() -> None:
    """The study's totals were counted over seeds below ``last + 1``, which for the last
    deal number is no SQLite integer (OverflowError after every deal had been played)."""
    last = 2**63 - 1
    args = ["study", "tappeto", "--deals", "2", "--seed", str(last - 1), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["deals"] == 2


def test_study_and_tournament_show_names_and_parameters_as_typed() -> None:
    """``study -p redeals=1`` printed "gaps · gaps" and ``study --list`` listed the study as
    "gaps", beside another of plain gaps (the stored label gaps[redeals=1] was read as a
    markup tag); a tournament's title lost its parameters the same way; and a policy or bot
    typed as '[/x]' ended in a MarkupError traceback instead of the one-line error."""
    wide = {**os.environ, "COLUMNS": "200"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "ludoteca", *args]
        return subprocess.run(command, capture_output=True, text=True, env=wide, check=False)

    study = run("study", "gaps", "-p", "redeals=1", "--deals", "2", "--max-states", "1000")
    assert study.returncode == 0, study.stderr
    assert study.stdout.startswith("gaps · gaps[redeals=1] · policy solver: ")
    assert " gaps[redeals=1] " in run("study", "--list").stdout
    tournament = run("tournament", "domino", "-p", "square_ban=false", "--players", "greedy,greedy")
    assert "domino · domino[square_ban=False] · 100 games" in tournament.stdout
    for args in (
        ["study", "tappeto", "--policy", "[/x]"],
        ["tournament", "domino", "--players", "[/x],greedy"],
    ):
        result = run(*args)
        assert result.returncode == 2 and "'[/x]'" in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize(
    "limit", [["--seconds", "30"], ["--max-states", "400000000"]], ids=["time", "states"]
)
def test_ctrl_c_stops_a_long_solve_at_once(tmp_path: Path, limit: list[str]) -> None:
    """Ctrl-C during ``solve`` ends it at once with a one-line message, the answers already
    given kept: before, it came as a traceback from inside the compiled search, or not until
    the time budget ran out (28 s of a 30 s budget). Under a state limit (the default) the
    compiled search never ran Python code, where the signal's handler runs, and went on to
    its limit (deal 290: about a minute); it reads its clock every 4,096 states either way
    now."""
    import signal
    import time

    from ludoteca.core.registry import find_game

    spec = find_game("gaps")
    lines = [spec.new_game("no-redeal", seed).position() for seed in (3, 290)]
    file = tmp_path / "positions.txt"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    command = [sys.executable, "-m", "ludoteca", "solve", "gaps", "-v", "no-redeal"]
    command += ["--positions", str(file), *limit, "--json"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        first = json.loads(run.stdout.readline())  # deal 3 is lost at once; 290 takes long
        time.sleep(2.0)  # (into the full search, past the probes)
        asked = time.monotonic()
        run.send_signal(signal.SIGINT)
        try:
            assert run.wait(timeout=30) == 130
        finally:
            run.kill()
        assert time.monotonic() - asked < 5
        errors = run.stderr.read()
        rest = run.stdout.read()
    assert first["winnable"] is False and rest == ""
    assert errors.strip() == "error: interrupted: no answer for the position being solved"


def test_a_long_bad_move_is_repeated_short_so_its_error_stays_one_line() -> None:
    """A pasted paragraph at the prompt used to come back whole in its error, wrapped over
    several lines; every game now repeats at most the start and end of what was typed, on
    the error's one line (printed unwrapped, whatever the game's explanation after it)."""
    typed = "2H>" + "x" * 300 + "END"
    for spec in all_games():
        result = runner.invoke(
            app, ["play", spec.name, "--seed", "1"], input=f"{typed}\nquit\n", terminal_width=200
        )
        errors = [line for line in result.stdout.splitlines() if "error:" in line]
        assert errors, (spec.name, result.stdout)
        echoed = max(re.findall("x+", errors[0]), key=len)
        assert len(echoed) < 60 and "…" in errors[0] and "END" in errors[0], (spec.name, errors)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_a_tournament_at_once(jobs: str) -> None:
    """Ctrl-C during ``tournament`` ended the game in play and the tournament went on to
    its last game (one process: the inline executor kept the interrupt in that game's
    result), or waited for every game still to play (worker processes); now it stops at
    once with one line, status 130, as ``study`` does. The signal goes to the process
    group, as a terminal sends it, once the progress bar (drawn on the stderr pipe, as on
    a terminal: ``TTY_COMPATIBLE``) counts a game played: a fixed sleep of 5 s could end
    while a loaded machine was still importing the command. (The bar counted nothing
    until the end in one process, and in a terminal it was drawn again below the line,
    the cursor left hidden.)"""
    import signal
    import time

    command = [sys.executable, "-m", "ludoteca", "tournament", "domino", "--jobs", jobs]
    command += ["--players", "strong,greedy", "--games", "500"]
    drawn = {**os.environ, "TTY_COMPATIBLE": "1", "COLUMNS": "100"}
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=drawn,
        start_new_session=True,
    ) as run:
        assert run.stderr is not None and run.stdout is not None
        try:
            seen = ""
            while not re.search(r"\b[1-9][0-9]*/500\b", seen):  # a game played
                char = run.stderr.read(1)
                assert char, seen[-300:]
                seen += char
            assert run.poll() is None  # (500 games take minutes)
            asked = time.monotonic()
            os.killpg(run.pid, signal.SIGINT)
            code = run.wait(timeout=20)
        finally:
            run.kill()
        assert time.monotonic() - asked < 5
        errors, output = seen + run.stderr.read(), run.stdout.read()
    assert code == 130 and output == ""
    # What is left of the bar (control sequences, carriage returns), then the one line.
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", errors).replace("\r", "\n")
    lines = [line.strip() for line in shown.splitlines() if line.strip()]
    assert lines[-1] == "error: interrupted: a tournament keeps nothing: no results", lines[-3:]
    assert shown.count("error:") == 1, lines[-3:]
    # The line is the last thing drawn (the bar was drawn again below it) and the cursor
    # the bar hid is shown again.
    assert errors.rfind("\x1b[?25h") > errors.rfind("\x1b[?25l") >= 0, errors[-200:]


def test_replay_step_stops_cleanly_at_the_end_of_input(tmp_path: Path) -> None:
    """``replay --step`` fed fewer Enters than moves (a pipe run dry, Ctrl-D) used to end
    with "error: aborted", status 1; it now says where it stopped, and the moves before
    were shown (brief: bad input gets a clear one-line message)."""
    save = tmp_path / "deal.json"
    session = "\n".join(["2H", "3H", f"save {save}", "quit"]) + "\n"
    result = runner.invoke(app, ["play", "tappeto", "--seed", "1"], input=session)
    assert result.exit_code == 0, result.stdout
    moves = json.loads(save.read_text())["moves"]
    assert len(moves) >= 2, moves
    replay = runner.invoke(app, ["replay", str(save), "--step"], input="\n")
    assert replay.exit_code == 0, replay.stdout
    assert f"move 1: {moves[0]}" in replay.stdout and "move 2:" not in replay.stdout
    # On its own line (it followed the prompt's "Enter for the next move" on one line).
    said = f"replay stopped before move 2 of {len(moves)}: end of input"
    assert said in replay.stdout.splitlines(), replay.stdout


def test_ctrl_c_at_the_play_prompt_is_quit_in_a_real_process() -> None:
    """Ctrl-C at the play prompt, a real SIGINT to a real process: it ended the game at once
    ("error: interrupted", status 130), moves not saved and all. It is now ``quit``: with a
    move not saved it asks and the game goes on; the second one leaves, status 0."""
    import signal
    import time

    command = [sys.executable, "-m", "ludoteca", "play", "gaps", "--seed", "1"]
    with subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as run:
        assert run.stdin is not None and run.stdout is not None and run.stderr is not None
        deadline = time.monotonic() + 60
        seen = ""

        def read_until(wanted: str, count: int) -> None:
            nonlocal seen
            while seen.count(wanted) < count and time.monotonic() < deadline:
                seen += run.stdout.read(1)  # type: ignore[union-attr]
            assert seen.count(wanted) >= count, seen

        read_until("›", 1)  # the board and the prompt
        run.stdin.write(f"{SPEC_FIRST_MOVE}\n")
        run.stdin.flush()
        read_until("›", 2)
        os.killpg(run.pid, signal.SIGINT)
        read_until("quit again leaves it", 1)
        read_until("›", 3)
        os.killpg(run.pid, signal.SIGINT)
        try:
            code = run.wait(timeout=20)
        finally:
            run.kill()
        errors = run.stderr.read()
    assert code == 0 and not errors.strip(), errors


SPEC_FIRST_MOVE = "8S"
"""A move of Gaps deal 1 at its start."""


@pytest.mark.parametrize("loaded", ["ludoteca.launch", "typer._click.core"])
def test_ctrl_c_while_the_command_line_loads_is_one_line(loaded: str) -> None:
    """Ctrl-C in the first second, while Python imports the command line (Typer, Rich,
    every command's module), came back as a KeyboardInterrupt traceback; it is now one
    line, status 130, whether it comes right after the first import (``ludoteca.launch``)
    or while ``main`` loads the commands (Typer's modules). The signal goes when Python
    reports that module imported (``-X importtime``, on stderr), not after a fixed sleep:
    under load a sleep of 0.05 s once ended before the interpreter itself had started,
    where SIGINT kills any process silently (status -2) and no code of ours runs."""
    import signal
    import threading

    command = [sys.executable, "-X", "importtime", "-m", "ludoteca", "games"]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as run:
        assert run.stderr is not None
        timings = []
        for line in run.stderr:
            timings.append(line)
            if line.rsplit("|", 1)[-1].strip() == loaded:
                break
        assert timings and timings[-1].rsplit("|", 1)[-1].strip() == loaded, timings[-3:]
        os.killpg(run.pid, signal.SIGINT)
        # The rest through the same reader: communicate() reads the pipe itself, and lost
        # what the reader had buffered past the line above (half an import-time line, whose
        # other half then failed the test).
        stuck = threading.Timer(20, run.kill)  # (a process that hangs fails, not CI)
        stuck.start()
        rest = run.stderr.read()
        output = run.stdout.read() if run.stdout else ""
        run.wait()
        stuck.cancel()
    errors = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert run.returncode == 130, (output, errors)
    assert errors == ["error: interrupted"] and output == ""


def test_ctrl_c_while_multiprocessing_is_half_imported_is_one_line() -> None:
    """The entry point's Ctrl-C handler asks ``multiprocessing.process`` whether this is a
    pool's worker. The command line imports that module as it loads, and a Ctrl-C that came
    while its body ran (``parent_process`` defined, the ``_parent_process`` it returns not
    yet) failed with a NameError: a traceback, status 1, once in a fresh-clone CI run of
    ``test_ctrl_c_while_the_command_line_loads_is_one_line``. Here the module is stopped at
    that point on purpose, and Ctrl-C is still one line, status 130."""
    script = (
        "import sys, types\n"
        "half = types.ModuleType('multiprocessing.process')\n"
        "exec('def parent_process():\\n    return _parent_process\\n', half.__dict__)\n"
        "sys.modules['multiprocessing.process'] = half\n"
        "import ludoteca.__main__ as entry\n"
        "entry._while_loading(2, None)\n"
        "print('not stopped')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, "error: interrupted\n", "")


@pytest.mark.parametrize("said", [False, True])
def test_ctrl_c_ends_the_process_even_when_the_way_out_hangs(said: bool) -> None:
    """Ctrl-C with worker processes raises ``Interrupted`` so that the pool shuts down on the
    way out; once, in CI under load, that shutdown never returned and a bench run outlived
    its Ctrl-C for good. Now, after ``GRACE_SECONDS`` (1 s here), the process ends anyway:
    the workers killed, status 130, and the one line said once, whether or not the way out
    had said it (``told``) before it hung."""

    caught = (
        "except interrupt.Interrupted as err:\n"
        "    print(f'error: {err}', file=sys.stderr, flush=True)\n"
        "    interrupt.told()\n"
    )
    script = (
        "import multiprocessing, sys, threading, time\n"
        "from ludoteca.cli import interrupt\n"
        "interrupt.GRACE_SECONDS = 1.0\n"
        "interrupt.stop_at_once_on_ctrl_c(lambda: 'nothing kept')\n"
        "worker = multiprocessing.Process(target=time.sleep, args=(60,))\n"
        "worker.start()\n"
        "try:\n"
        "    print(worker.pid, flush=True)  # (inside: Ctrl-C may come as soon as it is out)\n"
        "    time.sleep(60)\n"
        f"{caught if said else ''}"
        "finally:\n"
        "    threading.Event().wait()  # a pool whose shutdown never returns\n"
    )
    first, code, took, errors = _interrupted(script)
    assert code == 130, errors
    assert errors.splitlines() == ["error: interrupted: nothing kept"]
    assert 1.0 <= took < 20
    assert _ended(int(first))


def _interrupted(script: str) -> tuple[str, int, float, str]:
    """Run ``script``; once it prints its first line, Ctrl-C. That line, the status, the
    seconds from Ctrl-C to the end, and what it wrote to stderr (by every process that held
    it: the resource tracker's warnings come after the process ends)."""
    import signal

    with subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        try:
            first = run.stdout.readline()
            asked = time.monotonic()
            run.send_signal(signal.SIGINT)
            code = run.wait(timeout=30)
            took = time.monotonic() - asked
        finally:
            run.kill()
        return first, code, took, run.stderr.read()


def test_a_hung_way_out_leaves_no_warning_from_the_workers_semaphores() -> None:
    """When the way out hangs past ``GRACE_SECONDS`` (as above) with a pool of spawned
    workers, the resource tracker, which outlives the process, said below the one line
    that "5 leaked semaphore objects" were left (CI, under load, bench_gaps.py with two
    processes). Their finalizers unlink them before the process ends."""

    script = (
        "import sys, threading, time\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "from ludoteca.cli import interrupt\n"
        "interrupt.GRACE_SECONDS = 1.0\n"
        "interrupt.stop_at_once_on_ctrl_c(lambda: 'nothing kept')\n"
        "if __name__ == '__main__':\n"
        "    pool = ProcessPoolExecutor(2, max_tasks_per_child=1)\n"
        "    busy = [pool.submit(time.sleep, 60) for _ in range(4)]\n"
        "    time.sleep(1.0)\n"
        "    try:\n"
        "        print('up', flush=True)  # (inside: Ctrl-C may come as soon as it is out)\n"
        "        time.sleep(60)\n"
        "    finally:\n"
        "        threading.Event().wait()  # a pool whose shutdown never returns\n"
    )
    first, code, _, errors = _interrupted(script)
    assert first == "up\n" and code == 130, errors
    assert errors.splitlines() == ["error: interrupted: nothing kept"], errors


def _ended(pid: int) -> bool:
    """Has the process ended (gone, or a zombie no one reaped yet), within 10 s?"""
    for _ in range(100):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.1)
    return False


def test_the_entry_point_takes_ctrl_c_before_it_loads_anything() -> None:
    """A KeyboardInterrupt is raised wherever Python next looks for signals: once, under
    load, that was the first line of ``launch.main``, outside its ``try`` (a traceback). So
    the entry point (``ludoteca.__main__``, also the installed script's) sets a handler for
    Ctrl-C as its first statement, having loaded nothing the interpreter's start had not
    (``_signal`` is CPython's own; ``signal`` would load ``enum`` first, 5 ms), and only
    then the package (``launch``, which loads no ``typing`` either: 10 ms). ``ludoteca``'s
    ``main`` gives Ctrl-C back to Python once the command line is loaded."""
    script = (
        "import signal, sys\n"
        "before = set(sys.modules)\n"
        "import ludoteca.__main__ as entry\n"
        "print(signal.getsignal(signal.SIGINT) is entry._while_loading)\n"
        "print(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    taken, loaded = run.stdout.splitlines()
    assert taken == "True"
    assert set(loaded.split()) <= {
        "ludoteca",
        "ludoteca.__main__",
        "ludoteca.launch",
        "__future__",
        "_signal",
    }, loaded
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["ludoteca"] == "ludoteca.__main__:run"


def test_the_command_gives_ctrl_c_back_to_python_once_it_has_loaded() -> None:
    """After loading, Ctrl-C is a KeyboardInterrupt again, which each command handles (the
    prompt of ``play``, the long commands' handlers); the entry point's handler would end
    them at once instead."""
    script = (
        "import signal, sys\n"
        "import ludoteca.__main__\n"
        "from ludoteca.cli import app\n"
        "@app.command('probe-ctrl-c', hidden=True)\n"
        "def probe() -> None:\n"
        "    print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
        "sys.argv = ['ludoteca', 'probe-ctrl-c']\n"
        "ludoteca.__main__.run()\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stdout.strip()) == (0, "True"), run.stderr


def test_a_worker_the_installed_script_spawns_leaves_ctrl_c_to_the_command(
    tmp_path: Path,
) -> None:
    """A worker spawned by a command started from the installed script loads the script
    again, hence the entry point's handler. Ctrl-C while it starts is the command's to
    handle (its pool ignores Ctrl-C in workers), so that handler lets a worker go on,
    neither ending it nor saying a line of its own."""
    script = tmp_path / "ludoteca-like"
    script.write_text(
        "import multiprocessing, os, signal, sys, time\n"
        "import ludoteca.__main__\n"
        "def worker() -> None:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.2)\n"
        "    print('worker went on', flush=True)\n"
        "if __name__ == '__main__':\n"
        "    child = multiprocessing.get_context('spawn').Process(target=worker)\n"
        "    child.start()\n"
        "    child.join(60)\n"
        "    print('worker status', child.exitcode)\n"
    )
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=90)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["worker went on", "worker status 0"], run.stderr
    assert "interrupted" not in run.stderr


def test_ctrl_c_inside_a_compiled_module_loading_is_one_line_too() -> None:
    """A compiled module whose loading Ctrl-C interrupts (SciPy's distance module, met while
    looking into a CI failure) raises ``ImportError: initialization failed`` caused by the
    KeyboardInterrupt: it came back as a traceback, status 1. It is an interrupt like the
    others: one line, 130 (``launch.by_interrupt``); a plain ImportError still says what is
    missing."""
    from ludoteca.launch import by_interrupt

    try:
        raise ImportError("initialization failed") from KeyboardInterrupt()
    except ImportError as err:
        assert by_interrupt(err)
    assert not by_interrupt(ImportError("No module named 'nothing'"))
    script = (
        "import ludoteca.cli as cli\n"
        "def loading(package):\n"
        "    raise ImportError('initialization failed') from KeyboardInterrupt()\n"
        "cli.discover = loading\n"
        "cli.main()\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (run.returncode, run.stderr.strip(), run.stdout) == (130, "error: interrupted", "")


def test_new_deals_another_game_at_the_prompt_and_asks_before_leaving_one(tmp_path: Path) -> None:
    """After a game (or during one) a player had to quit and start the command again to play
    the next deal; ``new [N]`` deals another of the same game and variant, and a game in
    progress is only left after a second ``new``, since it is not kept."""
    from ludoteca.core import find_game

    state = find_game("tappeto").new_game(seed=1)
    moves: list[str] = []
    while not state.is_over:
        moves.append(str(state.apply(state.legal_moves()[0])))
    first = find_game("tappeto").new_game(seed=2).legal_moves_text()[0]
    session = [*moves, "new 2", first, "new", "new x", "new 3", "quit"]
    result = runner.invoke(
        app, ["play", "tappeto", "--seed", "1"], input="\n".join(session) + "\n", terminal_width=120
    )
    assert result.exit_code == 0, result.stdout
    out = result.stdout
    assert "game over" in out and "undo, new, save FILE or quit" in out
    assert out.index("game over") < out.index("deal 2") < out.index("deal 3")
    assert "this game is not saved: save FILE keeps it, new again leaves it" in out
    assert "new takes a deal number: new 42, not x" in out
    stats = json.loads(runner.invoke(app, ["stats", "tappeto", "--json"]).stdout)
    assert stats["played"] == 1  # the finished deal; the one left is not a game played


def test_quit_asks_before_leaving_a_game_not_saved(tmp_path: Path) -> None:
    """Nothing is lost: ``quit`` left a game in progress without a word, where ``new`` asked
    first; and both asked right after ``save`` or ``--load``, when nothing was left to lose."""
    save = tmp_path / "g.json"
    asked = "this game is not saved: save FILE keeps it, quit again leaves it"
    moved = runner.invoke(app, ["play", "tappeto", "--seed", "1"], input="2C\nquit\nquit\n")
    assert moved.exit_code == 0 and moved.stdout.count(asked) == 1, moved.stdout
    saved = runner.invoke(app, ["play", "tappeto", "--seed", "1"], input=f"2C\nsave {save}\nquit\n")
    assert saved.exit_code == 0 and "not saved" not in saved.stdout, saved.stdout
    loaded = runner.invoke(app, ["play", "--load", str(save)], input="new 3\nquit\n")
    assert loaded.exit_code == 0 and "not saved" not in loaded.stdout, loaded.stdout
    assert "deal 3" in loaded.stdout
    # The question is asked again about moves made after it.
    again = runner.invoke(app, ["play", "--load", str(save)], input="3C\nquit\n")
    assert again.stdout.count(asked) == 1, again.stdout


def test_save_takes_the_name_without_the_quotes_around_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``save "q q.json"`` wrote a file named with its quotes; one pair around the name is
    dropped now (README, ``save FILE``), and the rest of the line is still the name."""
    (tmp_path / "saves").mkdir()
    monkeypatch.chdir(tmp_path / "saves")
    typed = '2C\nsave "q q.json"\nsave \'r.json\'\nsave s t.json\nsave ""\nquit\n'
    result = runner.invoke(app, ["play", "tappeto", "--seed", "1"], input=typed)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "saves").iterdir())
    assert names == ["q q.json", "r.json", "s t.json"], names
    assert "saved to q q.json" in result.output and "save needs a file name" in result.output


@pytest.mark.parametrize("game", ["domino", "scalafrutta"])
def test_quit_asks_only_about_a_move_of_yours_and_as_a_note(game: str) -> None:
    """A fresh deal where the bot moved first (deal 0 of Domino, deal 1 of Scalafrutta):
    ``quit`` asked "this game is not saved" though nothing of yours was in it, and worded it
    as an error. It asks only once you have moved, as a plain note."""
    asked = "this game is not saved: save FILE keeps it, quit again leaves it"
    seed = {"domino": "0", "scalafrutta": "1"}[game]
    command = ["play", game, "--players", "you,random", "--seed", seed]
    fresh = runner.invoke(app, command, input="undo\nquit\n")
    assert fresh.exit_code == 0, fresh.output
    assert "no move of yours yet" in fresh.output  # (the bot moved first)
    assert asked not in fresh.output and fresh.output.rstrip().endswith("›"), fresh.output
    from ludoteca.cli.play import Session

    state = find_game(game).new_game(None, int(seed), 2)
    session = Session(state, ["you", "random"], None, None)  # (the bot's moves as in play)
    while state.current_player != 0:
        session.bot_turn(state.current_player)
    mine = state.legal_moves_text()[0]
    moved = runner.invoke(app, command, input=f"{mine}\nquit\nquit\n")
    assert moved.output.count(asked) == 1 and f"error: {asked}" not in moved.output, moved.output


def test_a_typed_position_is_not_counted_as_a_game_of_its_deal(tmp_path: Path) -> None:
    """Seed (Addiction "tracks completion statistics"; the issue: games, wins, redeals used,
    best score): only dealt games count. A position typed in with "| seed 7" (its redeals'
    shuffles) counted as a win of deal 7 in one move; the same game dealt counts."""
    from ludoteca.core import find_game

    spec = find_game("gaps")
    state = spec.new_game("no-redeal", 7)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    state.undo()
    last = state.legal_moves_text()[0]
    db = str(tmp_path / "r.db")
    typed = runner.invoke(
        app,
        ["play", "gaps", "-v", "no-redeal", "--position", state.position(), "--db", db],
        input=f"{last}\nquit\n",
    )
    assert typed.exit_code == 0 and "game over" in typed.stdout, typed.output
    stats = runner.invoke(app, ["stats", "--json", "--db", db])
    assert stats.stdout.strip() == "", stats.stdout
    moves = "\n".join([*state.history_text(), last])
    dealt = runner.invoke(
        app,
        ["play", "gaps", "-v", "no-redeal", "-p", "penalty=2", "--seed", "7", "--db", db],
        input=f"{moves}\nquit\n",
    )
    assert dealt.exit_code == 0, dealt.output
    assert json.loads(runner.invoke(app, ["stats", "--json", "--db", db]).stdout)["played"] == 1
    # The table writes the variant as the game's title does (it showed penalty=2.0).
    table = ludoteca_wide(120, "stats", "--db", db)
    assert "no-redeal[penalty=2]" in table and "2.0" not in table, table


def test_position_prints_the_game_in_notation_where_nothing_is_hidden() -> None:
    """A terminal game had no way to print its position for `solve --position` (the board
    draws 10♥ and suit symbols; a save keeps the start and the moves). `position` prints it
    in Gaps, which hides nothing, and refuses where the notation would show hidden cards."""
    from ludoteca.core import find_game

    state = find_game("gaps").new_game("no-redeal", 12)
    state.apply("KC")
    played = runner.invoke(
        app, ["play", "gaps", "-v", "no-redeal", "--seed", "12"], input="KC\nposition\nquit\nquit\n"
    )
    assert state.position() in played.stdout.splitlines()[-3].removeprefix("› "), played.stdout
    hidden = runner.invoke(app, ["play", "acme", "--seed", "1"], input="position\nquit\n")
    assert "position: Acme has cards you cannot see" in hidden.stdout
    assert find_game("acme").new_game(None, 1).position() not in hidden.stdout
    # (It said "cards or tiles" in every game: a fruit game names its tiles.)
    fruit = runner.invoke(app, ["play", "muro", "--seed", "1"], input="position\nquit\n")
    assert "position: Il Muro has tiles you cannot see" in fruit.stdout


def test_a_game_ended_again_from_a_save_made_before_its_end_counts_once(tmp_path: Path) -> None:
    """Statistics count each game once: ending a game, then loading a save made before its
    end and ending it again, counted it twice (every win could be played again from a save
    one move short). Each game has an id, kept in its save."""
    from ludoteca.core import find_game

    state = find_game("tappeto").new_game(seed=1)
    moves: list[str] = []
    while not state.is_over:
        moves.append(str(state.apply(state.legal_moves()[0])))
    save, db = tmp_path / "short.json", str(tmp_path / "r.db")
    session = [*moves[:-1], f"save {save}", moves[-1], "quit"]
    first = runner.invoke(
        app, ["play", "tappeto", "--seed", "1", "--db", db], input="\n".join(session) + "\n"
    )
    assert first.exit_code == 0 and "game over" in first.stdout, first.stdout
    again = runner.invoke(
        app, ["play", "--load", str(save), "--db", db], input=f"{moves[-1]}\nquit\n"
    )
    assert "this game was counted when it first ended" in again.stdout, again.stdout
    other = runner.invoke(
        app, ["play", "tappeto", "--seed", "1", "--db", db], input="\n".join(moves) + "\nquit\n"
    )
    assert "counted when it first ended" not in other.stdout  # the same deal, another game
    stats = json.loads(runner.invoke(app, ["stats", "tappeto", "--json", "--db", db]).stdout)
    assert stats["played"] == 2, stats


def test_study_list_tells_studies_apart_by_their_state_limit(private_database: Path) -> None:
    """Two studies of the same deals under different state limits were listed alike (only
    ``--json`` had ``max_states``), and ``study tappeto --list`` listed every game's."""
    for limit in ("1000", "2000"):
        runner.invoke(app, ["study", "gaps", "--deals", "1", "--max-states", limit])
    runner.invoke(app, ["study", "tappeto", "--deals", "1"])
    listed = runner.invoke(app, ["study", "gaps", "--list"], terminal_width=100).stdout
    rows = [line.split() for line in listed.splitlines()[4:] if line.strip()]
    assert sorted(row[5] for row in rows) == ["1k", "2k"], listed
    assert {row[1] for row in rows} == {"gaps"}, listed


def test_a_study_reports_and_stores_the_state_limit_its_searches_ran_under(
    private_database: Path,
) -> None:
    """``study acme --json`` said ``"max_states": null`` and ``study --list`` "any", while
    the solver searched under its default (2,000,000 for Acme, 4,000 a search for Il Muro's
    player), as ``solve`` said. A study stored so (null) is listed with the limit it ran
    under; Acme's greedy policy searches nothing, so it takes no limit."""
    from ludoteca.store import db
    from ludoteca.store.results import study_id

    ran = runner.invoke(app, ["study", "acme", "--deals", "1", "--json"])
    assert json.loads(ran.stdout)["max_states"] == 2_000_000, ran.stdout
    player = runner.invoke(app, ["study", "muro", "--policy", "player", "--deals", "1", "--json"])
    assert json.loads(player.stdout)["max_states"] == 4_000, player.stdout
    with db.connect(private_database) as connection:
        study_id(connection, "mosaico", "mosaico", "solver", 0, None)
    listed = runner.invoke(app, ["study", "--list", "--json"]).stdout.splitlines()
    limits = {(row["game"], row["max_states"]) for row in map(json.loads, listed)}
    assert limits == {("acme", 2_000_000), ("muro", 4_000), ("mosaico", 1_000_000)}, limits
    greedy = ludoteca("study", "acme", "--policy", "greedy", "--deals", "1", "--max-states", "5")
    assert greedy.returncode == 2 and "takes no --max-states" in greedy.stderr


def test_a_study_stored_with_no_limit_before_resumes_under_its_own(
    private_database: Path,
) -> None:
    """Once the limit a study ran under was stored, an Acme study stored before (with none,
    though it ran under 2,000,000) was not resumed by the same command: a second study
    started beside it. It takes its limit and resumes; a Gaps study with no limit (0 is none
    there) is not taken for one with Gaps' default."""
    from ludoteca.store import db
    from ludoteca.store.results import list_studies, study_id

    with db.connect(private_database) as connection:
        old = study_id(connection, "acme", "acme", "solver", 0, None)
        unlimited = study_id(connection, "gaps", "no-redeal", "solver", 0, None)
    runner.invoke(app, ["study", "acme", "--deals", "1"])
    runner.invoke(app, ["study", "gaps", "-v", "no-redeal", "--deals", "1"])
    with db.connect(private_database) as connection:
        rows = {(r["game"], r["study_id"]): r["max_states"] for r in list_studies(connection)}
    assert rows[("acme", old)] == 2_000_000 and len([g for g, _ in rows if g == "acme"]) == 1
    assert rows[("gaps", unlimited)] is None and len([g for g, _ in rows if g == "gaps"]) == 2
    # Stored both ways before (a run without --max-states, one with the same limit given):
    # the deals of the first move into the second, which alone is left, and none is lost.
    with db.connect(private_database) as connection:
        bare = study_id(connection, "mosaico", "mosaico", "solver", 0, None)
        given = study_id(connection, "mosaico", "mosaico", "solver", 0, 1_000_000)
        connection.execute(
            "INSERT INTO study_deals (study_id, seed, won, score, states, seconds)"
            " VALUES (?, 0, 1, 36, 5, 0.1), (?, 1, 0, 0, 5, 0.1)",
            (bare, given),
        )
        connection.commit()
    runner.invoke(app, ["study", "mosaico", "--deals", "3"])
    with db.connect(private_database) as connection:
        mosaico = [r for r in list_studies(connection) if r["game"] == "mosaico"]
    assert [(r["study_id"], r["deals"]) for r in mosaico] == [(given, 3)], mosaico


def test_solve_speaks_plainly_and_reads_a_positions_file_with_a_byte_order_mark(
    tmp_path: Path,
) -> None:
    """``solve``'s text printed Python's None and True, and called an unknown answer
    "exact"; a positions file saved with a byte-order mark had its first card "not a card"."""
    from ludoteca.core.registry import find_game

    unknown = runner.invoke(app, ["solve", "gaps", "--seed", "194", "--max-states", "1000"])
    first = unknown.stdout.splitlines()[0]
    assert "unknown (state limit reached);" in first and "exact" not in first, unknown.stdout
    assert "  best in sequence: unknown" in unknown.stdout
    assert "  complete: no" in unknown.stdout and "  max states: 1,000" in unknown.stdout
    assert "None" not in unknown.stdout and "False" not in unknown.stdout
    file = tmp_path / "positions.txt"
    position = find_game("gaps").new_game("no-redeal", 3).position()
    file.write_bytes("\ufeff".encode() + position.encode() + b"\n")
    read = runner.invoke(app, ["solve", "gaps", "--positions", str(file), "--json"])
    assert read.exit_code == 0, read.stdout
    assert json.loads(read.stdout)["winnable"] is False


def test_games_names_each_games_parameters() -> None:
    """``ludoteca games`` listed variants only: the Gaps penalty and redeal count (``-p``)
    were in ``--json`` alone. Each game's parameters come with the default's values."""
    listed = runner.invoke(app, ["games"]).stdout
    words = set(listed.replace("│", " ").split())  # (the table wraps at the spaces)
    for shown in ("redeals=2", "penalty=0", "twos_first=false", "reserve=15", "redeals=none"):
        assert shown in words, (shown, listed)
    # At 80 columns a long name was cut ("aces_start_on_founda…"), then folded mid-name.
    narrow = ludoteca_wide(80, "games")
    assert "…" not in narrow
    assert "-p aces_start_on_foundations=true" in narrow


def test_games_of_one_game_explains_each_parameter() -> None:
    """`ludoteca games GAME`: the variants, and each parameter with its default, what the
    other variants set, and what it does (the list gave `-p penalty=0` and no word on it)."""
    import json

    shown = ludoteca_wide(120, "games", "montana")
    penalty = next(line for line in shown.splitlines() if line.strip().startswith("penalty"))
    assert "Points taken off your score for each redeal you use" in penalty, shown
    redeals = next(line for line in shown.splitlines() if line.strip().startswith("redeals "))
    assert "2" in redeals.split() and "(no-redeal: 0; addiction: 3)" in shown, shown
    assert "no-redeal" in shown and "the hardest form" in shown
    listed = runner.invoke(app, ["games", "domino", "--json"])
    (line,) = listed.stdout.splitlines()
    assert json.loads(line)["param_help"]["square_ban"]["label"] == "No 2 × 2 squares"


def ludoteca_wide(columns: int, *args: str) -> str:
    """What ``ludoteca ARGS`` prints in a terminal ``columns`` wide."""
    env = {**os.environ, "COLUMNS": str(columns)}
    command = [sys.executable, "-m", "ludoteca", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, check=True).stdout


def test_study_max_states_0_is_no_limit_and_goes_on_with_a_study_without_one() -> None:
    """A Gaps study takes 20,000,000 states a search unless told otherwise; ``--max-states
    0`` asks for no limit, so a study stored without one (before the default) goes on."""
    for deals in ("1", "2"):
        runner.invoke(
            app, ["study", "gaps", "-v", "no-redeal", "--deals", deals, "--max-states", "0"]
        )
    runner.invoke(app, ["study", "gaps", "-v", "no-redeal", "--deals", "1"])
    listed = [
        json.loads(line)
        for line in runner.invoke(app, ["study", "--list", "--json"]).stdout.splitlines()
    ]
    assert sorted((row["max_states"] or 0, row["deals"]) for row in listed) == [
        (0, 2),
        (20_000_000, 1),
    ], listed


def test_study_max_states_is_refused_alike_whatever_the_number() -> None:
    """A negative ``--max-states`` was told to be positive, though 0 is taken (no limit); and
    0 with a policy that searches nothing got another message than 5 did."""
    negative = ludoteca("study", "gaps", "--deals", "1", "--max-states", "-1")
    assert negative.returncode == 2
    assert "--max-states must be positive, or 0 for no limit, not -1" in negative.stderr
    said = set()
    for limit in ("0", "5"):
        command = ["study", "gaps", "--policy", "random", "--deals", "1", "--max-states", limit]
        result = ludoteca(*command)
        assert result.returncode == 2 and not result.stdout
        said.add(" ".join(result.stderr.split()))
    assert said == {"error: the random policy of gaps takes no --max-states (it searches nothing)"}


def test_a_solitaire_lost_says_how_it_ended() -> None:
    """Il Muro's rules let the player give up (docs/rules/muro.md, resign): the end panel said
    "No more moves." for every lost solitaire, a resignation too."""
    result = runner.invoke(app, ["play", "muro", "--seed", "3"], input="resign\nresign\nquit\n")
    assert result.exit_code == 0, result.stdout
    assert "You gave up." in result.stdout and "(resigned)" in result.stdout
    assert "No more moves" not in result.stdout
    # As wide as its text: it spanned the whole terminal.
    top = next(line for line in result.stdout.splitlines() if "game over" in line)
    assert len(top.strip()) < 40, top


def test_resign_asks_before_it_gives_the_game_up() -> None:
    """docs/rules/muro.md (Notation: ``resign``, give up): the one word ended the game at
    once as lost, counted in the statistics even after an undo, where ``quit`` and ``new``
    ask first. The terminal asks too; a second ``resign`` in the same position gives up."""
    first = find_game("muro").new_game(variant="facile", seed=2)
    move = next(m for m in first.legal_moves_text() if m != "resign")
    asked = "resign gives this game up as lost: type resign again to give up"
    kept = runner.invoke(
        app, ["play", "muro", "-v", "facile", "--seed", "2"], input="resign\nundo\nquit\nquit\n"
    )
    assert kept.exit_code == 0, kept.output
    assert asked in kept.output and "game over" not in kept.output
    assert "error: resign" not in kept.output  # (a question, not an error)
    stats = runner.invoke(app, ["stats", "muro", "--json"])
    assert stats.stdout.strip() == "" or json.loads(stats.stdout)["played"] == 0, stats.stdout
    # Asked again after a move in between; the second resign in a row gives up.
    given = runner.invoke(
        app,
        ["play", "muro", "-v", "facile", "--seed", "2"],
        input=f"resign\n{move}\nresign\nresign\nquit\n",
    )
    assert given.output.count(asked) == 2 and "You gave up." in given.output, given.output


def test_moves_with_spaces_are_listed_apart() -> None:
    """Il Muro's moves have spaces of their own (docs/rules/muro.md, notation: "2P c2"), and
    "legal: 2P c2 3M c5 resign" could not be read; such a list is now split by " · "."""
    result = runner.invoke(app, ["play", "muro", "--seed", "3"], input="moves\nquit\n")
    assert result.exit_code == 0, result.stdout
    from ludoteca.core import find_game

    state = find_game("muro").new_game(None, 3)
    expected = " · ".join(state.legal_moves_text())
    assert " " in expected.split(" · ")[0]
    assert f"legal: {expected}" in result.stdout and f"› {expected}" in result.stdout


@pytest.mark.parametrize(
    ("game", "seed", "players"),
    [
        ("gaps", 3, 1),
        ("tappeto", 1, 1),
        ("mosaico", 5, 1),
        ("acme", 3, 1),
        ("domino", 6, 2),
        ("scalafrutta", 4, 3),
    ],
)
def test_every_game_lists_its_moves_apart_alike(game: str, seed: int, players: int) -> None:
    """A terminal review: the ``legal:`` line and ``moves`` split moves by spaces in some
    games ("2H 3H") and by " · " in others (a move with a space of its own, as Acme's "AC
    f", Domino's "block 4B"): one separator now, " · ", in every game and every list
    (docs/rules/*.md, Notation: ``moves`` lists every move you can make)."""
    seats = ["--players", ",".join(["you", *["greedy"] * (players - 1)])] if players > 1 else []
    result = runner.invoke(
        app, ["play", game, "--seed", str(seed), *seats], input="moves\nquit\nquit\n"
    )
    assert result.exit_code == 0, result.stdout
    shown = " ".join(result.stdout.split())  # (a long list folds at 80 columns)
    state = find_game(game).new_game(None, seed, players)
    assert state.current_player == 0  # (the person moves first in these deals)
    moves = state.legal_moves_text()
    assert len(moves) > 1, moves
    assert f"legal: {' · '.join(moves[:30])}" in shown, shown
    assert f"› {' · '.join(moves)}" in shown, shown


def test_a_ctrl_c_during_a_change_of_the_game_waits_for_its_end() -> None:
    """Nothing is lost: a Ctrl-C that comes while a move, an undo or a new deal changes the
    game is held until the change is made, then comes as ever. (The first version blocked
    the signal in the main thread, but the process's other threads, NumPy's, took it, and a
    review saw 136 of 755 interrupts land inside the change.) A second thread sends the
    signal here, as the terminal's goes to every thread of the process."""
    import signal
    import threading

    from ludoteca.cli.play import whole

    before = signal.getsignal(signal.SIGINT)
    finished = []
    with pytest.raises(KeyboardInterrupt), whole():
        sender = threading.Thread(target=os.kill, args=(os.getpid(), signal.SIGINT))
        sender.start()
        sender.join()
        time.sleep(0.05)  # Python runs a signal's handler at its next check: here
        finished.append("the change")
    assert finished == ["the change"]
    assert signal.getsignal(signal.SIGINT) is before


def test_ctrl_d_at_the_hand_over_prompt_asks_as_quit_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two people at one screen: the end of input at "press Enter when only you can see"
    ended the game ("aborted: end of input", status 1), a move not saved and all; it is quit
    there too, which asks once."""
    from ludoteca.core import find_game

    monkeypatch.setattr("ludoteca.cli.play.random_seed", lambda spec: 4)  # (no --seed here)
    first = find_game("domino").new_game(None, 4, 2).legal_moves_text()[0]
    result = runner.invoke(app, ["play", "domino", "--players", "you,you"], input=f"\n{first}\n")
    assert result.exit_code == 0, result.output
    assert "this game is not saved" in result.stdout and "aborted" not in result.output


def test_a_refused_quit_at_the_hand_over_prompt_stays_on_the_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two people at one screen, a move not saved, Ctrl-D at "press Enter when only you can
    see": "this game is not saved" was printed, then wiped by the hand-over's clear as the
    prompt was asked again, so a second Ctrl-D left the game without the warning seen."""
    import io

    from rich.console import Console

    from ludoteca.cli import play

    screen = Console(file=io.StringIO(), force_terminal=True, width=100)
    state = find_game("domino").new_game(seed=4, players=2)
    typed = iter(["", state.legal_moves_text()[0]])

    def readline(prompt: str = "") -> str:
        screen.file.write(prompt.replace("\x01", "").replace("\x02", "") + "\n")
        line = next(typed, None)
        if line is None:
            raise EOFError
        return line

    monkeypatch.setattr(play, "console", screen)
    monkeypatch.setattr(play, "load_in_background", lambda specs: None)
    monkeypatch.setattr("builtins.input", readline)
    typed_at_a_terminal(monkeypatch, output_too=True)
    play.run_session(play.Session(state, ["you", "you"], None, None))
    written = screen.file.getvalue()  # type: ignore[attr-defined]
    last_clear = written.rindex("\x1b[3J")
    assert "this game is not saved" in written[last_clear:], written[last_clear:]
    assert written.count("press Enter when only you can see") == 3  # seat 1; seat 2, twice


@pytest.mark.parametrize("game", ["domino", "scalafrutta"])
def test_undo_against_bots_takes_back_your_move_and_their_replies(game: str) -> None:
    """docs/web.md: against bots only, undo takes back your last move and the bots' replies
    to it. The terminal refused it ("undo is for the solitaires"), though its help offered
    undo and the web allowed it. With no move of yours yet, nothing is taken back."""
    from ludoteca.cli.play import Session
    from ludoteca.core import find_game

    state = find_game(game).new_game(None, 0, 2)  # (deal 0: the bot, seat 2, starts Domino)
    session = Session(state, ["you", "random"], None, None)
    while state.current_player != 0:
        session.bot_turn(state.current_player)
    if state.history:
        with pytest.raises(LudotecaError, match="no move of yours yet"):
            session.undo()
    mine = []
    for _ in range(3):
        mine.append(list(state.history_text()))  # where you were to move
        state.apply(state.legal_moves()[0])
        while state.current_player not in (0, TERMINAL):
            session.bot_turn(state.current_player)
    session.undo()
    assert state.history_text() == mine[-1] and state.current_player == 0
    session.undo()
    assert state.history_text() == mine[-2] and state.current_player == 0


def test_undo_stands_refused_with_people_at_the_table() -> None:
    """With two people at one screen a move stands: undo is for games against bots."""
    from ludoteca.cli.play import Session
    from ludoteca.core import find_game

    state = find_game("domino").new_game(None, 1, 2)
    session = Session(state, ["you", "you"], None, None)
    state.apply(state.legal_moves()[0])
    with pytest.raises(LudotecaError, match="undo is for games against bots"):
        session.undo()
    assert len(state.history) == 1


def test_a_tile_a_bot_gives_you_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed, Scalafrutta: when nothing matches, the mover chooses who gets the tile pushed
    out. A bot's move "R1>P1" did not say which tile you received; the line names it, and
    it is the tile your captures gained ("pushes out 4M and gives it to you")."""
    from ludoteca.cli.play import Session
    from ludoteca.core import find_game

    named = 0
    for seed in range(6):
        state = find_game("scalafrutta").new_game("mano", seed, 2)
        session = Session(state, ["you", "random"], None, None)
        while not state.is_over and named < 3:
            if state.current_player != 1:
                state.apply(state.legal_moves()[0])
                continue
            before = set(state.observation(0)["captured"][0])
            capsys.readouterr()
            session.bot_turn(1)
            said = capsys.readouterr().out
            gained = set(state.observation(0)["captured"][0]) - before
            if gained:
                (tile,) = gained
                assert f"pushes out {tile} and gives it to you" in said, said
                named += 1
            else:
                assert "gives it to you" not in said
    assert named == 3


@pytest.mark.parametrize(
    ("game", "seat"), [("domino", "seat 2 (random): "), ("scalafrutta", "seat 2 (random)  total")]
)
def test_the_table_panel_names_the_bots_in_their_seats(
    game: str, seat: str, tmp_path: Path
) -> None:
    """The players' panel named seats by number only ("seat 2"), while the bots' moves
    named them ("seat 2 (strong) plays"): which bot held which hand was guesswork. It names
    them now, in play and in replay; the person's own seat reads "(you)"."""
    played = runner.invoke(
        app, ["play", game, "--players", "you,random,greedy", "--seed", "3"], input="quit\n"
    )
    assert played.exit_code == 0, played.output
    assert seat in played.stdout and "(you)" in played.stdout
    save = tmp_path / "game.json"
    runner.invoke(
        app,
        ["play", game, "--players", "you,random,greedy", "--seed", "3"],
        input=f"save {save}\nquit\n",
    )
    replayed = runner.invoke(app, ["replay", str(save), "--as-player", "1"])
    assert replayed.exit_code == 0 and seat in replayed.stdout, replayed.output


def test_a_seat_is_you_only_when_a_person_sits_there() -> None:
    """``replay --as-player 2`` of a game of you, greedy, greedy labelled the bot's seat it
    showed "(you)" as well as the person's; two people at one screen would both read
    "(you)". A bot's seat is named by its bot; "(you)" is the person whose view is shown,
    or the one person at the table."""
    from ludoteca.tui._fruit import seat_label

    bots = {"you": 1, "seat_names": ["you", "greedy", "greedy"]}
    assert [seat_label(bots, s, "seat ") for s in range(3)] == [
        "seat 1 (you)",
        "seat 2 (greedy)",
        "seat 3 (greedy)",
    ]
    people = {"seat": 1, "seat_names": ["you", "you", "strong"]}
    assert [seat_label(people, s, "P") for s in range(3)] == ["P1", "P2 (you)", "P3 (strong)"]


def test_a_save_of_several_players_that_names_no_seats_is_not_played(tmp_path: Path) -> None:
    """A save of a Domino game with no seats sat one person at a table of two, then ended
    in an IndexError. play needs the seats (the engine's own saves may leave them out)."""
    from ludoteca.core.saves import snapshot

    save = tmp_path / "seatless.json"
    save.write_text(snapshot(find_game("domino").new_game(None, 5, 2)).dumps())
    played = runner.invoke(app, ["play", "--load", str(save)])
    assert played.exit_code == 2, played.output
    assert "the save names no seats, and play needs to know who sits where" in played.output


def test_a_save_whose_seats_name_no_bot_of_its_game_names_the_file(tmp_path: Path) -> None:
    """A save seating an unknown bot was refused without the file's name ("no bot 'nosuch'
    for domino"), unlike every other fault of a save; a solitaire's save seating a bot let
    the bot play the game alone."""
    import json

    from ludoteca.core.saves import snapshot

    saved = json.loads(snapshot(find_game("domino").new_game(None, 5, 2)).dumps())
    unknown = tmp_path / "unknown-bot.json"
    unknown.write_text(json.dumps({**saved, "seats": ["you", "nosuch"]}))
    played = runner.invoke(app, ["play", "--load", str(unknown)])
    assert played.exit_code == 2, played.output
    assert f"{unknown}: no bot 'nosuch' for domino (bots: " in played.output
    solitaire = json.loads(snapshot(find_game("gaps").new_game(None, 7, 1)).dumps())
    botted = tmp_path / "botted.json"
    botted.write_text(json.dumps({**solitaire, "seats": ["random"]}))
    played = runner.invoke(app, ["play", "--load", str(botted)])
    assert played.exit_code == 2, played.output
    assert f"{botted}: gaps is a solitaire for one person; the save seats random" in played.output


def test_a_solitaire_is_not_played_by_a_bot() -> None:
    """`--players` is for the multiplayer games (its help says so): `play gaps --players
    random` let the bot play the whole solitaire by itself. `--players you` is still fine."""
    played = runner.invoke(app, ["play", "gaps", "--players", "random", "--seed", "4"])
    assert played.exit_code == 2, played.output
    assert "gaps is a solitaire: --players is for the multiplayer games" in played.output
    played = runner.invoke(app, ["play", "gaps", "--players", "you", "--seed", "4"], input="quit\n")
    assert played.exit_code == 0, played.output


def test_a_terminal_without_unicode_gets_ascii_stand_ins_not_a_traceback() -> None:
    """With ``PYTHONIOENCODING=ascii`` (or a Latin-1 locale) every command that wrote a
    suit, a fruit, a dot or a dash ended in a UnicodeEncodeError traceback: ``games``, and
    each game's board at its first drawing. The suits are now written as in the notation
    (10C), the tiles in notation (4M), the rest with ASCII stand-ins; JSON is escaped."""
    ascii_only = {**os.environ, "PYTHONIOENCODING": "ascii", "COLUMNS": "100"}

    def run(*args: str, moves: str = "") -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "ludoteca", *args]
        return subprocess.run(
            command, input=moves, capture_output=True, text=True, env=ascii_only, check=False
        )

    games = run("games")
    assert games.returncode == 0 and "tappeto" in games.stdout, games.stderr
    listed = run("games", "--json")
    assert listed.returncode == 0, listed.stderr
    names = [json.loads(line)["name"] for line in listed.stdout.splitlines()]
    assert names == [spec.name for spec in all_games()], names
    gaps = run("play", "gaps", "--seed", "1", moves="8S\nquit\nquit\n")
    assert gaps.returncode == 0 and "Traceback" not in gaps.stderr, gaps.stderr
    assert " 2C  2S  KH  KC " in gaps.stdout and "10C" in gaps.stdout
    muro = run("play", "muro", "--seed", "1", moves="quit\n")
    assert muro.returncode == 0 and "Traceback" not in muro.stderr, muro.stderr
    assert "4M" in muro.stdout and "###" in muro.stdout and "M mele" in muro.stdout
    for game, players in (("scalafrutta", "you,greedy"), ("domino", "you,greedy")):
        played = run("play", game, "--players", players, moves="quit\n")
        assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr


@pytest.mark.parametrize("encoding", ["ascii", "utf-8"])
def test_a_line_standard_input_cannot_decode_is_a_bad_move_not_a_traceback(encoding: str) -> None:
    """A suit pasted from the board where the terminal is ASCII, or è typed in Latin-1 to a
    UTF-8 one, ended the game in a UnicodeDecodeError traceback (the input's encoding set
    strict by PYTHONIOENCODING, as by a UTF-8 locale). It is refused as any unknown move."""
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    typed = "7♣\n".encode() + b"\xe8\n" + b"quit\n"
    played = subprocess.run(
        [sys.executable, "-m", "ludoteca", "play", "tappeto", "--seed", "1"],
        input=typed,
        capture_output=True,
        env=env,
        check=False,
    )
    out, err = played.stdout.decode(encoding), played.stderr.decode(encoding)
    assert played.returncode == 0 and "Traceback" not in err, err
    assert out.count("error: bad move") == 2, out


def test_the_answers_of_solve_and_study_are_one_line_each_in_a_pipe() -> None:
    """Piped (no terminal: Rich takes 80 columns), solve's verdict line and study's summary
    were cut in two: "...(reads the reserve's order); 49" and "states in 0.000 s" on the next
    line, "(95% Wilson" and "0.89% – 23.61%)". A script reading them line by line lost half."""
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}

    def run(*args: str) -> list[str]:
        command = [sys.executable, "-m", "ludoteca", *args]
        result = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        assert result.returncode == 0, result.stderr
        return result.stdout.splitlines()

    solved = run("solve", "tappeto", "--seed", "1")
    assert solved[0].startswith("seed 1: winnable") and solved[0].endswith(" s"), solved
    assert all(line.startswith("  ") for line in solved[1:]), solved
    studied = run("study", "tappeto", "--deals", "20")
    assert len(studied) == 1 and "(95% Wilson" in studied[0], studied
    assert studied[0].endswith(" s"), studied


def _at_a_terminal(args: list[str], keys: list[bytes], columns: int = 80) -> str:
    """What ``ludoteca ARGS`` writes to a terminal (a pseudo-terminal ``columns`` wide) where
    each of ``keys`` is typed once the prompt has been written again."""
    import fcntl
    import pty
    import select
    import struct
    import termios

    main_end, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm"}
    for name in ("COLUMNS", "LINES", "NO_COLOR"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "ludoteca", *args],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        env=env,
        start_new_session=True,
    )
    os.close(terminal)
    written = b""
    try:
        for key in [*keys, None]:
            prompts = written.count("›".encode())
            deadline = time.monotonic() + 20
            while written.count("›".encode()) == prompts and time.monotonic() < deadline:
                if select.select([main_end], [], [], 0.5)[0]:
                    try:
                        written += os.read(main_end, 65536)
                    except OSError:  # (the command ended)
                        break
            if key is not None:
                time.sleep(0.2)  # (readline has taken the terminal)
                os.write(main_end, key)
        process.wait(timeout=60)
    finally:
        process.kill()
        os.close(main_end)
    return written.decode(errors="replace")


def test_readline_knows_the_prompt_and_draws_it_again() -> None:
    """The prompt was printed by Rich before readline began, so readline, believing the line
    empty, left it out whenever it drew the line again (Ctrl-L cleared the screen to a bare
    line) and put a long line edited back across its wrap two columns short."""
    written = _at_a_terminal(["play", "tappeto", "--seed", "1"], [b"\x0c", b"quit\r"])
    cleared = written.rfind("\x1b[2J")
    assert cleared >= 0, written
    assert "›" in written[cleared:], repr(written[cleared:])


def test_the_command_list_gives_each_command_one_line_that_holds() -> None:
    """``ludoteca --help`` listed stats on two lines however wide the terminal (its summary
    kept the docstring's line break: "solitaires, and games" / "against bots"), and said
    that solve gives "one JSON object per position", which it does only with --json."""
    wide = {**os.environ, "COLUMNS": "200"}
    command = [sys.executable, "-m", "ludoteca", "--help"]
    shown = subprocess.run(command, capture_output=True, text=True, env=wide, check=False)
    panel = shown.stdout[shown.stdout.index("Commands") :].splitlines()
    listed = [line for line in panel if line.startswith("│")]
    names = [line.split()[1] for line in listed]
    assert names == ["games", "play", "replay", "serve", "solve", "stats", "study", "tournament"]
    solve = next(line for line in listed if line.split()[1] == "solve")
    assert "JSON" not in solve or "--json" in solve, solve


@pytest.mark.parametrize("game", ["gaps", "domino"])
def test_rules_at_the_prompt_show_the_rules_for_players(game: str) -> None:
    """The terminal had only the commands' one-line help; `rules` shows the game's rules for
    players (docs/rules/<game>.md up to its marker), as the web's dialog does, less the
    section about the web page, and nothing of the sources and rulings below the marker."""
    args = ["play", game, "--seed", "2"] + (["--players", "you,greedy"] if game == "domino" else [])
    result = runner.invoke(app, args, input="help\nrules\nquit\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    # (position only where nothing is hidden: see the help test below)
    after_new = "position (in notation" if game == "gaps" else "rules, help, quit."
    assert f"new [N] (another deal, or deal N), {after_new}" in said, said
    for heading in ("Goal", "Setup", "Notation"):
        assert f"\n{heading}" in result.output, heading
    assert "Playing on the web page" not in result.output
    assert "Sources and rulings" not in result.output and "<!--" not in result.output


def test_the_title_writes_parameters_as_they_are_typed() -> None:
    """`-p penalty=2` titled the game `gaps[penalty=2.0]`, and a flag `twos_first=True`: the
    title writes them as `games` lists them for -p; the label results are stored under is
    unchanged."""
    from ludoteca.core import find_game

    played = runner.invoke(
        app,
        ["play", "gaps", "--seed", "3", "-p", "penalty=2", "-p", "twos_first=yes"],
        input="quit\n",
    )
    assert played.exit_code == 0, played.output
    assert "Gaps · gaps[penalty=2,twos_first=true] · deal 3" in played.output, played.output
    spec = find_game("gaps")
    variant = spec.variant("gaps").with_params({"penalty": "2", "twos_first": "yes"})
    assert spec.variant_label(variant) == "gaps[penalty=2.0,twos_first=True]"


def test_help_names_the_games_own_moves_and_only_the_commands_that_apply() -> None:
    """``help`` said "Type a move in the game's notation" in every game, and offered undo,
    ``new N`` and ``position`` at a table of several people, where each is refused (a
    terminal review). It now names the game's own moves (its rules, Notation) and leaves
    out what this table refuses."""
    alone = runner.invoke(app, ["play", "gaps", "--seed", "2"], input="help\nquit\n")
    said = " ".join(alone.stdout.split())
    assert "a card such as 5H; redeal or stop when stuck" in said, said
    assert all(word in said for word in ("undo,", "new [N]", "position (in notation")), said
    table = runner.invoke(
        app, ["play", "domino", "--players", "you,you"], input="\nhelp\nquit\nquit\n"
    )
    said = " ".join(table.stdout.split())
    assert "Type a move (4B@r-1; draw; block 3P; open; out), or:" in said, said
    assert "new (another deal)" in said and "new [N]" not in said, said
    commands = said.split("out), or:")[1]
    assert "undo" not in commands and "position" not in commands, said


def test_the_replay_of_a_finished_game_names_you_only_in_your_own_view(tmp_path: Path) -> None:
    """A finished game against bots replays every seat's view. In a bot's panel the one
    person read "seat 1 (you)", above the bot's own "Your hand" (a terminal review): each
    panel is now titled by its seat, and a person is "you" in their own panel only."""
    from ludoteca.core.rng import DealRng
    from ludoteca.core.saves import snapshot

    state = find_game("domino").new_game(None, 11, 3)
    rng = DealRng(11, "replay-views")
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    save = tmp_path / "over.json"
    save.write_text(snapshot(state, seats=["you", "strong", "greedy"]).dumps())
    shown = runner.invoke(app, ["replay", str(save)], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    panels = shown.output[shown.output.rindex("seat 1's view") :]
    assert "seat 2's view" in panels and "seat 3's view" in panels, panels
    own, others = panels.split("seat 2's view", 1)
    assert "seat 1 (you)" in own, own
    assert "(you)" not in others and "seat 1 (person)" in others, others
    # The result line said "domino, score -1 · 0 · -1": the tiles left, and the ending in words.
    left = " · ".join(str(len(hand)) for hand in state.hands)
    assert f"result: tiles left: {left} (a player placed their last tile)" in shown.output or (
        f"result: tiles left: {left} (nobody can go on)" in shown.output
    ), shown.output[-300:]
