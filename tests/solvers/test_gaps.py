"""The Gaps solver: the compiled kernel against the plain-Python reference, both against a
brute force over concrete positions that follows the seed's rules literally, and the candidate
pruning rules each refuted by a small position where it loses the win."""

from __future__ import annotations

import random
import time
from itertools import permutations
from typing import Any

import numpy as np
import pytest

from ludoteca.core.cards import Card
from ludoteca.core.game import Variant
from ludoteca.core.rng import DealRng
from ludoteca.games.gaps import SPEC, GapsState, from_position
from ludoteca.solvers.base import find_solver
from ludoteca.solvers.gaps import (
    compiled_analysis,
    compiled_board,
    fast,
    kernel,
    play_phases,
    reference,
    within,
)
from ludoteca.solvers.gaps.board import GAP, Board, Move, Shape
from ludoteca.solvers.gaps.fast import _tables
from ludoteca.solvers.gaps.line import board_of
from ludoteca.solvers.gaps.rules import Pruning
from ludoteca.studies.policies import greedy_policy

Cells = tuple[Card | None, ...]


def variant(suits: int, ranks: int, redeals: int = 0) -> Variant:
    return SPEC.variant("gaps", {"suits": str(suits), "ranks": str(ranks), "redeals": str(redeals)})


def text_of(board: Board) -> str:
    ranks = board.shape.ranks
    cards = ["--" if c == GAP else str(Card(c % ranks + 1, c // ranks)) for c in board.grid]
    return " / ".join(
        " ".join(cards[r * ranks : (r + 1) * ranks]) for r in range(board.shape.suits)
    )


# --- a brute force that knows nothing of classes -----------------------------------------------
def _moves(grid: Cells, suits: int, ranks: int) -> list[Cells]:
    """Seed, Gameplay 1-3, literally: successor of the left card; any 2 into column 0."""
    found = []
    for cell, card in enumerate(grid):
        if card is not None:
            continue
        if cell % ranks == 0:
            wanted = [c for c in grid if c is not None and c.rank == 2]
        else:
            left = grid[cell - 1]
            wanted = [] if left is None or left.rank == ranks else [Card(left.rank + 1, left.suit)]
        for mover in wanted:
            after = list(grid)
            after[grid.index(mover)] = None
            after[cell] = mover
            found.append(tuple(after))
    return found


def _in_sequence(grid: Cells, suits: int, ranks: int) -> int:
    total = 0
    for row in range(suits):
        first = grid[row * ranks]
        col = 0
        while (
            first is not None
            and col < ranks - 1
            and grid[row * ranks + col] == Card(2 + col, first.suit)
        ):
            col += 1
        total += col if first is not None and first.rank == 2 else 0
    return total


def brute_force(grid: Cells, suits: int, ranks: int) -> tuple[bool, int]:
    """(winnable, most cards in sequence at a position with no move)."""
    seen = {grid}
    todo = [grid]
    best = -1
    while todo:
        here = todo.pop()
        after = _moves(here, suits, ranks)
        if not after:
            best = max(best, _in_sequence(here, suits, ranks))
        for nxt in after:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return best == suits * (ranks - 1), best


def concrete(board: Board) -> Cells:
    ranks = board.shape.ranks
    return tuple(None if c == GAP else Card(c % ranks + 1, c // ranks) for c in board.grid)


def assert_line_wins(board: Board, line: list[Move]) -> None:
    """Every move of ``line`` is legal in turn and the last one completes the rows."""
    replay = board.copy()
    for move in line:
        assert move in replay.moves()
        replay.play(move)
    assert replay.in_sequence() == board.shape.full


# --- tests ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("suits", "ranks", "count"), [(2, 4, 80), (3, 4, 30), (2, 5, 30)])
def test_class_search_agrees_with_brute_force(suits: int, ranks: int, count: int) -> None:
    """One node per column-0 arrangement loses nothing: same wins, same best dead end."""
    shape = Shape(suits, ranks)
    for seed in range(count):
        board = Board.shuffled(shape, seed)
        answer = reference.search(board, stop_at_win=False)
        assert (answer.winnable, answer.best_dead_end) == brute_force(
            concrete(board), suits, ranks
        ), text_of(board)


@pytest.mark.parametrize(("suits", "ranks", "count"), [(2, 4, 80), (3, 4, 30), (3, 5, 12)])
def test_kernel_agrees_with_reference(suits: int, ranks: int, count: int) -> None:
    """Differential: the compiled search visits the same classes and finds the same answers."""
    shape = Shape(suits, ranks)
    for seed in range(count):
        board = Board.shuffled(shape, 1000 + seed)
        slow = reference.search(board, stop_at_win=False)
        quick = fast.search(board, stop_at_win=False)
        assert (slow.winnable, slow.best, slow.best_dead_end, slow.states) == (
            quick.winnable,
            quick.best,
            quick.best_dead_end,
            quick.states,
        ), text_of(board)


@pytest.mark.parametrize(
    ("text", "winnable", "best"),
    [
        ("2C 3C 4C -- / 2D 3D 4D --", True, 6),  # already won
        ("2C 3C -- 4C / 2D 3D 4D --", True, 6),  # one move
        ("2C 3C 4C -- / 2D 4D -- 3D", False, 4),  # both gaps dead at once
        ("-- 3C 4C 2D / -- 3D 4D 2C", True, 6),  # both 2s in, then nothing is in the way
    ],
)
def test_hand_built_positions(text: str, winnable: bool, best: int) -> None:
    """Known answers, worked out by hand, for both searches."""
    board = board_of(from_position(text, variant(2, 4)))
    for search in (reference.search, fast.search):
        answer = search(board, stop_at_win=False)
        assert (answer.winnable, answer.best_dead_end) == (winnable, best)


def test_class_key_ignores_row_order() -> None:
    """Rows are interchangeable: every order of the rows gives the same transposition key."""
    shape = Shape(4, 13)
    z1, z2, _, _ = _tables(shape.ranks, shape.cells)
    board = Board.shuffled(shape, 5)
    rows = [board.grid[r * 13 : (r + 1) * 13] for r in range(4)]
    keys = {
        compiled_board.class_key(
            np.array([c for i in order for c in rows[i]], dtype=np.int8), 4, 13, z1, z2, 0
        )
        for order in permutations(range(4))
    }
    other = Board.shuffled(shape, 6)
    assert len(keys) == 1
    assert (
        compiled_board.class_key(np.array(other.grid, dtype=np.int8), 4, 13, z1, z2, 0) not in keys
    )


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        (Pruning(extend_first=True), "2C -- -- 3D 4C 3C / 2D 5C 4D 6D 5D 6C"),
        (Pruning(extend_safe=True), "2H 3H -- 2C / -- 2D 4C 4H / 3D 3C 4D --"),
        (Pruning(keep_threes=True), "-- 2C 2D 5D 4C 3D / -- 3C 6C 5C 6D 4D"),
        (Pruning(twos_first=True), "3C 2C 2D 4D / -- 3D 4C --"),
    ],
)
def test_each_candidate_pruning_can_lose_a_win(rule: Pruning, text: str) -> None:
    """Moves that look never harmful (extend a row's sequence first, keep a 3 behind its 2,
    bring 2s to column 0 first) each lose the only wins here, so the solver prunes none."""
    rows = text.split(" / ")
    state = from_position(text, variant(len(rows), len(rows[0].split())))
    board = board_of(state)
    assert brute_force(concrete(board), board.shape.suits, board.shape.ranks)[0]
    assert reference.search(board).winnable is True
    assert reference.search(board, pruning=rule).winnable is False


@pytest.mark.parametrize("seed", range(6))
def test_solve_gives_a_line_that_wins_or_the_brute_force_best(seed: int) -> None:
    """solve(): a winning line replays to a win; otherwise best_in_sequence is exact."""
    game = SPEC.new_game(variant(3, 5), seed)
    assert isinstance(game, GapsState)
    result = find_solver("gaps").solve(game, None)
    won, best = brute_force(tuple(game.grid), 3, 5)
    assert result.winnable is won and result.extra["best_in_sequence"] == best
    for move in result.moves:
        game.apply(move)
    assert game.won is won


def test_solve_reports_unknown_when_the_limit_stops_it() -> None:
    """solve() with a small max_states: winnable None, no best claimed."""
    game = SPEC.new_game("no-redeal", 0)
    result = find_solver("gaps").solve(game, 50)
    assert result.winnable is None and result.extra["best_in_sequence"] is None


def test_hint_gives_a_legal_move_quickly() -> None:
    """hint(): a legal move and whether the position still wins, within the budget."""
    game = SPEC.new_game("gaps", 1)
    hint = find_solver("gaps").hint
    assert hint is not None
    answer = hint(game, 0.5)
    assert answer.move in game.legal_moves_text()
    won = SPEC.new_game(variant(2, 4), 0)
    assert hint(won, 0.5).move in [*won.legal_moves_text(), None]


def test_a_hint_calls_a_deal_lost_only_when_no_redeal_is_left() -> None:
    """Seed, Gameplay 4 (a redeal when no move is left) and the variants' redeal counts:
    Montana deal 3 cannot be won without a redeal (the search proves it within a 2 s hint).
    With 2 redeals left the hint says so in its note but does not call the game lost, since
    a redeal may still win it; with none left it is lost, and the note no longer speaks of
    a redeal (in no-redeal, "not winnable without a redeal" meant nothing)."""
    hint = find_solver("gaps").hint
    assert hint is not None
    notes = {}
    for redeals, verdict in [(2, None), (0, False)]:
        game = SPEC.new_game(SPEC.variant("montana", {"redeals": str(redeals)}), 3)
        answer = hint(game, 2.0)
        assert answer.winnable is verdict and answer.move in game.legal_moves_text()
        notes[redeals] = answer.note.split(";")[0]
    assert notes[2] == "not winnable without a redeal"
    assert notes[0].startswith("at best ") and notes[0].endswith(" in sequence"), notes


@pytest.mark.parametrize("redeals", [0, 1, 3])
def test_solver_policy_plays_phases_and_redeals(redeals: int) -> None:
    """Policy `solver`: exact without redeals; with them, best dead end per phase, redeal."""
    for seed in range(4):
        game = SPEC.new_game(variant(3, 5, redeals), seed)
        assert isinstance(game, GapsState)
        won, best = brute_force(tuple(game.grid), 3, 5)
        result = find_solver("gaps").policies["solver"](game, None, DealRng(seed))
        assert result.extra["redeals_used"] <= redeals
        if redeals == 0:
            assert (result.won, result.score) == (won, best)
        else:
            assert result.won is True or result.score >= best


def test_stuck_with_a_costly_redeal_the_hint_weighs_it_and_the_policy_redeals() -> None:
    """Seed, Gameplay 4 and Scoring 3: a redeal is allowed, and costs the penalty
    (docs/rules/gaps.md, End). The hint redeals while the cards still out of sequence could
    pay for it, and stops where the penalty is more than all of them; the solver policy,
    which studies win rates, always redeals (a stop never wins)."""
    hint = find_solver("gaps").hint
    assert hint is not None
    stuck = "2C 3C 4D -- / 2D 4C -- 3D | seed 5"  # 3 of 6 in sequence: 3 could still come
    for penalty, move in [("2", "redeal"), ("3", "redeal"), ("3.5", "stop"), ("0", "redeal")]:
        rules = SPEC.variant(
            "gaps", {"suits": "2", "ranks": "4", "redeals": "1", "penalty": penalty}
        )
        game = from_position(stuck, rules)
        answer = hint(game, 0.5)
        assert answer.move == move and answer.move in game.legal_moves_text(), (penalty, answer)
        assert ("stop" in game.legal_moves_text()) == (penalty != "0")
        result = find_solver("gaps").policies["solver"](game, None, DealRng(5))
        assert result.extra["redeals_used"] == 1 and game.redeals_used == 1
        # The greedy policy goes on by the redeal too (its heuristic ranks a stop lower).
        greedy = from_position(stuck, rules)
        greedy_policy(greedy, None, DealRng(5))
        assert greedy.redeals_used == 1


def test_probes_under_a_limit_decide_as_the_full_search() -> None:
    """decide(): restart probes (other move orders) and the final search agree with one full
    search whenever they finish, and a winning line from any of them replays to a win."""
    shape = Shape(4, 6)
    for seed in range(12):
        board = Board.shuffled(shape, 500 + seed)
        full = fast.search(board)
        limited = fast.decide(board, 64_000)
        assert limited.winnable in (full.winnable, None)
        if limited.complete:
            assert limited.winnable == full.winnable
        if limited.winnable:
            replay = board.copy()
            for move in limited.line:
                replay.play(move)
            assert replay.in_sequence() == shape.full


# --- reductions: frozen cards, bounds, stubborn sets (partial-order reduction) ----------------
def _frozen(board: Board) -> set[int]:
    grid, pos = compiled_board.arrays(board.grid)
    mov = np.zeros(board.shape.cells, dtype=np.bool_)
    places = np.zeros(board.shape.cells, dtype=np.uint64)
    compiled_analysis.movable(grid, pos, board.shape.suits, board.shape.ranks, mov, places, 0)
    ranks = board.shape.ranks
    return {code for code in board.grid if code != GAP and not mov[code] and code % ranks}


@pytest.mark.parametrize(
    ("suits", "ranks", "count"), [(2, 4, 25), (3, 4, 25), (2, 5, 25), (3, 5, 25), (4, 4, 4)]
)
def test_frozen_cards_never_move(suits: int, ranks: int, count: int) -> None:
    """A card the analysis calls frozen keeps its cell in every position reachable from there
    (checked on every reachable class of small boards, not only along sample lines)."""
    shape = Shape(suits, ranks)
    checked = 0
    for seed in range(count):
        start = Board.shuffled(shape, 3000 + seed)
        seen = {start.key()}
        todo = [start]
        while todo:
            here = todo.pop()
            frozen = {code: here.pos[code] for code in _frozen(here)}
            checked += len(frozen)
            for move in here.moves():
                child = here.copy()
                child.play(move)
                assert all(child.pos[code] == cell for code, cell in frozen.items()), (
                    text_of(here),
                    move,
                )
                if child.key() not in seen:
                    seen.add(child.key())
                    todo.append(child)
    assert checked > 0


def _moved_without(start: Board, held: int, limit: int) -> set[int]:
    """Cards other than 2s in column 0 that leave their cell in some line from ``start``
    where ``held`` never moves (every reachable class, up to ``limit`` of them)."""
    ranks = start.shape.ranks
    watched = {
        code
        for cell, code in enumerate(start.grid)
        if code != GAP and not (code % ranks == 1 and cell % ranks == 0)
    }
    moved: set[int] = set()
    seen = {start.key()}
    todo = [start]
    while todo and len(seen) < limit:
        here = todo.pop()
        for move in here.moves():
            if move[0] == held:
                continue
            child = here.copy()
            child.play(move)
            moved |= {code for code in watched if child.pos[code] != start.pos[code]}
            if child.key() not in seen:
                seen.add(child.key())
                todo.append(child)
    return moved


@pytest.mark.parametrize(("suits", "ranks", "count"), [(3, 4, 30), (3, 5, 20), (4, 4, 6)])
def test_a_card_held_in_place_keeps_others_frozen(suits: int, ranks: int, count: int) -> None:
    """What a stubborn set relies on (``compiled_analysis.movable_holding``): with one card
    held in its cell, a card the analysis calls unable to move never moves in any line where
    the held card stays; and holding a card does freeze others that could move before (the
    reason the stubborn sets shrink)."""
    shape = Shape(suits, ranks)
    cells = shape.cells
    newly_frozen = 0
    for seed in range(count):
        start = Board.shuffled(shape, 5000 + seed)
        grid, pos = compiled_board.arrays(start.grid)
        free_mov = np.zeros(cells, dtype=np.bool_)
        places = np.zeros(cells, dtype=np.uint64)
        compiled_analysis.movable(grid, pos, suits, ranks, free_mov, places, 0)
        for held in (c for c in start.grid if c != GAP and c % ranks != 1 and free_mov[c]):
            outside = np.zeros(cells, dtype=np.bool_)
            compiled_analysis.movable_holding(grid, pos, suits, ranks, outside, places, 0, held)
            assert not outside[held]
            moved = _moved_without(start, held, 4000)
            assert all(outside[code] for code in moved), (text_of(start), held, moved)
            newly_frozen += int(np.count_nonzero(free_mov & ~outside)) - 1
    assert newly_frozen > 0


@pytest.mark.parametrize(
    ("suits", "ranks", "count"),
    [(2, 4, 120), (3, 4, 60), (2, 5, 60), (3, 5, 60), (4, 4, 12), (3, 6, 20)],
)
def test_reduced_search_keeps_every_win_and_dead_end(suits: int, ranks: int, count: int) -> None:
    """Differential: with stubborn sets, the frozen-card cuts and the loose rows of a shut
    pool the kernel decides exactly as the plain reference (same win, same best dead end)
    while visiting fewer classes; its winning lines replay to a win and its lines to the
    best dead end replay to a position without a move that has that many cards in
    sequence."""
    shape = Shape(suits, ranks)
    plain_states = reduced_states = 0
    for seed in range(count):
        board = Board.shuffled(shape, 9000 + seed)
        plain = reference.search(board, stop_at_win=False)
        best = fast.search(board, stop_at_win=False, reduce=True)
        win = fast.search(board, stop_at_win=True, reduce=True)
        assert (best.winnable, best.best_dead_end) == (plain.winnable, plain.best_dead_end)
        assert win.winnable == plain.winnable, text_of(board)
        if win.winnable:
            assert_line_wins(board, win.line)
        end = board.copy()
        for move in best.line:  # the reduced search's line, back in class moves
            assert move in end.moves(), text_of(board)
            end.play(move)
        assert not end.moves() and end.in_sequence() == best.best_dead_end, text_of(board)
        plain_states += plain.states
        reduced_states += best.states
    assert reduced_states < plain_states


@pytest.mark.parametrize(
    ("text", "suits", "ranks"),
    [
        # A card other than a 2 (the 5D) leaves column 0 after the pool shuts, which frees
        # the pool: then a loose 2 may move, and its cell empty.
        ("-- 2C 2H 5H 2D / 3D 4H 5C -- 3C / 5D 4D 3H 4C --", 3, 5),
        # The 4D leaves column 0 while two rows are still loose; the line goes on with 2s
        # entering the freed pool's gaps.
        ("4D -- 3H 2H / 3S 4S -- 4C / -- 4H 2S 3C / 3D 2C 2D --", 4, 4),
    ],
)
def test_a_pool_freed_while_rows_are_loose(text: str, suits: int, ranks: int) -> None:
    """Seed rules (2s into column 0, any gap fillable by the next card of its left
    neighbour) with the loose rows of a shut pool (docs/solvers/gaps-notebook.md, *Loose
    rows*): two positions the wider differential sample once caught. In the first the frozen-card
    analysis never let a loose 2's cell empty, so the cut called a winnable deal lost; in
    the second the line back in class moves gave the rows still loose when the pool was
    freed other 2s than the search's board had, and a later 2 named a gap that was not one.
    The reduced search decides each as the plain reference, and its lines replay."""
    board = board_of(from_position(text, variant(suits, ranks)))
    plain = reference.search(board, stop_at_win=False)
    best = fast.search(board, stop_at_win=False, reduce=True)
    win = fast.search(board, stop_at_win=True, reduce=True)
    assert plain.winnable
    assert (best.winnable, best.best_dead_end, win.winnable) == (True, plain.best_dead_end, True)
    assert_line_wins(board, win.line)
    assert_line_wins(board, best.line)


def test_a_shut_pool_leaves_its_rows_loose_until_threes_fix_them() -> None:
    """Seed rule (2s into column 0): while column 0 has a gap the player arranges the 2s
    there at will, so when the last gap is filled any arrangement could have been chosen.
    The reduced search keeps that choice open (``compiled_board.next_loose``): the 2 that shuts the
    pool is one move and leaves every pool row loose (one class for all arrangements);
    a gap in column 1 of a loose row takes the 3 of any loose 2, which fixes that row; one
    loose row left is no choice. The plain search branches on the arrangements instead."""
    two_c, three_c, two_d, three_d, two_h, three_h = 1, 2, 6, 7, 11, 12
    # 2C 3D -- 4C 5C / 2D 5H 3C 5D 4D / -- 3H 2H 4H --
    grid = np.array([1, 7, -1, 3, 4, 6, 14, 2, 9, 8, -1, 12, 11, 13, -1], dtype=np.int8)
    pos = np.zeros(15, dtype=np.int8)
    pos[grid[grid >= 0]] = np.flatnonzero(grid >= 0)
    z1, z2, perms, counts = _tables(5, 15)
    moves = np.zeros(compiled_board.MAX_MOVES, dtype=np.int64)

    def moves_now(loose: int, lazy: bool) -> list[int]:
        scratch = np.empty(8, dtype=np.int64)
        n = compiled_board.gen_moves(grid, pos, 3, 5, perms, counts, moves, scratch, loose, lazy)
        return [int(m) for m in moves[:n]]

    def play(move: int, loose: int) -> int:
        compiled_board.play(grid, pos, 3, 5, move)
        return int(compiled_board.next_loose(grid, 3, 5, move, loose, True))

    plain = [m for m in moves_now(0, False) if m & 0xFF == two_h]
    assert len(plain) == 6 and all(m >> 16 for m in plain)  # 3! arrangements
    [shut] = [m for m in moves_now(0, True) if m & 0xFF == two_h]
    assert shut >> 16 == 0
    loose = play(shut, 0)
    assert loose == 0b111
    ends = np.empty(3, dtype=np.int64)
    # Rows 0 and 2 can have their 3 behind their 2 (2 + 2 cards), row 1 a 2 alone.
    assert compiled_board.prefixes(grid, 3, 5, ends, loose) == 5
    swapped = grid.copy()
    swapped[0], swapped[5] = two_d, two_c
    assert compiled_board.class_key(swapped, 3, 5, z1, z2, loose) == compiled_board.class_key(
        grid, 3, 5, z1, z2, loose
    )
    assert compiled_board.class_key(grid, 3, 5, z1, z2, loose) != compiled_board.class_key(
        grid, 3, 5, z1, z2, 0
    )
    loose = play(14 | (14 << 8), loose)  # 5H behind 4H: column 1 of row 1 opens
    assert loose == 0b111
    into_row1 = sorted(m & 0xFF for m in moves_now(loose, True) if (m >> 8) & 0xFF == 6)
    assert into_row1 == [three_c, three_d, three_h]
    loose = play(three_d | (6 << 8), loose)  # 3D fixes row 1 (and opens column 1 of row 0)
    assert loose == 0b101 and grid[5] == two_d
    loose = play(three_h | (1 << 8), loose)  # 3H fixes row 0, which leaves row 2 to 2C
    assert loose == 0 and grid[0] == two_h and grid[10] == two_c
    assert compiled_board.next_loose(grid, 3, 5, shut, 0b111, False) == 0


def _stubborn_moves(board: Board, loose: int = 0) -> tuple[list[Move], list[Move]]:
    """The class moves of ``board`` (lazy ones where ``loose`` marks loose rows) and the
    moves of the smallest stubborn set the kernel finds there."""
    grid, pos = compiled_board.arrays(board.grid)
    suits, ranks, cells = board.shape.suits, board.shape.ranks, board.shape.cells
    *_, perms, counts = _tables(ranks, cells)
    moves = np.zeros(compiled_board.MAX_MOVES, dtype=np.int64)
    scratch = np.empty(8, dtype=np.int64)
    n = compiled_board.gen_moves(
        grid, pos, suits, ranks, perms, counts, moves, scratch, loose, loose != 0
    )
    every = [fast.unpack(int(m)) for m in moves[:n]]
    mov = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.uint64)
    compiled_analysis.movable(grid, pos, suits, ranks, mov, places, loose)
    member, chosen = np.zeros(cells, dtype=np.bool_), np.zeros(cells, dtype=np.bool_)
    todo = np.zeros(cells, dtype=np.int64)
    held = np.zeros(cells, dtype=np.uint64)
    kept = compiled_analysis.stubborn(
        moves, n, grid, pos, ranks, mov, member, chosen, todo, loose, held
    )
    return every, [fast.unpack(int(m)) for m in moves[:kept]]


def _safe_move(board: Board) -> Move | None:
    """The move of a one-move stubborn set, if the kernel finds one here."""
    every, kept = _stubborn_moves(board)
    return kept[0] if len(every) > 1 and len(kept) == 1 else None


def test_a_stubborn_set_may_hold_the_threes_of_loose_twos() -> None:
    """Seed rule (a gap takes the next card of its left neighbour) with the loose rows of a
    shut pool (docs/solvers/gaps-notebook.md, *Stubborn sets through loose rows and free
    pools*): the 3s of loose 2s, which may enter column 1 of any loose row with a gap
    there, make one stubborn set with the cards that could leave column 1 or column 0; the
    5H, whose 4H waits on the 3H, is left out. (A set that reached a loose 2 used to keep
    every move.) The differential test checks that such sets lose nothing."""
    board = board_of(
        from_position("2H -- 4C 5C 5H / 2D 3D 3H 4H -- / 2C 3C 4D 5D --", variant(3, 5))
    )
    every, kept = _stubborn_moves(board, loose=0b111)
    ranks = board.shape.ranks
    threes = [move for move in every if move[0] % ranks == 2 and move[1] == 1]
    assert len(every) == 4 and len(threes) == 3
    assert sorted(kept) == sorted(threes)


@pytest.mark.parametrize(("suits", "ranks"), [(3, 4), (3, 5), (4, 4), (4, 5)])
def test_moves_that_never_hurt_proved_on_small_boards(suits: int, ranks: int) -> None:
    """Where a position has several moves but a stubborn set of one (typically: extend a
    row whose 2 can no longer move, when the card leaves no cell its successor could want),
    that move loses nothing: exhaustive search gives the same win and best dead end before
    and after it, on every such position reachable in these deals."""
    shape = Shape(suits, ranks)
    proved = with_pool = 0
    for seed in range(12):
        start = Board.shuffled(shape, 4000 + seed)
        seen = {start.key()}
        todo = [start]
        while todo and len(seen) < 1000:
            here = todo.pop()
            move = _safe_move(here)
            if move is not None:
                after = here.copy()
                after.play(move)
                before_answer = reference.search(here, stop_at_win=False)
                after_answer = reference.search(after, stop_at_win=False)
                assert (before_answer.winnable, before_answer.best_dead_end) == (
                    after_answer.winnable,
                    after_answer.best_dead_end,
                ), text_of(here)
                proved += 1
                with_pool += here.pool_free()
            for nxt in here.moves():
                child = here.copy()
                child.play(nxt)
                if child.key() not in seen:
                    seen.add(child.key())
                    todo.append(child)
    assert proved > 20
    assert with_pool > 0  # sets that leave out the 2s entering a free pool are proved too


def test_one_run_with_three_redeals_gives_the_rates_for_fewer() -> None:
    """The redeal table comes from one run: playing with 3 redeals and reading the first
    k + 1 phases gives the same outcome as playing the game that allows only k (a redeal's
    shuffle depends only on the deal and the redeals before it)."""
    policy = find_solver("gaps").policies["solver"]
    redealt = 0
    for seed in range(30):
        game = SPEC.new_game(variant(3, 5, 3), seed)
        assert isinstance(game, GapsState)
        phases = play_phases(game, None)
        assert phases and all(phase.winnable is not None for phase in phases)
        redealt += len(phases) > 1
        for k in range(4):
            alone = policy(SPEC.new_game(variant(3, 5, k), seed), None, DealRng(seed))
            assert within(phases, k) is alone.won, (seed, k)
    assert redealt >= 3


@pytest.mark.parametrize("lazy", [False, True])
def test_incremental_row_hashes_give_the_full_key(lazy: bool) -> None:
    """The search updates each row's hash by the two cells a move changes; along random
    lines of full deals (pool moves and 3s behind pooled 2s included, and with ``lazy`` the
    loose rows of a shut pool) the key it gets equals the key computed from the whole
    grid."""
    z1, z2, perms, counts = _tables(13, 52)
    checked = 0
    loosened = 0
    for seed in range(30):
        board = board_of(SPEC.new_game("no-redeal", seed))
        rnd = random.Random(seed)
        grid, pos = compiled_board.arrays(board.grid)
        body = np.zeros(8, dtype=np.uint64)
        compiled_board.row_bodies(grid, 4, 13, z1, z2, body)
        moves = np.zeros(compiled_board.MAX_MOVES, dtype=np.int64)
        loose = 0
        for _ in range(60):
            scratch = np.empty(8, dtype=np.int64)
            n = compiled_board.gen_moves(
                grid, pos, 4, 13, perms, counts, moves, scratch, loose, lazy
            )
            if n == 0:
                break
            move = int(moves[rnd.randrange(n)])
            card = move & 0xFF
            source = int(pos[card])
            compiled_board.play(grid, pos, 4, 13, move)
            loose = compiled_board.next_loose(grid, 4, 13, move, loose, lazy)
            loosened += loose != 0
            compiled_board.move_body(body, card, source, (move >> 8) & 0xFF, 13, z1, z2)
            assert compiled_board.keyed(
                grid, body, 4, 13, z1, z2, loose
            ) == compiled_board.class_key(grid, 4, 13, z1, z2, loose)
            checked += 1
    assert checked > 500
    assert (loosened > 50) == lazy


def test_every_move_taken_back_restores_the_board() -> None:
    """The search plays moves on one board and takes them back (``compiled_board.unplay``): along
    random lines of full deals and of small boards, every move available (2s into the pool,
    layouts of column 0, 3s brought next to a pooled 2) played and taken back leaves the
    cells, the card positions and the row hashes exactly as they were."""
    kinds: set[str] = set()
    boards = [board_of(SPEC.new_game("no-redeal", seed)) for seed in range(20)]
    boards += [Board.shuffled(Shape(3, 5), 500 + seed) for seed in range(40)]
    for index, board in enumerate(boards):
        suits, ranks = board.shape.suits, board.shape.ranks
        z1, z2, perms, counts = _tables(ranks, board.shape.cells)
        rnd = random.Random(index)
        grid, pos = compiled_board.arrays(board.grid)
        body = np.zeros(2 * suits, dtype=np.uint64)
        compiled_board.row_bodies(grid, suits, ranks, z1, z2, body)
        moves = np.zeros(compiled_board.MAX_MOVES, dtype=np.int64)
        for _ in range(40):
            n = compiled_board.gen_moves(
                grid, pos, suits, ranks, perms, counts, moves, np.empty(8, dtype=np.int64), 0, False
            )
            if n == 0:
                break
            before = (grid.copy(), pos.copy(), body.copy())
            for move in (int(m) for m in moves[:n]):
                card, target = move & 0xFF, (move >> 8) & 0xFF
                kinds.add("layout" if move >> 16 else "two" if card % ranks == 1 else "card")
                if target % ranks == 1 and card % ranks == 2 and grid[target - 1] != card - 1:
                    kinds.add("three-to-pool-two")
                source = int(pos[card])
                heads = compiled_board.column_heads(grid, suits, ranks)
                compiled_board.play(grid, pos, suits, ranks, move)
                compiled_board.move_body(body, card, source, target, ranks, z1, z2)
                assert not np.array_equal(grid, before[0])
                compiled_board.move_body(body, card, source, target, ranks, z1, z2)
                compiled_board.unplay(grid, pos, suits, ranks, move, source, heads)
                assert np.array_equal(grid, before[0])
                assert np.array_equal(pos[grid[grid >= 0]], before[1][grid[grid >= 0]])
                assert np.array_equal(body, before[2])
            move = int(moves[rnd.randrange(n)])
            card = move & 0xFF
            source = int(pos[card])
            compiled_board.play(grid, pos, suits, ranks, move)
            compiled_board.move_body(body, card, source, (move >> 8) & 0xFF, ranks, z1, z2)
    assert kinds == {"layout", "two", "card", "three-to-pool-two"}


@pytest.mark.parametrize("nested", [0, 3])
@pytest.mark.parametrize(("suits", "ranks", "count"), [(3, 5, 40), (4, 5, 12), (3, 6, 20)])
def test_searches_sharing_a_table_decide_as_one(
    suits: int, ranks: int, count: int, nested: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two searches in two threads over one table (``fast.together``): the first in the
    standard order, the second restarting in other orders (runs of 7 nodes times Luby's
    sequence here, so that small boards see many restarts), after a first interleaved run
    that leaves a subtree at 3 nodes (or none, with ``NESTED_STATES`` 0). Together they
    decide exactly as one full search, and a win either finds replays to a win. Four
    searches decide the same."""
    monkeypatch.setattr(fast, "RESTART_STATES", 7)
    monkeypatch.setattr(fast, "NESTED_STATES", nested)
    shape = Shape(suits, ranks)
    verdicts = set()
    for seed in range(count):
        board = Board.shuffled(shape, 7000 + seed)
        alone = fast.search(board, reduce=True)
        both = fast.together(board, fast.UNLIMITED, True, 0.0, 2)
        assert both.complete
        assert both.winnable == alone.winnable, text_of(board)
        four = fast.together(board, fast.UNLIMITED, True, 0.0, 4)
        assert (four.winnable, four.complete) == (alone.winnable, True), text_of(board)
        verdicts.add(both.winnable)
        if both.winnable:
            assert_line_wins(board, both.line)
    assert verdicts == {True, False}


def test_reversed_first_moves_decide_the_same_from_the_other_end() -> None:
    """``reversed_depths=1`` tries the moves of the first node with a choice (often the
    root) last to first: same verdicts as the standard order (a different order never
    changes what is decided), and where several first moves win, the reversed search's
    line starts with another one."""
    other_start = 0
    for seed in range(60):
        board = Board.shuffled(Shape(3, 6), 7300 + seed)
        plain = fast.search(board, reduce=True)
        flipped = fast.search(board, reduce=True, reversed_depths=1)
        assert (flipped.winnable, flipped.complete) == (plain.winnable, True), text_of(board)
        if flipped.winnable:
            assert_line_wins(board, flipped.line)
            other_start += flipped.line[0] != plain.line[0]
    assert other_start > 0


def test_twos_last_decides_the_same_by_other_lines() -> None:
    """``twos_last`` tries 2s into column 0 after every other move (our order, for the third
    and fourth of searches sharing a table): the same verdicts as the standard order on
    random boards, and some wins are found by another line."""
    other_line = 0
    for seed in range(60):
        board = Board.shuffled(Shape(3, 6), 7400 + seed)
        plain = fast.search(board, reduce=True)
        late = fast.search(board, reduce=True, twos_last=True)
        assert (late.winnable, late.complete) == (plain.winnable, True), text_of(board)
        if late.winnable:
            assert_line_wins(board, late.line)
            other_line += late.line != plain.line
    assert other_line > 0


def _stopped_then_finished(
    board: Board, post_order: bool
) -> tuple[reference.Answer, reference.Answer]:
    """A search stopped after 10 nodes, then a full one over the same table."""
    table = np.zeros(1 << 12, dtype=np.uint64)
    stop = np.zeros(1, dtype=np.int64)
    first, _ = fast._searched(
        board, 10, True, 0, True, 0.0, table, stop, 0, False, None, 1, post_order
    )
    second = fast.search(board, reduce=True, salt=1, shared=table)
    return first, second


def test_a_search_stopped_early_misleads_the_others_unless_it_writes_finished_nodes() -> None:
    """Why restarting searches write a node into the shared table only once they have
    searched all its moves (``post_order``): a search that enters nodes as it reaches them
    and stops leaves nodes it never expanded, and a search sharing its table skips them, so
    it can finish without the win. Found here on winnable boards (the first search stops
    after 10 nodes, the second finishes on the same table without a win); never with
    ``post_order``. And so :func:`fast.settle` takes "not winnable" only from search 0,
    which never stops before the end, and never from a restarting search that finished."""
    misled = fair = 0
    for k in range(60):
        board = Board.shuffled(Shape(3, 6), 7000 + k)
        if not fast.search(board, reduce=True).winnable:
            continue
        first, second = _stopped_then_finished(board, post_order=False)
        if first.complete:
            continue  # won within 10 nodes
        misled += second.winnable is False
        first, second = _stopped_then_finished(board, post_order=True)
        assert second.winnable, text_of(board)
        fair += 1
    assert misled > 0 and fair > 0
    keeper = reference.Answer(None, 5, 3, 10, [], False, "time")
    helper = reference.Answer(None, 6, 4, 20, [], False, "time")
    assert fast.settle([keeper, helper]).winnable is None
    done = reference.Answer(False, 5, 3, 10, [], True, "")
    assert (fast.settle([done, helper]).winnable, fast.settle([done, helper]).states) == (False, 30)
    assert fast.settle([keeper, reference.Answer(True, 9, 9, 7, [], True, "")]).winnable


def test_restarts_over_one_table_decide_as_one_search() -> None:
    """Runs of a few nodes each (Luby's sequence times 3), each in an order of its own, over
    one table that only finished nodes enter (``post_order``): the last run decides as one
    full search does, on random small boards, and its winning lines replay."""
    assert [fast.luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    runs_seen = []
    for k, (suits, ranks) in enumerate([(3, 5)] * 40 + [(4, 4)] * 30 + [(3, 6)] * 20):
        board = Board.shuffled(Shape(suits, ranks), 7500 + k)
        alone = fast.search(board, reduce=True)
        table = np.zeros(2 << 16, dtype=np.uint64)
        stop = np.zeros(1, dtype=np.int64)
        rng = random.Random(k)
        run = 0
        while True:
            run += 1
            answer, _ = fast._searched(
                board,
                3 * fast.luby(run),
                True,
                rng.randrange(1 << 40),
                True,
                0.0,
                table,
                stop,
                rng.randrange(1 << 62),
                False,
                None,
                0,
                True,
            )
            if answer.complete:
                break
        runs_seen.append(run)
        assert answer.winnable == alone.winnable, text_of(board)
        if answer.winnable:
            assert_line_wins(board, answer.line)
    assert max(runs_seen) >= 20


def test_interleaved_searches_decide_as_one_search() -> None:
    """``nested`` (an interleaved depth-first search, the first run of a restarting search):
    a search over a post-order table that leaves a move's subtree after a few nodes, tries
    the moves beside it, and comes back with twice the budget, still searches every node.
    The same verdicts as one full search on random small boards, won and lost (sleep sets
    on, so a node's sleep set must be the same in every round), winning lines that replay,
    and on many boards another node count than without budgets (they did act)."""
    verdicts = set()
    differ = 0
    for k, (suits, ranks) in enumerate([(3, 5)] * 40 + [(4, 4)] * 30 + [(3, 6)] * 30):
        board = Board.shuffled(Shape(suits, ranks), 7700 + k)
        alone = fast.search(board, reduce=True)
        counts = set()
        for nested in (0, 3, 40):
            table = np.zeros(2 << 16, dtype=np.uint64)
            args = (board, None, True, 0, True, 0.0, table, None, 0, False, None, 0, True)
            answer, _ = fast._searched(*args, nested=nested)
            assert answer.complete
            assert answer.winnable == alone.winnable, text_of(board)
            if answer.winnable:
                assert_line_wins(board, answer.line)
            counts.add(answer.states)
        verdicts.add(alone.winnable)
        differ += len(counts) > 1
    assert verdicts == {True, False}
    assert differ >= 20


def test_an_interleaved_run_stopped_halfway_leaves_nothing_the_first_search_misses() -> None:
    """The race of a pair made certain, for the interleaved first run of a restarting
    search: it runs in the reversed order (as in the pair) with budgets of a few nodes and
    stops after a few dozen to a thousand nodes; then a search in the standard order over
    the same table (the pair's first search, which skips what the run finished) must still
    win every winnable random small board. The run must not put to sleep, at the moves
    after it, a move it left at its budget: the nodes under those moves enter the table
    as finished and the other search, taking the moves in the other order, would put
    their subtree to sleep in turn (before the fix, 13 of these runs, on two 3 x 6
    boards, misled it into calling the board lost)."""
    won = 0
    for k, (suits, ranks) in enumerate([(3, 5)] * 60 + [(4, 4)] * 40 + [(3, 6)] * 40):
        board = Board.shuffled(Shape(suits, ranks), 7900 + k)
        if not fast.search(board, reduce=True).winnable:
            continue
        won += 1
        for nested in (2, 5):
            for cap in (10, 30, 100, 300, 1000):
                table = np.zeros(2 << 16, dtype=np.uint64)
                args = (board, cap, True, 0, True, 0.0, table, None, 1, False, None, 1, True)
                run, _ = fast._searched(*args, nested=nested)
                if run.winnable:
                    continue
                assert run.stopped == "states"
                first = fast.search(board, None, reduce=True, shared=table)
                assert first.winnable, (text_of(board), nested, cap)
    assert won >= 80


def test_a_search_stops_when_another_has_won() -> None:
    """``stop[0]`` is set by the search that wins and read by every other one: a search
    started with it set gives up at its next check (every 4,096 nodes), undecided."""
    board = board_of(_deal(4))
    stop = np.ones(1, dtype=np.int64)
    answer = fast.search(board, reduce=True, stop=stop)
    assert (answer.winnable, answer.complete, answer.stopped) == (None, False, "time")
    assert answer.states <= 4096
    small = next(
        b
        for b in (Board.shuffled(Shape(3, 5), 7000 + k) for k in range(100))
        if fast.search(b, reduce=True).winnable
    )
    won = np.zeros(1, dtype=np.int64)
    assert fast.search(small, reduce=True, stop=won).winnable
    assert won[0] == 1


def test_the_pair_starts_from_what_the_search_alone_finished() -> None:
    """:func:`fast.decide`'s search alone writes the nodes it finished (``post_order``) into a
    table of its own, and :func:`fast.together` starts from them (``kept``). Stopped after a
    few nodes, then the pair from its table: on random small boards the pair, and its first
    search alone over that table, decide as one full search, and winning lines replay (a
    search stopped early that wrote nodes as it entered them would mislead the second: see
    the test above on ``post_order``). On seed 112 (not winnable), the first search
    of the pair, over a table holding what 300,000 nodes of a search alone finished, proves
    the loss entering fewer nodes than it does alone."""
    for k, (suits, ranks) in enumerate([(3, 5)] * 20 + [(4, 4)] * 15 + [(3, 6)] * 15):
        board = Board.shuffled(Shape(suits, ranks), 7800 + k)
        alone = fast.search(board, reduce=True)
        kept = np.zeros(2 << 12, dtype=np.uint64)
        first = fast.search(board, 5 + 3 * (k % 10), reduce=True, shared=kept, post_order=True)
        if first.complete:
            assert first.winnable == alone.winnable, text_of(board)
            continue
        # Search 0 of a pair, over that table alone: its end is what proves a loss.
        keeper = fast.search(board, reduce=True, salt=1, shared=kept.copy())
        assert keeper.winnable == alone.winnable, text_of(board)
        pair = fast.together(board, fast.UNLIMITED, True, 0.0, 2, kept=kept)
        assert (pair.winnable, pair.complete) == (alone.winnable, True), text_of(board)
        if pair.winnable:
            assert_line_wins(board, pair.line)
    board = board_of(_deal(112))
    kept = np.zeros(2 * fast.SOLO_SLOTS, dtype=np.uint64)
    stopped = fast.search(board, 300_000, reduce=True, shared=kept, post_order=True)
    assert (stopped.complete, stopped.stopped) == (False, "states")
    table = np.zeros(2 << 22, dtype=np.uint64)
    carried = kernel.carry(kept, table)
    assert carried == int(np.count_nonzero(kept[0::2])) > 100_000
    fresh = fast.search(board, reduce=True, shared=np.zeros(2 << 22, dtype=np.uint64))
    later = fast.search(board, reduce=True, shared=table)
    assert (later.winnable, fresh.winnable) == (False, False)
    assert later.states < fresh.states - carried // 2


def test_a_process_lends_one_table_at_a_time_cleared() -> None:
    """``fast._blank_table``: a table lent for a block comes back to the next one of its size
    cleared (no new memory to fault in deal after deal), and one in use is never lent to a
    second borrower."""
    with fast._blank_table(1 << 10) as first:
        first[:] = 7
        with fast._blank_table(1 << 10) as second:
            assert second is not first and not second.any()
    with fast._blank_table(1 << 10) as again:
        assert again is first and not again.any()


def test_a_process_keeps_the_pairs_table_when_the_search_alones_comes_back() -> None:
    """``fast.decide`` lends the pair's table inside the block of the search alone's
    (``fast.SOLO_SLOTS``), so the search alone's comes back last; both must stay for the
    next deal (a new 2 GiB table costs a page fault per page touched), and a table of a
    third size replaces the pair's, so an idle process holds at most one large table."""
    fast._SPARE.clear()
    with fast._blank_table(fast.SOLO_SLOTS) as solo, fast._blank_table(1 << 12) as pair:
        pass
    with fast._blank_table(fast.SOLO_SLOTS) as solo_again:
        with fast._blank_table(1 << 12) as pair_again:
            assert pair_again is pair
        assert solo_again is solo
    with fast._blank_table(1 << 13):
        pass
    assert sorted(fast._SPARE) == [1 << 13, fast.SOLO_SLOTS]
    fast._SPARE.clear()


def test_a_search_on_a_shared_table_stops_for_room_not_for_cut_nodes() -> None:
    """``max_stored`` caps what a search puts in a table shared with others (what could fill
    it), not the nodes it enters: cut nodes take no room. On seed 112, which is not winnable
    and whose nodes are mostly cut, a search capped at 20,000 stored nodes leaves exactly
    that many keys in the table, enters more nodes than that, and is left undecided."""
    board = board_of(_deal(112))
    table = np.zeros(1 << 19, dtype=np.uint64)  # room for any 200,000 nodes
    answer = fast.search(board, 200_000, reduce=True, shared=table, max_stored=20_000)
    assert (answer.winnable, answer.complete, answer.stopped) == (None, False, "room")
    assert int(np.count_nonzero(table[0::2])) == 20_000
    assert answer.states > 20_000
    entered = fast.search(board, 20_000, reduce=True, shared=np.zeros(1 << 17, dtype=np.uint64))
    assert (entered.states, entered.stopped) == (20_000, "states")
    assert fast.search(board, reduce=True).stopped == ""  # finished: nothing ran out


def test_a_long_budget_with_a_small_table_stops_for_room_and_says_so() -> None:
    """``table_bytes`` bounds the table two searches share; when their shares are full they
    stop, undecided, long before the budget ends, and the answer says it was the room (more
    time would not help). Seed 150 is not winnable, its proof about 30 M nodes (one search
    alone, with the greedy and novelty searches beside it, cannot end it in its 8 s); 16 MiB (2**20
    slots) give each of the two searches that go on 393,216."""
    board = board_of(_deal(150))
    answer = fast.decide(board, None, seconds=120.0, workers=2, table_bytes=16 << 20)
    assert (answer.winnable, answer.complete, answer.stopped) == (None, False, "room")
    timed = fast.decide(board, None, seconds=1.0, workers=2)
    assert (timed.winnable, timed.stopped) == (None, "time")


def test_two_workers_decide_a_long_deal_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 4 is not winnable and needs millions of nodes: with a time budget, probes, a
    search alone, then two searches sharing a table, and the verdict is kept only when both
    finished (here a budget too short to finish says undecided, never lost). Out of time,
    it stops no more than ``DEADLINE_SLACK`` short of the budget (here 0.1 s of 4 s, where
    the share ``DEADLINE_MARGIN`` alone would give 0.16 s away), and returns soon after
    its stop."""
    board = board_of(_deal(4))
    monkeypatch.setattr(fast, "DEADLINE_SLACK", 0.1)
    began = time.perf_counter()
    short = fast.decide(board, None, seconds=4.0, workers=2)
    spent = time.perf_counter() - began
    assert (short.winnable, short.complete, short.stopped) == (None, False, "time")
    assert 3.9 <= spent < 4.5
    small = Board.shuffled(Shape(4, 6), 7100)
    assert fast.decide(small, None, seconds=5.0, workers=2).winnable == (
        fast.search(small, reduce=True).winnable
    )


def test_the_second_search_of_a_pair_takes_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 112 is not winnable. With the stubborn sets that hold the seed card
    (``compiled_analysis.movable_holding``) its root keeps one move, and the second search of
    a pair, which reversed the root's moves, found that child entered and stopped after one node.
    It now reverses its first choice and goes through the nodes before it, and the
    restarting search goes one choice deeper each time a run of it finishes while search 0
    runs, so each search does a good part of the proof."""
    seen: list[int] = []
    settle = fast.settle

    def spy(answers: list[reference.Answer]) -> reference.Answer:
        seen.extend(answer.states for answer in answers)
        return settle(answers)

    monkeypatch.setattr(fast, "settle", spy)
    # a minute is far more than it needs; the table gets 4 M slots (1.5 M per search)
    deadline = time.perf_counter() + 60
    both = fast.together(board_of(_deal(112)), fast.UNLIMITED, True, deadline, 2, 2**27)
    assert (both.winnable, both.complete) == (False, True)
    assert len(seen) == 2 and min(seen) > both.states // 5, seen


def test_a_restarting_search_that_meets_the_first_ones_nodes_goes_on_through_them() -> None:
    """The race of a pair made certain: after search 0's first 20 nodes (a search that
    never stops early enters nodes as it reaches them), a search over the same table in
    the reversed order finds the one subtree its first choice leads to entered, and ends
    after a few nodes. As a restarting search of :func:`fast.together`, it goes on through
    them one choice deeper each time a run finishes, and takes on most of the proof (seed
    112 is not winnable: 1.6 M nodes), yet never says "not winnable" itself."""
    board = board_of(_deal(112))
    table = np.zeros(2 * 2**21, dtype=np.uint64)
    stop = np.zeros(1, dtype=np.int64)
    first = fast.search(board, 20, reduce=True, shared=table, stop=stop)
    assert first.stopped == "states"
    alone = fast.search(board, None, reduce=True, shared=table.copy(), reversed_depths=1)
    assert alone.complete and alone.states < 10
    common = fast.Shared(board, fast.UNLIMITED, True, 0.0, table, stop, 3 * 2**21 // 4)
    helped = fast._restarting(common, 1)
    assert (helped.winnable, helped.complete) == (None, False)
    assert helped.states > 1_000_000


def _deal(seed: int) -> GapsState:
    game = SPEC.new_game("no-redeal", seed)
    assert isinstance(game, GapsState)
    return game


def test_a_winning_line_takes_no_detour_through_the_first_column() -> None:
    """The search moves a pool of 2s as one class, so its line, played as engine moves, put
    2D in row 1's first column and then moved it to row 2's before 2C took row 1 (a review
    found ``2D>r1 2D>r2 2C>r1``). Lines people read (``solve``, the hint) now take a 2
    straight to where the line wants it, when the shorter line plays to the same end."""
    position = (
        "-- 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D / -- 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 2C"
        " / 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH -- / 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS --"
    )
    solver = find_solver("gaps")
    state = SPEC.from_position(position, SPEC.variant("no-redeal", {}))
    result = solver.solve(state, solver.default_max_states)  # as `ludoteca solve` runs it
    assert result.winnable and sorted(result.moves) == ["2C>r1", "2D>r2"], result.moves


def test_tidied_lines_are_never_longer_and_end_where_the_line_did() -> None:
    """:func:`tidied` on the lines of random small deals (2s shuttle through the first
    column on these): each replays, ends in the same position, and is never longer; and
    some line of the sample is shorter, so the check does something."""
    from ludoteca.solvers.gaps import realize

    shorter = 0
    for seed in range(120):
        game = SPEC.new_game(variant(3, 5), seed)
        assert isinstance(game, GapsState)
        answer = fast.decide(board_of(game), 50_000)
        if not answer.line:
            continue
        plain = realize(game, answer, tidy=False)
        tidy = realize(game, answer)
        assert len(tidy) <= len(plain)
        ends = []
        for line in (plain, tidy):
            copy = SPEC.new_game(variant(3, 5), seed)
            for move in line:
                copy.apply(move)
            ends.append(copy.position())
        assert ends[0] == ends[1], seed
        shorter += len(tidy) < len(plain)
    assert shorter > 0


def test_tidying_stops_at_its_time_with_a_line_that_still_plays() -> None:
    """Each try of :func:`tidied` replays the whole line, and a hint waited for all of
    them: on a 400-move line of a search cut short (Gaps deal 3, 10 greedy moves) 334
    tries took 4 s of a 2 s hint. With a time to stop at, tidying stops there, and the
    line as it is then still ends where it did (one already passed: the line untouched)."""
    from ludoteca.solvers.gaps import realize

    for seed in range(120):
        game = SPEC.new_game(variant(3, 5), seed)
        assert isinstance(game, GapsState)
        answer = fast.decide(board_of(game), 50_000)
        plain = realize(game, answer, tidy=False)
        if len(realize(game, answer)) < len(plain):
            break
    else:
        raise AssertionError("no line of the sample is tidied")
    assert realize(game, answer, until=1e-9) == plain


def test_the_hint_tidies_its_lines_only_within_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deal 261 is not decided in a 1 s hint: the lines it offers are tidied until 0.95 of
    the hint's time at most (they were tidied however long that took)."""
    import ludoteca.solvers.gaps as solver
    from ludoteca.solvers.gaps import hint

    asked: list[float | None] = []
    real = solver.realize

    def spy(state: GapsState, answer: Any, tidy: bool = True, until: float | None = None) -> Any:
        asked.append(until)
        return real(state, answer, tidy, until)

    monkeypatch.setattr(solver, "realize", spy)
    began = time.perf_counter()
    hint(SPEC.new_game("no-redeal", 261), 1.0)
    ended = time.perf_counter()
    assert asked and all(u is not None and began + 0.95 <= u <= ended + 0.95 for u in asked)


def test_a_hint_is_a_move_the_rules_allow_after_2s_went_back_and_forth() -> None:
    """RULES.md, repetition: no move may bring back a position of this deal. The search knows
    nothing of the moves before, and on deal 7 after these moves (2H has stood in row 1's
    first column) its winning line begins 2H>r1, which the web app offered as the hint and
    the game then refused. The hint is now a move the game allows: the best of the allowed
    moves' own searches, a verdict only where they all finished (a win: any is a verdict)."""
    game = SPEC.new_game("gaps", 7)
    line = "4D 3C 7H 2H>r3 KC JS 4C JD QD 8H 5D 6D 3H 2H>r1 2D>r3 2H>r4"
    for move in line.split(" "):
        game.apply(move)
    assert "2H>r1" not in game.legal_moves_text()
    hint = find_solver("gaps").hint
    assert hint is not None
    answer = hint(game, 2.0)
    assert answer.move in game.legal_moves_text(), answer
    if answer.winnable is None:
        assert answer.note.startswith("search stopped"), answer


def test_a_hint_around_a_forbidden_move_never_offers_a_line_back_to_this_position() -> None:
    """RULES.md, repetition. Where the search's line begins with a forbidden move, each
    allowed move is searched from the next position, whose line (the search knows nothing
    of this game) often begins by moving the 2 back, to this very position: the hint then
    failed with an IllegalMoveError (deal 6048 after these 43 moves, a review's case). The
    line is cut where the game would refuse it, and following the hints stays legal."""
    game = SPEC.new_game("no-redeal", 6048)
    line = (
        "5H 3H 8D TD 7H 9S 4S 7C KS 6S 3C 2S>r1 4H 6C 7S KH 5H 7C 6H KD QC 4D 2C>r4 TH 6D "
        "JH 2S>r2 2H>r1 3H 4H 5H 6H 7H 5D QD 7D 2S>r3 2C>r2 2S>r4 2H>r3"
    )
    for move in line.split():
        game.apply(move)
    for seconds in (0.5, 2.0):
        follower = game.fork()
        played = 0
        hint = find_solver("gaps").hint
        assert hint is not None
        while played < 12 and (answer := hint(follower, seconds)).move not in (None, "redeal"):
            assert answer.move in follower.legal_moves_text(), answer
            follower.apply(answer.move)
            played += 1


AFTER_2S_WENT_BACK = "7C 7S 5C 4H 8S 2S>r2 6C 7C 2S>r3"
"""No-redeal deal 1: 2S stood in row 2's first column, then left it (a review's case)."""


def test_a_solved_line_goes_round_the_games_earlier_positions() -> None:
    """RULES.md, repetition. `solve` on a game with moves played answered winnable with a
    line that began 2S>r2, which the game refuses (it would bring back the position before
    2S>r3): the search knows nothing of the moves before. The line now goes round the
    earlier positions (`shortcut.repaired`) and plays whole in the game, to a win."""
    from ludoteca.solvers.gaps import plays_here

    game = SPEC.new_game("no-redeal", 1)
    for move in AFTER_2S_WENT_BACK.split():
        game.apply(move)
    assert "2S>r2" not in game.legal_moves_text()
    answer = find_solver("gaps").solve(game, 2_000_000)
    assert answer.winnable and plays_here(game, list(answer.moves)), answer.moves[:4]
    for move in answer.moves:
        game.apply(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.won


def test_a_line_with_no_way_round_is_searched_again_from_each_allowed_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RULES.md, repetition. Where no way round an earlier position is found, `solve` decides
    the position after each move the game allows and gives the first win whose line plays;
    where none does, the answer is undecided, `stopped: repetition`, never a line the game
    refuses."""
    from ludoteca.solvers.gaps import fast, plays_here, shortcut

    game = SPEC.new_game("no-redeal", 1)
    for move in AFTER_2S_WENT_BACK.split():
        game.apply(move)
    monkeypatch.setattr(shortcut, "repaired", lambda *args, **kwargs: None)
    answer = find_solver("gaps").solve(game, 2_000_000)
    assert answer.winnable and plays_here(game, list(answer.moves)), answer.moves[:4]
    assert answer.moves[0] in game.legal_moves_text()
    monkeypatch.setattr("ludoteca.solvers.gaps.plays_here", lambda game, line: False)
    decided: list[int] = []
    deciding = fast.decide

    def counted(*args: Any, **kwargs: Any) -> Any:
        answer = deciding(*args, **kwargs)
        decided.append(answer.states)
        return answer

    monkeypatch.setattr(fast, "decide", counted)
    stuck = find_solver("gaps").solve(game, 2_000_000)
    assert stuck.winnable is None and stuck.moves == []
    assert stuck.extra["stopped"] == "repetition" and stuck.extra["complete"] is False
    # The position's own search and one for each allowed move, every node counted.
    assert len(decided) == 1 + len(game.legal_moves_text()) and stuck.states >= sum(decided)
    # Under a time budget the searches of the allowed moves share what is left of it, and
    # the whole keeps to the budget (the time may run out first, or not: a short budget).
    decided.clear()
    began = time.perf_counter()
    late = find_solver("gaps").solve(game, None, seconds=0.3)
    assert time.perf_counter() - began < 1.5
    assert late.winnable is None and late.extra["stopped"] in ("time", "repetition")
    assert late.states >= sum(decided) > 0


def test_repairing_a_line_goes_to_its_nearest_later_position_or_says_none() -> None:
    """RULES.md, repetition: `shortcut.repaired` keeps a line the game allows, goes round a
    refused move to the line's next position it can reach, and gives None where every way
    on passes an earlier position (no-redeal deal 32 after 34 random moves: the line's next
    position needs 2C back in row 2, where it stood)."""
    from ludoteca.solvers.gaps import fast, plays_here, shortcut

    game = SPEC.new_game("no-redeal", 1)
    for move in AFTER_2S_WENT_BACK.split():
        game.apply(move)
    fresh = SPEC.from_position(game.position(), game.variant)
    line = realize_fresh(fresh, fast.decide(board_of(fresh), 2_000_000).line)
    assert line[0] == "2S>r2" and not plays_here(game, line)
    mended = shortcut.repaired(game, line)
    assert mended is not None and plays_here(game, mended) and mended[0] != "2S>r2"
    # A look keeps to the caller's clock (a hint's 2 s): past it, no way round.
    assert shortcut.repaired(game, line, until=time.perf_counter() - 1.0) is None
    assert shortcut.repaired(fresh, line) == line
    stuck = SPEC.new_game("no-redeal", 32)
    rng = random.Random(32)
    while len(stuck.history) < 34:
        stuck.apply(rng.choice(sorted(stuck.legal_moves_text())))
    fresh = SPEC.from_position(stuck.position(), stuck.variant)
    line = realize_fresh(fresh, fast.best_dead_end(board_of(fresh), 50_000).line)
    assert not plays_here(stuck, line) and shortcut.repaired(stuck, line) is None


def realize_fresh(game: GapsState, line: list[Any]) -> list[str]:
    """The search's class moves as engine notation, on ``game`` (no repair)."""
    from ludoteca.solvers.gaps.line import engine_moves

    copy = game.fork()
    played: list[str] = []
    for move in line:
        for step in engine_moves(copy, move):
            copy.apply(step)
            played.append(copy.move_text(step))
    return played


def _follow_hints(game: GapsState, limit: int) -> list[tuple[str, str]]:
    """Play the hints one after another up to the next redeal, the end, or ``limit`` moves:
    each (move, note)."""
    hint = find_solver("gaps").hint
    assert hint is not None
    played = []
    for _ in range(limit):
        answer = hint(game, 2.0)
        if answer.move is None or answer.move == "redeal":
            break
        assert answer.move in game.legal_moves_text(), answer
        game.apply(answer.move)
        played.append((answer.move, answer.note))
    return played


def test_hints_followed_one_after_another_play_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed, Gameplay 4 and RULES.md (repetition): each hint searched afresh and could pick
    another line to the same figure, and on a lost deal the hints sent a 2 and its 3 round
    the first column for dozens of moves. A hint on the line of an exact earlier one goes on
    along it without a search, and the line reaches the figure it promised. (Montana deal 3
    cannot win without a redeal; the hint's search is exact there.)"""
    from ludoteca.solvers.gaps import fast, plans

    plans.forget()
    game = SPEC.new_game("montana", 3)
    hint = find_solver("gaps").hint
    assert hint is not None
    first = hint(game, 2.0)
    promised = int(first.note.split("at best ")[1].split(" ")[0])
    game.apply(first.move)

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the hint searched again")

    monkeypatch.setattr(fast, "decide", no_search)
    monkeypatch.setattr(fast, "best_dead_end", no_search)
    played = _follow_hints(game, 300)
    assert {note for _, note in played} == {first.note}
    assert game.legal_moves_text() == ["redeal"] and game.in_sequence == promised


def test_a_hint_whose_line_is_forbidden_takes_the_best_allowed_move() -> None:
    """RULES.md (repetition). After these 96 moves of deal 112, every one a hint of the time,
    the search's best line begins 3H, which would bring back an earlier position. The hint
    then offered another move of the line, 2D>r3, which leaves 29 in sequence at best, and
    still promised 31. Now each allowed move is searched, and the best one is offered with
    its own figure; the hints from there reach it."""
    from ludoteca.solvers.gaps import plans

    plans.forget()
    game = SPEC.new_game("gaps", 112)
    for move in HINTS_OF_112.split():
        game.apply(move)
    assert "3H" not in game.legal_moves_text()
    hint = find_solver("gaps").hint
    assert hint is not None
    first = hint(game, 2.0)
    assert first.move != "2D>r3" and first.note.endswith("at best 31 in sequence"), first
    game.apply(first.move)
    _follow_hints(game, 300)
    assert game.legal_moves_text() == ["redeal"] and game.in_sequence == 31


HINTS_OF_112 = (
    "7H 4C KD 8H TC 3C 9H JD 4H JC 2H>r4 3S 2S>r1 QC 2H>r2 2C>r4 KC 9C 5S 6C TC 4S QH 5D 3H "
    "5C TS 6S 9D 3D 7C 5S KH JC KS 8S QC KC 7S 8S 9S TD 6D 2S>r3 2H>r1 3H 2H>r2 4H 3H 2H>r1 "
    "3H 6C 2H>r2 3H 2H>r1 2C>r2 3H 3C JS TS 5H 2S>r4 2H>r3 3H 2H>r1 2C>r3 3H 3C 2H>r2 3H "
    "2H>r1 2C>r2 3H 2H>r3 2C>r1 2H>r2 3H 3C 2H>r3 3H 2H>r2 2C>r3 3H 2H>r1 2C>r2 2H>r3 3H "
    "2H>r1 2C>r3 4D 2H>r2 3H 2C>r1 2H>r3 3H 2H>r2"
)
"""The moves the hint offered on deal 112, one after another, before it kept its line (a
review of the terminal game, 2026-11-27)."""


def test_a_state_limit_under_a_time_budget_ends_the_solve_when_reached() -> None:
    """`solve --seconds S --max-states N` stops at whichever comes first: once the states
    ran out, the nested search was given the rest of the budget (15 s after 1,000 states).
    It gets its few counted runs then, as under a state limit alone."""
    game = SPEC.new_game("no-redeal", 4)
    result = find_solver("gaps").solve(game, 1000, 30.0)
    assert result.winnable is None and result.extra["stopped"] == "states"
    assert result.seconds < 15, result.seconds


def test_a_loss_whose_best_dead_end_search_the_limit_stopped_is_not_complete() -> None:
    """docs/rules/gaps.md (the solver): when the state limit stops the search for the best
    dead end, ``best_in_sequence`` is null and ``complete`` false. Deal 3 is proved lost in
    one state, but its best dead end needs more than the limit of 1: the answer said
    complete, with no ``stopped``."""
    result = find_solver("gaps").solve(SPEC.new_game("gaps", 3), 1)
    assert result.winnable is False and result.extra["best_in_sequence"] is None
    assert result.extra["complete"] is False and result.extra["stopped"] == "states"
    whole = find_solver("gaps").solve(SPEC.new_game("gaps", 3), None)
    assert whole.extra["complete"] is True and "stopped" not in whole.extra
    assert whole.extra["best_in_sequence"] == 3


def test_a_win_the_nested_search_finds_is_printed_without_detours() -> None:
    """The lines `solve` prints take each 2 straight to its row (`tidied`); a win found by
    the nested search (deal 1 under 10 states: the full search stops at once) did not:
    its line moved 2D to row 2, row 1, then row 2 again."""
    from ludoteca.games.gaps import GapsMove
    from ludoteca.solvers.gaps import tidied

    game = SPEC.new_game("gaps", 1)
    result = find_solver("gaps").solve(game, 10)
    assert result.winnable is True
    copy = SPEC.new_game("gaps", 1)
    steps: list[GapsMove] = []
    for move in result.moves:
        steps.append(copy.parse_move(move))
        copy.apply(move)
    assert copy.won
    assert len(tidied(SPEC.new_game("gaps", 1), steps, copy.position())) == len(steps)
