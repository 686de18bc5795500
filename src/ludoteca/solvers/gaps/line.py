"""From the game to the solver's board and back: class moves become engine moves."""

from __future__ import annotations

from ludoteca.core.cards import Card
from ludoteca.games.gaps import GapsMove, GapsState
from ludoteca.solvers.gaps.board import GAP, Board, Move, Shape


def board_of(state: GapsState) -> Board:
    shape = Shape(state.params.suits, state.ranks)
    grid = [GAP if c is None else c.suit * shape.ranks + c.rank - 1 for c in state.grid]
    return Board(shape, grid)


def card_of(code: int, ranks: int) -> Card:
    return Card(code % ranks + 1, code // ranks)


def concrete_move(code: int, target: int, ranks: int) -> GapsMove:
    """A concrete move (card code, target cell) as an engine move."""
    card = card_of(code, ranks)
    return GapsMove(card, target // ranks) if card.rank == 2 else GapsMove(card)


def engine_moves(state: GapsState, move: Move) -> list[GapsMove]:
    """The engine moves that make one class move from ``state`` (2s arranged first)."""
    card_code, target, layout = move
    ranks = state.ranks
    card = card_of(card_code, ranks)
    if layout:
        wanted = {
            row: card_of(((layout >> (8 * row)) & 0xFF) - 1, ranks)
            for row in range(state.params.suits)
        }
        return [*_arrange(state, wanted, card), GapsMove(card, _row_of(wanted, card))]
    if card.rank == 2:
        return [GapsMove(card, _column0_gaps(state)[0])]
    if card.rank == 3 and target % ranks == 1:
        row = target // ranks
        head = state.grid[row * ranks]
        two = Card(2, card.suit)
        if head == two:
            return [GapsMove(card)]
        if head is None:
            return [GapsMove(two, row), GapsMove(card)]
        spare = next(r for r in _column0_gaps(state) if r != row)
        return [GapsMove(head, spare), GapsMove(two, row), GapsMove(card)]
    return [GapsMove(card)]


def _column0_gaps(state: GapsState) -> list[int]:
    ranks = state.ranks
    return [r for r in range(state.params.suits) if state.grid[r * ranks] is None]


def _row_of(wanted: dict[int, Card], card: Card) -> int:
    return next(row for row, c in wanted.items() if c == card)


def _arrange(state: GapsState, wanted: dict[int, Card], entering: Card) -> list[GapsMove]:
    """2-moves inside column 0 that put every pool 2 on its wanted row, leaving the one gap
    on ``entering``'s row (the gap walks like the blank of a sliding puzzle)."""
    ranks = state.ranks
    column = {r: state.grid[r * ranks] for r in wanted}
    final = _row_of(wanted, entering)
    moves: list[GapsMove] = []
    while True:
        gap = next(r for r, c in column.items() if c is None)
        if gap != final:
            card = wanted[gap]
        else:
            wrong = [r for r, c in column.items() if c is not None and c != wanted[r]]
            if not wrong:
                return moves
            found = column[wrong[0]]
            assert found is not None
            card = found
        source = next(r for r, c in column.items() if c == card)
        column[gap], column[source] = card, None
        moves.append(GapsMove(card, gap))
