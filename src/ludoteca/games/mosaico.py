"""Mosaico: lay all 36 fruit tiles, drawn one by one, into a 6 x 6 square.

Seed: ``004_e179c823a12ff168.txt`` (MOSAICO); rulings in ``docs/rules/mosaico.md``.

Cells are ``row,col`` relative to the first (leftmost) starting tile at ``0,0``: rows grow
downwards, columns to the right, so the starting row is row 0 and a tile above it is on row
-1. A 6 x 6 frame holding ``0,0`` lies within ``-5..5`` both ways.

A move is the tile to place and where: ``4B@-1,3``, or ``4B@aside`` when it cannot be placed.

Position notation: ``MOSAIC | ASIDE | DRAW``. MOSAIC is the top-left cell of the figure's
bounding box, a colon, then its rows top to bottom separated by `` / `` (tiles, ``--`` for an
empty cell): ``-1,0: -- 4B -- -- -- -- / 1M 2P 3C 4U 5F 6B``. ASIDE is the set-aside pile,
top (next to come back) first; DRAW the face-down draw pile, next tile first (``-`` when empty).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.errors import NotationError, shown
from ludoteca.core.game import (
    NOBODY,
    TERMINAL,
    GameSpec,
    Outcome,
    State,
    Variant,
    parse_error,
)
from ludoteca.core.registry import register
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES, Tile

SIDE = 6
"""The finished mosaic is SIDE x SIDE: no row or column may reach SIDE + 1 tiles."""
WINDOW = SIDE - 1
"""Every cell of a frame holding ``0,0`` has both coordinates within ``±WINDOW``."""
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
ASIDE = "aside"

Cell = tuple[int, int]


@dataclass(frozen=True)
class MosaicoParams:
    start_tiles: int = field(default=6, metadata={"min": 1, "max": SIDE})
    """RULES.md assumption for the lost figure: this many face-up tiles in a row."""
    difficile: bool = False
    """Seed, "Per rendere il solitario più complesso": a cell touching 3 or 4 tiles needs 2."""

    def check(self) -> None:
        if not 1 <= self.start_tiles <= SIDE:
            raise NotationError(f"the starting row holds 1 to {SIDE} tiles, not {self.start_tiles}")


@dataclass(frozen=True, order=True)
class MosaicMove:
    """Place ``tile`` at ``cell``, or set it aside when ``cell`` is None."""

    tile: Tile
    cell: Cell | None

    def __str__(self) -> str:
        where = ASIDE if self.cell is None else f"{self.cell[0]},{self.cell[1]}"
        return f"{self.tile}@{where}"


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError(text)
        row, col = int(parts[0]), int(parts[1])
    except ValueError:
        raise NotationError(f"'{shown(text)}' is not a cell (row,col such as -1,3)") from None
    if max(abs(row), abs(col)) > WINDOW:
        raise OutsideEveryFrame(
            f"cell {row},{col} is outside every frame (rows and columns run -{WINDOW}..{WINDOW})"
        )
    return row, col


class OutsideEveryFrame(NotationError):
    """A cell well written that no 6 x 6 frame holding 0,0 contains."""


def bounds(mosaic: dict[Cell, Tile]) -> tuple[int, int, int, int]:
    """Top, bottom, left and right of the figure's bounding box."""
    rows = [r for r, _ in mosaic]
    cols = [c for _, c in mosaic]
    return min(rows), max(rows), min(cols), max(cols)


def fits(mosaic: dict[Cell, Tile], cell: Cell) -> bool:
    """Seed: no row or column may reach 7 tiles, so the figure stays inside a 6 x 6 frame."""
    top, bottom, left, right = bounds(mosaic)
    row, col = cell
    return max(bottom, row) - min(top, row) < SIDE and max(right, col) - min(left, col) < SIDE


def placement_ok(mosaic: dict[Cell, Tile], tile: Tile, cell: Cell, difficile: bool) -> bool:
    """Seed: an empty cell beside, above or below at least one tile of the same number or of
    the same fruit in sequence; ``difficile``: touching 3 or 4 tiles, it must match 2."""
    if cell in mosaic or not fits(mosaic, cell):
        return False
    touching = [mosaic[n] for dr, dc in STEPS if (n := (cell[0] + dr, cell[1] + dc)) in mosaic]
    matching = sum(tile.matches(other) for other in touching)
    needed = 2 if difficile and len(touching) >= 3 else 1
    return matching >= needed


def cells_for(mosaic: dict[Cell, Tile], tile: Tile, difficile: bool) -> list[Cell]:
    """Every cell where ``tile`` may go now, in row-major order."""
    frontier = {
        (r + dr, c + dc) for r, c in mosaic for dr, dc in STEPS if (r + dr, c + dc) not in mosaic
    }
    return sorted(cell for cell in frontier if placement_ok(mosaic, tile, cell, difficile))


@dataclass(frozen=True)
class Turn:
    """The tile to play now, where it came from, and where it may go."""

    tile: Tile
    from_aside: bool
    cells: list[Cell]


class MosaicoState(State[MosaicMove]):
    def __init__(
        self,
        variant: Variant,
        seed: int | None,
        mosaic: dict[Cell, Tile],
        aside: list[Tile],
        draw: list[Tile],
    ) -> None:
        super().__init__(SPEC, variant, seed, 1)
        self.params: MosaicoParams = variant.params
        self.mosaic = mosaic
        self.aside = aside  # bottom first: the top, replayed first, is last
        self.draw = draw  # next tile first
        self._turn: Turn | None = None
        self._turn_known = False

    # --- rules ------------------------------------------------------------------------
    def cells_for(self, tile: Tile) -> list[Cell]:
        return cells_for(self.mosaic, tile, self.params.difficile)

    def turn(self) -> Turn | None:
        """Seed: set-aside tiles come back as soon as possible, the last one first; RULES.md:
        before each new draw the pile's top is placed if it can be. None: the game is over."""
        if not self._turn_known:
            self._turn = self._find_turn()
            self._turn_known = True
        return self._turn

    def _find_turn(self) -> Turn | None:
        if self.aside:
            cells = self.cells_for(self.aside[-1])
            if cells:
                return Turn(self.aside[-1], True, cells)
        if self.draw:
            return Turn(self.draw[0], False, self.cells_for(self.draw[0]))
        return None

    def legal_moves(self) -> list[MosaicMove]:
        turn = self.turn()
        if turn is None:
            return []
        if not turn.cells:
            # Seed: a tile that cannot be placed anywhere is set aside (and only then).
            return [MosaicMove(turn.tile, None)]
        return [MosaicMove(turn.tile, cell) for cell in turn.cells]

    def parse_move(self, text: str) -> MosaicMove:
        """``4B@-1,3`` or ``4B@aside``; ``-1,3`` and ``aside`` alone mean the tile to play."""
        raw = text.strip()
        tile_text, at, where = raw.rpartition("@")
        try:
            if at:
                tile = Tile.parse(tile_text)
            elif (turn := self.turn()) is not None:
                tile = turn.tile
            else:
                raise NotationError("the game is over: name the tile, e.g. 4B@-1,3")
            cell = None if where.strip().lower() == ASIDE else parse_cell(where.strip())
        except OutsideEveryFrame as err:  # well written: no reminder of how to write a move
            raise parse_error("move", text, str(err)) from err
        except NotationError as err:
            raise parse_error(
                "move", text, f"{err} (a move is TILE@ROW,COL or TILE@aside)"
            ) from err
        return MosaicMove(tile, cell)

    def why_illegal(self, move: MosaicMove) -> str | None:
        turn = self.turn()
        if turn is None:
            return "the game is over"
        if move.tile != turn.tile:
            source = "the set-aside pile's top" if turn.from_aside else "the drawn tile"
            return f"the tile to play is {turn.tile} ({source})"
        if move.cell is None:
            if turn.cells:
                where = " ".join(cell_text(c) for c in turn.cells)
                return f"a tile is set aside only when it fits nowhere; it fits at {where}"
            return None
        if move.cell in turn.cells:
            return None
        return self._why_not_here(move.tile, move.cell)

    def _why_not_here(self, tile: Tile, cell: Cell) -> str:
        where = cell_text(cell)
        if cell in self.mosaic:
            return f"{where} already holds {self.mosaic[cell]}"
        if not fits(self.mosaic, cell):
            return f"{where} would make a row or column of 7 (the frame is 6 x 6)"
        touching = [
            self.mosaic[n] for dr, dc in STEPS if (n := (cell[0] + dr, cell[1] + dc)) in self.mosaic
        ]
        if not touching:
            return f"{where} touches no tile"
        names = " ".join(str(t) for t in touching)
        if any(tile.matches(t) for t in touching):
            return f"{where} touches {names}: it must match 2 of them (difficile)"
        return f"{where} touches {names}: none has its number or is in sequence with it"

    def reveals_to(self, move: MosaicMove) -> frozenset[int]:
        # A move that leads to a new draw shows the pile's next tile (whether it does
        # depends on where the tile goes: the set-aside pile's top may come back first),
        # unless that tile is the last face-down one, the one tile not in sight.
        if len(self.hidden_from(0)) < 2:
            return NOBODY
        return self.tiles_shown_by(move)

    def _play(self, move: MosaicMove) -> Any:
        turn = self.turn()
        assert turn is not None
        if move.cell is None:
            self.aside.append(self.draw.pop(0))
        else:
            if turn.from_aside:
                self.aside.pop()
            else:
                self.draw.pop(0)
            self.mosaic[move.cell] = move.tile
        self._turn_known = False
        return turn.from_aside

    def _unplay(self, move: MosaicMove, token: Any) -> None:
        if move.cell is None:
            self.draw.insert(0, self.aside.pop())
        else:
            del self.mosaic[move.cell]
            if token:
                self.aside.append(move.tile)
            else:
                self.draw.insert(0, move.tile)
        self._turn_known = False

    @property
    def current_player(self) -> int:
        return TERMINAL if self.turn() is None else 0

    def outcome(self) -> Outcome | None:
        if self.turn() is not None:
            return None
        placed = len(self.mosaic)
        won = placed == SIDE * SIDE
        details = {"placed": placed, "set_aside": len(self.aside)}
        return Outcome((0,) if won else (), (float(placed),), "won" if won else "stuck", details)

    # --- views ------------------------------------------------------------------------
    def rows(self) -> tuple[Cell, list[list[Tile | None]]]:
        """The bounding box's top-left cell and its rows (None for an empty cell)."""
        top, bottom, left, right = bounds(self.mosaic)
        grid = [
            [self.mosaic.get((r, c)) for c in range(left, right + 1)]
            for r in range(top, bottom + 1)
        ]
        return (top, left), grid

    def frame(self) -> dict[str, list[int]]:
        """Where the 6 x 6 frame may still lie: the rows and columns any tile may use."""
        top, bottom, left, right = bounds(self.mosaic)
        return {"rows": [bottom - WINDOW, top + WINDOW], "cols": [right - WINDOW, left + WINDOW]}

    def observation(self, player: int) -> dict[str, Any]:
        turn = self.turn()
        origin, grid = self.rows()
        return {
            "game": "mosaico",
            "difficile": self.params.difficile,
            "origin": list(origin),
            "mosaic": [[str(t) if t else None for t in row] for row in grid],
            "frame": self.frame(),
            "current": str(turn.tile) if turn else None,
            "current_from": None if turn is None else ASIDE if turn.from_aside else "draw",
            "aside": [str(t) for t in reversed(self.aside)],
            # The face-down tiles: the drawn one is shown as the tile to place (it was
            # counted too, "1 face down" with the pile empty).
            "draw_count": len(self.hidden_from(player)),
            "placed": len(self.mosaic),
            "legal_moves": self.legal_moves_text() if player == self.current_player else [],
            "outcome": o.as_json() if (o := self.outcome()) else None,
        }

    def hidden_from(self, player: int) -> frozenset[str]:
        turn = self.turn()
        drawn = 1 if turn is not None and not turn.from_aside else 0
        return frozenset(str(t) for t in self.draw[drawn:])

    def position(self) -> str:
        (top, left), grid = self.rows()
        rows = " / ".join(" ".join(str(t) if t else "--" for t in row) for row in grid)
        aside = " ".join(str(t) for t in reversed(self.aside)) or "-"
        draw = " ".join(str(t) for t in self.draw) or "-"
        return f"{top},{left}: {rows} | {aside} | {draw}"


def new_state(variant: Variant, seed: int, players: int) -> MosaicoState:
    params: MosaicoParams = variant.params
    tiles = list(ALL_TILES)
    DealRng(seed, "mosaico").shuffle(tiles)
    start = params.start_tiles
    mosaic = {(0, col): tile for col, tile in enumerate(tiles[:start])}
    return MosaicoState(variant, seed, mosaic, [], tiles[start:])


def _tiles(text: str) -> list[Tile]:
    return [] if text.strip() == "-" else [_tile(t) for t in text.split()]


def _tile(token: str) -> Tile:
    """A tile of a position; a bad one is a bad position, as every other mistake in it (the
    message came without that prefix)."""
    try:
        return Tile.parse(token)
    except NotationError as err:
        raise parse_error("position", token, str(err)) from None


def _read_mosaic(text: str) -> dict[Cell, Tile]:
    origin, colon, body = text.partition(":")
    if not colon:
        raise parse_error(
            "position", text[:40], "the mosaic starts with its top-left cell, e.g. 0,0:"
        )
    try:
        top, left = parse_cell(origin.strip())
    except NotationError as err:  # (see _tile)
        raise parse_error("position", origin.strip(), str(err)) from None
    rows = [row.split() for row in body.split("/")]
    if len({len(row) for row in rows}) != 1:
        raise parse_error("position", body[:40], "the mosaic's rows differ in length")
    mosaic = {
        (top + r, left + c): _tile(token)
        for r, row in enumerate(rows)
        for c, token in enumerate(row)
        if token != "--"
    }
    if (0, 0) not in mosaic:
        raise parse_error("position", text[:40], "cell 0,0 (the first starting tile) is empty")
    top, bottom, left, right = bounds(mosaic)
    if bottom - top >= SIDE or right - left >= SIDE:
        raise parse_error("position", text[:40], f"the mosaic overflows the {SIDE} x {SIDE} frame")
    return mosaic


def from_position(text: str, variant: Variant) -> MosaicoState:
    parts = text.split("|")
    if len(parts) != 3:
        raise parse_error("position", text[:40], "needs MOSAIC | ASIDE | DRAW")
    mosaic = _read_mosaic(parts[0])
    aside_top_first = _tiles(parts[1])
    draw = _tiles(parts[2])
    every = list(mosaic.values()) + aside_top_first + draw
    if len(every) != len(set(every)):
        dupes = sorted({str(t) for t in every if every.count(t) > 1})
        raise parse_error("position", text[:40], f"tiles appear twice: {' '.join(dupes)}")
    missing = set(ALL_TILES) - set(every)
    if missing:
        names = " ".join(sorted(map(str, missing)))
        raise parse_error("position", text[:40], f"tiles missing: {names}")
    return MosaicoState(variant, None, mosaic, aside_top_first[::-1], draw)


def contacts(mosaic: dict[Cell, Tile]) -> int:
    """Pairs of side-by-side tiles: a compact figure leaves fewer awkward holes."""
    return sum((r + 1, c) in mosaic for r, c in mosaic) + sum(
        (r, c + 1) in mosaic for r, c in mosaic
    )


def _heuristic(state: State[Any]) -> float:
    assert isinstance(state, MosaicoState)
    return len(state.mosaic) + 0.01 * contacts(state.mosaic)


SPEC = register(
    GameSpec(
        name="mosaico",
        title="Mosaico",
        description="Lay the 36 fruit tiles, drawn one by one, into a 6 x 6 square.",
        aliases=("mosaic",),
        min_players=1,
        max_players=1,
        hidden_information=True,
        chance=True,
        variants=(
            Variant(
                "mosaico",
                "six tiles start in a row; one matching neighbour",
                MosaicoParams(),
                "Standard",
            ),
            Variant(
                "difficile",
                "a cell touching 3 or 4 tiles must match 2 of them",
                MosaicoParams(difficile=True),
                "Difficile",
            ),
        ),
        new_state=new_state,
        from_position=from_position,
        # At most two moves per tile: set aside once, placed once.
        max_game_length=2 * len(ALL_TILES),
        param_help={
            "start_tiles": (
                "Starting tiles",
                "How many face-up tiles the starting row has (1 to 6).",
            ),
            "difficile": (
                "Harder (difficile)",
                "A cell that touches 3 or 4 tiles must match 2 of them.",
            ),
        },
        heuristic=_heuristic,
        rules_doc="docs/rules/mosaico.md",
    )
)
