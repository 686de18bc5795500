"""Il Muro figures: time per deal decided by each solver, node-limit share, kernel speed.

    nice -n 10 .venv/bin/python bench/bench_muro.py --deals 200

For each variant: the all-known search (``solver``) on deals 0..N-1 (median and slowest time
per deal, the share that hit the node limit, nodes per second), then the player (``player``)
playing the same deals from the observation (median and slowest time per game, the share of
its searches that hit their node limit), and the peak memory of the process.
"""

from __future__ import annotations

import resource
import statistics
import time

from benchkit import Parser, run, whole
from ludoteca.core.registry import find_game
from ludoteca.core.rng import DealRng
from ludoteca.solvers.muro import EXACT_NODES, PLAYER_NODES, player_policy, solve

SPEC = find_game("muro")


def bench_solver(variant: str, deals: int, nodes: int) -> None:
    times, limit, states = [], 0, 0
    for seed in range(deals):
        result = solve(SPEC.new_game(variant, seed), nodes)
        times.append(result.seconds)
        limit += result.winnable is None
        states += result.states
    print(
        f"{variant:7} solver  {deals} deals: median {statistics.median(times):.4f} s, "
        f"slowest {max(times):.3f} s, node limit ({nodes:,}) hit {limit / deals:.1%}, "
        f"{states / sum(times):,.0f} nodes/s"
    )


def bench_player(variant: str, deals: int, nodes: int) -> None:
    times, searches, hits = [], 0, 0
    for seed in range(deals):
        start = time.perf_counter()
        played = player_policy(SPEC.new_game(variant, seed), nodes, DealRng(seed, "bench"))
        times.append(time.perf_counter() - start)
        searches += played.extra["searches"]
        hits += played.extra["limit_hits"]
    print(
        f"{variant:7} player  {deals} games: median {statistics.median(times):.4f} s, "
        f"slowest {max(times):.3f} s, {searches / deals:.1f} searches a game, "
        f"node limit ({nodes:,}) hit in {hits / max(1, searches):.1%} of them"
    )


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=whole(1), default=200)
    parser.add_argument("--solver-nodes", type=whole(1), default=EXACT_NODES)
    parser.add_argument("--player-nodes", type=whole(1), default=PLAYER_NODES)
    args = parser.parse_args()
    start = time.perf_counter()
    solve(SPEC.new_game("muro", 0), 10)  # compile (or load the cache) outside the timing
    print(f"kernel load or compile: {time.perf_counter() - start:.2f} s", flush=True)
    for variant in ("muro", "facile"):
        bench_solver(variant, args.deals, args.solver_nodes)
        bench_player(variant, args.deals, args.player_nodes)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    run(main)
