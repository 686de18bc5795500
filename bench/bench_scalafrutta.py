"""Scalafrutta figures: best-split speed, hand lengths, and strong-vs-greedy tournaments.

    .venv/bin/python bench/bench_scalafrutta.py split [--holdings 2000]
    .venv/bin/python bench/bench_scalafrutta.py hands [--games 200] [--players 2]
    .venv/bin/python bench/bench_scalafrutta.py tournament [--games 500] [--players 2]
        [--variant mano] [--iterations 50] [--candidates N] [--first-seed 0]

``tournament`` plays seeded games between one ``strong`` bot and ``greedy`` bots, the strong
seat rotating with the seed, and prints the strong bot's wins with a 95% Wilson interval.
Every figure is reproducible: seeds, bots and their random streams are all fixed.
"""

from __future__ import annotations

import math
import os
import random
import resource
import statistics
import time
from collections import Counter
from collections.abc import Callable

from benchkit import Parser, run, whole
from ludoteca.bots.base import make_bot
from ludoteca.bots.scalafrutta import StrongBot
from ludoteca.core import DealRng, find_game
from ludoteca.games._scalafrutta_split import (
    best_split,
    best_split_by_enumeration,
    best_split_by_programme,
)
from ludoteca.games.scalafrutta import ScalafruttaState


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def bench_split(holdings: int) -> None:
    """Time the exact best split on random holdings of every size 0..36 and 50 holdings of
    all 36 tiles (the slowest size), cold cache.

    CPU time (``time.process_time``) is the figure to read on a shared machine: wall time
    also counts the moments the scheduler gives the core to someone else.
    """
    rng = random.Random(2024)
    sizes = [rng.randint(0, 36) for _ in range(holdings)] + [36] * 50
    classes = ("0-12", "13-24", "25-35", "36")
    cpu: dict[str, list[float]] = {key: [] for key in classes}
    wall: dict[str, list[float]] = {key: [] for key in classes}
    for size in sizes:
        mask = sum(1 << t for t in rng.sample(range(36), size))
        best_split.cache_clear()
        began, proc = time.perf_counter(), time.process_time()
        best_split(mask)
        key = "36" if size == 36 else "0-12" if size <= 12 else "13-24" if size <= 24 else "25-35"
        cpu[key].append(time.process_time() - proc)
        wall[key].append(time.perf_counter() - began)
    print(
        f"best split, {holdings} random holdings and 50 of all 36 tiles (the largest), "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for key in (key for key in classes if cpu[key]):  # few holdings may leave a size out
        print(
            f"  {key:>5} tiles: {len(cpu[key]):5d} holdings, CPU median "
            f"{statistics.median(cpu[key]) * 1e3:.3f} ms, slowest {max(cpu[key]) * 1e3:.3f} ms;"
            f" wall median {statistics.median(wall[key]) * 1e3:.3f} ms"
        )
    full = [_time(best_split_by_programme, (1 << 36) - 1) for _ in range(20)]
    print(
        f"  all 36 tiles (wall): best of 20 {min(full) * 1e3:.3f} ms, "
        f"median {statistics.median(full) * 1e3:.3f} ms"
    )
    small = [sum(1 << t for t in rng.sample(range(36), 14)) for _ in range(200)]
    for name, fn in (
        ("programme", best_split_by_programme),
        ("enumeration", best_split_by_enumeration),
    ):
        runs = [_time(fn, m) for m in small]
        print(f"  14 tiles by the {name} (wall): median {statistics.median(runs) * 1e3:.3f} ms")
    print(f"  peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def _time(fn: Callable[[int], object], mask: int) -> float:
    start = time.perf_counter()
    fn(mask)
    return time.perf_counter() - start


def bench_hands(games: int, players: int) -> None:
    """Greedy bots play whole matches: phases per hand, how hands end, moves per game."""
    spec = find_game("scalafrutta")
    bot = make_bot(spec, "greedy")
    phases: Counter[int] = Counter()
    endings: Counter[str] = Counter()
    hands, lengths = [], []
    start = time.perf_counter()
    for seed in range(games):
        state = spec.new_game("scalafrutta", seed=seed, players=players)
        assert isinstance(state, ScalafruttaState)
        rng = DealRng(seed, "bench")
        phase_of_hand = 0
        while not state.is_over:
            hand = state.hand
            phase_of_hand = max(phase_of_hand, state.phase)
            state.apply(bot.choose(state.observation(state.current_player), rng))
            if state.hand != hand or state.is_over:
                phases[phase_of_hand + (state.hands[-1][1] != "scalafrutta")] += 1
                phase_of_hand = 0
        outcome = state.outcome()
        assert outcome is not None
        endings.update(outcome.details["endings"])
        hands.append(outcome.details["hands"])
        lengths.append(len(state.history))
    seconds = time.perf_counter() - start
    print(f"{games} greedy matches to 1001, {players} players, {seconds:.1f} s")
    print(f"  hands per match: mean {statistics.mean(hands):.2f}, max {max(hands)}")
    print(f"  moves per match: mean {statistics.mean(lengths):.0f}, max {max(lengths)}")
    total = sum(endings.values())
    for ending, count in endings.most_common():
        print(f"  hands ended by {ending}: {count} ({count / total:.1%})")
    print(f"  combination phases per hand: {dict(sorted(phases.items()))}")


def bench_tournament(
    games: int, players: int, variant: str, strong: StrongBot, first_seed: int
) -> None:
    spec = find_game("scalafrutta")
    greedy = make_bot(spec, "greedy")
    wins = ties = 0
    think, decisions = 0.0, 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        seat = seed % players
        state = spec.new_game(variant, seed=seed, players=players)
        rng = DealRng(seed, "tournament")
        while not state.is_over:
            player = state.current_player
            bot = strong if player == seat else greedy
            began = time.perf_counter()
            move = bot.choose(state.observation(player), rng)
            if player == seat and len(state.legal_moves()) > 1:
                think += time.perf_counter() - began
                decisions += 1
            state.apply(move)
        outcome = state.outcome()
        assert outcome is not None
        if seat in outcome.winners:
            wins += len(outcome.winners) == 1
            ties += len(outcome.winners) > 1
        if (seed - first_seed + 1) % 50 == 0:
            print(f"  after {seed - first_seed + 1} games: {wins} wins, {ties} ties", flush=True)
    low, high = wilson(wins, games)
    print(
        f"strong ({strong.iterations} samples, candidates {strong.candidates}) "
        f"vs {players - 1} greedy, variant {variant}, "
        f"seeds {first_seed}..{first_seed + games - 1}"
    )
    print(f"  strong wins {wins}/{games} = {wins / games:.1%} (95% Wilson {low:.1%}-{high:.1%})")
    print(f"  shared wins (ties at the top): {ties}; an even share would be {1 / players:.1%}")
    print(f"  strong: {think / max(decisions, 1) * 1e3:.0f} ms per decision over {decisions}")
    print(f"  total {time.perf_counter() - start:.0f} s")


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    split = sub.add_parser("split")
    split.add_argument("--holdings", type=whole(0), default=2000)
    hands = sub.add_parser("hands")
    hands.add_argument("--games", type=whole(1), default=200)
    hands.add_argument("--players", type=whole(2), default=2)
    tour = sub.add_parser("tournament")
    tour.add_argument("--games", type=whole(1), default=500)
    tour.add_argument("--players", type=whole(2), default=2)
    tour.add_argument("--variant", default="mano")
    tour.add_argument("--iterations", type=whole(1), default=StrongBot().iterations)
    tour.add_argument("--candidates", type=whole(1), default=None)
    tour.add_argument("--first-seed", type=whole(0), default=0)
    args = parser.parse_args()
    spec = find_game("scalafrutta")
    if args.command != "split" and args.players > spec.max_players:
        parser.error(f"--players: scalafrutta is for 2-{spec.max_players}, not {args.players}")
    if args.command == "tournament":
        spec.variant(args.variant)  # one that does not exist stops here
    if args.command == "split":
        bench_split(args.holdings)
    elif args.command == "hands":
        bench_hands(args.games, args.players)
    else:
        strong = StrongBot(args.iterations, args.candidates)
        bench_tournament(args.games, args.players, args.variant, strong, args.first_seed)


if __name__ == "__main__":
    run(main)
