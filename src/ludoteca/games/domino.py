"""Domino della Frutta: place your fruit tiles on a shared table; the first with none left wins.

Seed: ``004_e179c823a12ff168.txt`` (DOMINO DELLA FRUTTA); rulings in ``docs/rules/domino.md``.

Table geometry (``_domino_table``): column = the tile's number 1..6, row counted from the first
tile's row 0. Moves: ``4B@r-1`` (place 4B in row -1 of its column), ``draw`` (stuck: take a
set-aside tile), ``block 3P`` (the special move: turn the table tile 3P face down), ``open``
(declare open hands; the same player then moves again) and ``out`` (stuck with no set-aside
tile left: the player is eliminated).

Position notation, ``|``-separated labelled sections in this order::

    to 1 | turn 5 | hands 1M 2P / 3C / 5U 6U | aside 4B 6C | table 4B@r0 5B@r0 3P@r1* |
    special 0 | out - | open no | drawn -

``to`` is the player to move (0-based), ``turn`` counts the turns already played, ``hands``
are the players' tiles (``-`` for none), ``aside`` the face-down set-aside tiles, next first,
``table`` every table tile with ``*`` marking a blocked (face-down) one, ``special`` the
players who used the special move, ``out`` the eliminated players, ``open`` whether open play
was declared, and ``drawn`` the set-aside tile the player to move drew and must now place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ludoteca.core.errors import NotationError, shown
from ludoteca.core.game import TERMINAL, GameSpec, Outcome, State, Variant, parse_error
from ludoteca.core.registry import register
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import ALL_TILES, Tile
from ludoteca.games._domino_table import Cell, Table, cell_text

PLACE, BLOCK, DRAW, OPEN, OUT = "place", "block", "draw", "open", "out"
_PLACE_RE = re.compile(r"^([1-6][A-Za-z])@r?(-?\d+)$")
SECTIONS = ("to", "turn", "hands", "aside", "table", "special", "out", "open", "drawn")


@dataclass(frozen=True)
class DominoParams:
    square_ban: bool = True
    """The 2 x 2 ban of the seed's lost figure (RULES.md); blocked tiles count."""


@dataclass(frozen=True, slots=True)
class DominoMove:
    kind: str
    tile: Tile | None = None
    row: int = 0

    def __str__(self) -> str:
        if self.kind == PLACE:
            return f"{self.tile}@r{self.row}"
        if self.kind == BLOCK:
            return f"block {self.tile}"
        return self.kind


DRAW_MOVE, OPEN_MOVE, OUT_MOVE = DominoMove(DRAW), DominoMove(OPEN), DominoMove(OUT)


def parse_move(text: str) -> DominoMove:
    raw = text.strip()
    lowered = raw.lower()
    if lowered in (DRAW, OPEN, OUT):
        return DominoMove(lowered)
    words = raw.split()
    if len(words) == 2 and words[0].lower() == BLOCK:
        return DominoMove(BLOCK, Tile.parse(words[1]))
    found = _PLACE_RE.match(raw)
    if found is None:
        raise parse_error(
            "move", text, "expected TILE@rROW (e.g. 4B@r-1), draw, block TILE, open or out"
        )
    return DominoMove(PLACE, Tile.parse(found.group(1)), int(found.group(2)))


class DominoState(State[DominoMove]):
    def __init__(
        self,
        variant: Variant,
        seed: int | None,
        hands: list[list[Tile]],
        aside: list[Tile],
        table: Table,
        *,
        to: int = 0,
        turn: int = 0,
        special: list[bool] | None = None,
        out: list[bool] | None = None,
        opened: bool = False,
        drawn: Tile | None = None,
    ) -> None:
        super().__init__(SPEC, variant, seed, len(hands))
        self.params: DominoParams = variant.params
        self.hands = hands  # each kept sorted
        self.aside = aside  # next tile first
        self.table = table
        self.to = to
        self.turn = turn
        self.special = special or [False] * len(hands)
        self.out = out or [False] * len(hands)
        self.opened = opened
        self.drawn = drawn

    def clone(self) -> DominoState:
        """An independent copy without history (for search)."""
        return DominoState(
            self.variant,
            self.seed,
            [list(h) for h in self.hands],
            list(self.aside),
            self.table.copy(),
            to=self.to,
            turn=self.turn,
            special=list(self.special),
            out=list(self.out),
            opened=self.opened,
            drawn=self.drawn,
        )

    # --- rules ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        # Seed, "Fine della partita": someone placed their last tile, or nobody can go on.
        return any(not hand for hand in self.hands) or all(self.out)

    def placements(self) -> list[DominoMove]:
        """The placements open to the player to move (only the drawn tile after a draw)."""
        tiles = [self.drawn] if self.drawn is not None else self.hands[self.to]
        return [DominoMove(PLACE, t, r) for t in tiles for r in self.table.rows_for(t)]

    def _can_block(self, can_place: bool) -> bool:
        # Seed, "Mossa speciale": once per game; with open hands only when a placement exists.
        return not self.special[self.to] and (can_place or not self.opened)

    def _can_open(self) -> bool:
        # Seed, "Tessere scoperte": from the second round on, at the start of one's turn.
        return not self.opened and self.drawn is None and self.turn >= self.players

    def legal_moves(self) -> list[DominoMove]:
        if self.is_over:
            return []
        moves = self.placements()
        if self.drawn is not None:
            return moves
        can_place = bool(moves)
        if self._can_block(can_place):
            moves += [DominoMove(BLOCK, t) for _, t, down in self.table.tiles() if not down]
        if not can_place:
            # Seed, "Impossibilità di deporre": draw a set-aside tile, or be eliminated.
            moves.append(DRAW_MOVE if self.aside else OUT_MOVE)
        if self._can_open():
            moves.append(OPEN_MOVE)
        return moves

    def parse_move(self, text: str) -> DominoMove:
        return parse_move(text)

    def why_illegal(self, move: DominoMove) -> str | None:
        hand = self.hands[self.to]
        can_place = any(self.table.can_place(t) for t in hand)
        if move.kind == PLACE:
            assert move.tile is not None
            if self.drawn is not None and move.tile != self.drawn:
                return f"the drawn tile {self.drawn} must be placed"
            if move.tile not in hand:
                return f"{move.tile} is not in your hand"
            why = self.table.why_not(move.tile, move.row)
            if why is not None and not self.table.can_place(move.tile):
                # No other row would do either: say so, and why.
                return f"{move.tile} fits nowhere now: {self.table.why_nowhere(move.tile)}"
            return why
        if self.drawn is not None:
            return f"the drawn tile {self.drawn} must be placed"
        if move.kind == BLOCK:
            assert move.tile is not None
            if self.special[self.to]:
                return "you have already used your special move"
            if move.tile not in self.table.face_up.values():
                return f"{move.tile} is not face up on the table"
            if self.opened and not can_place:
                return "with open hands the special move needs a tile you could place"
            return None
        if move.kind == OPEN:
            if self.opened:
                return "open play is already declared"
            return None if self._can_open() else "open play starts from the second round"
        if can_place:
            return "you can place a tile, so you must"
        if move.kind == DRAW:
            return None if self.aside else "no set-aside tile is left"
        return "a set-aside tile is left to draw" if self.aside else None

    def reveals_to(self, move: DominoMove) -> frozenset[int]:
        # What each seat sees depends on the seat: a placed tile leaves its player's hidden
        # hand, a drawn one is seen by its drawer only, open hands and the game's end show
        # every hand. So the tiles taken out of hiding, seat by seat, say it exactly.
        return self.tiles_shown_by(move)

    def _play(self, move: DominoMove) -> Any:
        token = (
            [list(h) for h in self.hands],
            list(self.aside),
            self.table.copy(),
            (self.to, self.turn, list(self.special), list(self.out), self.opened, self.drawn),
        )
        self.advance(move)
        return token

    def _unplay(self, move: DominoMove, token: Any) -> None:
        self.hands, self.aside, self.table, rest = token
        self.to, self.turn, self.special, self.out, self.opened, self.drawn = rest

    def advance(self, move: DominoMove) -> None:
        """Make a legal move without keeping an undo snapshot (the fast path for search)."""
        if move.kind == PLACE:
            assert move.tile is not None
            self.hands[self.to].remove(move.tile)
            self.table.place(move.tile, move.row)
            self.drawn = None
            if self.hands[self.to]:
                self._next_turn()
        elif move.kind == DRAW:
            tile = self.aside.pop(0)
            hand = self.hands[self.to]
            hand.append(tile)
            hand.sort()
            # Seed: a drawn tile that fits is placed; one that does not is kept; the turn passes.
            if self.table.can_place(tile):
                self.drawn = tile
            else:
                self._next_turn()
        elif move.kind == BLOCK:
            assert move.tile is not None
            self.table.block(move.tile)
            self.special[self.to] = True
            self._next_turn()
        elif move.kind == OPEN:
            self.opened = True
        else:
            self.out[self.to] = True
            self._next_turn()

    def _next_turn(self) -> None:
        self.turn += 1
        for step in range(1, self.players + 1):
            player = (self.to + step) % self.players
            if not self.out[player]:
                self.to = player
                return

    @property
    def current_player(self) -> int:
        return TERMINAL if self.is_over else self.to

    def outcome(self) -> Outcome | None:
        if not self.is_over:
            return None
        left = [len(hand) for hand in self.hands]
        fewest = min(left)
        winners = tuple(p for p, n in enumerate(left) if n == fewest)
        termination = "domino" if fewest == 0 else "nobody can go on"
        scores = tuple(float(-n) for n in left)  # (a domino scores 0, not -0)
        return Outcome(winners, scores, termination, {"tiles_left": left})

    # --- what players see ---------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        seated = 0 <= player < self.players
        outcome = self.outcome()
        return {
            "game": "domino",
            "players": self.players,
            "you": player if seated else None,
            "to_move": self.current_player,
            "turn": self.turn,
            "square_ban": self.params.square_ban,
            "table": [
                {"tile": str(t), "col": c, "row": r, "blocked": down}
                for (c, r), t, down in self.table.tiles()
            ],
            "hand": [str(t) for t in self.hands[player]] if seated else [],
            "hand_sizes": [len(h) for h in self.hands],
            # Open hands, or a game over: every hand is shown (RULES.md, docs/rules/domino.md).
            "hands": [[str(t) for t in h] for h in self.hands] if self._shown() else None,
            "aside_count": len(self.aside),
            "special_used": list(self.special),
            "eliminated": list(self.out),
            "open": self.opened,
            "must_place_drawn": self.drawn is not None,
            # The drawer sees the tile; with open hands so does everyone (it is in a hand).
            "drawn": str(self.drawn) if self.drawn and (player == self.to or self.opened) else None,
            "legal_moves": self.legal_moves_text() if player == self.current_player else [],
            "unplaceable": self._unplaceable() if player == self.current_player else {},
            "outcome": outcome.as_json() if outcome else None,
        }

    def _unplaceable(self) -> dict[str, str]:
        """Why each tile in the hand to move has no placement: the page says it when the tile
        is clicked (it decides no rule itself)."""
        if self.is_over:
            return {}
        hand = self.hands[self.to]
        if self.drawn is not None:
            return {
                str(t): f"the drawn tile {self.drawn} must be placed first"
                for t in hand
                if t != self.drawn
            }
        return {
            str(t): f"{t} fits nowhere now: {self.table.why_nowhere(t)}"
            for t in hand
            if not self.table.can_place(t)
        }

    def _shown(self) -> bool:
        """Is every hand on the table for all to see: declared open, or the game over (what
        the others held is no secret then, and the replay shows it too)."""
        return self.opened or self.is_over

    def hidden_from(self, player: int) -> frozenset[str]:
        hidden = {str(t) for t in self.aside}
        if not self._shown():
            hidden.update(str(t) for p, h in enumerate(self.hands) if p != player for t in h)
        return frozenset(hidden)

    def position(self) -> str:
        def tiles(items: list[Tile]) -> str:
            return " ".join(str(t) for t in items) or "-"

        def players(flags: list[bool]) -> str:
            return " ".join(str(p) for p, f in enumerate(flags) if f) or "-"

        table = " ".join(f"{t}@r{r}{'*' if down else ''}" for (_, r), t, down in self.table.tiles())
        sections = (
            str(self.to),
            str(self.turn),
            " / ".join(tiles(h) for h in self.hands),
            tiles(self.aside),
            table or "-",
            players(self.special),
            players(self.out),
            "yes" if self.opened else "no",
            str(self.drawn) if self.drawn else "-",
        )
        return " | ".join(f"{name} {text}" for name, text in zip(SECTIONS, sections, strict=True))


def new_state(variant: Variant, seed: int, players: int) -> DominoState:
    tiles = list(ALL_TILES)
    DealRng(seed, "domino", players).shuffle(tiles)
    # Seed: as many face-down tiles set aside as there are players; the rest dealt evenly.
    aside, rest = tiles[:players], tiles[players:]
    size = len(rest) // players
    hands = [sorted(rest[p * size : (p + 1) * size]) for p in range(players)]
    first = DealRng(seed, "domino", players, "first").below(players)
    return DominoState(variant, seed, hands, aside, Table(variant.params.square_ban), to=first)


def _tile_list(text: str, what: str) -> list[Tile]:
    if text == "-":
        return []
    try:
        return [Tile.parse(t) for t in text.split()]
    except NotationError as err:
        raise parse_error("position", text, f"{what}: {err}") from None


def _player_list(text: str, players: int, what: str) -> list[bool]:
    flags = [False] * players
    if text == "-":
        return flags
    for word in text.split():
        if not word.isdigit() or int(word) >= players:
            raise parse_error(
                "position", text, f"{what}: '{shown(word)}' is not a player 0..{players - 1}"
            )
        flags[int(word)] = True
    return flags


def _table_tiles(text: str) -> list[tuple[Cell, Tile, bool]]:
    if text == "-":
        return []
    found: list[tuple[Cell, Tile, bool]] = []
    cells: dict[Cell, Tile] = {}
    for word in text.split():
        blocked = word.endswith("*")
        move = parse_move(word.rstrip("*"))
        if move.kind != PLACE or move.tile is None:
            raise parse_error("position", word, "a table tile is TILE@rROW, * when blocked")
        cell = (move.tile.number, move.row)
        if cell in cells:
            raise parse_error("position", word, f"{cell_text(cell)} already holds {cells[cell]}")
        cells[cell] = move.tile
        found.append((cell, move.tile, blocked))
    return found


def from_position(text: str, variant: Variant) -> DominoState:
    parts = [p.strip() for p in text.split("|")]
    if len(parts) != len(SECTIONS):
        raise parse_error(
            "position",
            text[:40],
            f"needs {len(SECTIONS)} sections separated by |: {', '.join(SECTIONS)}",
        )
    fields: dict[str, str] = {}
    for name, part in zip(SECTIONS, parts, strict=True):
        label, _, value = part.partition(" ")
        if label != name or not value.strip():
            raise parse_error("position", part, f"expected the section '{name} ...'")
        fields[name] = value.strip()
    hands = [_tile_list(h.strip(), "hands") for h in fields["hands"].split("/")]
    players = len(hands)
    if not SPEC.min_players <= players <= SPEC.max_players:
        raise parse_error("position", fields["hands"], f"{players} hands: the game is for 2-4")
    aside = _tile_list(fields["aside"], "aside")
    placed = _table_tiles(fields["table"])
    every = [t for h in hands for t in h] + aside + [t for _, t, _ in placed]
    dupes = sorted({str(t) for t in every if every.count(t) > 1})
    if dupes:
        raise parse_error("position", text[:40], f"tiles appear twice: {' '.join(dupes)}")
    missing = sorted(str(t) for t in set(ALL_TILES) - set(every))
    if missing:
        raise parse_error("position", text[:40], f"tiles missing: {' '.join(missing)}")
    for name in ("to", "turn"):
        if not fields[name].isdigit():
            raise parse_error("position", fields[name], f"'{name}' needs a number")
    to = int(fields["to"])
    if to >= players:
        raise parse_error("position", fields["to"], f"no player {to} among {players}")
    if fields["open"] not in ("yes", "no"):
        raise parse_error("position", fields["open"], "'open' is yes or no")
    drawn = None if fields["drawn"] == "-" else _tile_list(fields["drawn"], "drawn")[0]
    if drawn is not None and drawn not in hands[to]:
        raise parse_error("position", fields["drawn"], f"the drawn tile is not in hand {to}")
    table = Table(variant.params.square_ban)
    table.load(placed)
    out = _player_list(fields["out"], players, "out")
    # Seed, "Impossibilità di deporre": an eliminated player plays no more (only once all
    # are out is the last of them still "to move", in a finished game), and a drawn tile is
    # still to place only when it fits (one that does not is kept and the turn passes).
    if out[to] and not all(out):
        raise parse_error("position", fields["to"], f"player {to} is eliminated: no more turns")
    if fields["open"] == "yes" and int(fields["turn"]) < players:
        # Seed, "Gioco a carte scoperte": open play is declared from the second round on.
        raise parse_error("position", fields["open"], "open play starts from the second round")
    if drawn is not None and not table.can_place(drawn):
        raise parse_error(
            "position", fields["drawn"], f"{drawn} fits nowhere: it would be kept, turn passed"
        )
    return DominoState(
        variant,
        None,
        [sorted(h) for h in hands],
        aside,
        table,
        to=to,
        turn=int(fields["turn"]),
        special=_player_list(fields["special"], players, "special"),
        out=out,
        opened=fields["open"] == "yes",
        drawn=drawn,
    )


def observed_table(observation: Mapping[str, Any]) -> Table:
    """The table as an observation shows it (every player sees the whole table)."""
    table = Table(observation["square_ban"])
    table.load(
        [
            ((e["col"], e["row"]), Tile.parse(e["tile"]), bool(e["blocked"]))
            for e in observation["table"]
        ]
    )
    return table


def determinize(observation: Mapping[str, Any], rng: DealRng) -> DominoState:
    """A full state consistent with one player's observation, hidden tiles sampled by ``rng``.

    Uses only the observation: the seat's own hand, the table, hand sizes (or the open hands)
    and the set-aside count. Unseen tiles are shuffled and dealt to the other hands by their
    sizes, the rest set aside. When another player must place a drawn tile, that tile is
    sampled among the unseen tiles that fit the table, since it is known to fit.
    """
    me = observation["you"]
    players = observation["players"]
    table = observed_table(observation)
    known = observation["hands"]
    hands = [[Tile.parse(t) for t in known[p]] if known else [] for p in range(players)]
    hands[me] = [Tile.parse(t) for t in observation["hand"]]
    seen = {t for _, t, _ in table.tiles()} | {t for h in hands for t in h}
    unseen = [t for t in ALL_TILES if t not in seen]
    rng.shuffle(unseen)
    to = observation["to_move"]
    drawn = Tile.parse(observation["drawn"]) if observation["drawn"] else None
    if observation["must_place_drawn"] and drawn is None:
        fitting = [t for t in unseen if table.can_place(t)] or unseen
        drawn = fitting[0]
        unseen.remove(drawn)
        hands[to].append(drawn)
    if not known:
        for p, size in enumerate(observation["hand_sizes"]):
            while len(hands[p]) < size:
                hands[p].append(unseen.pop())
    if len(unseen) != observation["aside_count"]:
        raise ValueError("observation is inconsistent: unseen tiles do not match the counts")
    variant = Variant(SPEC.default_variant.name, "", DominoParams(observation["square_ban"]))
    return DominoState(
        variant,
        None,
        [sorted(h) for h in hands],
        unseen,
        table,
        to=max(to, 0),
        turn=observation["turn"],
        special=list(observation["special_used"]),
        out=list(observation["eliminated"]),
        opened=observation["open"],
        drawn=drawn,
    )


SPEC = register(
    GameSpec(
        name="domino",
        title="Domino della Frutta",
        description="Place fruit tiles by number (columns) and sequence (rows); first out wins.",
        aliases=("domino-della-frutta", "fruit-domino"),
        min_players=2,
        max_players=4,
        hidden_information=True,
        chance=True,
        variants=(
            Variant(
                "domino", "2-4 players, hidden hands until open play", DominoParams(), "Standard"
            ),
        ),
        new_state=new_state,
        from_position=from_position,
        max_game_length=36 + 3 * 4 + 1,
        param_help={
            "square_ban": (
                "No 2 × 2 squares",
                "Four tiles may not form a square of 2 by 2 (blocked tiles count).",
            ),
        },
        rules_doc="docs/rules/domino.md",
        extra={"determinize": determinize},
        score_left=("tile", "tiles"),
    )
)
