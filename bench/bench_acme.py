"""Acme solver figures: time per deal (median, 95th percentile, slowest), states per second,
deals stopped by the node limit, and peak memory.

    nice -n 10 .venv/bin/python bench/bench_acme.py --deals 2000
    nice -n 10 .venv/bin/python bench/bench_acme.py --deals 200 redeals=0 redeals=1

Targets (the issue): median deal decided within 0.5 s, 95% within 10 s, peak memory under
1 GiB. Each deal is timed as ``solve`` does its work (the ``ludoteca solve`` path: kernel
search, then the winning line replayed through the engine), after one warm-up deal that loads
or compiles the kernel; states/s counts the kernel alone. Name what to measure: variants, or
``redeals=N`` for the default variant with the waste turned over at most N times (default:
the three variants).
"""

from __future__ import annotations

import resource
import statistics
import time

from benchkit import Parser, run, whole
from ludoteca.games.acme import SPEC, AcmeState
from ludoteca.solvers.acme import DEFAULT_MAX_STATES, line_moves, search, solve
from ludoteca.studies.stats import wilson


def measure(label: str, params: dict[str, str], variant: str, deals: int, limit: int) -> None:
    chosen = SPEC.variant(variant, params)
    times, won, unknown = [], 0, 0
    big_states, big_seconds = 0, 0.0  # deals of 10,000+ states: the kernel's own speed
    for seed in range(deals):
        state = SPEC.new_game(chosen, seed)
        assert isinstance(state, AcmeState)
        start = time.perf_counter()
        found = search(state, limit)
        searched = time.perf_counter()
        if found.result == 1:
            line_moves(state, found.line)  # as solve() does: the line replayed in the engine
        times.append(time.perf_counter() - start)
        if found.states >= 10_000:
            big_states += found.states
            big_seconds += searched - start
        won += found.result == 1
        unknown += found.result < 0
    times.sort()
    decided = deals - unknown
    low, high = wilson(won, decided)
    # Too few states to time the kernel by: said so, where "0 states/s" looked like a fault.
    speed = (
        f"{big_states / big_seconds:,.0f} states/s (deals of 10,000+ states)"
        if big_seconds
        else "not timed (no deal of 10,000+ states)"
    )
    print(
        f"{label}: {deals} deals, median {statistics.median(times) * 1e3:.1f} ms, "
        f"95% within {times[int(0.95 * (deals - 1))] * 1e3:.0f} ms, slowest {times[-1]:.2f} s; "
        f"kernel {speed}; "
        f"node limit ({limit:,}) hit {unknown}; "
        f"winnable {won}/{decided} = {100 * won / max(decided, 1):.1f}% "
        f"[{100 * low:.1f}, {100 * high:.1f}]"
    )


def _variant(name: str) -> tuple[str, dict[str, str]]:
    """A variant's name, or ``key=value`` for the default variant: checked, as measured."""
    key, sep, value = name.partition("=")
    variant, params = ("acme", {key: value}) if sep else (name, {})
    SPEC.variant(variant, params)
    return variant, params


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=whole(1), default=1000)
    parser.add_argument("--max-states", type=whole(1), default=DEFAULT_MAX_STATES)
    parser.add_argument(
        "games",
        nargs="*",
        default=["acme", "reserve-13", "reserve-20"],
        help="variants, or redeals=N for the default variant (default: the three variants)",
    )
    args = parser.parse_args()
    measured = [_variant(name) for name in args.games]  # a bad name stops before the runs
    start = time.perf_counter()
    solve(SPEC.new_game("acme", 0), args.max_states)  # also sets up the table
    print(f"kernel load or compile, table set-up: {time.perf_counter() - start:.2f} s", flush=True)
    for name, (variant, params) in zip(args.games, measured, strict=True):
        measure(name, params, variant, args.deals, args.max_states)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS): {peak:.0f} MiB")


if __name__ == "__main__":
    run(main)
