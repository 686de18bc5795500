"""The game contract: what a game *is* (`GameSpec`) and what a position does (`State`).

Every game module builds a :class:`GameSpec` and registers it (see :mod:`ludoteca.core.registry`).
People and interfaces go through the checked path — :meth:`State.apply` with move notation,
:meth:`State.undo`, :meth:`State.observation` — while solvers may use a game's own fast
structures; differential tests keep the two equal.
"""

from __future__ import annotations

import dataclasses
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ludoteca.core.errors import IllegalMoveError, NotationError, UnknownGameError, shown
from ludoteca.core.rng import check_deal_numbers

TERMINAL = -1
"""``current_player`` of a finished game."""

NOBODY: frozenset[int] = frozenset()
THE_PLAYER: frozenset[int] = frozenset({0})
"""A solitaire's one seat, for :meth:`State.reveals_to`."""

M = TypeVar("M")
JSON = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """How a game ended: who won, the final score of each player, and why it ended."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    termination: str
    details: Mapping[str, Any] = field(default_factory=dict)
    """Game-specific figures kept with the result (e.g. ``redeals_used`` in Gaps)."""

    @property
    def won(self) -> bool:
        """For a solitaire: did the (only) player win?"""
        return 0 in self.winners

    def as_json(self) -> JSON:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "termination": self.termination,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Variant:
    """One named variant: its parameters are a frozen dataclass instance (variants are data)."""

    name: str
    description: str
    params: Any
    title: str = ""
    """What people read for it on the web page ("No redeal"); the name (``no-redeal``) is
    the notation: typed after ``-v``, stored, in the page's addresses and requests."""

    def with_params(self, overrides: Mapping[str, str]) -> Variant:
        """A copy with some parameters set from text (``redeals=1``), type-checked."""
        if not overrides:
            return self
        fields = {f.name: f for f in dataclasses.fields(self.params)}
        values: dict[str, Any] = {}
        for key, text in overrides.items():
            if key not in fields:
                known = ", ".join(sorted(fields)) or "none"
                raise UnknownGameError(
                    f"variant '{self.name}' has no parameter '{key}' (parameters: {known})"
                )
            current = getattr(self.params, key)
            values[key] = _convert(key, text, current)
        params = dataclasses.replace(self.params, **values)
        check = getattr(params, "check", None)
        if callable(check):
            check()
        return dataclasses.replace(self, params=params)

    def params_json(self) -> JSON:
        return dataclasses.asdict(self.params)


def _convert(key: str, text: str, current: object) -> object:
    try:
        if isinstance(current, bool):
            if text.lower() in {"1", "true", "yes", "on"}:
                return True
            if text.lower() in {"0", "false", "no", "off"}:
                return False
            raise ValueError(text)
        if isinstance(current, int):
            return int(text)
        if isinstance(current, float):
            number = float(text)
            if not math.isfinite(number):  # nan and inf parse, then spoil every score
                raise ValueError(text)
            return number
        if current is None:
            return None if text.lower() in {"none", ""} else int(text)
    except ValueError:
        kind = {bool: "yes or no", int: "whole number", float: "finite number"}.get(
            type(current), "whole number or none"
        )
        raise UnknownGameError(f"parameter '{key}' needs a {kind}, not '{shown(text)}'") from None
    return text


def typed_value(value: object) -> str:
    """A parameter's value as a person types it after ``-p``: true/false, none, 2 (not
    2.0)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        # As typed, every digit kept (:g kept six: 2.1234567 came back as 2.12346).
        text = repr(value)
        return text.removesuffix(".0")
    return str(value)


def key_shown(key: str) -> str:
    """A stored variant label (:func:`variant_key`: ``gaps[penalty=2.0,twos_first=True]``)
    written as :meth:`GameSpec.variant_shown` writes one: ``gaps[penalty=2,twos_first=true]``.
    For people only; results stay stored under the label itself."""
    name, bracket, rest = key.partition("[")
    if not bracket or not rest.endswith("]"):
        return key
    pairs = []
    for pair in rest[:-1].split(","):
        param, _, value = pair.partition("=")
        if value in ("True", "False", "None"):
            value = value.lower()
        elif value.endswith(".0") and value[:-2].lstrip("-").isdigit():
            value = value[:-2]
        pairs.append(f"{param}={value}")
    return f"{name}[{','.join(pairs)}]"


def variant_key(variant: Variant, default: Variant) -> str:
    """``gaps`` or ``gaps[redeals=1]`` when parameters differ from the variant as declared."""
    changed = [
        f"{k}={v}" for k, v in variant.params_json().items() if default.params_json().get(k) != v
    ]
    return variant.name + (f"[{','.join(changed)}]" if changed else "")


@dataclass(frozen=True)
class GameSpec:
    """What a game is, as data (after OpenSpiel's game type)."""

    name: str
    title: str
    description: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    hidden_information: bool
    chance: bool
    variants: tuple[Variant, ...]
    new_state: Callable[[Variant, int, int], State[Any]]
    """``new_state(variant, seed, players)``: the seeded deal."""
    from_position: Callable[[str, Variant], State[Any]]
    """Read a position in the game's text notation (raises :class:`NotationError`)."""
    max_game_length: int
    """A bound on moves in one game; policies that could wander stop there (a loss)."""
    heuristic: Callable[[State[Any]], float] | None = None
    """How good a position looks to a greedy player (higher is better)."""
    rules_doc: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    param_help: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Each parameter (``-p NAME=VALUE``) for players: a label and what it does, as the web
    page's options and ``ludoteca games GAME`` show them."""
    play_decides: bool = True
    """Can the player's choices change the result? False where every complete game of a
    deal ends alike (Tappeto: the order of plays never matters, its rules prove it): seeing
    a hidden card and taking the move back then gains nothing, so no undo or restart makes
    the game practice (``docs/architecture.md``, *Practice*)."""
    score_left: tuple[str, str] | None = None
    """Where a score is minus a count of what is left (Domino: the tiles left in hand), that
    thing's name, one and several (``("tile", "tiles")``): ``stats`` tells a best score of -1
    as "1 tile left", not as a bare -1."""

    @property
    def is_solitaire(self) -> bool:
        return self.max_players == 1

    def param_help_json(self) -> dict[str, dict[str, str]]:
        """:attr:`param_help` as JSON: ``{"penalty": {"label": ..., "help": ...}}``."""
        return {
            name: {"label": label, "help": text} for name, (label, text) in self.param_help.items()
        }

    def param_limits_json(self) -> dict[str, dict[str, Any]]:
        """Each number parameter's ``step`` (1 for a whole number, ``"any"`` for a real one)
        and the ``min`` and ``max`` its variant's ``check`` takes, where it sets one (the
        parameter's field metadata), for the web page's options fields:
        ``{"redeals": {"step": 1, "min": 0, "max": 3}}``."""
        params = self.default_variant.params
        limits: dict[str, dict[str, Any]] = {}
        for found in dataclasses.fields(params):
            value = getattr(params, found.name)
            if isinstance(value, bool):
                continue
            bounds = {k: found.metadata[k] for k in ("min", "max") if k in found.metadata}
            limits[found.name] = {"step": "any" if isinstance(value, float) else 1, **bounds}
        return limits

    @property
    def players_text(self) -> str:
        """Who plays, for messages: "a solitaire (1 player)", "2-4 players"."""
        if self.is_solitaire:
            return "a solitaire (1 player)"
        return f"{self.min_players}-{self.max_players} players"

    @property
    def deal_is_secret(self) -> bool:
        """Would the deal number tell a seat what it must not see (the other hands, the
        face-down tiles)? Anyone can deal a number again: then it is shown to no one while
        the game is played, and never chosen by one of several people at the table."""
        return not self.is_solitaire and self.hidden_information

    @property
    def default_variant(self) -> Variant:
        return self.variants[0]

    def variant(self, name: str | None = None, params: Mapping[str, str] | None = None) -> Variant:
        """Look up a variant by name (default: the first), with optional parameter overrides."""
        if name is None:
            chosen = self.default_variant
        else:
            wanted = name.strip().lower()
            found = [v for v in self.variants if v.name == wanted]
            if not found:
                names = ", ".join(v.name for v in self.variants)
                raise UnknownGameError(f"{self.name} has no variant '{name}' (variants: {names})")
            chosen = found[0]
        return chosen.with_params(params or {})

    def variant_label(self, variant: Variant) -> str:
        """``gaps`` or ``gaps[redeals=1]``: the variant plus any parameter changed from it."""
        return variant_key(variant, self.variant(variant.name))

    def variant_shown(self, variant: Variant) -> str:
        """The label for people: as :meth:`variant_label`, values written as typed after
        ``-p`` (``gaps[penalty=2]``, not ``penalty=2.0``; ``twos_first=true``). The label
        itself is what results are stored under, and stays as it is."""
        return key_shown(self.variant_label(variant))

    def new_game(
        self,
        variant: str | Variant | None = None,
        seed: int = 0,
        players: int | None = None,
    ) -> State[Any]:
        """Deal ``seed`` (0..2**63-1) of a variant (a name, a :class:`Variant`, or None for
        the default) for ``players`` (default: the fewest the game takes)."""
        check_deal_numbers(seed)  # (deal -1 was dealt, which every command refuses)
        chosen = variant if isinstance(variant, Variant) else self.variant(variant)
        count = self.min_players if players is None else players
        if not self.min_players <= count <= self.max_players:
            raise UnknownGameError(f"{self.name} is for {self.players_text}, not {count}")
        return self.new_state(chosen, seed, count)


class State(ABC, Generic[M]):
    """A position of a game, with the checked path for people.

    Subclasses implement the abstract methods; :meth:`apply` and :meth:`undo` are shared so
    that every game checks moves and keeps history the same way. ``_play`` returns whatever
    ``_unplay`` needs to take the move back (often a snapshot).
    """

    spec: GameSpec
    variant: Variant
    seed: int | None
    players: int

    def __init__(self, spec: GameSpec, variant: Variant, seed: int | None, players: int) -> None:
        self.spec = spec
        self.variant = variant
        self.seed = seed
        self.players = players
        self._history: list[tuple[M, Any]] = []

    # --- what each game provides -------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[M]:
        """The moves the player to move may make now (empty when the game is over)."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move in this game's notation; :class:`NotationError` if malformed."""

    @abstractmethod
    def why_illegal(self, move: M) -> str | None:
        """``None`` if the move is legal here, else a short reason (``"r2c5 is dead"``)."""

    @abstractmethod
    def _play(self, move: M) -> Any:
        """Make a legal move without checking it; return what :meth:`_unplay` needs."""

    @abstractmethod
    def _unplay(self, move: M, token: Any) -> None:
        """Take back ``move`` made by :meth:`_play`, which returned ``token``."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The player to move, or :data:`TERMINAL`."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""

    @abstractmethod
    def observation(self, player: int) -> JSON:
        """Everything ``player`` may see, as JSON-ready data, and nothing more.

        It contains ``legal_moves`` (move notation) when ``player`` is to move.
        """

    @abstractmethod
    def position(self) -> str:
        """The whole position in text notation (hidden parts included: not for players)."""

    def hidden_from(self, player: int) -> frozenset[str]:
        """Notation of every card or tile that ``player`` must not see (for leak tests)."""
        return frozenset()

    @abstractmethod
    def reveals_to(self, move: M) -> frozenset[int]:
        """The seats to whom playing ``move`` from this position brings hidden information
        to light: something of the position after it that the seat's observation now does
        not determine (a card or tile turned up or drawn, another seat's hand shown, a
        shuffle's outcome). A seat that saw a card before and lost sight of it (Acme's
        waste turned over) learns nothing from seeing it again in the same order. What an
        undo or a restart asks of the position the move was played from, to tell a game
        replayed knowing it (``docs/architecture.md``, *Practice*)."""

    def tiles_shown_by(self, move: M) -> frozenset[int]:
        """The seats from whom ``move`` takes a card or tile out of hiding (in
        :meth:`hidden_from` before it, not after), found by playing it and taking it back:
        a game whose hidden tiles depend on the seat (hands, a tile only its drawer sees)
        declares its :meth:`reveals_to` with it."""
        before = [self.hidden_from(seat) for seat in range(self.players)]
        token = self._play(move)
        try:
            after = [self.hidden_from(seat) for seat in range(self.players)]
        finally:
            self._unplay(move, token)
        return frozenset(seat for seat in range(self.players) if before[seat] - after[seat])

    def revealed_in_last(self, seat: int, count: int | None = None) -> bool:
        """Did any of the last ``count`` moves (every move: None) bring hidden information
        to light for ``seat`` (:meth:`reveals_to`)? An undo or a restart asks before it
        takes them back; the position is left as it was."""
        wanted = len(self._history) if count is None else min(count, len(self._history))
        taken: list[M] = []
        found = False
        try:
            while len(taken) < wanted and not found:
                move = self.undo()
                taken.append(move)
                found = seat in self.reveals_to(move)
        finally:
            for move in reversed(taken):
                self._history.append((move, self._play(move)))
        return found

    def move_text(self, move: M) -> str:
        return str(move)

    # --- shared checked path ---------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    @property
    def history(self) -> list[M]:
        return [move for move, _ in self._history]

    def history_text(self) -> list[str]:
        return [self.move_text(move) for move, _ in self._history]

    def check(self, move: M | str) -> M:
        """Parse (if text) and check a move; raise :class:`IllegalMoveError` saying why not."""
        parsed = self.parse_move(move) if isinstance(move, str) else move
        if self.is_over:
            raise IllegalMoveError(f"{self.move_text(parsed)}: the game is over")
        reason = self.why_illegal(parsed)
        if reason is not None:
            raise IllegalMoveError(f"{self.move_text(parsed)}: {reason}")
        return parsed

    def apply(self, move: M | str) -> M:
        """The checked path: parse, check, play and remember the move."""
        parsed = self.check(move)
        token = self._play(parsed)
        self._history.append((parsed, token))
        return parsed

    def undo(self) -> M:
        """Take back the last move; :class:`IllegalMoveError` if there is none."""
        if not self._history:
            raise IllegalMoveError("nothing to undo")
        move, token = self._history.pop()
        self._unplay(move, token)
        return move

    def legal_moves_text(self) -> list[str]:
        return [self.move_text(m) for m in self.legal_moves()]

    def score(self, player: int = 0) -> float:
        """The final score when over; games override for a running score."""
        outcome = self.outcome()
        return outcome.scores[player] if outcome else 0.0

    def __str__(self) -> str:
        return self.position()


def parse_error(what: str, text: str, why: str) -> NotationError:
    """A uniform one-line notation error: ``bad move 'x9': no such cell``."""
    return NotationError(f"bad {what} '{shown(text)}': {why}")
