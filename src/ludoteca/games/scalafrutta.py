"""Scalafrutta: push drawn tiles into a 3 x 3 square, keep what falls out, score combinations.

Seed: ``004_e179c823a12ff168.txt`` (SCALAFRUTTA); rulings in ``docs/rules/scalafrutta.md``.

Moves. An insertion is an edge and a line: ``L2`` pushes the drawn tile into row 2 from the
left (rows 1-3 top to bottom), ``R2`` from the right, ``T3`` into column 3 from the top,
``B3`` from the bottom. When no insertion matches, the move names who gets the tile pushed
out: ``L2>P3``; with one opponent ``L2`` alone is read as that move (``L2>P2`` for P1).
A combination phase move is a split: ``split 3M-4M-5M 2P-2C-2U`` (each combination's tiles
joined by ``-``), ``split none``, or ``split best`` (read as the best split, which is what
``legal_moves`` offers).

Position notation, fields separated by `` | ``::

    players 2 seed 7 | hand 1 first P1 phase 0 | insert P2 last P1
    | square 1M 2P 3C / 4U 5F 6B / 1P 2C 3U | pile 4M 5M ... | held 3M 4M ; -
    | shown - ; - | totals 0 0 | hands -

The stage is ``insert P# last P#``, ``split P# P# last P#`` (who still splits, in order) or
``over``. The pile is written next tile first; ``held`` and ``shown`` (the combinations of
each player's last split) go seat by seat, separated by `` ; ``; ``hands`` lists the finished
hands as ``scores=ending`` (``120,40=combinations``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.errors import IllegalMoveError, NotationError, shown
from ludoteca.core.game import TERMINAL, GameSpec, Outcome, State, Variant, parse_error
from ludoteca.core.registry import register
from ludoteca.core.rng import DealRng
from ludoteca.core.tiles import Tile
from ludoteca.games._scalafrutta_split import (
    SCALAFRUTTA_POINTS,
    best_split,
    canonical_split,
    combination_points,
    has_scalafrutta,
)

SQUARE = 9
TILES = 36
EDGES = "LRTB"
EDGE_NAMES = {
    "L": "the left of row",
    "R": "the right of row",
    "T": "the top of column",
    "B": "the bottom of column",
}
MAX_PHASES = 30
MAX_HANDS = 40


def _lines() -> list[tuple[str, int, tuple[int, int, int]]]:
    """The 12 insertion points: edge, line 1..3, and the cells from that edge inwards."""
    lines = []
    for edge in EDGES:
        for k in range(3):
            if edge == "L":
                cells = (3 * k, 3 * k + 1, 3 * k + 2)
            elif edge == "R":
                cells = (3 * k + 2, 3 * k + 1, 3 * k)
            elif edge == "T":
                cells = (k, 3 + k, 6 + k)
            else:
                cells = (6 + k, 3 + k, k)
            lines.append((edge, k + 1, cells))
    return lines


LINES = _lines()
CELLS = {(edge, line): cells for edge, line, cells in LINES}


def _matches(a: int, b: int) -> bool:
    """RULES.md: same number, or same fruit with numbers one apart."""
    same_number = a % 6 == b % 6
    return same_number or (a // 6 == b // 6 and abs(a % 6 - b % 6) == 1)


MATCH = tuple(tuple(_matches(a, b) for b in range(TILES)) for a in range(TILES))


def tile_text(index: int) -> str:
    return str(Tile.from_index(index))


def seat_text(seat: int) -> str:
    return f"P{seat + 1}"


@dataclass(frozen=True)
class ScalafruttaParams:
    target: int = field(default=1001, metadata={"min": 0})
    """Hands go on until someone ends one with this total (seed); 0 plays a single hand."""
    hidden_captures: bool = False
    """Variant ``coperte``: captured tiles stand hidden from the other players."""
    max_phases: int = field(default=MAX_PHASES, metadata={"min": 1, "max": MAX_PHASES})
    """Ruling: a hand ends after this many combination phases (the seed sets no limit)."""
    max_hands: int = field(default=MAX_HANDS, metadata={"min": 1, "max": MAX_HANDS})
    """Ruling: the match ends after this many hands (highest total wins)."""

    def check(self) -> None:
        if self.target < 0:
            raise NotationError(f"target must be 0 or more, not {self.target}")
        if not 1 <= self.max_phases <= MAX_PHASES:
            raise NotationError(f"max_phases must be 1..{MAX_PHASES}, not {self.max_phases}")
        if not 1 <= self.max_hands <= MAX_HANDS:
            raise NotationError(f"max_hands must be 1..{MAX_HANDS}, not {self.max_hands}")


@dataclass(frozen=True, order=True)
class Insert:
    """Push the drawn tile in at ``edge`` (L R T B) of row/column ``line`` (1..3); ``gift``
    is the seat that gets the pushed-out tile when no insertion matches."""

    edge: str
    line: int
    gift: int | None = None

    def __str__(self) -> str:
        return f"{self.edge}{self.line}" + ("" if self.gift is None else f">{seat_text(self.gift)}")

    @property
    def cells(self) -> tuple[int, int, int]:
        return CELLS[self.edge, self.line]


@dataclass(frozen=True)
class Split:
    """The combinations a player declares; every other tile they hold goes back."""

    combos: tuple[tuple[Tile, ...], ...]

    def __str__(self) -> str:
        if not self.combos:
            return "split none"
        return "split " + " ".join("-".join(str(t) for t in c) for c in self.combos)

    @classmethod
    def of(cls, combos: Sequence[Sequence[int]]) -> Split:
        """From tile indices, in the canonical order (so equal splits compare equal)."""
        ordered = canonical_split([tuple(c) for c in combos])
        return cls(tuple(tuple(Tile.from_index(t) for t in c) for c in ordered))

    @property
    def indices(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(t.index for t in c) for c in self.combos)

    @property
    def points(self) -> int:
        return sum(combination_points(c) or 0 for c in self.indices)


Move = Insert | Split
PLAIN = [Insert(edge, line) for edge, line, _ in LINES]
GIFTS = [[Insert(edge, line, seat) for seat in range(4)] for edge, line, _ in LINES]
_INSERT = re.compile(r"^([LRTB])([123])(?:\s*>\s*P(\d))?$")


class ScalafruttaState(State[Move]):
    def __init__(self, variant: Variant, seed: int, players: int) -> None:
        super().__init__(SPEC, variant, seed, players)
        self.params: ScalafruttaParams = variant.params
        self.deal_seed = seed
        self.square: list[int] = []
        self.pile: list[int] = []
        """Face-down draw pile; the next tile is the *last* item."""
        self.held = [0] * players
        """Each player's captured tiles as a 36-bit mask."""
        self.shown: list[tuple[tuple[int, ...], ...]] = [()] * players
        """Each player's last split: revealed to all, scored when the hand ends."""
        self.stage = "insert"
        self.to_move = 0
        self.queue: list[int] = []
        """Split stage: the seats still to split, the next first."""
        self.last = 0
        self.hand = 1
        self.first = 0
        self.phase = 0
        self.totals = [0] * players
        self.hands: list[tuple[tuple[int, ...], str]] = []
        self.last_before: str | None = None
        """The last move before this state's own moves began: what the observation a state
        was built from showed (:func:`determinize`), so that it shows it again."""

    # --- the deal -----------------------------------------------------------------------
    def deal_hand(self) -> None:
        """Shuffle all 36 tiles for hand ``self.hand``: 9 face up, the rest the draw pile."""
        tiles = list(range(TILES))
        DealRng(self.deal_seed, "scalafrutta", "hand", self.hand).shuffle(tiles)
        self.square = tiles[:SQUARE]
        self.pile = tiles[SQUARE:][::-1]
        self.held = [0] * self.players
        self.shown = [()] * self.players
        self.stage, self.phase, self.queue = "insert", 0, []
        self.to_move = self.last = self.first

    # --- rules --------------------------------------------------------------------------
    @property
    def drawn(self) -> int | None:
        return self.pile[-1] if self.stage == "insert" and self.pile else None

    def matching_lines(self) -> list[int]:
        """Indices into LINES where the drawn tile matches the tile it pushes directly."""
        drawn = self.pile[-1]
        row = MATCH[drawn]
        return [i for i, (_, _, cells) in enumerate(LINES) if row[self.square[cells[0]]]]

    def best_split_move(self, seat: int) -> Split:
        return Split.of(best_split(self.held[seat])[1])

    def legal_moves(self) -> list[Move]:
        if self.stage == "split":
            return [self.best_split_move(self.to_move)]
        if self.stage != "insert":
            return []
        matching = self.matching_lines()
        if matching:
            return [PLAIN[i] for i in matching]
        others = [s for s in range(self.players) if s != self.to_move]
        return [GIFTS[i][s] for i in range(len(LINES)) for s in others]

    def parse_move(self, text: str) -> Move:
        raw = " ".join(text.strip().split())
        if raw.lower().startswith("split"):
            return self._parse_split(raw)
        found = _INSERT.match(raw.upper())
        if not found:
            raise parse_error(
                "move",
                text,
                "an insertion is an edge L R T B and a line 1-3 (L1, or L1>P2 to give the "
                "pushed-out tile to P2), a split is 'split best', 'split none' or "
                "'split 3M-4M-5M 2P-2C-2U'",
            )
        edge, line, gift = found.groups()
        if gift is not None and not 1 <= int(gift) <= 4:
            raise parse_error("move", text, f"there is no player P{gift}")
        if gift is not None:
            return Insert(edge, int(line), int(gift) - 1)
        # Ruling: with one opponent and nothing matching, `L1` can only mean `L1>P2`; it is
        # read as that move, whose text stays `L1>P2` (as `split best` is read as the split
        # it names).
        return Insert(edge, int(line), self._only_receiver())

    def _only_receiver(self) -> int | None:
        """The one seat that may get the pushed-out tile: the mover's only opponent, when
        nothing matches; else None (the tile is the mover's, or there is a choice)."""
        if self.stage != "insert" or not self.pile or self.players != 2:
            return None
        return None if self.matching_lines() else 1 - self.to_move

    def _parse_split(self, raw: str) -> Split:
        words = raw.split()[1:]
        if [w.lower() for w in words] == ["best"]:
            if self.is_over:
                # As every move is refused once the game is over (State.check), not as a
                # split out of its phase ("combinations are made only in a combination phase").
                raise IllegalMoveError("split best: the game is over")
            if self.stage != "split":
                # It was worked out for seat 0 here, and the refusal then named that split:
                # seat 0's captured tiles, face down under `coperte`.
                raise parse_error("split", raw, "combinations are made only in a combination phase")
            return self.best_split_move(self.to_move)
        if not words:
            # It was read as `split none`, which threw back every tile unasked.
            raise parse_error(
                "split",
                raw,
                "incomplete: say which split, 'split best', 'split none' or 'split LIST' "
                "(combinations, e.g. 'split 3M-4M-5M 2P-2C-2U')",
            )
        if [w.lower() for w in words] in (["none"], ["-"]):
            return Split(())
        combos = []
        for word in words:
            try:
                combos.append([Tile.parse(t).index for t in word.split("-")])
            except NotationError as err:
                raise parse_error("split", raw, str(err)) from err
        return Split.of(combos)

    def why_illegal(self, move: Move) -> str | None:
        if isinstance(move, Split):
            return self._why_split_illegal(move)
        if self.stage != "insert":
            return f"it is a combination phase: {seat_text(self.to_move)} must split"
        drawn = tile_text(self.pile[-1])
        matching = self.matching_lines()
        line = EDGES.index(move.edge) * 3 + move.line - 1
        if move.gift is not None:
            if matching:
                names = " ".join(str(PLAIN[i]) for i in matching)
                return f"{drawn} has a matching insertion ({names}): the tile is yours to keep"
            if move.gift == self.to_move:
                return f"the pushed-out tile must go to an opponent ({self._gift_choices(move)})"
            if move.gift >= self.players:
                return f"there is no player {seat_text(move.gift)}"
            return None
        if not matching:
            choices = self._gift_choices(move)
            return f"{drawn} matches nowhere: say who gets the pushed-out tile ({choices})"
        if line not in matching:
            pushed = tile_text(self.square[LINES[line][2][0]])
            names = " ".join(str(PLAIN[i]) for i in matching)
            where = f"{EDGE_NAMES[move.edge]} {move.line}"
            return f"{drawn} does not match {pushed} at {where} (matching: {names})"
        return None

    def _gift_choices(self, move: Insert) -> str:
        """The moves giving ``move``'s pushed-out tile to each opponent: ``L1>P2 or L1>P3``
        (the example said ``L1>P?``, which no one could type)."""
        plain = Insert(move.edge, move.line)
        others = [s for s in range(self.players) if s != self.to_move]
        return " or ".join(f"{plain}>{seat_text(s)}" for s in others)

    def _why_split_illegal(self, move: Split) -> str | None:
        if self.stage != "split":
            return "combinations are made only when the draw pile is empty"
        held = self.held[self.to_move]
        seen: set[int] = set()
        for combo in move.indices:
            text = "-".join(tile_text(t) for t in combo)
            for tile in combo:
                if not held >> tile & 1:
                    return f"{tile_text(tile)} is not among {seat_text(self.to_move)}'s tiles"
                if tile in seen:
                    return f"{tile_text(tile)} is in two combinations"
                seen.add(tile)
            if combination_points(combo) is None:
                return (
                    f"{shown(text)} is not a combination (3-6 of one number, or 3-5 of one fruit "
                    "in sequence)"
                )
        return None

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.square[:],
            self.pile[:],
            self.held[:],
            self.shown[:],
            self.stage,
            self.to_move,
            self.queue[:],
            self.last,
            self.hand,
            self.first,
            self.phase,
            self.totals[:],
            self.hands[:],
        )

    def reveals_to(self, move: Move) -> frozenset[int]:
        # A move that ends a hand with the match going on deals the next one: a shuffle,
        # news to every seat. Otherwise what each seat learns depends on the seat (the
        # drawn tile is its drawer's until it goes in, a pile shuffled after the splits
        # shows its next mover the first tile), so the tiles taken out of hiding say it.
        hand = self.hand
        token = self._play(move)
        dealt = self.hand != hand
        self._unplay(move, token)
        return frozenset(range(self.players)) if dealt else self.tiles_shown_by(move)

    def _play(self, move: Move) -> Any:
        token = self._snapshot()
        self.advance(move)
        return token

    def advance(self, move: Move) -> None:
        """Make a legal move with no check and no undo (the fast path for bot playouts)."""
        if isinstance(move, Insert):
            self._insert(move)
        else:
            self._split(move)

    def _unplay(self, move: Move, token: Any) -> None:
        (
            self.square,
            self.pile,
            self.held,
            self.shown,
            self.stage,
            self.to_move,
            self.queue,
            self.last,
            self.hand,
            self.first,
            self.phase,
            self.totals,
            self.hands,
        ) = token

    def _insert(self, move: Insert) -> None:
        a, b, c = move.cells
        square = self.square
        out = square[c]
        square[c], square[b], square[a] = square[b], square[a], self.pile.pop()
        mover = self.to_move
        # Seed: the tile pushed out is the mover's, or a chosen opponent's when nothing matched.
        receiver = mover if move.gift is None else move.gift
        self.held[receiver] |= 1 << out
        self.last = mover
        if has_scalafrutta(self.held[receiver]):
            scores = [SCALAFRUTTA_POINTS if s == receiver else 0 for s in range(self.players)]
            self._end_hand(scores, "scalafrutta")
        elif not self.pile:
            # Seed: every player splits, starting with the last to play.
            self.stage = "split"
            self.queue = [(mover + k) % self.players for k in range(self.players)]
            self.to_move = mover
        else:
            self.to_move = (mover + 1) % self.players

    def _split(self, move: Split) -> None:
        seat = self.queue.pop(0)
        combos = move.indices
        self.held[seat] = sum(1 << t for c in combos for t in c)
        self.shown[seat] = combos
        if self.queue:
            self.to_move = self.queue[0]
            return
        self.phase += 1
        returned = self.returned()
        # Seed: the hand ends when fewer than 4 / 5 / 6 tiles go back.
        if len(returned) < self.players + 2 or self.phase >= self.params.max_phases:
            ending = "combinations" if len(returned) < self.players + 2 else "phase-limit"
            self._end_hand([Split.of(s).points for s in self.shown], ending)
            return
        DealRng(self.deal_seed, "scalafrutta", "hand", self.hand, "phase", self.phase).shuffle(
            returned
        )
        self.pile = returned
        self.stage, self.queue = "insert", []
        self.to_move = (self.last + 1) % self.players

    def returned(self) -> list[int]:
        """Tiles neither in the square, nor the pile, nor held: going back face down."""
        taken = sum(1 << t for t in self.square) | sum(1 << t for t in self.pile)
        for held in self.held:
            taken |= held
        return [t for t in range(TILES) if not taken >> t & 1]

    def _end_hand(self, scores: list[int], ending: str) -> None:
        self.hands.append((tuple(scores), ending))
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        # Seed: hands go on until someone reaches 1001; RULES.md caps the number of hands.
        if max(self.totals) >= self.params.target or len(self.hands) >= self.params.max_hands:
            self.stage, self.queue = "over", []
            return
        self.hand += 1
        self.first = (self.first + 1) % self.players
        self.deal_hand()

    @property
    def current_player(self) -> int:
        return TERMINAL if self.stage == "over" else self.to_move

    def outcome(self) -> Outcome | None:
        if self.stage != "over":
            return None
        top = max(self.totals)
        winners = tuple(s for s in range(self.players) if self.totals[s] == top)
        if self.params.target == 0:
            termination = "single hand"
        elif top >= self.params.target:
            termination = "target reached"
        else:
            termination = "hand limit"
        details = {
            "hands": len(self.hands),
            "hand_scores": [list(scores) for scores, _ in self.hands],
            "endings": [ending for _, ending in self.hands],
        }
        return Outcome(winners, tuple(float(t) for t in self.totals), termination, details)

    def score(self, player: int = 0) -> float:
        return float(self.totals[player])

    # --- what players see -----------------------------------------------------------------
    def _hidden_captures(self, seat: int) -> int:
        """Tiles ``seat`` holds that were not shown at its last split."""
        shown = sum(1 << t for c in self.shown[seat] for t in c)
        return self.held[seat] & ~shown

    def observation(self, player: int) -> dict[str, Any]:
        hide = self.params.hidden_captures
        drawn = self.drawn if player == self.current_player else None
        outcome = self.outcome()
        return {
            "game": "scalafrutta",
            "variant": self.variant.name,
            "params": self.variant.params_json(),
            "players": self.players,
            "seat": player,
            "hand": self.hand,
            "first_player": self.first,
            "phase": self.phase,
            "stage": self.stage,
            "to_move": None if self.stage == "over" else self.to_move,
            "last_to_play": self.last,
            "split_queue": list(self.queue),
            "square": [[tile_text(t) for t in self.square[r * 3 : r * 3 + 3]] for r in range(3)],
            "pile_count": len(self.pile),
            "returned_count": len(self.returned()) if self.stage == "split" else 0,
            "drawn": None if drawn is None else tile_text(drawn),
            "captured": [
                None if hide and seat != player else _tiles_of(self.held[seat])
                for seat in range(self.players)
            ],
            "captured_count": [self.held[seat].bit_count() for seat in range(self.players)],
            "shown": [[[tile_text(t) for t in c] for c in combos] for combos in self.shown],
            "shown_points": [Split.of(combos).points for combos in self.shown],
            "totals": list(self.totals),
            "hands": [list(scores) for scores, _ in self.hands],
            "hand_endings": [ending for _, ending in self.hands],
            "last_move": self._last_move(),
            "legal_moves": self.legal_moves_text() if player == self.current_player else [],
            "outcome": outcome.as_json() if outcome else None,
        }

    def _last_move(self) -> str | None:
        """The last move, public; a split's tiles are in ``shown`` (or back in the pile)."""
        if not self.history:
            return self.last_before
        move = self.history[-1]
        return str(move) if isinstance(move, Insert) else "split"

    def hidden_from(self, player: int) -> frozenset[str]:
        hidden = set(self.pile)
        if player == self.current_player and self.drawn is not None:
            hidden.discard(self.drawn)
        if self.stage == "split":
            hidden.update(self.returned())
        if self.params.hidden_captures:
            for seat in range(self.players):
                if seat != player:
                    hidden.update(mask_tiles(self._hidden_captures(seat)))
        return frozenset(tile_text(t) for t in hidden)

    def position(self) -> str:
        if self.stage == "insert":
            stage = f"insert {seat_text(self.to_move)} last {seat_text(self.last)}"
        elif self.stage == "split":
            stage = f"split {' '.join(map(seat_text, self.queue))} last {seat_text(self.last)}"
        else:
            stage = "over"
        rows = [" ".join(tile_text(t) for t in self.square[r * 3 : r * 3 + 3]) for r in range(3)]
        pile = " ".join(tile_text(t) for t in reversed(self.pile)) or "-"
        held = " ; ".join(" ".join(_tiles_of(h)) or "-" for h in self.held)
        shown = " ; ".join(str(Split.of(s))[6:] if s else "-" for s in self.shown)
        hands = " ".join(f"{','.join(map(str, s))}={e}" for s, e in self.hands) or "-"
        return " | ".join(
            [
                f"players {self.players} seed {self.deal_seed}",
                f"hand {self.hand} first {seat_text(self.first)} phase {self.phase}",
                stage,
                f"square {' / '.join(rows)}",
                f"pile {pile}",
                f"held {held}",
                f"shown {shown}",
                f"totals {' '.join(map(str, self.totals))}",
                f"hands {hands}",
            ]
        )


def mask_tiles(mask: int) -> list[int]:
    return [t for t in range(TILES) if mask >> t & 1]


def _tiles_of(mask: int) -> list[str]:
    return [str(t) for t in sorted(Tile.from_index(i) for i in mask_tiles(mask))]


def new_state(variant: Variant, seed: int, players: int) -> ScalafruttaState:
    state = ScalafruttaState(variant, seed, players)
    # RULES.md: the first player is chosen by the seed; turns then go clockwise.
    state.first = DealRng(seed, "scalafrutta", "first").below(players)
    state.deal_hand()
    return state


def from_position(text: str, variant: Variant) -> ScalafruttaState:
    # The reader builds states of this module: it is imported once this module is loaded.
    from ludoteca.games._scalafrutta_position import read_position

    return read_position(text, variant)


def determinize(observation: Mapping[str, Any], rng: DealRng) -> ScalafruttaState:
    """A full state consistent with one player's observation (see the position module)."""
    from ludoteca.games._scalafrutta_position import determinize as sample

    return sample(observation, rng)


SPEC = register(
    GameSpec(
        name="scalafrutta",
        title="Scalafrutta",
        description="Push drawn tiles into a 3 x 3 square, keep what falls out, score sets.",
        aliases=("scala-frutta",),
        min_players=2,
        max_players=4,
        hidden_information=True,
        chance=True,
        variants=(
            Variant(
                "scalafrutta",
                "captured tiles open to all; match to 1001",
                ScalafruttaParams(),
                "Standard",
            ),
            Variant(
                "coperte",
                "captured tiles hidden from the other players until combinations are made",
                ScalafruttaParams(hidden_captures=True),
                "Coperte",
            ),
            Variant(
                "mano", "a single hand, open captured tiles", ScalafruttaParams(target=0), "Mano"
            ),
        ),
        new_state=new_state,
        from_position=from_position,
        max_game_length=MAX_HANDS * MAX_PHASES * (TILES - SQUARE + 4),
        param_help={
            "target": (
                "Points to win",
                "Hands go on until someone ends one with this total; 0 plays a single hand.",
            ),
            "hidden_captures": (
                "Hidden captures",
                "Captured tiles stand face down to the other players (coperte).",
            ),
            "max_phases": (
                "Phases per hand",
                "A hand ends after this many rounds of combinations.",
            ),
            "max_hands": (
                "Hands at most",
                "The match ends after this many hands; the highest total wins.",
            ),
        },
        rules_doc="docs/rules/scalafrutta.md",
        extra={"determinize": determinize},
    )
)
