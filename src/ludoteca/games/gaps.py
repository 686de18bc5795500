"""Gaps (Montana, Spaces, Addiction): fill each gap with the successor of the card to its left.

Seeds: ``001_b4428e67d79caea8.txt`` (English), ``000_16c0a3b92eab3145.txt`` (Italian); rulings in
``docs/rules/gaps.md``.

Position notation: the rows top to bottom separated by `` / ``, each row's cards separated by
spaces, ``--`` for a gap. Bookkeeping may follow after `` | ``: ``redeals N`` (redeals used) and
``seed N`` (the deal the redeal shuffles come from), and ``stopped 1`` for a game ended by
``stop``; the plain rows alone are a valid position. A move is the card that moves (``7H``: it
goes right of ``6H``); a 2 names the row of the column-0 gap it fills (``2S>r3``); ``redeal``
gathers and redeals the cards out of sequence; ``stop`` ends the game instead of a redeal
(offered only where a redeal costs points).

The board is ``suits`` rows of ``ranks`` columns (4 x 13 in play; smaller boards serve exhaustive
checks of the solver).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ludoteca.core.cards import ACE, Card
from ludoteca.core.errors import NotationError
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
from ludoteca.core.rng import MAX_DEAL, DealRng

Grid = list[Card | None]
MAX_REDEALS = 3
MAX_PENALTY = 1000.0
"""The largest penalty a redeal may cost (a game holds 48 cards in sequence at most)."""


@dataclass(frozen=True)
class GapsParams:
    redeals: int = field(default=2, metadata={"min": 0, "max": MAX_REDEALS})
    """How many redeals are allowed (RULES.md: 0..3 for every variant)."""
    penalty: float = field(default=0.0, metadata={"min": 0, "max": MAX_PENALTY})
    """Points taken off the final score for each redeal used (RULES.md: default 0)."""
    twos_first: bool = False
    """Montana: the four 2s start in column 0, suits in a seeded order."""
    suits: int = field(default=4, metadata={"min": 1, "max": 4})
    ranks: int = field(default=13, metadata={"min": 3, "max": 13})
    """Smaller boards (fewer suits or ranks) for exhaustive checks; the game is 4 x 13."""

    def check(self) -> None:
        if not 0 <= self.redeals <= MAX_REDEALS:
            raise NotationError(f"redeals must be 0..{MAX_REDEALS}, not {self.redeals}")
        if not 0 <= self.penalty <= MAX_PENALTY:
            # Above it, three redeals' penalty could overflow to -inf, which no JSON reads.
            raise NotationError(
                f"the redeal penalty must be 0..{MAX_PENALTY:g}, not {self.penalty:g}"
            )
        # Each named as typed (it said "a 9 x 13 board needs 1-4 suits", a board not asked for).
        if not 1 <= self.suits <= 4:
            raise NotationError(f"suits must be 1..4, not {self.suits}")
        if not 3 <= self.ranks <= 13:
            raise NotationError(f"ranks must be 3..13, not {self.ranks}")


@dataclass(frozen=True, order=True)
class GapsMove:
    """``card`` moves (to the right of its predecessor, or for a 2 to column 0 of ``row``);
    ``card`` None is the redeal, or with ``stop`` the end of the game in its place."""

    card: Card | None
    row: int | None = None
    stop: bool = False

    def __str__(self) -> str:
        if self.card is None:
            return "stop" if self.stop else "redeal"
        return f"{self.card}>r{self.row + 1}" if self.row is not None else str(self.card)


REDEAL = GapsMove(None)
STOP = GapsMove(None, stop=True)
"""Seed, Redeals: a redeal "is allowed", not required. Where it costs points (``penalty``
above 0) the player stuck may end the game instead and keep the score (docs/rules/gaps.md)."""


def cell_name(cell: int, ranks: int) -> str:
    return f"r{cell // ranks + 1}c{cell % ranks + 1}"


class GapsState(State[GapsMove]):
    def __init__(self, variant: Variant, seed: int | None, grid: Grid, redeals_used: int) -> None:
        super().__init__(SPEC, variant, seed, 1)
        self.params: GapsParams = variant.params
        self.ranks: int = self.params.ranks
        self.grid = grid
        self.redeals_used = redeals_used
        self.stopped = False
        """Ended by :data:`STOP` instead of a redeal."""
        self._seen = {tuple(grid)}
        self._moves: list[GapsMove] | None = None

    # --- the board ------------------------------------------------------------------------
    def where(self, card: Card) -> int:
        return self.grid.index(card)

    def prefix(self, row: int) -> int:
        """Seed, Redeals: the cards in correct sequence from the left of ``row``."""
        start = row * self.ranks
        first = self.grid[start]
        if first is None or first.rank != 2:
            return 0
        length = 1
        while length < self.ranks - 1:
            card = self.grid[start + length]
            if card is None or card != Card(first.rank + length, first.suit):
                break
            length += 1
        return length

    @property
    def in_sequence(self) -> int:
        return sum(self.prefix(row) for row in range(self.params.suits))

    @property
    def won(self) -> bool:
        # RULES.md: won when every row holds one suit 2..K in columns 0..11.
        return self.in_sequence == self.params.suits * (self.ranks - 1)

    def is_dead(self, cell: int) -> bool:
        """Seed, Dead gaps: a gap right of a King or of another gap."""
        if self.grid[cell] is not None or cell % self.ranks == 0:
            return False
        left = self.grid[cell - 1]
        return left is None or left.rank == self.ranks

    # --- moves ----------------------------------------------------------------------------
    def _fills(self) -> list[GapsMove]:
        twos = [c for c in self.grid if c is not None and c.rank == 2]
        found: list[GapsMove] = []
        for cell, card in enumerate(self.grid):
            if card is not None:
                continue
            if cell % self.ranks == 0:
                # Seed, Leftmost column: any 2 (RULES.md: even one already in column 0).
                found += [GapsMove(two, cell // self.ranks) for two in twos]
            elif not self.is_dead(cell):
                left = self.grid[cell - 1]
                assert left is not None
                found.append(GapsMove(Card(left.rank + 1, left.suit)))
        return found

    def _target(self, move: GapsMove) -> int | None:
        """The cell the card would fill, None if it has no place."""
        assert move.card is not None
        if move.row is not None:
            return move.row * self.ranks
        before = self.where(Card(move.card.rank - 1, move.card.suit))
        return before + 1 if before % self.ranks < self.ranks - 1 else None

    def _after(self, move: GapsMove) -> tuple[Card | None, ...]:
        assert move.card is not None
        grid = list(self.grid)
        target = self._target(move)
        assert target is not None
        grid[self.where(move.card)] = None
        grid[target] = move.card
        return tuple(grid)

    def legal_moves(self) -> list[GapsMove]:
        if self._moves is None:
            fills = self._fills()
            # Ruling: no move may bring back a position of this deal (only 2s moving in
            # column 0 can), so that every game ends.
            moves = [m for m in fills if self._after(m) not in self._seen]
            if self.stopped:
                moves = []
            elif not moves and self.redeals_used < self.params.redeals and not self.won:
                moves = [REDEAL, STOP] if self.params.penalty > 0 else [REDEAL]
            self._moves = moves
        return list(self._moves)

    def parse_move(self, text: str) -> GapsMove:
        raw = text.strip()
        if raw.lower() == "redeal":
            return REDEAL
        if raw.lower() == "stop":
            return STOP
        card_text, arrow, row_text = (part.strip() for part in raw.partition(">"))
        if arrow and not row_text:  # '2S>' or 'KC>' was played as if the '>' were not there
            raise parse_error("move", text, "a row comes after '>', e.g. 2S>r3")
        try:
            card = Card.parse(card_text)
        except NotationError as err:
            raise parse_error("move", text, "a move is a card (7H), 2S>r3, redeal or stop") from err
        if card.rank == ACE:
            raise parse_error("move", text, "the aces are out of play")
        if card.suit >= self.params.suits or card.rank > self.ranks:
            raise parse_error("move", text, "that card is not in this game")
        if card.rank != 2:
            if row_text:
                raise parse_error("move", text, "only a 2 names a row (2S>r3)")
            return GapsMove(card)
        if row_text:
            if row_text[:1].lower() != "r" or not row_text[1:].isdigit():
                raise parse_error("move", text, "the row is written r1..r4, e.g. 2S>r3")
            row = int(row_text[1:]) - 1
            if not 0 <= row < self.params.suits:
                raise parse_error("move", text, f"there is no row {row + 1}")
            return GapsMove(card, row)
        gaps = [r for r in range(self.params.suits) if self.grid[r * self.ranks] is None]
        if not gaps:
            raise parse_error("move", text, "a 2 goes to the first column: no gap is open there")
        if len(gaps) != 1:
            raise parse_error("move", text, "say which row's first-column gap it fills: 2S>r3")
        return GapsMove(card, gaps[0])

    def why_illegal(self, move: GapsMove) -> str | None:
        if move in self.legal_moves():
            return None
        if self.stopped:
            return "the game was ended (stop)"
        if move.stop:
            if self.params.penalty <= 0:
                return "stop is offered only where a redeal costs points (penalty above 0)"
            if self.redeals_used >= self.params.redeals:
                return "no redeal left: the game is over without a stop"
            return "stop ends the game only when no move is left but a redeal"
        if move.card is None:
            if self.redeals_used >= self.params.redeals:
                return f"no redeal left ({self.params.redeals} allowed)"
            return "a redeal is allowed only when no other move is possible"
        if move.card.rank == 2 and move.row is None:
            return "a 2 goes to the first column: name the row, e.g. 2S>r3"
        target = self._target(move)
        if target is None:
            return (
                f"nothing can follow {Card(move.card.rank - 1, move.card.suit)} in the last column"
            )
        there = self.grid[target]
        if there == move.card:
            return f"it is already there ({cell_name(target, self.ranks)})"
        if there is not None:
            left = "" if move.row is not None else f" (right of {self.grid[target - 1]})"
            return f"cannot fill {cell_name(target, self.ranks)}{left}: {there} is there"
        if self._after(move) in self._seen:
            return "it would bring back an earlier position of this deal"
        return "not a legal move here"

    def fork(self) -> GapsState:
        """A copy that goes on from here with this deal's positions seen so far, so that it
        refuses what the game would (RULES.md, repetition); a copy from :meth:`position`
        starts with none."""
        twin = GapsState(self.variant, self.seed, list(self.grid), self.redeals_used)
        twin._seen = set(self._seen)
        twin.stopped = self.stopped
        return twin

    def seen_positions(self) -> frozenset[tuple[Card | None, ...]]:
        """The positions of this deal (or redeal) so far, which no move may bring back."""
        return frozenset(self._seen)

    def reveals_to(self, move: GapsMove) -> frozenset[int]:
        # A redeal shuffles the cards out of sequence (seeded by the deal): the layout it
        # deals is news. Every other move, stop included, shows only what was in sight.
        return THE_PLAYER if move == REDEAL else NOBODY

    def _play(self, move: GapsMove) -> Any:
        self._moves = None
        if move.stop:
            self.stopped = True
            return None
        if move.card is None:
            token = (list(self.grid), self._seen)
            self.redeals_used += 1
            self.grid = self._redealt()
            self._seen = {tuple(self.grid)}
            return token
        before = self.grid
        after = self._after(move)
        self.grid = list(after)
        self._seen.add(after)
        return before

    def _unplay(self, move: GapsMove, token: Any) -> None:
        self._moves = None
        if move.stop:
            self.stopped = False
            return
        if move.card is None:
            self.grid, self._seen = token
            self.redeals_used -= 1
            return
        self._seen.discard(tuple(self.grid))
        self.grid = token

    def _redealt(self) -> Grid:
        """Seed, Redeals; RULES.md: keep each row's prefix, gather the rest with the aces,
        shuffle (seeded per redeal), deal row by row into the free places, remove the aces."""
        keep = {
            row * self.ranks + col
            for row in range(self.params.suits)
            for col in range(self.prefix(row))
        }
        cards = [c for i, c in enumerate(self.grid) if c is not None and i not in keep]
        cards += [Card(ACE, s) for s in range(self.params.suits)]
        DealRng(self.seed or 0, "gaps", "redeal", self.redeals_used).shuffle(cards)
        grid = list(self.grid)
        free = iter(cards)
        for cell in range(len(grid)):
            if cell not in keep:
                card = next(free)
                grid[cell] = None if card.rank == ACE else card
        return grid

    # --- the end --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return TERMINAL if self.outcome() else 0

    @property
    def running_score(self) -> float:
        # RULES.md: cards in sequence minus a penalty per redeal used.
        # Rounded past any penalty typed (8 - 2 x 2.2 is 3.5999999999999996 in floats,
        # which the statistics showed).
        return round(self.in_sequence - self.params.penalty * self.redeals_used, 9)

    def outcome(self) -> Outcome | None:
        won = self.won
        if not won and self.legal_moves():
            return None
        details = {
            "in_sequence": self.in_sequence,
            "redeals_used": self.redeals_used,
            "redeals_allowed": self.params.redeals,
            "won": won,
        }
        ending = "won" if won else "stopped" if self.stopped else "stuck"
        return Outcome((0,) if won else (), (self.running_score,), ending, details)

    # --- views ----------------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        ranks = self.ranks
        rows = range(self.params.suits)
        return {
            "game": "gaps",
            "rows": self.params.suits,
            "cols": ranks,
            "grid": [[_text(self.grid[r * ranks + c]) for c in range(ranks)] for r in rows],
            "dead": [[i // ranks, i % ranks] for i in range(len(self.grid)) if self.is_dead(i)],
            "prefix": [self.prefix(r) for r in rows],
            "in_sequence": self.in_sequence,
            "redeals_used": self.redeals_used,
            "redeals_allowed": self.params.redeals,
            "score": self.running_score,
            "legal_moves": self.legal_moves_text() if player == self.current_player else [],
            "outcome": o.as_json() if (o := self.outcome()) else None,
        }

    def position(self) -> str:
        ranks = self.ranks
        rows = [
            " ".join(_text(c) or "--" for c in self.grid[r * ranks : (r + 1) * ranks])
            for r in range(self.params.suits)
        ]
        extra = []
        if self.redeals_used:
            extra.append(f"redeals {self.redeals_used}")
        if self.seed is not None:
            extra.append(f"seed {self.seed}")
        if self.stopped:
            extra.append("stopped 1")
        return " / ".join(rows) + (f" | {' '.join(extra)}" if extra else "")


def _text(card: Card | None) -> str | None:
    return str(card) if card is not None else None


def deck(params: GapsParams) -> list[Card]:
    return [Card(r, s) for s in range(params.suits) for r in range(1, params.ranks + 1)]


def new_state(variant: Variant, seed: int, players: int) -> GapsState:
    params: GapsParams = variant.params
    rng = DealRng(seed, "gaps")
    cards = deck(params)
    grid: list[Card | None] = []
    if params.twos_first:
        # Seed, Variations (Montana): the 2s start in column 0, suits in a seeded order.
        twos = [Card(2, s) for s in range(params.suits)]
        rng.shuffle(twos)
        rest = [c for c in cards if c.rank != 2]
        rng.shuffle(rest)
        width = params.ranks - 1
        for row, two in enumerate(twos):
            grid += [two, *rest[row * width : (row + 1) * width]]
    else:
        rng.shuffle(cards)
        grid = list(cards)
    # Seed, Setup 4: the aces are removed, leaving the gaps.
    grid = [None if c is not None and c.rank == ACE else c for c in grid]
    return GapsState(variant, seed, grid, 0)


def from_position(text: str, variant: Variant) -> GapsState:
    params: GapsParams = variant.params
    board_text, _, extra = text.partition("|")
    rows = [r.split() for r in board_text.split("/")]
    if len(rows) != params.suits or any(len(r) != params.ranks for r in rows):
        counts = ", ".join(str(len(r)) for r in rows)
        got = f"{len(rows)} row{'' if len(rows) == 1 else 's'} of {counts}"
        raise parse_error(
            "position",
            board_text[:40],
            f"needs {params.suits} rows of {params.ranks}, separated by ' / ' (got {got})",
        )
    tokens = [t for row in rows for t in row]
    grid: Grid = [_cell(t, cell, params.ranks, board_text) for cell, t in enumerate(tokens)]
    cards = [c for c in grid if c is not None]
    if any(c.rank == ACE for c in cards):
        aces = " ".join(str(c) for c in cards if c.rank == ACE)
        raise parse_error("position", board_text[:40], f"the aces are out of play: {aces}")
    wanted = {c for c in deck(params) if c.rank != ACE}
    strange = sorted(str(c) for c in set(cards) - wanted)
    if strange:
        raise parse_error("position", board_text[:40], f"not in this game: {' '.join(strange)}")
    dupes = sorted({str(c) for c in cards if cards.count(c) > 1})
    missing = sorted(str(c) for c in wanted - set(cards))
    # A card typed twice is most often another card mistyped: name both sides of it.
    problems = [f"cards appear twice: {' '.join(dupes)}"] if dupes else []
    problems += [f"cards missing: {' '.join(missing)}"] if missing else []
    if problems:
        raise parse_error("position", board_text[:40], "; ".join(problems))
    if params.twos_first:
        # Montana deals the 2s into the first column, and a 2 there moves only within it.
        strays = [f"{c} at {cell_name(i, params.ranks)}" for i, c in _twos_out(grid, params)]
        if strays:
            raise parse_error(
                "position",
                board_text[:40],
                f"in montana the 2s never leave the first column: {', '.join(strays)}",
            )
    redeals, seed, stopped = _bookkeeping(extra, params)
    state = GapsState(variant, seed, grid, redeals)
    if stopped:
        # Only a game that could have gone on by a redeal that costs points was stopped.
        if STOP not in state.legal_moves():
            raise parse_error(
                "position",
                extra,
                "only a game with no move left but a redeal that costs points can be stopped",
            )
        state.stopped = True
        state._moves = None  # (the moves found above were the unstopped game's)
    return state


def _twos_out(grid: Grid, params: GapsParams) -> list[tuple[int, Card]]:
    return [
        (i, c)
        for i, c in enumerate(grid)
        if c is not None and c.rank == 2 and i % params.ranks != 0
    ]


def _cell(token: str, cell: int, ranks: int, board_text: str) -> Card | None:
    """One place of a position: ``--`` or a card; an error names the place of a bad one."""
    if token == "--":
        return None
    try:
        return Card.parse(token)
    except NotationError as err:
        raise parse_error("position", board_text[:40], f"{cell_name(cell, ranks)}: {err}") from None


def _bookkeeping(text: str, params: GapsParams) -> tuple[int, int | None, bool]:
    # "| redeals 1 seed 5", as position() writes it; "| redeals 1 | seed 5" reads the same.
    words = text.replace("|", " ").split()
    if len(words) % 2:
        raise parse_error("position", text, "after | come pairs: redeals N, seed N, stopped 1")
    found: dict[str, int] = {}
    for key, value in zip(words[::2], words[1::2], strict=True):
        if key not in {"redeals", "seed", "stopped"}:
            raise parse_error("position", text, f"unknown bookkeeping '{key} {value}'")
        if not value.lstrip("-").isdigit():
            raise parse_error("position", text, f"{key} takes a whole number, not '{value}'")
        if key in found:
            raise parse_error("position", text, f"{key} is given twice")
        found[key] = int(value)
        if key == "seed" and not 0 <= found[key] <= MAX_DEAL:
            # The deals are 0..MAX_DEAL everywhere else (play, solve --seed, saves).
            raise parse_error("position", text, f"a deal number is 0..{MAX_DEAL}, not {value}")
    redeals = found.get("redeals", 0)
    if not 0 <= redeals <= params.redeals:
        raise parse_error("position", text, f"{redeals} redeals used, {params.redeals} allowed")
    stopped = found.get("stopped", 0)
    if stopped not in (0, 1):
        raise parse_error("position", text, f"stopped is 0 or 1, not {stopped}")
    return redeals, found.get("seed"), stopped == 1


def _heuristic(state: State[Any]) -> float:
    """Cards in sequence; a game stopped scores a little less than one redealt, so that a
    greedy player goes on playing (a redeal keeps every card in sequence)."""
    assert isinstance(state, GapsState)
    return state.in_sequence - (0.5 if state.stopped else 0.0)


SPEC = register(
    GameSpec(
        name="gaps",
        title="Gaps",
        description="Fill each gap with the next card of the suit to its left; build 2..K rows.",
        aliases=("montana", "addiction", "spaces"),
        min_players=1,
        max_players=1,
        hidden_information=False,
        chance=True,
        variants=(
            Variant("gaps", "two redeals when stuck", GapsParams(), "Standard"),
            Variant("no-redeal", "no redeal: the hardest form", GapsParams(redeals=0), "No redeal"),
            Variant("addiction", "three redeals", GapsParams(3), "Addiction"),
            Variant(
                "montana",
                "the 2s start in the first column (seeded suit order); two redeals",
                GapsParams(twos_first=True),
                "Montana",
            ),
        ),
        new_state=new_state,
        from_position=from_position,
        max_game_length=2000,
        param_help={
            "redeals": (
                "Redeals",
                "How many times you may gather and deal again the cards not in sequence when "
                "stuck (0 to 3).",
            ),
            "penalty": (
                "Penalty per redeal",
                "Points taken off your score for each redeal you use (0: none).",
            ),
            "twos_first": (
                "Twos first",
                "The four 2s start in the first column, the suits in a dealt order (Montana).",
            ),
            "suits": ("Suits", "Fewer than 4 makes a smaller board, for a short game."),
            "ranks": (
                "Ranks",
                "Cards per suit: fewer than 13 makes a smaller board, for a short game.",
            ),
        },
        heuristic=_heuristic,
        rules_doc="docs/rules/gaps.md",
    )
)
