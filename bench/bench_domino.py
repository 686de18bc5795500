"""Domino della Frutta figures: engine and playout speed, and a strong-vs-greedy tournament.

    nice -n 10 .venv/bin/python bench/bench_domino.py --games 500 --players 2

Bots are made with ``make_bot`` and see only their seat's observation. Seats rotate: in game
``g`` the strong bot sits in seat ``g % players`` and greedy bots fill the others; the deal is
seed ``g``. A shared win (a tie on fewest tiles) counts as a win for each player sharing it.
"""

from __future__ import annotations

import resource
import statistics
import time

from benchkit import Parser, run, whole
from ludoteca.bots._domino_rollout import encode, rollout
from ludoteca.bots.base import Bot, make_bot
from ludoteca.core.rng import DealRng
from ludoteca.games.domino import SPEC, DominoState
from ludoteca.studies.stats import wilson


def engine_speed(games: int, players: int) -> None:
    """Random games through the checked path (legal moves, apply)."""
    moves = 0
    start = time.perf_counter()
    for seed in range(games):
        state = SPEC.new_game(None, seed, players)
        rng = DealRng(seed, "bench-engine")
        while not state.is_over:
            state.apply(rng.choice(state.legal_moves()))
            moves += 1
    seconds = time.perf_counter() - start
    print(f"engine: {games} random games, {moves / seconds:,.0f} moves/s", flush=True)


def playout_speed(count: int, players: int) -> None:
    """Compiled playouts from the opening deal (the strong bot's inner loop)."""
    state = SPEC.new_game(None, 1, players)
    state.apply(state.placements()[0])
    rollout(*encode(state), 0)  # compile (or load the cache) outside the timing
    start = time.perf_counter()
    for seed in range(count):
        rollout(*encode(state), seed)
    seconds = time.perf_counter() - start
    print(f"playouts: {count / seconds:,.0f} playouts/s (encode included)")


def play(state: DominoState, seats: list[Bot], seed: int, timing: list[float]) -> None:
    rngs = [DealRng(seed, "bench-domino", seat) for seat in range(state.players)]
    while not state.is_over:
        player = state.current_player
        start = time.perf_counter()
        move = seats[player].choose(state.observation(player), rngs[player])
        if seats[player].name == "strong":
            timing.append(time.perf_counter() - start)
        state.apply(move)


def tournament(games: int, players: int, challenger: str, field: str) -> None:
    wins = {challenger: 0, field: 0}
    shared = 0
    timing: list[float] = []
    start = time.perf_counter()
    for seed in range(games):
        seat = seed % players
        names = [challenger if p == seat else field for p in range(players)]
        state = SPEC.new_game(None, seed, players)
        play(state, [make_bot(SPEC, n) for n in names], seed, timing)
        outcome = state.outcome()
        assert outcome is not None
        shared += len(outcome.winners) > 1
        wins[challenger] += seat in outcome.winners
        wins[field] += any(p != seat for p in outcome.winners)
    seconds = time.perf_counter() - start
    print(f"tournament: {games} games, {players} players, {challenger} vs {field}")
    for name, won in wins.items():
        low, high = wilson(won, games)
        label = name if name == challenger else f"any {field} seat"
        print(f"  {label}: {won}/{games} = {won / games:.3f} (95% Wilson {low:.3f}-{high:.3f})")
    print(f"  shared wins: {shared}; fair share for one seat: {1 / players:.3f}")
    if timing:
        print(
            f"  {challenger} per decision: median {statistics.median(timing) * 1000:.0f} ms, "
            f"slowest {max(timing) * 1000:.0f} ms, {seconds:.0f} s in all"
        )


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=whole(1), default=500)
    parser.add_argument("--players", type=whole(SPEC.min_players), default=2)
    parser.add_argument("--challenger", default="strong")
    parser.add_argument("--field", default="greedy")
    parser.add_argument("--skip-speed", action="store_true")
    args = parser.parse_args()
    if args.players > SPEC.max_players:
        parser.error(f"--players: domino is for 2-{SPEC.max_players}, not {args.players}")
    for name in (args.challenger, args.field):
        make_bot(SPEC, name)  # one that does not exist stops here, not after the speed runs
    if not args.skip_speed:
        engine_speed(100, args.players)
        playout_speed(2000, args.players)
    tournament(args.games, args.players, args.challenger, args.field)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    run(main)
