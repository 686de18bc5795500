"""Mosaico solver speed: how long each solver takes to decide a deal, and the node limit.

    nice -n 10 .venv/bin/python bench/bench_mosaico.py --deals 200 --max-states 1000000

For each variant, deals 0..N-1: the exact search (draw order known) and the player (draw
order unknown, sampling). Prints the median and slowest deal, the share decided within 1 s,
the share that hit the node limit, nodes/s, and the peak memory of the process.
"""

from __future__ import annotations

import resource
import statistics
import time

from benchkit import Parser, run, whole
from ludoteca.core.rng import DealRng
from ludoteca.games.mosaico import SPEC
from ludoteca.solvers.mosaico import player_policy, solve


def report(name: str, seconds: list[float], extra: str) -> None:
    within = sum(s <= 1.0 for s in seconds) / len(seconds)
    print(
        f"  {name}: median {statistics.median(seconds) * 1000:.1f} ms, "
        f"slowest {max(seconds):.2f} s, {within:.1%} within 1 s; {extra}"
    )


def exact(variant: str, deals: int, max_states: int) -> None:
    seconds, states, limited, won = [], 0, 0, 0
    for seed in range(deals):
        result = solve(SPEC.new_game(variant, seed), max_states)
        seconds.append(result.seconds)
        states += result.states
        limited += result.winnable is None
        won += bool(result.winnable)
    extra = (
        f"{limited / deals:.1%} hit the {max_states:,}-node limit, {won} won, "
        f"{states / sum(seconds):,.0f} nodes/s"
    )
    report("exact search", seconds, extra)


def player(variant: str, deals: int) -> None:
    seconds, won = [], 0
    for seed in range(deals):
        started = time.perf_counter()
        result = player_policy(SPEC.new_game(variant, seed), None, DealRng(seed, "bench"))
        seconds.append(time.perf_counter() - started)
        won += bool(result.won)
    report("player", seconds, f"{won} won, never limited (no search limit)")


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=whole(1), default=200)
    parser.add_argument("--max-states", type=whole(1), default=1_000_000)
    args = parser.parse_args()
    # Compile (or load the cached kernels) outside the timing.
    solve(SPEC.new_game("mosaico", 0), 10)
    player_policy(SPEC.new_game("mosaico", 0), None, DealRng(0, "warm-up"))
    for variant in ("mosaico", "difficile"):
        print(f"{variant}: deals 0..{args.deals - 1}", flush=True)
        exact(variant, args.deals, args.max_states)
        player(variant, args.deals)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    run(main)
