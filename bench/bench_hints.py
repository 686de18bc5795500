"""Hint and bot latency: the wall time of every game's hint, as the terminal and the web ask
for it, and of every bot's move.

    nice -n 10 .venv/bin/python bench/bench_hints.py hints [--deals 30] [--every 5]
    nice -n 10 .venv/bin/python bench/bench_hints.py bots [--games 5] [--players 2,3,4]

``hints``: for each game with a hint and each of its variants, deals 0..N-1 are played by a
``random`` walker (a uniformly random legal move) and a ``greedy`` one (a solitaire's
heuristic, as the study policy ``greedy``; the ``greedy`` bot at every seat of a game with
others), with the fewest players the game takes. At every N-th move (the opening too) the
position gets one hint, for the player to move, timed as the terminal asks for it (``ludoteca
play``: the game rebuilt from its save, then ``hint_for``) and as the web does (the room's
moves replayed through the checked path, then ``hint_for``). The hint runs once, on the
terminal's copy, with ``--hint-seconds`` (2 s, both interfaces' budget) less the time that
copy took, as both interfaces now give it: each figure is that interface's copy of the game
plus that same hint. The hints of a game follow one another as a player's would (Gaps and
Il Muro remember the plan behind a hint).
Printed per game and variant: median, 95th percentile and slowest (terminal, web), the share
over the budget, then the slowest positions overall (game, variant, walker, deal, move, and
the position's text) to repeat alone.

``bots``: every bot of Domino and Scalafrutta at every seat of seeded games with 2, 3 and 4
players; each decision's ``choose`` is timed (median, 95th percentile and slowest).

``first``: the first hint of a fresh process, for each game and each of ``--deals`` deals:
cold (the hint loads its game's compiled code itself, as it did before ``play`` and ``serve``
loaded it in the background) and after :func:`ludoteca.hints.load_kernels`, as they do now.

    nice -n 10 .venv/bin/python bench/bench_hints.py first [--deals 3] [--games gaps,muro]

Elsewhere, compiled kernels are loaded (or compiled, the first time) before any timing.
Times are wall times in one process: on a loaded machine they are upper bounds.
"""

from __future__ import annotations

import argparse
import math
import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchkit import Parser, positive_seconds, run, whole
from ludoteca.bots.base import Bot, bots_for, make_bot
from ludoteca.cli.play import HINT_SECONDS
from ludoteca.core.errors import UnknownGameError
from ludoteca.core.game import GameSpec, State
from ludoteca.core.registry import all_games, find_game
from ludoteca.core.rng import DealRng
from ludoteca.core.saves import restore, snapshot
from ludoteca.hints import has_hint, hint_for
from ludoteca.server.rooms import replay
from ludoteca.studies.policies import greedy_move

TERMINAL_SECONDS = HINT_SECONDS
"""The budget ``ludoteca play`` gives its hint, the web's by default (``--hint-seconds``)."""

Walker = Callable[[State[Any], DealRng], Any]


@dataclass
class Timed:
    game: str
    variant: str
    walker: str
    seed: int
    ply: int
    copy_terminal: float
    copy_web: float
    hint: float
    move: str | None
    position: str

    @property
    def terminal(self) -> float:
        return self.copy_terminal + self.hint

    @property
    def web(self) -> float:
        return self.copy_web + self.hint


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (the value at or below which ``share`` of them lie)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def figures(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.3f}  p95 {percentile(values, 0.95):.3f}  "
        f"max {max(values):.3f}"
    )


def random_walker(state: State[Any], rng: DealRng) -> Any:
    return rng.choice(state.legal_moves())


def greedy_walker(spec: GameSpec) -> Walker:
    """The solitaire's heuristic one move ahead (ties at random), or the greedy bot."""
    heuristic = spec.heuristic
    if heuristic is None:
        bot = make_bot(spec, "greedy")
        return lambda state, rng: bot.choose(state.observation(state.current_player), rng)

    return lambda state, rng: greedy_move(state, heuristic, rng)


def time_hint(
    state: State[Any], walker: str, ply: int, web_seconds: float, tell: Callable[[Timed], None]
) -> None:
    spec, seat = state.spec, state.current_player
    began = time.perf_counter()
    terminal_copy = restore(snapshot(state))
    copied = time.perf_counter()
    replay(spec, state.variant, state.seed, state.players, state.history_text())
    replayed = time.perf_counter()
    found = hint_for(terminal_copy, seat, max(0.0, web_seconds - (copied - began)))
    done = time.perf_counter()
    tell(
        Timed(
            spec.name, state.variant.name, walker, state.seed, ply, copied - began,
            replayed - copied, done - replayed, found.move, state.position(),
        )
    )  # fmt: skip


def bench_hints(args: argparse.Namespace) -> None:
    specs = [find_game(name) for name in args.games] if args.games else all_games()
    specs = [spec for spec in specs if has_hint(spec)]
    warm(specs)
    everything: list[Timed] = []
    for spec in specs:
        for variant in spec.variants:
            for walker_name in args.walkers:
                walker = random_walker if walker_name == "random" else greedy_walker(spec)
                timed: list[Timed] = []
                for seed in range(args.first_seed, args.first_seed + args.deals):
                    state = spec.new_game(variant, seed, spec.min_players)
                    rng = DealRng(seed, "bench-hints", walker_name)
                    ply = 0
                    while not state.is_over and ply < spec.max_game_length:
                        if ply % args.every == 0:
                            time_hint(state, walker_name, ply, args.hint_seconds, timed.append)
                        state.apply(walker(state, rng))
                        ply += 1
                report(spec.name, variant.name, walker_name, timed, args.hint_seconds)
                everything += timed
    print(f"all hints ({len(everything)}):")
    print(f"  terminal  {figures([t.terminal for t in everything])}")
    print(f"  web       {figures([t.web for t in everything])}")
    print(f"slowest {args.slowest} (web: replay + hint):")
    for t in sorted(everything, key=lambda t: t.web, reverse=True)[: args.slowest]:
        print(
            f"  {t.web:.3f} s (replay {t.copy_web:.3f})  {t.game} {t.variant} {t.walker} "
            f"deal {t.seed} move {t.ply}: {t.move}  position {t.position}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


def report(game: str, variant: str, walker: str, timed: list[Timed], budget: float) -> None:
    if not timed:
        return
    over = sum(t.web > budget for t in timed)
    print(
        f"{game} {variant} {walker}: {len(timed)} hints; terminal "
        f"{figures([t.terminal for t in timed])}; web {figures([t.web for t in timed])}; "
        f"replay max {max(t.copy_web for t in timed):.3f}; over {budget:g} s: {over}",
        flush=True,
    )


def warm(specs: list[GameSpec]) -> None:
    """One hint and one strong move per game, so that compiled kernels are loaded (or
    compiled) before any timing."""
    start = time.perf_counter()
    for spec in specs:
        for variant in spec.variants:
            state = spec.new_game(variant, 0, spec.min_players)
            hint_for(state, state.current_player, 0.05)
    print(f"kernels loaded or compiled: {time.perf_counter() - start:.1f} s", flush=True)


def bench_bots(args: argparse.Namespace) -> None:
    specs = [find_game(name) for name in args.of]
    alone = [spec.name for spec in specs if spec.max_players == 1]
    if alone:
        raise UnknownGameError(f"{alone[0]} is a solitaire: no bot fills a seat")
    for spec in specs:
        if args.variant:
            spec.variant(args.variant)  # one that does not exist stops here
        for players in args.players:
            if not spec.min_players <= players <= spec.max_players:
                raise UnknownGameError(f"{spec.name} is for {spec.players_text}, not {players}")
    warm(specs)
    for spec in specs:
        variants = [spec.variant(args.variant)] if args.variant else list(spec.variants)
        for variant in variants:
            for players in args.players:
                for kind in sorted(bots_for(spec.name)):
                    bench_bot(spec, variant.name, players, kind, args)


def bench_bot(spec: GameSpec, variant: str, players: int, kind: str, args: Any) -> None:
    bots: list[Bot] = [make_bot(spec, kind) for _ in range(players)]
    times: list[float] = []
    slowest = (0.0, 0, 0)
    for seed in range(args.first_seed, args.first_seed + args.games):
        state = spec.new_game(variant, seed, players)
        rngs = [DealRng(seed, "bench-hints-bots", seat) for seat in range(players)]
        ply = 0
        while not state.is_over and ply < spec.max_game_length:
            seat = state.current_player
            observation = state.observation(seat)
            began = time.perf_counter()
            move = bots[seat].choose(observation, rngs[seat])
            took = time.perf_counter() - began
            times.append(took)
            slowest = max(slowest, (took, seed, ply))
            state.apply(move)
            ply += 1
    print(
        f"{spec.name} {variant} {players} players {kind}: {len(times)} decisions; "
        f"{figures(times)} (slowest: deal {slowest[1]} move {slowest[2]})",
        flush=True,
    )


def names(text: str) -> list[str]:
    return [part for part in text.split(",") if part]


def counts(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes comma-separated numbers, not '{text}'") from None


def walkers(text: str) -> list[str]:
    chosen = names(text)
    wrong = [name for name in chosen if name not in ("random", "greedy")]
    if wrong or not chosen:
        raise argparse.ArgumentTypeError(f"walkers are random and greedy, not '{text}'")
    return chosen


FIRST_HINT = """
import sys, time
from ludoteca.core.registry import find_game
from ludoteca.hints import hint_for, load_kernels
game, deal, seconds, loaded = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
spec = find_game(game)
if loaded == "yes":
    load_kernels(spec)
state = spec.new_game(None, seed=deal)
began = time.perf_counter()
hint_for(state, state.current_player, seconds)
print(time.perf_counter() - began)
"""


def bench_first(args: argparse.Namespace) -> None:
    """The first hint of a process, cold and with the kernels loaded first (one fresh
    process each)."""
    import subprocess
    import sys

    specs = [find_game(n) for n in args.games] or [s for s in all_games() if has_hint(s)]
    print(f"first hint of a process, {args.hint_seconds:g} s budget: cold / kernels loaded first")
    for spec in specs:
        times: dict[str, list[float]] = {"no": [], "yes": []}
        for deal in range(args.first_seed, args.first_seed + args.deals):
            for loaded, into in times.items():
                command = [sys.executable, "-c", FIRST_HINT, spec.name, str(deal)]
                done = subprocess.run(
                    [*command, str(args.hint_seconds), loaded],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                into.append(float(done.stdout.split()[-1]))
        cold, warm_ = (" ".join(f"{t:.2f}" for t in times[k]) for k in ("no", "yes"))
        print(f"  {spec.name:12} cold {cold} s | loaded first {warm_} s")


def main() -> None:
    parser = Parser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    hints = sub.add_parser("hints")
    hints.add_argument("--deals", type=whole(1), default=30)
    hints.add_argument("--every", type=whole(1), default=5, help="a hint every N moves")
    hints.add_argument("--first-seed", type=whole(0), default=0)
    hints.add_argument("--games", type=names, default=[], help="(default: every game)")
    hints.add_argument("--walkers", type=walkers, default="random,greedy")
    hints.add_argument("--hint-seconds", type=positive_seconds, default=TERMINAL_SECONDS)
    hints.add_argument("--slowest", type=whole(0), default=10)
    bots = sub.add_parser("bots")
    bots.add_argument("--games", type=whole(1), default=5)
    bots.add_argument("--first-seed", type=whole(0), default=0)
    bots.add_argument("--players", type=counts, default="2,3,4")
    bots.add_argument("--variant", default=None, help="(default: every variant)")
    bots.add_argument("--of", type=names, default="domino,scalafrutta", help="games")
    first = sub.add_parser("first")
    first.add_argument("--deals", type=whole(1), default=3)
    first.add_argument("--first-seed", type=whole(0), default=0)
    first.add_argument("--games", type=names, default=[], help="(default: every game)")
    first.add_argument("--hint-seconds", type=positive_seconds, default=TERMINAL_SECONDS)
    args = parser.parse_args()
    for name in args.games if args.command != "bots" else []:
        find_game(name)  # one that does not exist stops here
    {"first": bench_first, "hints": bench_hints, "bots": bench_bots}[args.command](args)


if __name__ == "__main__":
    run(main)
