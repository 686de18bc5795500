"""Sleep sets in the Gaps search (``compiled_board.sleeper`` and ``commute``, ``kernel._sleep``;
docs/solvers/gaps-notebook.md, *Sleep sets*): the moves said to commute really do, by the
seed rules (a gap takes the card after its left neighbour, a 2 goes into column 0), and the
search that lets them sleep decides every position as the one that does not."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludoteca.games.gaps import SPEC, GapsState
from ludoteca.solvers.gaps import compiled_board, fast
from ludoteca.solvers.gaps.board import Board, Shape
from ludoteca.solvers.gaps.fast import _tables
from ludoteca.solvers.gaps.line import board_of


class Position:
    """A class of the reduced search on arrays: the grid, the card positions and the loose
    rows of a shut pool, with the moves of :func:`compiled_board.gen_moves` (lazy)."""

    def __init__(self, board: Board) -> None:
        self.suits, self.ranks = board.shape.suits, board.shape.ranks
        self.grid, self.pos = compiled_board.arrays(board.grid)
        self.loose = 0
        self.z1, self.z2, self.perms, self.counts = _tables(self.ranks, board.shape.cells)

    def copy(self) -> Position:
        twin = object.__new__(Position)
        twin.__dict__.update(self.__dict__)
        twin.grid, twin.pos = self.grid.copy(), self.pos.copy()
        return twin

    def moves(self) -> list[int]:
        out = np.zeros(compiled_board.MAX_MOVES, dtype=np.int64)
        scratch = np.empty(8, dtype=np.int64)
        n = compiled_board.gen_moves(
            self.grid, self.pos, self.suits, self.ranks, self.perms, self.counts, out,
            scratch, self.loose, True,
        )  # fmt: skip
        return [int(m) for m in out[:n]]

    def play(self, move: int) -> None:
        compiled_board.play(self.grid, self.pos, self.suits, self.ranks, move)
        self.loose = compiled_board.next_loose(
            self.grid, self.suits, self.ranks, move, self.loose, True
        )

    def key(self) -> tuple[int, int]:
        h1, h2 = compiled_board.class_key(
            self.grid, self.suits, self.ranks, self.z1, self.z2, self.loose
        )
        return int(h1), int(h2)

    def entry(self, move: int) -> int:
        return int(compiled_board.sleeper(move, int(self.pos[move & 0xFF]), self.ranks))


def full_deal(seed: int) -> Board:
    """The board of a no-redeal deal."""
    game = SPEC.new_game("no-redeal", seed)
    assert isinstance(game, GapsState)
    return board_of(game)


def _both_orders(position: Position, a: int, b: int) -> bool:
    """Does each move stay legal, as the same move, after the other, and do both orders
    reach the same class?"""
    ends = []
    for first, second in ((a, b), (b, a)):
        walk = position.copy()
        walk.play(first)
        if second not in walk.moves():
            return False
        walk.play(second)
        ends.append(walk.key())
    return ends[0] == ends[1]


def test_moves_said_to_commute_commute() -> None:
    """Seed rules (a gap is filled by the card after its left neighbour; a 2 goes into a
    gap of column 0) with the classes of the reduced search (pool, loose rows): along
    random lines of full deals and small boards, every pair of legal moves that
    ``commute`` calls commuting stays legal in either order and reaches one class. Pairs it
    keeps apart (a card and its successor, two 2s, a 2 and a card leaving column 0, one
    gap) are not always so: the check can fail."""
    boards = [full_deal(seed) for seed in range(20)]
    boards += [Board.shuffled(Shape(3, 6), 700 + seed) for seed in range(30)]
    boards += [Board.shuffled(Shape(4, 5), 800 + seed) for seed in range(30)]
    commuting = apart = apart_failing = 0
    kinds: set[str] = set()
    for index, board in enumerate(boards):
        rnd = random.Random(index)
        position = Position(board)
        for _ in range(60):
            moves = position.moves()
            if not moves:
                break
            entries = {m: position.entry(m) for m in moves}
            for i, a in enumerate(moves):
                for b in moves[i + 1 :]:
                    ea, eb = entries[a], entries[b]
                    if ea < 0 or eb < 0:
                        continue
                    ranks = position.ranks
                    if compiled_board.commute(ea, eb, ranks):
                        assert _both_orders(position, a, b), (board.grid, a, b)
                        commuting += 1
                        for card in (a & 0xFF, b & 0xFF):
                            kinds.add("two" if card % ranks == 1 else "other")
                        if (ea | eb) & compiled_board.SLEEP_COLUMN0:
                            kinds.add("leaves column 0")
                    else:
                        apart += 1
                        apart_failing += not _both_orders(position, a, b)
            position.play(rnd.choice(moves))
    assert commuting > 2_000
    assert kinds == {"two", "other", "leaves column 0"}
    assert apart_failing > 0 and apart > apart_failing


def test_a_three_into_column_one_never_sleeps() -> None:
    """A 3 entering column 1 (of a pool or loose row, a class move of any pool 2's 3; it
    fixes a loose row) may not sleep; the same 3 elsewhere, and a card leaving column 0
    (marked), may."""
    ranks = 13
    three = 2  # the 3 of the first suit
    assert compiled_board.sleeper(three | (1 << 8), 20, ranks) == -1
    assert compiled_board.sleeper(three | (20 << 8), 30, ranks) == three | (20 << 8)
    marked = compiled_board.sleeper(5 | (30 << 8), 13, ranks)
    assert marked == 5 | (30 << 8) | compiled_board.SLEEP_COLUMN0
    assert compiled_board.sleeper(1 | (0 << 8) | (5 << 16), 7, ranks) == -1


@pytest.mark.parametrize(("suits", "ranks", "count"), [(4, 5, 40), (3, 6, 40), (4, 6, 25)])
def test_sleep_sets_decide_as_the_search_without_them(suits: int, ranks: int, count: int) -> None:
    """The search with sleep sets (the default) and without: the same win and the same best
    dead end on random boards, winning lines that replay, and fewer nodes in all."""
    shape = Shape(suits, ranks)
    with_sleep = without = 0
    for seed in range(count):
        board = Board.shuffled(shape, 61000 + seed)
        plain = fast.search(board, stop_at_win=False, reduce=True, sleep_sets=False)
        best = fast.search(board, stop_at_win=False, reduce=True)
        assert (best.winnable, best.best_dead_end) == (plain.winnable, plain.best_dead_end)
        win = fast.search(board, reduce=True)
        assert win.winnable == plain.winnable
        if win.winnable:
            end = board.copy()
            for move in win.line:
                assert move in end.moves()
                end.play(move)
            assert end.in_sequence() == shape.full
        with_sleep += best.states
        without += plain.states
    assert with_sleep < without
