"""Rooms: one game in progress each, its seats (people or bots) and who is watching.

The room owns the only :class:`State`; the rules decide every move (``State.apply``) and a
player sees the game only through ``State.observation(seat)`` (built in :mod:`.views`). Each
accepted move is written to the store before anyone hears of it; a move the store refuses is
taken back, so memory and disk never disagree.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ludoteca.bots.base import Bot, bots_for, make_bot
from ludoteca.core.errors import IllegalMoveError, LudotecaError, NotationError
from ludoteca.core.game import TERMINAL, GameSpec, State, Variant, variant_key
from ludoteca.core.practice import practice_notice
from ludoteca.core.registry import find_game
from ludoteca.core.rng import MAX_DEAL, DealRng
from ludoteca.hints import has_hint, hint_for
from ludoteca.server.protocol import HUMAN, ProtocolError
from ludoteca.server.views import seat_view
from ludoteca.solvers.base import Hint
from ludoteca.store.web import Result, SavedGame, WebStore, same_secret

DEFAULT_PLAYER = "player"
log = logging.getLogger(__name__)

Listener = Callable[[dict[str, Any]], Awaitable[None]]
"""Sends one event to one connection."""


@dataclass(frozen=True)
class RoomConfig:
    bot_delay: float = 0.8
    """Seconds before each bot move, so that people can follow the bots' play."""
    hint_seconds: float = 2.0


def replay(spec: GameSpec, variant: Variant, seed: int, players: int, moves: list[str]) -> Any:
    """The deal with ``moves`` applied through the checked path."""
    state = spec.new_state(variant, seed, players)
    for move in moves:
        state.apply(move)
    return state


class Room:
    def __init__(self, saved: SavedGame, store: WebStore, config: RoomConfig) -> None:
        self.saved = saved
        self.store = store
        self.config = config
        self.spec = find_game(saved.game)
        self.variant = self.spec.variant(saved.variant, saved.params)
        self.variant_key = variant_key(self.variant, self.spec.variant(saved.variant))
        self.bots: dict[int, Bot] = {
            seat: make_bot(self.spec, kind)
            for seat, kind in enumerate(saved.seats)
            if kind != HUMAN
        }
        self.moves: list[tuple[int, str]] = list(saved.moves)
        self.state: State[Any] = self._replay([m for _, m in self.moves])
        self.redo_stack: list[tuple[int, str]] = []
        self.hidden_before_last: list[frozenset[str]] | None = None
        """What each seat could not see before the last move (None: not known, after a
        replay or an undo): a move naming only what a seat saw before it hides nothing."""
        self.practice_notice: str | None = None
        """Why the game became practice, since it did here (the page says it once)."""
        self.listeners: dict[Listener, int] = {}
        self.lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.saved.id

    @property
    def solitaire(self) -> bool:
        return len(self.saved.seats) == 1

    @property
    def practice(self) -> bool:
        """Taken back past a move that showed its person hidden tiles: no result is recorded
        at its end (``ludoteca.core.practice``)."""
        return self.saved.practice

    def _takes_back_a_reveal(self, seat: int, count: int) -> bool:
        """Would taking back the last ``count`` moves make the game practice: one of them
        showed ``seat`` (the one person at the table) something hidden?"""
        return (
            self.spec.play_decides
            and not self.practice
            and self.state.revealed_in_last(seat, count)
        )

    def _now_practice(self, practice: bool, seat: int) -> None:
        """The game is practice from now on, if ``practice``: ``seat``'s page is told why."""
        if practice:
            self.saved = replace(self.saved, practice=True)
            counted = self.store.counted(self.id, seat)
            self.practice_notice = practice_notice(self.spec, counted=counted)

    def _replay(self, moves: list[str]) -> State[Any]:
        try:
            state: State[Any] = replay(
                self.spec, self.variant, self.saved.seed, len(self.saved.seats), moves
            )
        except LudotecaError as err:
            raise ProtocolError("broken", f"this saved game no longer replays: {err}") from err
        return state

    # --- what a seat may do ---------------------------------------------------------------
    def check_token(self, seat: int, token: str) -> None:
        self._check_person(seat)
        expected = self.saved.tokens[seat]
        if expected is None:
            raise ProtocolError(
                "forbidden", f"player {seat + 1}'s seat is not taken yet: its invitation opens it"
            )
        if not same_secret(expected, token):
            # (Players counted from 1 in messages, as the page names them; seat 0 is player 1.)
            raise ProtocolError("forbidden", f"wrong token for player {seat + 1}")

    def claim(self, seat: int, code: str, token: str, player: str | None = None) -> None:
        """Take ``seat`` with its invitation's ``code``, once: its token is now ``token``,
        chosen and kept by the claimer before it asked, so that a claim whose answer was
        lost still opens the seat (with that token, or by the same claim again). Whoever
        started the table held the invitation too, so a seat that was opened by them is
        found out by its friend, whose link no longer works. ``player``: the claimer's
        name, which the seat's results count for."""
        self._check_person(seat)
        claim = self.store.claim_invite(self.id, seat, code, token, player)
        if claim == "none":
            raise ProtocolError(
                "forbidden", f"player {seat + 1}'s seat has no invitation: it opens with its token"
            )
        if claim == "wrong":
            raise ProtocolError("forbidden", f"wrong invitation for player {seat + 1}")
        if claim == "used":
            raise ProtocolError(
                "forbidden",
                "this seat's invitation was used already: if you opened it before, go on"
                " in that browser; if not, tell whoever sent it to you",
            )
        tokens = list(self.saved.tokens)
        tokens[seat] = token
        players = dict(self.saved.players)
        if player:
            players.setdefault(seat, player)
        self.saved = replace(self.saved, tokens=tokens, players=players)

    def name_seat(self, seat: int, player: str) -> None:
        """Give a person's seat its player's name if it has none: a seat taken before
        seats had names (a claim of then, a table from before invitations) gets the name
        of whoever joins it next, so that its results count for them."""
        if seat in self.saved.players or self.saved.seats[seat] != HUMAN:
            return
        stored = self.store.name_seat(self.id, seat, player)
        self.saved = replace(self.saved, players={**self.saved.players, seat: stored})

    def _check_person(self, seat: int) -> None:
        if not 0 <= seat < len(self.saved.seats):
            raise ProtocolError("bad-seat", f"this game has seats 0..{len(self.saved.seats) - 1}")
        if self.saved.seats[seat] != HUMAN:
            raise ProtocolError("forbidden", f"player {seat + 1} is a bot")

    def play(self, seat: int, text: str, ply: int | None) -> None:
        if ply is not None and ply != len(self.moves):
            raise ProtocolError("stale", f"the game is at move {len(self.moves)}, not {ply}")
        to_move = self.state.current_player
        if to_move == TERMINAL:
            raise ProtocolError("illegal", "the game is over")
        if to_move != seat:
            raise ProtocolError(
                "not-your-turn", f"player {to_move + 1} is to move, not player {seat + 1}"
            )
        self._apply(seat, text)
        self.redo_stack.clear()

    def _apply(self, seat: int, text: str) -> None:
        # What each seat could not see before the move (a solitaire hides no move of its own).
        seats = range(len(self.saved.seats))
        hidden = None if self.solitaire else [self.state.hidden_from(s) for s in seats]
        try:
            move = self.state.apply(text)
        except NotationError as err:
            raise ProtocolError("notation", str(err)) from err
        except IllegalMoveError as err:
            raise ProtocolError("illegal", str(err)) from err
        except Exception as err:
            # An engine bug must not leave a half-made move behind: rebuild from the record.
            # The log is every table's: where tiles are hidden, the move and the error may
            # name one (a split of hidden captures), so it says only what failed where.
            if self.spec.hidden_information:
                log.error(
                    "engine failed (%s) at ply %d in room %s",
                    type(err).__name__,
                    len(self.moves),
                    self.id,
                )
            else:
                log.exception("engine failed on %r in room %s", text, self.id)
            self.state = self._replay([m for _, m in self.moves])
            raise ProtocolError("engine", f"the engine failed on '{text}': {err}") from err
        played = self.state.move_text(move)
        try:
            # The move that ends the game is stored with its results, in one transaction.
            self.store.push_moves(self.id, len(self.moves), [(seat, played)], self.results())
        except sqlite3.Error as err:
            self.state.undo()
            raise ProtocolError("storage", f"the move was not saved: {err}") from err
        self.moves.append((seat, played))
        self.hidden_before_last = hidden

    def results(self) -> list[Result]:
        """The results to store once the game is over, one for each person's seat (each
        counts for whoever plays it); none before, and none for a bot's seat."""
        outcome = self.state.outcome()
        if outcome is None:
            return []
        return [
            Result(
                self.variant_key,
                seat in outcome.winners,
                outcome.scores[seat],
                dict(outcome.details),
                seat,
            )
            for seat, kind in enumerate(self.saved.seats)
            if kind == HUMAN
        ]

    def _only_bots_besides(self, seat: int, what: str) -> None:
        if any(kind == HUMAN for s, kind in enumerate(self.saved.seats) if s != seat):
            raise ProtocolError("forbidden", f"{what} is only for games against bots")

    def undo(self, seat: int) -> None:
        """Take back the seat's last move (and the bots' replies to it)."""
        self._only_bots_besides(seat, "undo")
        mine = [i for i, (s, _) in enumerate(self.moves) if s == seat]
        if not mine:
            raise ProtocolError("illegal", "nothing to undo")
        undone = self.moves[mine[-1] :]
        practice = self._takes_back_a_reveal(seat, len(undone))
        # The store first: if it refuses, memory still agrees with it.
        self.store.truncate_moves(self.id, mine[-1], practice=practice)
        self._now_practice(practice, seat)
        for _ in undone:
            self.state.undo()
        del self.moves[mine[-1] :]
        self.hidden_before_last = None
        # Redo replays the seat's own move; bots answer it again by themselves.
        self.redo_stack.append(undone[0])

    def redo(self, seat: int) -> None:
        self._only_bots_besides(seat, "redo")
        if not self.redo_stack:
            raise ProtocolError("illegal", "nothing to redo")
        if self.state.current_player != seat:
            raise ProtocolError("not-your-turn", "redo waits for your turn")
        _, text = self.redo_stack[-1]
        self._apply(seat, text)
        self.redo_stack.pop()

    def restart(self, seat: int) -> None:
        self._only_bots_besides(seat, "restart")
        fresh = self._replay([])
        practice = self._takes_back_a_reveal(seat, len(self.moves))
        self.store.truncate_moves(self.id, 0, over=fresh.is_over, practice=practice)
        self._now_practice(practice, seat)
        self.state = fresh
        self.moves.clear()
        self.redo_stack.clear()
        self.hidden_before_last = None

    def abandon(self, seat: int) -> None:
        self._only_bots_besides(seat, "abandon")
        self.store.set_status(self.id, "abandoned")

    @property
    def can_again(self) -> bool:
        """May the same deal be played again? Not with hidden tiles and other people."""
        people = sum(1 for kind in self.saved.seats if kind == HUMAN)
        return not (self.spec.deal_is_secret and people > 1)

    @property
    def can_hint(self) -> bool:
        return has_hint(self.spec)

    async def hint(self, seat: int) -> Hint:
        if not self.can_hint:
            raise ProtocolError("no-hint", f"{self.spec.title} has no hint")
        if self.state.current_player != seat:
            raise ProtocolError("not-your-turn", "a hint is for the player to move")
        asked = time.perf_counter()
        moves = [m for _, m in self.moves]
        return await asyncio.to_thread(self._hint_on_a_copy, moves, seat, asked)

    def _hint_on_a_copy(self, moves: list[str], seat: int, asked: float) -> Hint:
        """The hint for the game after ``moves``, within the hint's time counted from when
        it was ``asked``. The search works on a copy, so moves made meanwhile never race
        with it; the copy replays the game (in the thread too: a long game's replay held up
        every room), and its time comes out of the budget, which it was added to."""
        copy = self._replay(moves)
        left = max(0.0, self.config.hint_seconds - (time.perf_counter() - asked))
        return hint_for(copy, seat, left)

    # --- telling the players ----------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Any]:
        return seat_view(self, seat)

    async def broadcast(self) -> None:
        for listener, seat in list(self.listeners.items()):
            try:
                await listener(self.view(seat))
            except Exception:  # a closed socket: forget it, the others still hear
                self.listeners.pop(listener, None)

    # --- bots ---------------------------------------------------------------------------------
    def wake_bots(self) -> None:
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self.state.current_player in self.bots:
            self._bot_task = asyncio.create_task(self._run_bots())

    async def _run_bots(self) -> None:
        failures = 0
        while True:
            # After a failed write, wait longer each time (a busy database may free up).
            await asyncio.sleep(self.config.bot_delay * 2**failures)
            async with self.lock:
                seat = self.state.current_player
                bot = self.bots.get(seat)
                if bot is None:
                    return
                observation = self.state.observation(seat)
                rng = DealRng(self.saved.seed, "bot", seat, len(self.moves))
                try:
                    text = await asyncio.to_thread(bot.choose, observation, rng)
                    self.state.check(text)
                except Exception as err:  # a bot's bug must not stall the table
                    # (Its error may name a tile hidden from the other seats: see _apply.)
                    said = type(err).__name__ if self.spec.hidden_information else err
                    log.error("bot %s failed in room %s: %s", bot.name, self.id, said)
                    text = observation["legal_moves"][0]
                try:
                    self._apply(seat, text)
                except ProtocolError as err:
                    # Not stored (the move was taken back): the bot tries again, a few times;
                    # then the table waits for the next join or move to wake it.
                    failures += 1
                    log.error("bot %s's move not stored in room %s: %s", bot.name, self.id, err)
                    if failures >= BOT_RETRIES:
                        return
                    continue
                failures = 0
            await self.broadcast()


BOT_RETRIES = 5
"""How often a bot's move that could not be stored is tried again before the table waits."""


class Rooms:
    """Rooms in memory, loaded from the store on first use (replaying their moves)."""

    def __init__(self, store: WebStore, config: RoomConfig) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}

    def get(self, room_id: str) -> Room:
        room = self.rooms.get(room_id)
        if room is None:
            saved = self.store.load_game(room_id)
            if saved is None:
                raise ProtocolError(
                    "unknown-room",
                    f"there is no game '{room_id}' on this server: it does not exist, or no"
                    " longer exists",
                )
            try:
                room = Room(saved, self.store, self.config)
            except LudotecaError as err:  # a game or bot that this server no longer knows
                raise ProtocolError("broken", f"this saved game cannot be loaded: {err}") from err
            results = room.results()
            if results and saved.status == "playing":
                # Over but not stored as finished: a database made before the last move and
                # its result were written together. Its results count now (or at a later
                # load, if the database is busy now: the game itself is intact).
                try:
                    self.store.record(room_id, results)
                except sqlite3.Error as err:
                    log.error("the result of room %s is not stored yet: %s", room_id, err)
            self.rooms[room_id] = room
        return room

    def again(self, room: Room, seat: int) -> Room:
        """A new game on ``room``'s deal, with its variant, parameters and seats, created by
        ``seat`` (the asker's, under its player's name: the others get invitations). With
        hidden tiles, only against bots and once the game is over: before, anyone at the
        table could ask for it and, with the new table's tokens, read the other seats' hands
        of the same deal; and with other people, each would start knowing what the others
        held (the hands are not all shown at the end), as a chosen deal would
        (:meth:`create`)."""
        saved = room.saved
        if not room.can_again:
            raise ProtocolError(
                "forbidden",
                "with other people at the table a new deal, not the same one (each would "
                "know what the others held)",
            )
        if room.spec.deal_is_secret and not room.state.is_over:
            raise ProtocolError(
                "forbidden", "the same deal again only once this game is over (it shows the hands)"
            )
        return self._create(
            {
                "game": saved.game,
                "variant": saved.variant,
                "params": saved.params,
                "seed": saved.seed,
                "seats": saved.seats,
                # (A seat with no name yet gets the default: not the first table's creator's,
                # who does not sit there.)
                "player": saved.players.get(seat),
            },
            seat,
        )

    def create(self, request: Mapping[str, Any]) -> Room:
        """A new game from a page's request. With hidden tiles and more than one person at
        the table, no chosen deal: whoever chose it would know every hand."""
        spec = _find(request["game"])
        seats = request.get("seats")
        people = 1 if seats is None else sum(1 for kind in seats if kind == HUMAN)
        if spec.deal_is_secret and people > 1 and request.get("seed") is not None:
            raise ProtocolError(
                "bad-request",
                "with other people at the table the deal is drawn at random (a chosen deal "
                "would tell its chooser every hand)",
            )
        return self._create(request)

    def _create(self, request: Mapping[str, Any], creator: int | None = None) -> Room:
        """A new game; ``creator`` is the seat of whoever starts it (default: the first
        person's), who alone gets a token now: each other person's seat gets an invitation,
        claimed once, so that the creator cannot read a hand unseen (:meth:`Room.claim`)."""
        spec = _find(request["game"])
        params = _params_text(request.get("params") or {})
        variant_name = request.get("variant") or spec.default_variant.name
        try:
            variant = spec.variant(variant_name, params)
        except LudotecaError as err:
            raise ProtocolError("bad-request", str(err)) from err
        seats = _seats(spec, request.get("seats"))
        seed = request.get("seed")
        if isinstance(seed, str):
            if not (seed.isascii() and seed.isdigit()):
                raise ProtocolError("bad-request", f"a deal number is 0 or more, not {seed[:40]!r}")
            seed = int(seed)
        if seed is None:
            # With hidden tiles, any of the 2**63 deals: a million candidates let a seat find
            # the deal from its own hand in seconds (shuffling each with the public DealRng),
            # and with it every hand. Solitaires keep short numbers, easy to note and replay.
            seed = secrets.randbelow(MAX_DEAL + 1 if spec.deal_is_secret else 1_000_000)
        if not 0 <= seed <= MAX_DEAL:
            # SQLite keeps 64-bit integers: a larger deal failed as "the server failed".
            raise ProtocolError(
                "bad-request", f"a deal number is 0 or more, and at most {MAX_DEAL}"
            )
        if creator is None:
            creator = seats.index(HUMAN)
        player = request.get("player") or DEFAULT_PLAYER
        saved = SavedGame(
            id=secrets.token_urlsafe(6),
            game=spec.name,
            variant=variant.name,
            params=params,
            seed=seed,
            seats=seats,
            tokens=[secrets.token_urlsafe(12) if s == creator else None for s in range(len(seats))],
            player=player,
            status="playing",
            moves=[],
            invites={
                s: secrets.token_urlsafe(12)
                for s, kind in enumerate(seats)
                if kind == HUMAN and s != creator
            },
            players={creator: player},
        )
        room = Room(saved, self.store, self.config)
        # A deal over before any move (a Tappeto deal with no move, a tiny Gaps board won
        # at move 0) is stored with its result: it has no move to store it with, and stayed
        # "in progress" forever, never counted.
        self.store.create_game(saved, room.results())
        self.rooms[saved.id] = room
        return room


def _find(name: str) -> GameSpec:
    try:
        return find_game(name)
    except LudotecaError as err:
        raise ProtocolError("bad-request", str(err)) from err


def _params_text(params: Mapping[str, Any]) -> dict[str, str]:
    text: dict[str, str] = {}
    for key, value in params.items():
        if not isinstance(value, str | int | float):
            raise ProtocolError("malformed", f"parameter '{key}' must be text, number or boolean")
        text[key] = str(value).lower() if isinstance(value, bool) else str(value)
    return text


def _seats(spec: GameSpec, seats: list[Any] | None) -> list[str]:
    if seats is None:
        if spec.is_solitaire:
            return [HUMAN]
        bots = bots_for(spec.name)
        default = "greedy" if "greedy" in bots else "random"
        return [HUMAN] + [default] * (spec.min_players - 1)
    if not spec.min_players <= len(seats) <= spec.max_players:
        # ("Tappeto is for a solitaire (1 player), not 2" read as if a solitaire were a seat.)
        what = "is a solitaire: one seat" if spec.is_solitaire else f"is for {spec.players_text}"
        raise ProtocolError("bad-request", f"{spec.title} {what}, not {len(seats)}")
    known = bots_for(spec.name)
    for kind in seats:
        if not isinstance(kind, str) or (kind != HUMAN and kind not in known):
            names = ", ".join([HUMAN, *sorted(known)])
            raise ProtocolError("bad-request", f"a seat is one of {names}, not {kind!r}")
    if HUMAN not in seats:
        raise ProtocolError("bad-request", "at least one seat must be a person")
    return list(seats)
