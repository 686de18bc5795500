"""The nested Monte Carlo search for Gaps: its moves are the seed's moves, every line it
reports replays on the game to a dead end with the cards in sequence it claims, never more
than the exact best, and the hint takes its line where it beats the best-dead-end search."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ludoteca.core.cards import Card
from ludoteca.core.game import Variant
from ludoteca.games.gaps import SPEC, GapsState, from_position
from ludoteca.solvers.gaps import (
    SOLVE_NESTED_RUNS,
    compiled_board,
    fast,
    hint,
    nested,
    play_phases,
    solve,
)
from ludoteca.solvers.gaps.board import GAP, Board, Shape
from ludoteca.solvers.gaps.line import board_of, card_of, concrete_move


def variant(shape: Shape) -> Variant:
    return SPEC.variant(
        "gaps", {"suits": str(shape.suits), "ranks": str(shape.ranks), "redeals": "0"}
    )


def game_of(board: Board) -> GapsState:
    """The engine's game at ``board``, with no earlier positions seen."""
    ranks = board.shape.ranks
    cells = ["--" if c == GAP else str(card_of(c, ranks)) for c in board.grid]
    rows = [" ".join(cells[r * ranks : (r + 1) * ranks]) for r in range(board.shape.suits)]
    return from_position(" / ".join(rows), variant(board.shape))


def deal(seed: int) -> GapsState:
    game = SPEC.new_game("no-redeal", seed)
    assert isinstance(game, GapsState)
    return game


def fills(board: Board) -> set[tuple[int, int]]:
    grid, pos = compiled_board.arrays(board.grid)
    out = np.empty(2 * board.shape.suits**2, dtype=np.int64)
    n = nested._fills(grid, pos, board.shape.suits, board.shape.ranks, out)
    return {(int(m) // 256, int(m) % 256) for m in out[:n]}


@pytest.mark.parametrize("shape", [Shape(3, 5), Shape(4, 6), Shape(4, 13)])
def test_its_moves_are_the_seed_moves(shape: Shape) -> None:
    """Seed, Gameplay 1-3 and the ruling that any 2 may fill a column-0 gap, even one already
    in column 0 (RULES.md): along random games the search's fills are exactly the engine's
    legal moves in a game that has seen no earlier position."""
    rnd = random.Random(shape.cells)
    checked = 0
    for seed in range(12):
        board = Board.shuffled(shape, seed)
        for _ in range(40):
            game = game_of(board)
            expected = set()
            for move in game.legal_moves():
                assert move.card is not None
                code = move.card.suit * shape.ranks + move.card.rank - 1
                if move.row is not None:
                    target = move.row * shape.ranks
                else:
                    target = game.where(Card(move.card.rank - 1, move.card.suit)) + 1
                expected.add((code, target))
            assert fills(board) == expected
            checked += 1
            if not expected:
                break
            code, target = rnd.choice(sorted(expected))
            board.grid[board.grid.index(code)] = GAP
            board.grid[target] = code
    assert checked > 100


@pytest.mark.parametrize(("shape", "count"), [(Shape(3, 5), 40), (Shape(4, 5), 30)])
def test_a_line_replays_to_the_dead_end_it_reports_never_beyond_the_best(
    shape: Shape, count: int
) -> None:
    """Every line replays move by move on the engine (so it repeats no position: the
    repetition ruling), ends where no move is left, with exactly the cards in sequence
    reported, and never more than the exact best dead end of the exhaustive search; and the
    level-2 search reaches that best on most of these small boards."""
    reached_best = 0
    for seed in range(count):
        board = Board.shuffled(shape, 500 + seed)
        score, line = nested.best_line(board, 0.0, seed=seed)
        game = game_of(board)
        for code, target in line:
            game.apply(concrete_move(code, target, shape.ranks))
        assert game.legal_moves() == []
        assert game.in_sequence == score
        best = fast.best_dead_end(board, None)
        assert best.complete and score <= best.best_dead_end
        reached_best += score == best.best_dead_end
    assert reached_best > count // 2


def test_cycles_of_twos_in_column_0_are_cut_out() -> None:
    """The repetition ruling (RULES.md): a line that sends a 2 round column 0 and back is cut
    to one that reaches the same position without the loop."""
    shape = Shape(3, 4)
    two_c, two_d, three_c = 1, 5, 2
    board = Board(shape, [two_c, GAP, 3, 7, GAP, 6, 11, 10, GAP, 9, three_c, two_d])
    # 2C to row 2's column 0 and back, then 3C behind it: only the last move is kept.
    line = [(two_c, 4), (two_c, 0), (two_c, 4), (two_c, 0), (three_c, 1)]
    assert nested._without_repeats(board, line) == [(three_c, 1)]
    # 2C to row 2, 2D into row 1's column 0, then on to row 3's: no position comes back.
    line = [(two_c, 4), (two_d, 0), (two_d, 8)]
    assert nested._without_repeats(board, line) == line


def test_it_finds_what_a_search_cut_short_misses() -> None:
    """Deal 414: one depth-first search has not won it after 200,000 nodes (the pair needs
    about 14 s), while one level-2 search with random stream 22 wins it; deal 261 (won only
    after minutes): the best-dead-end search reaches at most 34 cards in sequence in its
    first 200,000 nodes, one level-2 search with stream 4 a dead end with 43."""
    board = board_of(deal(414))
    assert fast.search(board, 200_000, reduce=True).winnable is None
    score, line = nested.best_line(board, 0.0, seed=22)
    game = deal(414)
    for code, target in line:
        game.apply(concrete_move(code, target, 13))
    assert score == 48 and game.won
    board = board_of(deal(261))
    assert fast.best_dead_end(board, 200_000).best_dead_end <= 34
    assert nested.best_line(board, 0.0, seed=4)[0] == 43


def test_the_hint_takes_the_nested_line_where_it_goes_further(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deal 261 cannot be decided in a 1 s hint. Where the nested search reports a deeper
    dead end than the best-dead-end search, the hint's move is that line's first move (here
    one the search alone does not give) and its note gives that count; a win it reports
    makes the hint say winnable."""
    game = deal(261)
    monkeypatch.setattr(nested, "best_line", lambda *args, **kw: (-1, []))
    alone = hint(game, 1.0)
    assert alone.winnable is None and alone.note.startswith("search stopped; ")
    assert int(alone.note.split()[2]) < 47
    other = next(m for m in game.legal_moves() if game.move_text(m) != alone.move)
    assert other.card is not None and other.row is None
    code = other.card.suit * 13 + other.card.rank - 1
    target = game.where(Card(other.card.rank - 1, other.card.suit)) + 1
    for reached, winnable in [(47, None), (48, True)]:
        monkeypatch.setattr(
            nested, "best_line", lambda *args, r=reached, **kw: (r, [(code, target)])
        )
        answer = hint(game, 1.0)
        assert answer.move == game.move_text(other)
        assert answer.winnable is winnable
        if winnable is None:
            assert answer.note == "search stopped; 47 in sequence reached so far"


def test_the_study_policy_plays_the_nested_line_when_the_search_is_cut_short() -> None:
    """Seed, Gameplay 4 (a redeal keeps each row's cards in sequence) and the issue's policy:
    a phase is played to the most cards in sequence found before the redeal. With 200,000
    nodes the best-dead-end search of deal 261 stops at 34 or fewer; the nested searches
    (counted runs, so the same everywhere) reach 43, and the game redeals from there
    (without them, from 34 or fewer: ``nested_runs=0``, what the redeal bench's
    ``--nested-runs 0`` plays). On
    deal 759 they find a win the cut-short search does not, and the phase counts as won."""
    game = SPEC.new_game("gaps", 261)
    assert isinstance(game, GapsState)
    assert game.position() == deal(261).position()
    assert fast.best_dead_end(board_of(game), 200_000).best_dead_end <= 34
    phases = play_phases(game, 200_000)
    assert phases[0].winnable is None and phases[0].in_sequence == 43
    alone = SPEC.new_game("gaps", 261)
    assert isinstance(alone, GapsState)
    assert play_phases(alone, 200_000, nested_runs=0)[0].in_sequence <= 34
    game = SPEC.new_game("gaps", 759)
    assert isinstance(game, GapsState)
    assert fast.decide(board_of(game), 200_000).winnable is None
    phases = play_phases(game, 200_000)
    assert len(phases) == 1 and phases[0].winnable is True and game.won


def test_an_undecided_solve_reports_the_nested_dead_end_or_its_win() -> None:
    """The solver's promise (docs/rules/gaps.md, *Nested Monte Carlo search*): an undecided
    ``solve`` still reports the deepest dead end found, and a win the nested search finds
    decides. With 20,000 nodes the exact search leaves deal 7 open; the nested searches
    (counted runs) win it, and the winning line replays on the engine to a won game (seed,
    Gameplay 1-2: every move a legal fill; Won: every row one suit 2..K). Deal 290 stays
    open at 200,000 nodes, and the dead end reported is the nested search's, deeper than
    what the exact search met."""
    game = deal(7)
    board = board_of(game)
    assert fast.decide(board, 20_000).winnable is None
    answer = solve(game, max_states=20_000)
    assert answer.winnable is True and answer.extra["complete"] is True
    assert "stopped" not in answer.extra and answer.extra["best_in_sequence"] == 48
    replay = deal(7)
    for text in answer.moves:
        replay.apply(replay.parse_move(text))
    assert replay.won
    game = deal(290)
    board = board_of(game)
    exact = fast.decide(board, 200_000)
    reached, _ = nested.best_line(board, 0.0, runs=SOLVE_NESTED_RUNS)
    assert exact.winnable is None and reached > exact.best_dead_end
    answer = solve(game, max_states=200_000)
    assert answer.winnable is None and answer.extra["stopped"] == "states"
    assert answer.extra["in_sequence_found"] == reached
    assert answer.extra["best_in_sequence"] is None


def test_a_timed_solve_gives_the_nested_search_only_what_is_left() -> None:
    """Under a time budget the nested search runs in what the exact search left of it, so
    the answer still comes within the budget, with a dead end found (deal 290, 3 s)."""
    began = time.perf_counter()
    answer = solve(deal(290), seconds=3.0)
    assert time.perf_counter() - began < 3.0 + 0.5
    assert answer.winnable is None and answer.extra["stopped"] == "time"
    assert isinstance(answer.extra["in_sequence_found"], int)


def test_the_redeal_bench_rejects_a_negative_number_of_nested_runs() -> None:
    """``bench/bench_gaps_redeals.py --nested-runs N`` (0 turns the nested searches off, to
    measure what they add): a negative count gets a one-line error, not a run."""
    script = Path(__file__).parents[2] / "bench" / "bench_gaps_redeals.py"
    run = subprocess.run(
        [sys.executable, str(script), "--nested-runs", "-1"], capture_output=True, text=True
    )
    assert run.returncode == 2 and "--nested-runs: must be at least 0, not -1" in run.stderr
