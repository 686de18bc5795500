"""The bench scripts as a researcher runs them (they are not tests; these run them on tiny
inputs): Ctrl-C and bad options get one line, never a traceback."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).parents[2] / "bench"

LONG_RUNS = {
    # Each prints a line early (once its kernels are loaded), then runs for minutes.
    "acme": ["bench_acme.py", "--deals", "100000"],
    "domino": ["bench_domino.py", "--games", "100000"],
    "gaps": ["bench_gaps.py", "--deals", "1000", "--max-states", "10000000"],
    "gaps-processes": [
        *("bench_gaps.py", "--deals", "1000", "--max-states", "10000000"),
        *("--processes", "2", "--verbose"),
    ],
    "gaps-beam": ["bench_gaps_beam.py", "--seeds", ",".join(["40"] * 5000)],
    "gaps-redeals": ["bench_gaps_redeals.py", "--deals", "1000", "--verbose"],
    "gaps-redeals-processes": [
        *("bench_gaps_redeals.py", "--deals", "1000", "--verbose", "--processes", "2"),
    ],
    "gaps-symmetry": ["bench_gaps_symmetry.py", "--deals", "1", "--cap", "100000000"],
    "hints": ["bench_hints.py", "hints", "--deals", "1000000", "--games", "tappeto"],
    "hints-bots": ["bench_hints.py", "bots", "--games", "100000", "--of", "domino"],
    "mosaico": ["bench_mosaico.py", "--deals", "100000"],
    "muro": ["bench_muro.py", "--deals", "100000"],
    "scalafrutta": ["bench_scalafrutta.py", "tournament", "--games", "100000"],
    "tappeto": ["bench_tappeto.py", "--deals", "1000000000"],
}


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", sorted(LONG_RUNS))
def test_ctrl_c_stops_a_bench_at_once_with_one_line(name: str) -> None:
    """Ctrl-C during a bench run printed a Python traceback (from inside a compiled search, a
    worker process, or wherever the run was); now the run stops at once, with one line and
    status 130, as ``ludoteca solve`` and ``study`` do. With worker processes the signal
    goes to the whole process group, as a terminal sends it."""
    script, *args = LONG_RUNS[name]
    command = [sys.executable, str(BENCH / script), *args]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        guard = threading.Timer(90, run.kill)  # a run that never prints is killed, and fails
        guard.start()
        try:
            first = run.stdout.readline()
            assert first, run.stderr.read()
            if "processes" in name:
                run.stdout.readline()  # the workers are up and deciding
            else:
                time.sleep(0.5)
            asked = time.monotonic()
            if "processes" in name:
                os.killpg(run.pid, signal.SIGINT)
            else:
                run.send_signal(signal.SIGINT)
            assert run.wait(timeout=15) == 130
            assert time.monotonic() - asked < 10
        finally:
            guard.cancel()
            if run.poll() is None:  # it did not stop: fail now, not wait on it for ever
                os.killpg(run.pid, signal.SIGKILL)
        errors = run.stderr.read()
    assert errors.splitlines() == [
        "error: interrupted: the run was cut short: no summary (the lines printed so far stand)"
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bench_acme.py", "--deals", "0"], "argument --deals: must be at least 1, not 0"),
        (["bench_acme.py", "--deals", "2", "nope"], "acme has no variant 'nope'"),
        (["bench_acme.py", "redeals=x"], "parameter 'redeals' needs a whole number"),
        (["bench_domino.py", "--games", "0"], "argument --games: must be at least 1"),
        (["bench_domino.py", "--players", "9"], "domino is for 2-4, not 9"),
        (["bench_domino.py", "--challenger", "nope"], "no bot 'nope' for domino"),
        (["bench_gaps.py", "--deals", "0", "--max-states", "9"], "--deals: must be at least 1"),
        (["bench_gaps.py", "--seeds", "1,x", "--max-states", "9"], "comma-separated whole"),
        (["bench_gaps.py", "--seeds", "1", "--seconds", "nan"], "positive number of seconds"),
        (["bench_gaps.py", "--seeds", "1", "--max-states", "0"], "must be at least 1, not 0"),
        (["bench_gaps.py", "--seeds", "1", "--seconds", "1", "--memory", "0.001"], "1/64"),
        # As `ludoteca solve`: --memory was taken without --seconds, and past the machine's.
        (["bench_gaps.py", "--seeds", "1", "--max-states", "9", "--memory", "1"], "with --seconds"),
        (
            ["bench_gaps.py", "--seeds", "1", "--seconds", "1", "--memory", "1e6"],
            "than this machine",
        ),
        (["bench_gaps.py", "--seeds", "1", "--max-states", "9", "--processes", "0"], "at least 1"),
        (["bench_gaps.py", "--seeds", "1", "--max-states", "9", "--variant", "x"], "no variant"),
        (["bench_gaps.py"], "give --max-states or --seconds"),
        (["bench_gaps_redeals.py", "--first-seed", "-1"], "must be at least 0, not -1"),
        # A review of the research tools, 2026-11-27: each of these was taken, or named
        # every option at once.
        (["bench_gaps.py", "--seeds", "3,3", "--max-states", "9"], "a deal is named twice: 3"),
        (["bench_gaps.py", "--seeds", "3", "--deals", "3", "--max-states", "9"], "drop --deals"),
        (
            ["bench_gaps.py", "--first-seed", str(2**63 - 1), "--deals", "2", "--max-states", "9"],
            "goes past the last deal",
        ),
        (["bench_gaps_beam.py", "--seeds", "-1"], "deal numbers are 0..9223372036854775807"),
        (["bench_gaps_redeals.py", "--redeals", "5"], "--redeals must be 0..3, not 5"),
        (["bench_gaps_redeals.py", "--processes", "0"], "--processes: must be at least 1"),
        (["bench_hints.py", "hints", "--deals", "0"], "argument --deals: must be at least 1"),
        (["bench_hints.py", "hints", "--games", "nope"], "no game called 'nope'"),
        (["bench_hints.py", "first", "--games", "nope"], "no game called 'nope'"),
        (["bench_hints.py", "hints", "--walkers", "x"], "walkers are random and greedy"),
        (["bench_hints.py", "bots", "--players", "9"], "domino is for 2-4 players, not 9"),
        (["bench_hints.py", "bots", "--of", "muro"], "muro is a solitaire"),
        (["bench_hints.py", "bots", "--variant", "mano"], "domino has no variant 'mano'"),
        (["bench_mosaico.py", "--deals", "0"], "argument --deals: must be at least 1"),
        (["bench_muro.py", "--deals", "0"], "argument --deals: must be at least 1"),
        (["bench_scalafrutta.py"], "the following arguments are required: command"),
        (["bench_scalafrutta.py", "hands", "--games", "0"], "must be at least 1, not 0"),
        (["bench_scalafrutta.py", "hands", "--players", "7"], "scalafrutta is for 2-4, not 7"),
        (["bench_scalafrutta.py", "tournament", "--variant", "x"], "scalafrutta has no variant"),
        (["bench_scalafrutta.py", "tournament", "--iterations", "0"], "must be at least 1"),
        (["bench_tappeto.py", "--deals", "0"], "argument --deals: must be at least 1"),
        (["bench_gaps_profile.py", "--seed", "-1"], "--seed: must be at least 0, not -1"),
        (["bench_gaps_profile.py", "--frequency", "0"], "must be at least 1, not 0"),
        (["bench_tappeto.py", "--rates", "-1"], "argument --rates: must be at least 0"),
    ],
)
def test_a_bad_option_is_one_line_of_error_before_any_run(args: list[str], message: str) -> None:
    """A count of 0 ended in a ZeroDivisionError or StatisticsError traceback after the run,
    a game, variant or bot that does not exist in an UnknownGameError traceback (some after
    minutes of speed runs), and a malformed option in a usage block: now each is one line,
    status 2, before anything runs."""
    result = bench(*args)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert message in result.stderr


def test_a_few_holdings_time_the_split_without_a_size_class_left_empty() -> None:
    """``bench_scalafrutta.py split --holdings 0`` (or a handful) left a size class with no
    holding, whose median was a StatisticsError traceback; it is left out of the lines."""
    result = bench("bench_scalafrutta.py", "split", "--holdings", "0")
    assert result.returncode == 0, result.stderr
    assert "36 tiles:" in result.stdout and "0-12 tiles" not in result.stdout
    # It said "50 random holdings": the 50 holdings of all 36 tiles it always adds.
    assert "0 random holdings and 50 of all 36 tiles" in result.stdout


@pytest.mark.parametrize(
    ("script", "option"),
    [
        ("bench_muro.py", "--player-nodes"),
        ("bench_acme.py", "--deals"),
        ("bench_mosaico.py", "--max-states"),
    ],
)
def test_help_gives_each_option_its_default(script: str, option: str) -> None:
    """``--help`` of the Acme, Il Muro and Mosaico benches named options without their
    defaults: how many deals a bare run plays was left to the source."""
    result = bench(script, "--help")
    assert re.search(rf"\n  {option} \S+\s+\(default: \d+\)", result.stdout), result.stdout


@pytest.mark.parametrize("script", sorted(p.name for p in BENCH.glob("bench_*.py")))
def test_every_bench_takes_help_with_its_whole_first_sentence(script: str) -> None:
    """``bench_acme.py --help`` cut its description mid-sentence ("states per second,") and
    ``bench_domino.py --help`` ran its whole docstring, command line included, into one
    paragraph: the description is the docstring's first paragraph."""
    result = bench(script, "--help")
    assert result.returncode == 0 and result.stdout.startswith("usage:"), result.stderr
    described = " ".join(result.stdout.split("\n\n")[1].split())
    assert described.endswith("."), described
    assert ".venv/bin/python" not in described


def test_a_reader_that_stops_early_ends_a_bench_quietly() -> None:
    """``bench_... | head`` ended in a BrokenPipeError traceback once ``head`` had its lines;
    now the script stops quietly, status 1."""
    command = [sys.executable, str(BENCH / "bench_gaps_beam.py"), "--seeds", "40," * 200 + "40"]
    with subprocess.Popen(
        [*command, "--widths", "100"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as run:
        assert run.stdout is not None and run.stderr is not None
        first = run.stdout.readline()
        run.stdout.close()  # as head does once it has its line
        assert run.wait(timeout=60) == 1
        errors = run.stderr.read()
    assert first.startswith("40 ") and errors == ""


def test_acme_says_when_no_deal_was_long_enough_to_time_the_kernel() -> None:
    """``bench_acme.py`` on a few short deals printed "kernel 0 states/s", which read as a
    broken kernel: the kernel is timed on deals of 10,000+ states, and there were none."""
    result = bench("bench_acme.py", "--deals", "3", "acme")
    assert result.returncode == 0, result.stderr
    assert "kernel not timed (no deal of 10,000+ states)" in result.stdout
    assert "0 states/s" not in result.stdout


def test_the_hint_bench_prints_each_game_and_variant_and_the_slowest_positions() -> None:
    """``bench_hints.py hints`` on one deal of two quick games: a line of figures for each
    variant and walker, the figures over all, and the slowest positions to repeat alone."""
    result = bench(
        *("bench_hints.py", "hints", "--deals", "1", "--every", "10"),
        *("--games", "tappeto,domino", "--walkers", "random", "--slowest", "2"),
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for variant in ("tappeto tappeto", "tappeto con-scarti", "tappeto grande", "domino domino"):
        assert any(line.startswith(f"{variant} random: ") and "p95" in line for line in lines)
    slowest = lines.index("slowest 2 (web: replay + hint):")
    assert len(lines[slowest + 1 : slowest + 3]) == 2 and "deal 0 move " in lines[slowest + 1]


def test_the_profile_says_in_one_line_which_tools_it_lacks(tmp_path: Path) -> None:
    """Without Linux perf (or binutils' nm) on the PATH the profile cannot run: one line
    that names what is missing and the Debian packages, status 2, before any search."""
    result = subprocess.run(
        [sys.executable, str(BENCH / "bench_gaps_profile.py"), "--seed", "112"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PATH": str(tmp_path)},
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "bench_gaps_profile.py: error: needs perf and nm on the PATH (Debian: linux-perf,"
        " binutils) (see --help)"
    ]


def _perf_can_sample() -> bool:
    perf = shutil.which("perf")
    if perf is None or shutil.which("nm") is None:
        return False
    with tempfile.TemporaryDirectory() as folder:
        record = [perf, "record", "-q", "-o", f"{folder}/data", "--", "true"]
        return subprocess.run(record, capture_output=True, check=False).returncode == 0


@pytest.mark.skipif(not _perf_can_sample(), reason="Linux perf cannot sample on this machine")
def test_the_profile_names_the_compiled_functions_a_search_spends_its_time_in() -> None:
    """The profile of a short search: its verdict line, then the compiled functions by their
    share of the samples in the compiled search, the analyses (``_widen``, once held and
    once plain) and the search's loop among them, the shares adding up to the whole."""
    result = bench(
        "bench_gaps_profile.py", "--seed", "112", "--max-states", "300000", "--top", "60"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("seed 112: undecided, 300,000 nodes in ")
    assert re.match(r"[\d,]+ samples at 4,000 a second; [\d,]+ \(\d+\.\d %\) in the", lines[1])
    shares = {line[9:]: float(line[:5]) for line in lines[2:]}
    assert {"compiled_analysis._widen", "kernel.search"} <= shares.keys(), lines
    assert "compiled_analysis._widen [literal arguments -1]" in shares, lines
    assert 99.0 <= sum(shares.values()) <= 100.5, lines
