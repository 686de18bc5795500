"""Run a study: play N seeded deals with a policy, in batches on an executor, storing every
deal's result as it arrives so an interrupted study resumes where it stopped."""

from __future__ import annotations

import itertools
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from typing import Any

from ludoteca.core.errors import UnknownGameError
from ludoteca.core.game import GameSpec, Variant
from ludoteca.core.registry import find_game, variant_for
from ludoteca.core.rng import DealRng, check_deal_numbers
from ludoteca.solvers.base import find_solver
from ludoteca.store import results
from ludoteca.store.results import DealRow
from ludoteca.studies.executors import make_executor
from ludoteca.studies.policies import find_batch, find_policy, searches, study_limit
from ludoteca.studies.stats import win_rates


@dataclass(frozen=True)
class StudyPlan:
    game: str
    variant: str | None
    params: dict[str, str]
    policy: str
    deals: int
    first_seed: int = 0
    max_states: int | None = None
    jobs: int = 1

    def resolve(self) -> tuple[GameSpec, Variant]:
        spec = find_game(self.game)
        if not spec.is_solitaire:
            raise UnknownGameError(
                f"{spec.name} is a game for {spec.min_players}-{spec.max_players} players: "
                "use 'ludoteca tournament'"
            )
        if self.deals < 1:
            raise UnknownGameError(f"--deals must be at least 1, not {self.deals}")
        check_deal_numbers(self.first_seed, self.deals)
        if self.max_states is not None and self.max_states < 1:
            raise UnknownGameError(f"--max-states must be positive, not {self.max_states}")
        variant = spec.variant(variant_for(spec, self.game, self.variant), self.params)
        find_policy(spec, self.policy)
        if self.max_states is not None and not searches(spec, self.policy):
            # Taken and ignored before, and the study stored as if the limit had mattered.
            raise UnknownGameError(takes_no_limit(spec, self.policy))
        return spec, variant


def takes_no_limit(spec: GameSpec, policy: str) -> str:
    """What a study with ``--max-states`` (0 included) of a policy that searches nothing is
    told."""
    return f"the {policy} policy of {spec.name} takes no --max-states (it searches nothing)"


def play_batch(
    game: str,
    variant: str,
    params: dict[str, str],
    policy: str,
    seeds: Sequence[int],
    max_states: int | None,
) -> list[DealRow]:
    """Worker task: play ``seeds`` (a batch) and return one row per deal."""
    spec = find_game(game)
    chosen = spec.variant(variant, params)
    batch = find_batch(spec, policy)
    if batch is not None:
        started = time.perf_counter()
        played = batch(chosen, seeds, max_states)
        each = (time.perf_counter() - started) / max(1, len(seeds))
        return [
            DealRow(s, r.won, r.score, r.states, each) for s, r in zip(seeds, played, strict=True)
        ]
    run = find_policy(spec, policy)
    rows = []
    for seed in seeds:
        started = time.perf_counter()
        result = run(spec.new_game(chosen, seed), max_states, DealRng(seed, "policy", policy))
        rows.append(
            DealRow(seed, result.won, result.score, result.states, time.perf_counter() - started)
        )
    return rows


@dataclass
class StudySummary:
    game: str
    variant: str
    policy: str
    first_seed: int
    max_states: int | None
    figures: results.StudyFigures
    seconds: float
    study_id: int
    stored_before: int = 0
    """Of the plan's deals, those an earlier run had stored (a study run again resumes)."""

    def as_json(self) -> dict[str, Any]:
        f = self.figures
        return {
            "game": self.game,
            "variant": self.variant,
            "policy": self.policy,
            "deals": f.deals,
            **win_rates(f.won, f.unknown, f.deals),
            "first_seed": self.first_seed,
            "max_states": self.max_states,
            "mean_score": f.mean_score,
            "median_deal_seconds": f.median_seconds,
            "slowest_deal_seconds": f.slowest_seconds,
            "states": f.states,
            "seconds": round(self.seconds, 3),
            "study_id": self.study_id,
            "stored_before": self.stored_before,
        }


def _batches(seeds: Iterator[int], count: int, jobs: int) -> Iterator[list[int]]:
    """The ``count`` seeds of ``seeds`` in batches, made as they are handed out (a study of a
    billion deals never holds a list of them): one deal at a time in this process (each
    stored as soon as it is played); batches for worker processes, so that handing them out
    costs little."""
    size = 1 if jobs <= 1 else max(1, min(2000, count // (jobs * 16)))
    while batch := list(itertools.islice(seeds, size)):
        yield batch


def run_study(
    plan: StudyPlan,
    connection: sqlite3.Connection,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> StudySummary:
    """Play the deals not yet in the database, then summarise all of the plan's deals."""
    spec, variant = plan.resolve()
    key = spec.variant_label(variant)
    # Before the limit a study ran under was stored, a study run with the policy's own limit
    # was stored with none: the same command resumes it. (Not Gaps': its none is no limit.)
    default = (
        plan.max_states is not None
        and plan.max_states == study_limit(spec, plan.policy, None)
        and not find_solver(spec.name).searches_without_limit
    )
    study = results.study_id(
        connection, spec.name, key, plan.policy, plan.first_seed, plan.max_states, default
    )
    wanted = range(plan.first_seed, plan.first_seed + plan.deals)
    done = results.done_seeds(connection, study)
    finished = before = sum(1 for s in done if s in wanted)
    progress(finished, plan.deals)
    started = time.perf_counter()
    todo = (s for s in wanted if s not in done)
    batches = _batches(todo, plan.deals - finished, plan.jobs)
    with make_executor(plan.jobs) as executor:

        def submit(batch: list[int]) -> Future[list[DealRow]]:
            args = (spec.name, variant.name, plan.params, plan.policy, batch, plan.max_states)
            return executor.submit(play_batch, *args)

        # A few batches in flight per worker, the next handed out as one comes back, each
        # stored as it comes; in this process one deal at a time (a batch runs as it is
        # submitted), stored before the next is played. So a study stopped anywhere keeps
        # what it has played (but the deals in flight) and resumes from there.
        ahead = 2 * plan.jobs if plan.jobs > 1 else 1
        pending = {submit(batch) for batch in itertools.islice(batches, ahead)}
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                rows = future.result()
                results.add_deals(connection, study, rows)
                finished += len(rows)
                progress(finished, plan.deals)
                if (batch := next(batches, None)) is not None:
                    pending.add(submit(batch))
    return StudySummary(
        spec.name,
        key,
        plan.policy,
        plan.first_seed,
        plan.max_states,
        results.figures(connection, study, wanted),
        time.perf_counter() - started,
        study,
        before,
    )
