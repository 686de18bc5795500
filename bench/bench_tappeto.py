"""Tappeto figures: deals decided per second on the study's path, and each variant's win rate.

    nice -n 10 .venv/bin/python bench/bench_tappeto.py --deals 200000
    nice -n 10 .venv/bin/python bench/bench_tappeto.py --rates 1000000
    nice -n 10 .venv/bin/python bench/bench_tappeto.py --carpet 100000

The study runs ``decide_batch`` (the ``solver`` policy's batch fast path) on batches of up to
2,000 seeds per worker task; this script times that function, then the whole worker task
(``play_batch``, which adds the rows the study stores), then the per-deal policy for scale.
``--rates`` decides seeds 0..N-1 of every variant and prints the win rate with its 95% Wilson
interval and where lost deals stall. ``--carpet`` plays the same deals under the rules of the
relative Carpet (see ``docs/rules/tappeto.md``) with a simple policy: a lower bound on its rate.
"""

from __future__ import annotations

import resource
import statistics
import time
from math import comb

import numpy as np

from benchkit import Parser, run, whole
from ludoteca.core.cards import Card
from ludoteca.core.rng import DealRng
from ludoteca.games.tappeto import SPEC, TappetoParams, dealt_deck
from ludoteca.solvers.tappeto import decide_batch, decide_scores, play_solver
from ludoteca.studies.runner import play_batch
from ludoteca.studies.stats import wilson

BATCH = 2000


def batch_speed(name: str, deals: int) -> None:
    start = time.perf_counter()
    decide_batch(name, [0])
    print(f"{name}: kernel load or compile {time.perf_counter() - start:.2f} s", flush=True)
    timings = []
    for first in range(0, deals, BATCH):
        start = time.perf_counter()
        decide_batch(name, range(first, min(deals, first + BATCH)))
        timings.append(time.perf_counter() - start)
    total = sum(timings)
    print(
        f"  decide_batch: {deals / total:,.0f} deals/s over {deals:,} deals; per batch of "
        f"{BATCH}: median {statistics.median(timings) * 1e3:.1f} ms, "
        f"slowest {max(timings) * 1e3:.1f} ms"
    )
    start = time.perf_counter()
    for first in range(0, deals, BATCH):
        play_batch("tappeto", name, {}, "solver", range(first, min(deals, first + BATCH)), None)
    print(f"  study worker task (play_batch): {deals / (time.perf_counter() - start):,.0f} deals/s")


def policy_speed(name: str, deals: int) -> None:
    start = time.perf_counter()
    for seed in range(deals):
        play_solver(SPEC.new_game(name, seed), None, DealRng(seed, "policy", "solver"))
    rate = deals / (time.perf_counter() - start)
    print(f"  per-deal policy (new_state + plain-Python solve): {rate:,.0f} deals/s")


def no_first_move(params: TappetoParams) -> float:
    """Chance that none of the four cards wanted first is in the dealt carpet."""
    out = 52 - (4 if params.aces_start_on_foundations else 0)
    return comb(out - params.carpet_size, 4) / comb(out, 4)


def rates(deals: int) -> None:
    print("| variant | deals | won | rate | 95% Wilson | no first move (formula) | median plays |")
    print("|---|---|---|---|---|---|---|")
    for variant in SPEC.variants:
        params: TappetoParams = variant.params
        scores = decide_scores(variant, range(deals))
        won = int(np.count_nonzero(scores == 52))
        low, high = wilson(won, deals)
        base = 4 if params.aces_start_on_foundations else 0
        plays = scores.astype(np.int64) - base
        stalled = float(np.mean(plays == 0))
        print(
            f"| {variant.name} | {deals:,} | {won:,} | {100 * won / deals:.3f}% | "
            f"{100 * low:.3f}% – {100 * high:.3f}% | {100 * stalled:.2f}% "
            f"({100 * no_first_move(params):.2f}%) | {int(np.median(plays))} |"
        )


def carpet_policy(deck: list[Card], size: int = 20) -> bool:
    """Carpet: the stock is turned one card at a time onto a waste pile, once; the waste's top
    card may go to a foundation or into a carpet gap, whenever the player likes. Policy: every
    foundation move at once (never harmful), else the waste's top into a gap, else turn a
    card. Returns whether all 52 cards went up."""
    carpet, stock, waste = set(deck[:size]), deck[: size - 1 : -1], []
    tops, gaps = [1, 1, 1, 1], 0
    while True:
        wanted = {Card(t + 1, s) for s, t in enumerate(tops) if t < 13}
        if carpet & wanted:
            card = (carpet & wanted).pop()
            carpet.discard(card)
            gaps += 1
        elif waste and waste[-1] in wanted:
            card = waste.pop()
        elif waste and gaps:
            carpet.add(waste.pop())
            gaps -= 1
            continue
        elif stock:
            waste.append(stock.pop())
            continue
        else:
            return sum(tops) == 52
        tops[card.suit] += 1


def carpet_rate(deals: int) -> None:
    params: TappetoParams = SPEC.default_variant.params
    won = sum(carpet_policy(dealt_deck(params, seed)) for seed in range(deals))
    low, high = wilson(won, deals)
    print(
        f"Carpet (simple policy), seeds 0..{deals - 1}: won {won:,} = {100 * won / deals:.2f}% "
        f"(95% Wilson {100 * low:.2f}% – {100 * high:.2f}%)"
    )


def main() -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=whole(1), default=200_000, help="deals timed per variant")
    parser.add_argument("--rates", type=whole(0), default=0, help="deals per variant for the rates")
    parser.add_argument("--carpet", type=whole(0), default=0, help="deals played as Carpet")
    args = parser.parse_args()
    if args.rates or args.carpet:
        if args.rates:
            rates(args.rates)
        if args.carpet:
            carpet_rate(args.carpet)
    else:
        for variant in SPEC.variants:
            batch_speed(variant.name, args.deals)
            policy_speed(variant.name, min(args.deals, 5000))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    run(main)
