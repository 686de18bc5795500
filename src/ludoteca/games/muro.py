"""Il Muro: dig through a wall of face-down fruit tiles and build each fruit 1..6 on a new wall.

Seed: ``004_e179c823a12ff168.txt`` (IL MURO); rulings in ``docs/rules/muro.md``.

Position notation: ``WALL | FOUNDATIONS | idle I best B [resigned]``. WALL is the six columns
c1..c6, bottom to top, separated by `` / ``; a face-down tile is written in brackets
(``(4B)``), an empty column as ``-``. FOUNDATIONS (the new wall) is one token per fruit in the
order M P C U F B: ``--`` when empty, else first..top (``1M..3M``, ``6C..4C``, ``1U``).
``idle`` counts the moves since the last progress, ``best`` is the most tiles the foundations
have held (see the no-progress ruling). Moves: ``4B c3`` (a top tile onto column 3), ``1M F``
(a tile onto its foundation), ``turn c3`` (turn up the uncovered tile of column 3), ``resign``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.errors import NotationError, shown
from ludoteca.core.game import (
    NOBODY,
    TERMINAL,
    THE_PLAYER,
    GameSpec,
    Outcome,
    State,
    Variant,
    parse_error,
)
from ludoteca.core.registry import register
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES, FRUIT_NAMES, FRUITS, Tile

COLUMNS = 6
HEIGHT = 6
FULL = 6
IDLE_LIMIT_MAX = 100
"""The no-progress limit may be lowered, never raised: it keeps ``max_game_length`` a bound."""
FACE_DOWN_DEALT = COLUMNS * (HEIGHT - 1)
PROGRESS_EVENTS = FACE_DOWN_DEALT + 36
"""Turning each of the 30 tiles dealt face down, and each new record of tiles on foundations."""


@dataclass(frozen=True)
class MuroParams:
    may_start_with_six: bool = False
    """Variant ``facile``: a fruit's foundation may start from the 6 and build down."""
    idle_limit: int = field(default=IDLE_LIMIT_MAX, metadata={"min": 1, "max": IDLE_LIMIT_MAX})
    """Ruling: the game is lost after this many moves in a row without progress."""

    def check(self) -> None:
        if not 1 <= self.idle_limit <= IDLE_LIMIT_MAX:
            raise NotationError(f"idle_limit must be 1..{IDLE_LIMIT_MAX}, not {self.idle_limit}")


@dataclass(frozen=True)
class MuroMove:
    """``kind`` is ``column`` (tile onto column ``column``), ``foundation``, ``turn`` or
    ``resign``; ``tile`` is the tile that moves (``None`` for turn and resign)."""

    kind: str
    tile: Tile | None = None
    column: int | None = None

    def __str__(self) -> str:
        if self.kind == "column":
            return f"{self.tile} c{self.column_number}"
        if self.kind == "foundation":
            return f"{self.tile} F"
        if self.kind == "turn":
            return f"turn c{self.column_number}"
        return "resign"

    @property
    def column_number(self) -> int:
        assert self.column is not None
        return self.column + 1


RESIGN = MuroMove("resign")


def foundation_tiles(first: int, count: int, fruit: int) -> list[Tile]:
    """The tiles of a foundation that starts at ``first`` (1 or 6) and holds ``count``."""
    step = 1 if first == 1 else -1
    return [Tile(first + step * i, fruit) for i in range(count)]


class MuroState(State[MuroMove]):
    def __init__(
        self,
        variant: Variant,
        seed: int | None,
        wall: list[list[Tile]],
        face_down: set[Tile],
        foundations: list[list[Tile]],
        idle: int = 0,
        best: int = 0,
        resigned: bool = False,
    ) -> None:
        super().__init__(SPEC, variant, seed, 1)
        self.params: MuroParams = variant.params
        self.wall = wall  # columns, bottom first
        self.face_down = face_down
        self.foundations = foundations  # per fruit, in the order the tiles went there
        self.idle = idle
        self.best = best
        self.resigned = resigned
        # Worked out once per position: False / None mean not worked out since the last move.
        self._outcome: Outcome | bool | None = False
        self._moves: list[MuroMove] | None = None

    # --- rules ------------------------------------------------------------------------
    def _top(self, column: int) -> Tile | None:
        stack = self.wall[column]
        return stack[-1] if stack else None

    def _tops(self) -> list[Tile | None]:
        return [column[-1] if column else None for column in self.wall]

    def _accepts(self, column: int, tile: Tile) -> bool:
        top = self._top(column)
        # Seed: onto a tile one higher of another fruit, onto an empty column, or onto a
        # tile "ancora coperta" (face down).
        if top is None or top in self.face_down:
            return True
        return top.number == tile.number + 1 and top.fruit != tile.fruit

    def _foundation_wants(self, tile: Tile) -> bool:
        built = self.foundations[tile.fruit]
        if not built:
            # Seed: the 1s start the new wall; variant facile: or the 6, building down.
            return tile.number == 1 or (self.params.may_start_with_six and tile.number == FULL)
        step = 1 if built[0].number == 1 else -1
        return tile.number == built[-1].number + step

    def _movable(self) -> list[tuple[Tile, int | None]]:
        """Tiles that may move, with their column (``None``: a foundation top)."""
        found: list[tuple[Tile, int | None]] = []
        for column in range(COLUMNS):
            top = self._top(column)
            if top is not None and top not in self.face_down:
                found.append((top, column))
        found.extend((built[-1], None) for built in self.foundations if built)
        return found

    def _rule_moves(self) -> list[MuroMove]:
        if self._moves is None:
            self._moves = self._find_rule_moves()
        return list(self._moves)

    def _find_rule_moves(self) -> list[MuroMove]:
        moves: list[MuroMove] = []
        # The rule of _accepts, with the tops worked out once (None: any tile goes there).
        tops = [t if t is not None and t not in self.face_down else None for t in self._tops()]
        for tile, source in self._movable():
            for column, top in enumerate(tops):
                if column != source and (
                    top is None or (top.number == tile.number + 1 and top.fruit != tile.fruit)
                ):
                    moves.append(MuroMove("column", tile, column))
            if source is not None and self._foundation_wants(tile):
                moves.append(MuroMove("foundation", tile))
        for column in range(COLUMNS):
            top = self._top(column)
            if top is not None and top in self.face_down:
                moves.append(MuroMove("turn", None, column))
        return moves

    def legal_moves(self) -> list[MuroMove]:
        if self.outcome() is not None:
            return []
        return [*self._rule_moves(), RESIGN]

    def parse_move(self, text: str) -> MuroMove:
        words = text.strip().split()
        lowered = [w.lower() for w in words]
        if lowered == ["resign"]:
            return RESIGN
        if len(words) != 2:
            raise parse_error("move", text, "write '4B c3', '1M F', 'turn c3' or 'resign'")
        if lowered[0] == "turn":
            return MuroMove("turn", None, _column(text, lowered[1]))
        try:
            tile = Tile.parse(words[0])
        except NotationError as err:
            raise parse_error("move", text, str(err)) from err
        if lowered[1] == "f":
            return MuroMove("foundation", tile)
        return MuroMove("column", tile, _column(text, lowered[1]))

    def why_illegal(self, move: MuroMove) -> str | None:
        if move.kind == "resign":
            return None
        if move.kind == "turn":
            top = self._top(move.column or 0)
            if top is None:
                return f"column {move.column_number} is empty"
            return None if top in self.face_down else f"the top of c{move.column_number} is up"
        tile = move.tile
        assert tile is not None
        source = self._source(tile)
        if source is False:
            return "only the top tile of a column or of a foundation moves"
        if move.kind == "foundation":
            if source is None:
                return "it is on its foundation already"
            return None if self._foundation_wants(tile) else self._foundation_needs(tile)
        assert move.column is not None
        if source == move.column:
            return f"it is on column {move.column_number} already"
        if not self._accepts(move.column, tile):
            return f"c{move.column_number} shows {self._top(move.column)}: {_needs(tile)}"
        return None

    def _source(self, tile: Tile) -> int | bool | None:
        """The column holding ``tile`` as a movable top, ``None`` for a foundation top, or
        ``False`` when the tile may not move."""
        for found, source in self._movable():
            if found == tile:
                return source
        return False

    def _foundation_needs(self, tile: Tile) -> str:
        built = self.foundations[tile.fruit]
        if not built:
            start = "1 or 6" if self.params.may_start_with_six else "1"
            return f"the {_named(tile.fruit)} foundation starts with the {start}"
        step = 1 if built[0].number == 1 else -1
        wanted = built[-1].number + step
        if not 1 <= wanted <= FULL:
            return f"the {_named(tile.fruit)} foundation is complete"
        return f"the {_named(tile.fruit)} foundation needs {Tile(wanted, tile.fruit)}"

    def reveals_to(self, move: MuroMove) -> frozenset[int]:
        # Turning a tile shows it, unless it is the last face-down tile: the one tile not
        # in sight, known without turning it. No other move shows a face-down tile.
        return THE_PLAYER if move.kind == "turn" and len(self.face_down) > 1 else NOBODY

    def _play(self, move: MuroMove) -> Any:
        self._outcome, self._moves = False, None
        token = (self.idle, self.best, self.resigned)
        if move.kind == "resign":
            self.resigned = True
            return (*token, None)
        if move.kind == "turn":
            assert move.column is not None
            self.face_down.discard(self.wall[move.column][-1])
            self.idle = 0
            return (*token, None)
        tile = move.tile
        assert tile is not None
        source = self._source(tile)
        if source is None:
            self.foundations[tile.fruit].pop()
        else:
            assert isinstance(source, int)
            self.wall[source].pop()
        if move.kind == "foundation":
            self.foundations[tile.fruit].append(tile)
        else:
            assert move.column is not None
            self.wall[move.column].append(tile)
        # Ruling (no progress): only turning a tile or a new record on the foundations
        # counts, so that moving tiles to and fro cannot go on for ever.
        if self.on_foundations > self.best:
            self.best = self.on_foundations
            self.idle = 0
        else:
            self.idle += 1
        return (*token, source)

    def _unplay(self, move: MuroMove, token: Any) -> None:
        self._outcome, self._moves = False, None
        self.idle, self.best, self.resigned, source = token
        if move.kind == "turn":
            assert move.column is not None
            self.face_down.add(self.wall[move.column][-1])
            return
        if move.kind == "resign":
            return
        tile = move.tile
        assert tile is not None
        if move.kind == "foundation":
            self.foundations[tile.fruit].pop()
        else:
            assert move.column is not None
            self.wall[move.column].pop()
        if source is None:
            self.foundations[tile.fruit].append(tile)
        else:
            self.wall[source].append(tile)

    @property
    def current_player(self) -> int:
        return TERMINAL if self.outcome() else 0

    @property
    def on_foundations(self) -> int:
        return sum(len(built) for built in self.foundations)

    def outcome(self) -> Outcome | None:
        if self._outcome is False:
            self._outcome = self._work_out_outcome()
        assert self._outcome is not True
        return self._outcome

    def _work_out_outcome(self) -> Outcome | None:
        won = self.on_foundations == len(ALL_TILES)
        if won:
            termination = "won"
        elif self.resigned:
            termination = "resigned"
        elif self.idle >= self.params.idle_limit:
            termination = "no progress"
        elif not self._rule_moves():
            termination = "stuck"
        else:
            return None
        details = {"on_foundations": self.on_foundations, "face_down": len(self.face_down)}
        return Outcome((0,) if won else (), (float(self.on_foundations),), termination, details)

    def observation(self, player: int) -> dict[str, Any]:
        outcome = self.outcome()
        return {
            "game": "muro",
            "variant": self.variant.name,
            # A face-down tile is shown as null: its place is public, its face is not.
            "wall": [[None if t in self.face_down else str(t) for t in col] for col in self.wall],
            "foundations": [[str(t) for t in built] for built in self.foundations],
            "on_foundations": self.on_foundations,
            "may_start_with_six": self.params.may_start_with_six,
            "idle": self.idle,
            "idle_limit": self.params.idle_limit,
            "best": self.best,
            "legal_moves": self.legal_moves_text() if player == self.current_player else [],
            "outcome": outcome.as_json() if outcome else None,
        }

    def hidden_from(self, player: int) -> frozenset[str]:
        return frozenset(str(t) for t in self.face_down)

    def position(self) -> str:
        columns = [
            " ".join(f"({t})" if t in self.face_down else str(t) for t in col) or "-"
            for col in self.wall
        ]
        tops = [
            "--" if not b else str(b[0]) if len(b) == 1 else f"{b[0]}..{b[-1]}"
            for b in self.foundations
        ]
        tail = f"idle {self.idle} best {self.best}" + (" resigned" if self.resigned else "")
        return f"{' / '.join(columns)} | {' '.join(tops)} | {tail}"


def _needs(tile: Tile) -> str:
    if tile.number == FULL:
        return "a 6 goes only onto an empty column or a face-down tile"
    return f"{tile} needs a {tile.number + 1} of another fruit"


def _column(text: str, word: str) -> int:
    if len(word) != 2 or word[0] != "c" or word[1] not in "123456":
        raise parse_error("move", text, f"'{shown(word)}' is not a column (c1..c6)")
    return int(word[1]) - 1


def new_state(variant: Variant, seed: int, players: int) -> MuroState:
    tiles = list(ALL_TILES)
    DealRng(seed, "muro").shuffle(tiles)
    wall = [tiles[c * HEIGHT : (c + 1) * HEIGHT] for c in range(COLUMNS)]
    # Seed: all tiles face down, then the top layer ("il primo strato") is turned up.
    face_down = {t for col in wall for t in col[:-1]}
    return MuroState(variant, seed, wall, face_down, [[] for _ in FRUITS])


def from_position(text: str, variant: Variant) -> MuroState:
    parts = text.split("|")
    if len(parts) != 3:
        raise parse_error("position", text[:40], "needs WALL | FOUNDATIONS | idle I best B")
    columns = parts[0].split("/")
    if len(columns) != COLUMNS:
        raise parse_error("position", parts[0][:40], f"the wall needs {COLUMNS} columns")
    wall: list[list[Tile]] = []
    face_down: set[Tile] = set()
    for column in columns:
        stack = []
        for token in [] if column.strip() == "-" else column.split():
            hidden = token.startswith("(") and token.endswith(")")
            tile = Tile.parse(token[1:-1] if hidden else token)
            if hidden:
                face_down.add(tile)
            stack.append(tile)
        wall.append(stack)
    foundations = [_read_foundation(token, fruit, variant) for fruit, token in _tops(parts[1])]
    idle, best, resigned = _read_tail(parts[2], variant.params.idle_limit)
    placed = [t for col in wall for t in col] + [t for b in foundations for t in b]
    if len(placed) != len(set(placed)):
        dupes = sorted({str(t) for t in placed if placed.count(t) > 1})
        raise parse_error("position", text[:40], f"tiles appear twice: {' '.join(dupes)}")
    missing = sorted(str(t) for t in set(ALL_TILES) - set(placed))
    if missing:
        raise parse_error("position", text[:40], f"tiles missing: {' '.join(missing)}")
    if len(face_down) > FACE_DOWN_DEALT:
        # Turned tiles never go back down: more would also break max_game_length's bound.
        raise parse_error("position", parts[0][:40], f"at most {FACE_DOWN_DEALT} face down")
    if best < sum(map(len, foundations)):
        raise parse_error("position", parts[2], "best is below the tiles on the foundations")
    return MuroState(variant, None, wall, face_down, foundations, idle, best, resigned)


def _tops(text: str) -> list[tuple[int, str]]:
    tokens = text.split()
    if len(tokens) != len(FRUITS):
        raise parse_error("position", text, f"needs {len(FRUITS)} foundations (M P C U F B)")
    return list(enumerate(tokens))


def _read_foundation(token: str, fruit: int, variant: Variant) -> list[Tile]:
    if token == "--":
        return []
    ends = [Tile.parse(t) for t in token.split("..")]
    first, top = ends[0], ends[-1]
    if len(ends) > 2 or first.fruit != fruit or top.fruit != fruit:
        raise parse_error("position", token, f"foundation {fruit + 1} is for {FRUITS[fruit]}")
    allowed = (1, FULL) if variant.params.may_start_with_six else (1,)
    if first.number not in allowed:
        raise parse_error("position", token, "a foundation starts with the 1 (facile: or 6)")
    count = abs(top.number - first.number) + 1
    if (top.number < first.number) != (first.number == FULL and count > 1):
        raise parse_error("position", token, "a foundation builds away from its first tile")
    return foundation_tiles(first.number, count, fruit)


def _read_tail(text: str, idle_limit: int) -> tuple[int, int, bool]:
    words = text.split()
    resigned = words[-1:] == ["resigned"]
    if resigned:
        words = words[:-1]
    if len(words) != 4 or words[0] != "idle" or words[2] != "best":
        raise parse_error("position", text, "the last part is 'idle I best B [resigned]'")
    try:
        idle, best = int(words[1]), int(words[3])
    except ValueError:
        raise parse_error("position", text, "idle and best are whole numbers") from None
    # Counts no game reaches were taken as they came (idle 500, best 99).
    if not 0 <= idle <= idle_limit:
        raise parse_error(
            "position", text, f"idle is 0..{idle_limit} (the game ends when it reaches the limit)"
        )
    if not 0 <= best <= len(ALL_TILES):
        raise parse_error("position", text, f"best is 0..{len(ALL_TILES)} (the tiles there are)")
    return idle, best, resigned


def _heuristic(state: State[Any]) -> float:
    assert isinstance(state, MuroState)
    if state.resigned:
        return -1.0
    return state.on_foundations + 0.5 * (30 - len(state.face_down))


SPEC = register(
    GameSpec(
        name="muro",
        title="Il Muro",
        description="Dig through a wall of face-down fruit tiles; build each fruit 1..6.",
        aliases=("il-muro", "wall"),
        min_players=1,
        max_players=1,
        hidden_information=True,
        chance=True,
        variants=(
            Variant(
                "muro", "every foundation starts with the 1 and builds up", MuroParams(), "Standard"
            ),
            Variant(
                "facile",
                "a foundation may start with the 6 and build down instead",
                MuroParams(may_start_with_six=True),
                "Facile",
            ),
        ),
        new_state=new_state,
        from_position=from_position,
        # Each of the progress events allows idle_limit - 1 idle moves before it, and the
        # idle_limit-th idle move after the last one ends the game.
        max_game_length=(PROGRESS_EVENTS + 1) * IDLE_LIMIT_MAX,
        param_help={
            "may_start_with_six": (
                "May start with the 6",
                "A fruit's foundation may start from the 6 and build down.",
            ),
            "idle_limit": (
                "Moves without progress",
                "The game is lost after this many moves in a row that change nothing (1 to 100).",
            ),
        },
        heuristic=_heuristic,
        rules_doc="docs/rules/muro.md",
    )
)


def _named(fruit: int) -> str:
    """A foundation as a message names it: the fruit in words, then its letter (the letter
    alone, "the U foundation", meant nothing to a player who had not read the notation)."""
    return f"{FRUIT_NAMES[fruit]} ({FRUITS[fruit]})"
