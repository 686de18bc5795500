"""The bench scripts as a researcher runs them (they are not tests; these run them on tiny
inputs): Ctrl-C and bad options get one line, never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
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
        errors = run.stderr.read()
    assert errors.splitlines() == [
        "error: interrupted: the run was cut short: no summary (the lines printed so far stand)"
    ]
