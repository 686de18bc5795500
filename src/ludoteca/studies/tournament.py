"""Bot tournaments for the multiplayer games: seats rotate from game to game so that the
advantage of playing first cancels out, and games run on an executor like study batches."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Any

from ludoteca.bots.base import make_bot
from ludoteca.core.errors import UnknownGameError
from ludoteca.core.registry import find_game, variant_for
from ludoteca.core.rng import DealRng, check_deal_numbers
from ludoteca.studies.executors import make_executor
from ludoteca.studies.stats import wilson_of_shares


@dataclass(frozen=True)
class GameRecord:
    """One game: for each entrant (index into the player list), its share of the win."""

    seed: int
    shares: tuple[float, ...]
    scores: tuple[float, ...]
    moves: int
    finished: bool


def rotation(game_index: int, entrants: int) -> list[int]:
    """Entrant sitting in each seat for this game: seats shift by one every game."""
    return [(seat + game_index) % entrants for seat in range(entrants)]


def play_game(
    game: str,
    variant: str | None,
    params: dict[str, str],
    bots: Sequence[str],
    seed: int,
    game_index: int,
) -> GameRecord:
    """Worker task: one game between bots; seats rotated by ``game_index``."""
    spec = find_game(game)
    chosen = spec.variant(variant_for(spec, game, variant), params)
    seating = rotation(game_index, len(bots))
    players = [make_bot(spec, bots[entrant]) for entrant in seating]
    state = spec.new_game(chosen, seed, len(bots))
    rng = DealRng(seed, "tournament")
    moves = 0
    while not state.is_over and moves < spec.max_game_length:
        seat = state.current_player
        state.apply(players[seat].choose(state.observation(seat), rng))
        moves += 1
    shares = [0.0] * len(bots)
    scores = [0.0] * len(bots)
    outcome = state.outcome()
    if outcome is not None:
        for seat in outcome.winners:
            shares[seating[seat]] += 1.0 / len(outcome.winners)
        for seat, score in enumerate(outcome.scores):
            scores[seating[seat]] = score
    return GameRecord(seed, tuple(shares), tuple(scores), moves, outcome is not None)


@dataclass
class TournamentSummary:
    game: str
    variant: str
    entrants: list[str]
    records: list[GameRecord] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        games = len(self.records)
        table = []
        for i, name in enumerate(self.entrants):
            wins = sum(r.shares[i] for r in self.records)
            low, high = wilson_of_shares(wins, games)
            table.append(
                {
                    "entrant": name,
                    "seat_label": f"{i + 1}:{name}",
                    "wins": wins,
                    "rate": wins / games if games else None,
                    "ci95": [low, high],
                    "mean_score": sum(r.scores[i] for r in self.records) / games if games else None,
                }
            )
        return {
            "game": self.game,
            "variant": self.variant,
            "games": games,
            "unfinished": sum(1 for r in self.records if not r.finished),
            "players": table,
        }


def run_tournament(
    game: str,
    variant: str | None,
    params: dict[str, str],
    bots: list[str],
    games: int,
    first_seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> TournamentSummary:
    spec = find_game(game)
    chosen = spec.variant(variant_for(spec, game, variant), params)
    if spec.is_solitaire:
        raise UnknownGameError(f"{spec.name} is a solitaire: use 'ludoteca study'")
    if not spec.min_players <= len(bots) <= spec.max_players:
        raise UnknownGameError(f"{spec.name} is for {spec.players_text}, not {len(bots)}")
    if games < 1:
        raise UnknownGameError(f"--games must be at least 1, not {games}")
    check_deal_numbers(first_seed, games)
    for name in bots:
        make_bot(spec, name)  # fail early, in this process, on an unknown bot
    summary = TournamentSummary(spec.name, spec.variant_label(chosen), list(bots))
    order = iter(range(games))
    with make_executor(jobs) as executor:

        def submit(index: int) -> Future[GameRecord]:
            seed = first_seed + index
            return executor.submit(play_game, spec.name, chosen.name, params, bots, seed, index)

        # A few games in flight per worker, the next handed out as one comes back (in this
        # process a game is played as it is handed out): so the progress is told after each
        # game, not once at the end, and a long tournament holds no future per game.
        ahead = 2 * jobs if jobs > 1 else 1
        pending = {submit(index) for index in itertools.islice(order, ahead)}
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            summary.records.extend(f.result() for f in ready)
            progress(len(summary.records), games)
            for _ in ready:
                if (index := next(order, None)) is not None:
                    pending.add(submit(index))
    summary.records.sort(key=lambda r: r.seed)
    return summary
