"""h^2 for Gaps (``compiled_pairs``, not used by the search; see the notebook, *h^2, tried
and left off*): sound on small deals, and stronger than the frozen-card cut."""

from __future__ import annotations

import numpy as np

from ludoteca.solvers.gaps import compiled_analysis, compiled_board, compiled_pairs, reference
from ludoteca.solvers.gaps.board import GAP, Board, Shape


def _cuts(board: Board, loose: int = 0) -> tuple[bool, bool]:
    """(the frozen-card cut, the h^2 cut) of a position."""
    grid, pos = compiled_board.arrays(board.grid)
    suits, ranks, cells = board.shape.suits, board.shape.ranks, board.shape.cells
    perms, counts = compiled_board.permutation_table()
    mov = np.zeros(cells, dtype=np.bool_)
    places = np.zeros(cells, dtype=np.uint64)
    compiled_analysis.movable(grid, pos, suits, ranks, mov, places, loose)
    plain = compiled_analysis.doomed(suits, ranks, places, np.zeros(suits, dtype=np.int64))
    facts = compiled_pairs.H2_FACTS
    words = (facts + 63) // 64
    pairs = compiled_pairs.pairs_doomed(
        grid,
        pos,
        suits,
        ranks,
        places,
        mov,
        perms,
        counts,
        np.zeros(cells * (cells + 1), dtype=np.int64),
        np.zeros((facts, words), dtype=np.uint64),
        np.zeros((compiled_pairs.H2_ACTIONS, 6), dtype=np.int64),
        np.zeros(words, dtype=np.uint64),
        np.zeros(words, dtype=np.uint64),
        loose,
        np.zeros(facts, dtype=np.int64),
    )
    return bool(plain), bool(pairs)


def test_pairs_of_facts_never_cut_a_winnable_deal_and_cut_more_lost_ones() -> None:
    """Seed, the win condition (each row one suit, 2 to the top rank): on random small deals
    h^2 never calls a winnable deal lost (the plain reference search decides), it cuts
    every deal the frozen-card cut does, and it cuts lost deals that cut lets through."""
    more = 0
    for suits, ranks, count in [(3, 5, 60), (3, 6, 30)]:
        shape = Shape(suits, ranks)
        for seed in range(count):
            board = Board.shuffled(shape, 31000 + seed)
            plain, pairs = _cuts(board)
            winnable = reference.search(board).winnable
            assert not (winnable and pairs), board.grid
            assert pairs or not plain, board.grid
            more += pairs and not plain
    assert more > 0


def test_pairs_of_facts_judge_a_loose_class_by_every_arrangement() -> None:
    """A class with loose rows (RULES.md's 2s in column 0; the notebook's loose rows) stands
    for every arrangement of its loose 2s: here the representative (2D in row 0, 2C in row
    2) is lost, but with the two 2s swapped the 3D can leave column 0 behind the 2D and the
    deal is won, so h^2 must not cut the class (a first version, which read the
    representative only, did)."""
    shape = Shape(3, 5)
    grid = [6, 13, 14, GAP, GAP, 7, 3, 4, 8, 9, 1, GAP, 2, 11, 12]
    swapped = [1, 13, 14, GAP, GAP, 7, 3, 4, 8, 9, 6, GAP, 2, 11, 12]
    assert not reference.search(Board(shape, grid)).winnable
    assert reference.search(Board(shape, swapped)).winnable
    assert _cuts(Board(shape, grid))[1]
    assert not _cuts(Board(shape, grid), loose=0b101)[1]
