"""``ludoteca play``: a game in the terminal against the rules, and bots in the free seats."""

from __future__ import annotations

import contextlib
import re
import signal
import sqlite3
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.control import Control
from rich.markdown import Markdown
from rich.markup import escape
from rich.panel import Panel
from rich.segment import ControlType, Segment

from ludoteca.bots.base import Bot, bots_for, make_bot
from ludoteca.cli.app import app, console, fail
from ludoteca.cli.common import (
    DbOpt,
    ParamOpt,
    VariantOpt,
    db_path,
    open_db,
    players_list,
    random_seed,
    resolve,
)
from ludoteca.core.errors import LudotecaError, shown
from ludoteca.core.game import GameSpec, Outcome, State
from ludoteca.core.practice import PRACTICE, pieces, practice_notice
from ludoteca.core.registry import find_game
from ludoteca.core.rng import DealRng, check_deal_numbers
from ludoteca.core.saves import loads, restore, snapshot
from ludoteca.hints import hint_for, load_in_background
from ludoteca.rules_docs import players_part, without_sections
from ludoteca.store.files import read_text, write_atomic
from ludoteca.store.results import record_finished
from ludoteca.tui.base import renderer_for
from ludoteca.tui.narrate import NO_ONE, narration

HUMAN = "you"
HINT_SECONDS = 2.0
"""A hint's time, from the ``hint`` typed to the answer (the copy of the game included)."""
MOVES_OF = {
    "gaps": "a card such as [bold]5H[/]; [bold]redeal[/] or [bold]stop[/] when stuck",
    "tappeto": "a card such as [bold]5H[/]",
    "acme": "a card and where it goes, [bold]7H f[/] or [bold]7H c2[/]; [bold]draw[/]; "
    "[bold]turn[/]",
    "muro": "[bold]4B c3[/], [bold]1M F[/]; [bold]turn c3[/]; [bold]resign[/]",
    "mosaico": "a cell such as [bold]-1,3[/]; [bold]aside[/]",
    "domino": "[bold]4B@r-1[/]; [bold]draw[/]; [bold]block 3P[/]; [bold]open[/]; [bold]out[/]",
    "scalafrutta": "an insertion such as [bold]L2[/] ([bold]L2>P3[/] when nothing matches); "
    "[bold]split best[/], [bold]split none[/] or your own split",
}
"""Each game's own moves and commands, for ``help`` (its rules' Notation has them all)."""
QUIT_WORDS = ("quit", "exit", "q")
"""What leaves the game, at the prompt and at the hot-seat hand-over."""
WEB_ONLY = ("Playing on the web page",)
"""Sections of a game's rules for players that the terminal's ``rules`` leaves out."""


DEAL_DRAWN = (
    "with other people at the table the deal is drawn at random (a chosen deal would tell its "
    "chooser every hand)"
)
"""Why several people at one screen may not choose the deal of a game with hidden tiles: as
the web says it (docs/web.md, ``new``)."""


def may_choose_the_deal(spec: GameSpec, seats: list[str]) -> bool:
    """Whether the deal may be chosen (``--seed``, ``--position``, ``new N``): not by one of
    several people at a table with hidden tiles, who could deal it again to see every hand."""
    return not spec.deal_is_secret or seats.count(HUMAN) <= 1


LOST_AS = {
    "stuck": "No more moves.",
    "stopped": "You stopped rather than redeal.",
    "resigned": "You gave up.",
    "no progress": "Too long without progress.",
}
"""How a solitaire lost is told, by its outcome's termination (others: "Not this time.")."""


class EraseScrollback(Control):
    """ESC[3J: the terminal's scrollback erased. Clearing the screen alone (ESC[2J) left the
    hand shown before a hand-over in the lines above, for the next player to scroll back to
    (many terminals push the cleared screen into the scrollback)."""

    def __init__(self) -> None:
        # A control segment: written to a terminal only, as Rich's own clear is.
        self.segment = Segment("\x1b[3J", None, [(ControlType.CLEAR,)])


def ask(prompt: str) -> str:
    """A line typed at ``prompt`` (markup). At a terminal with ``readline`` (loaded for line
    editing) the prompt is readline's own, drawn by Rich with its escape sequences marked
    as taking no room: Rich printed it before readline began, and readline, believing the
    line empty, drew a long line edited back across its wrap two columns short, left the
    prompt out when it drew the line again (Ctrl-L, after Ctrl-Z and fg), and echoed no
    newline for a bare Enter (what came next was glued to the prompt: "› › "). Python's
    ``input`` uses readline only where standard input and output are both terminals;
    elsewhere (output piped, Rich told it is a terminal by ``FORCE_COLOR``) the marks
    would be written out as they are, so Rich prints the prompt as before."""
    at_a_terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if "readline" not in sys.modules or not (console.is_terminal and at_a_terminal):
        return console.input(prompt)
    with console.capture() as drawn:
        console.print(prompt, end="")
    return input(ZERO_WIDTH.sub("\x01\\g<0>\x02", drawn.get()))


ZERO_WIDTH = re.compile(r"\x1b\[[0-9;:?]*[A-Za-z]")
"""An escape sequence (a style) in a prompt: readline counts its columns unless it is
marked, between \\x01 and \\x02."""


def joined(moves: list[str]) -> str:
    """Moves listed for the player, " · " between them in every game: a space where no move
    had one of its own, and " · " where one did (Il Muro's "2P c2", Domino's "block 4B"), made
    the lists of two games read alike differ (a terminal review)."""
    return " · ".join(moves)


class Session:
    """One game at the terminal: the state, who sits where, and what was already shown."""

    def __init__(
        self,
        state: State[Any],
        seats: list[str],
        db: Path | None,
        start: str | None,
        game_id: str | None = None,
        practice: bool = False,
    ):
        self.seats = seats
        self.db = db
        self._begin(state, start, game_id)
        self.practice = practice
        # A loaded game is kept as it is in its file: nothing to lose until a move is made.
        self.kept: tuple[str, ...] = tuple(state.history_text()) if game_id is not None else ()
        """The moves as last saved (or loaded): leaving the game then loses nothing."""

    def _begin(self, state: State[Any], start: str | None, game_id: str | None = None) -> None:
        """Sit down to ``state``: its bots, what was shown, whether it was counted."""
        self.state = state
        self.start = start
        # Saved with the game, so that a game ended, then ended again from a save made
        # before its end, counts once in the statistics.
        self.game_id = game_id or uuid.uuid4().hex
        self.kept = ()
        self.warned: tuple[str, ...] | None = None
        """The moves when leaving was last refused: a second ``new`` or ``quit`` leaves."""
        self.resign_asked: tuple[str, ...] | None = None
        """The moves when ``resign`` was last asked about: a second ``resign`` gives up."""
        self.bots: dict[int, Bot] = {
            i: make_bot(state.spec, kind) for i, kind in enumerate(self.seats) if kind != HUMAN
        }
        self.rng = DealRng(state.seed or 0, "bots")
        self.shown_to: int | None = None
        self.blank_for: int | None = None
        """The seat the screen was last cleared for, while nothing of a hand has been drawn
        since (:meth:`hot_seat`): what is on it then is only what was said to that seat."""
        self.told: list[str] = []
        """With several people at one screen: every move, as all of them may see it told."""
        self.told_to: dict[int, int] = {}
        """How many of :attr:`told` each person was shown at their last hand-over."""
        self.announced = False
        self.practice = False
        """Taken back past a move that showed the person hidden tiles: not counted at its
        end (``ludoteca.core.practice``); saved with the game."""
        # A game counts once, when it ends here: not again after an undo and a new ending
        # (as on the web, the first ending counts), nor when a finished save is loaded.
        self.recorded = state.is_over

    @property
    def spec(self) -> GameSpec:
        return self.state.spec

    @property
    def after_the_end(self) -> str:
        """What a person can still do once the game is over."""
        return (
            "undo, new, save FILE or quit" if self.person is not None else "new, save FILE or quit"
        )

    @property
    def person(self) -> int | None:
        """The seat of the one person at the table (a solitaire's, or one against bots): the
        results counted are theirs, and they may undo. None with several at one screen."""
        return self.humans[0] if len(self.humans) == 1 else None

    @property
    def humans(self) -> list[int]:
        return [i for i, kind in enumerate(self.seats) if kind == HUMAN]

    def viewer(self) -> int:
        """The seat whose view is on screen: the person to move, else the first person."""
        player = self.state.current_player
        if player >= 0 and self.seats[player] == HUMAN:
            return player
        return self.humans[0] if self.humans else 0

    def show(self) -> None:
        seat = self.viewer()
        if self._handing_over(seat):
            # Several people at one screen: this seat's hand waits for the hand-over
            # (:meth:`hot_seat`), or it stayed in the terminal's scrollback above the clear.
            return
        observation = self.state.observation(seat)
        # Text, not markup: a variant label such as gaps[redeals=1] would vanish as a tag.
        title = f"{self.spec.title} · {escape(self.spec.variant_shown(self.state.variant))}"
        if self.state.seed is not None and (not self.spec.deal_is_secret or self.state.is_over):
            # With hidden tiles the deal number would tell every hand (anyone can deal it
            # again): shown only once the game is over.
            title += f" · deal {self.state.seed}"
        if not self.spec.is_solitaire:
            title += f" · seat {seat + 1}"
        if self.practice:
            title += f" · {PRACTICE}"
        # The panel names the bots in their seats, as their moves do ("seat 2 (strong)").
        named = observation if self.spec.is_solitaire else {**observation, "seat_names": self.seats}
        console.print(Panel(renderer_for(self.spec.name)(named), title=title, expand=False))
        self.blank_for = None
        moves = observation.get("legal_moves") or []
        if moves and not self.state.is_over:
            listed = joined(moves[:30]) + (
                f" … (+{len(moves) - 30}, type 'moves')" if len(moves) > 30 else ""
            )
            console.print(f"[dim]legal:[/] {listed}")

    def _handing_over(self, seat: int) -> bool:
        """Is the screen about to pass to ``seat``, another of several people?"""
        return len(self.humans) > 1 and not self.state.is_over and self.shown_to != seat

    def hot_seat(self, player: int) -> str | None:
        """With two or more people at one screen, hide a hand until its player is ready, then
        show it (it was drawn before the screen was cleared, and not after). The hand is shown
        on an empty line only: None then. ``quit`` and ``save FILE`` typed at the gate come
        back, to be carried out with the hand still hidden (after a save the gate is asked
        again: it shows nothing hidden, and "this game is not saved" at the gate advised it);
        other text is refused with a note, and "" comes back (the gate is asked again). Any
        line used to open the gate, so whoever typed ``quit`` there (often the seat who had
        just moved) was shown the next seat's hand."""
        if self._handing_over(player):
            if self.blank_for != player:
                # Not again when the prompt is asked again (after a refused quit at it): the
                # screen shows no hand, and clearing it wiped "this game is not saved" before
                # anyone read it, so the next quit left the game without a warning seen.
                console.clear()
                console.control(EraseScrollback())
                self.blank_for = player
                self.recap(player)
            typed = ask(
                f"[bold]Seat {player + 1}[/], your turn: press Enter when only you can see. "
            )
            word = typed.strip().lower()
            if word in QUIT_WORDS:
                return word
            if word.partition(" ")[0] == "save":
                return typed
            if word:
                console.print(
                    f"[dim]press Enter alone to show seat {player + 1}'s hand, or type save "
                    "FILE or quit: nothing else is taken here[/]",
                    soft_wrap=True,
                )
                return ""
            self.shown_to = player
            self.show()
        self.shown_to = player
        return None

    def bot_turn(self, player: int) -> None:
        move = self.bots[player].choose(self.state.observation(player), self.rng)
        # Who watches the screen: the one person, or everyone at it (several people at one
        # screen: what is said must be hidden from none of them, and no one is "you").
        watchers = self.humans if len(self.humans) > 1 else [self.viewer()]
        you = watchers[0] if len(watchers) == 1 else NO_ONE
        seen = [self.state.observation(seat) for seat in watchers]
        with whole():
            self.state.apply(move)
        # What the move did, as far as the watchers may see it (Scalafrutta: the tile drawn,
        # the tile pushed out and who got it): "plays T3" alone, or "R1>P1", left it to be
        # worked out from the board.
        who = f"seat {player + 1} ({self.seats[player]})"
        said = self._said(who, player, move, watchers, seen, you)
        console.print(said)
        if len(self.humans) > 1:
            self.told.append(said)

    def _said(
        self,
        who: str,
        player: int,
        move: str,
        watchers: list[int],
        seen: list[dict[str, Any]],
        you: int | None,
    ) -> str:
        """``player``'s move just made, told as ``watchers`` may see it (``seen``: their
        views before it): "seat 2 (strong) plays T3: draws 4M, ..."."""
        after = [self.state.observation(seat) for seat in watchers]
        told = narration(self.spec.name, list(zip(seen, after, strict=True)), player, you)
        return f"[magenta]{who}[/] plays [bold]{escape(move)}[/]" + (
            f": {escape(told)}" if told else ""
        )

    def person_moved(self, player: int, move: str, seen: list[dict[str, Any]]) -> None:
        """With several people at one screen, a person's move as all of them may see it
        (``seen``: their views before it), kept for the next hand-overs' recaps (:meth:`recap`):
        the screen is cleared for the next person at once, so the mover never saw what their
        move did, and the next person saw only "last move: T2"."""
        self.told.append(self._said(f"seat {player + 1}", player, move, self.humans, seen, NO_ONE))

    def recap(self, player: int) -> None:
        """At the hand-over to ``player`` (one of several people at one screen), on the screen
        just cleared: every move since their last hand-over, theirs included, as all the
        people at the screen may see it."""
        since = self.told[self.told_to.get(player, 0) :]
        self.told_to[player] = len(self.told)
        if not since:
            return
        # A tile told when it was face up ("draws 1B": it entered the square) may be hidden by
        # now (captured under coperte): told again, it would help someone remember it.
        hidden = set().union(*(self.state.hidden_from(seat) for seat in self.humans))
        console.print(f"[dim]Since seat {player + 1}'s last turn:[/]")
        for said in since:
            for piece in hidden & set(re.findall(r"[\w@>-]+", said)):
                said = re.sub(rf"(?<![\w@>-]){re.escape(piece)}(?![\w@>-])", "a tile", said)
            console.print("  " + said, soft_wrap=True)

    def finish(self) -> None:
        outcome = self.state.outcome()
        if outcome is None or self.announced:
            return
        self.announced = True
        if self.spec.is_solitaire:
            lost = LOST_AS.get(outcome.termination, "Not this time.")
            verdict = "[bold green]You won![/]" if outcome.won else f"[bold red]{lost}[/]"
        else:
            names = ", ".join(f"seat {w + 1} ({self.seats[w]})" for w in outcome.winners)
            verdict = f"[bold]Winner:[/] {names or 'nobody'}"
        # As wide as it needs (it spanned the whole terminal under a narrower board).
        console.print(
            Panel(f"{verdict}\n{final_figures(outcome)}", title="game over", expand=False)
        )
        console.print(f"[dim]{self.after_the_end}[/]")
        if self.recorded:
            return
        if self.practice:
            console.print("[dim]a practice game: not counted in your statistics[/]")
            return
        # Yours: a solitaire, or a game with one person against bots (as on the web); a
        # table of several people at one screen has no one to count it for.
        seat = self.person
        # Dealt games only: a position typed in (`--position`) may carry "| seed N" for its
        # redeals' shuffles, and it counted as a game of deal N (a win in one move, in
        # Addiction's completion statistics too).
        if seat is not None and self.state.seed is not None and self.start is None:
            try:
                connection = open_db(self.db)
            except LudotecaError as err:
                # Checked before the game too; should it fail now, the session goes on
                # (undo, save), the result not stored.
                console.print(
                    f"[bold red]error:[/] {escape(str(err))}: the result is not stored",
                    soft_wrap=True,  # (one line, as every error: a long path wrapped it)
                )
                return
            # Marked recorded once stored (a Ctrl-C is held until then): a result that
            # could not be stored is tried again when the game ends again.
            try:
                with whole(), connection:
                    counted = record_finished(
                        connection,
                        self.spec.name,
                        # With its parameters (gaps[redeals=0]), as the web app records it.
                        self.spec.variant_label(self.state.variant),
                        self.state.seed,
                        seat in outcome.winners,
                        outcome.scores[seat],
                        len(self.state.history),
                        dict(outcome.details),
                        "terminal",
                        self.game_id,
                    )
                    self.recorded = True
            except sqlite3.Error as err:
                # Opened, then the write refused (a read-only file, a disk full, a page
                # damaged, a lock held past the timeout): it ended the session in a
                # traceback, and the game with it. The session goes on, as above.
                where = db_path(self.db)
                console.print(
                    f"[bold red]error:[/] {escape(str(where))}: the result is not stored "
                    f"({escape(str(err))})",
                    soft_wrap=True,
                )
                return
            finally:
                connection.close()
            if not counted:
                console.print("[dim]this game was counted when it first ended[/]")

    def rules(self) -> None:
        """The game's rules for players (``docs/rules/<game>.md`` up to its marker), as the
        web's rules dialog shows them, less what is about the web page. The terminal had
        only the commands' one-line help."""
        found = players_part(self.spec)
        if found is None:
            raise LudotecaError(f"the rules of {self.spec.title} are not installed here")
        console.print(Markdown(without_sections(found[0], WEB_ONLY)))

    def help_text(self) -> str:
        """What may be typed here: this game's moves, then the commands that apply at this
        table (it offered undo, new N and position everywhere, and refused them after)."""
        own = MOVES_OF.get(self.spec.name, "")
        words = ["[bold]moves[/] (list them)"]
        if self.spec.is_solitaire or self.person is not None:
            words.append("[bold]undo[/]")
        words += ["[bold]hint[/]", "[bold]save FILE[/] (the rest of the line)"]
        if may_choose_the_deal(self.spec, self.seats):
            words.append("[bold]new [N][/] (another deal, or deal N)")
        else:
            words.append("[bold]new[/] (another deal)")
        if not self.spec.hidden_information:
            words.append("[bold]position[/] (in notation, for 'ludoteca solve --position')")
        words += ["[bold]rules[/]", "[bold]help[/]", "[bold]quit[/]"]
        moves = "Type a move" + (f" ({own})" if own else " in the game's notation")
        return f"{moves}, or: {', '.join(words)}."

    def may_leave(self, word: str) -> bool:
        """Whether the game may be left now; if not, say so (a note, not an error: nothing
        typed was wrong), and the next ``word`` (``new`` or ``quit``) leaves it. Refused once
        for a game in progress with a person's move not saved (:meth:`unsaved`)."""
        moves = tuple(self.state.history_text())
        if self.state.is_over or moves == self.warned or not self.unsaved():
            return True
        self.warned = moves
        note(f"this game is not saved: save FILE keeps it, {word} again leaves it")
        return False

    def unsaved(self) -> bool:
        """Whether leaving would lose a person's move: one made since the game was begun,
        last saved or loaded. The bots' moves alone (bots who moved first in a fresh deal)
        are nothing of anyone's: quit asked about them, before any move of yours."""
        moves = self.state.history_text()
        same = 0
        for played, kept in zip(moves, self.kept, strict=False):
            if played != kept:
                break
            same += 1
        if same == len(moves):
            return False
        if not self.bots:
            return True
        # Who made each move not saved: its player is to move again once it is taken back.
        taken: list[Any] = []
        people = False
        with whole():
            while len(self.state.history) > same and not people:
                taken.append(self.state.undo())
                people = self.state.current_player not in self.bots
            for move in reversed(taken):
                self.state.apply(move)
        return people

    def resigning_asked(self) -> bool:
        """Ask, once, before ``resign`` (Il Muro) gives the game up: one word, typed by
        mistake, ended it at once as lost, counted in the statistics however undone. True when
        asked (the move waits); the next ``resign`` in the same position is played."""
        moves = tuple(self.state.history_text())
        if (
            self.state.is_over
            or moves == self.resign_asked
            or "resign" not in self.state.legal_moves_text()
        ):
            return False
        self.resign_asked = moves
        note("resign gives this game up as lost: type resign again to give up")
        return True

    def command(self, line: str) -> bool:
        """Carry out one line typed by a person; False when they quit."""
        word, _, rest = line.strip().partition(" ")
        match word.lower():
            case "":
                return True
            case leave if leave in QUIT_WORDS:
                return not self.may_leave(leave)
            case "help" | "?":
                console.print(self.help_text())
            case "rules":
                self.rules()
            case "moves":
                console.print(joined(self.state.legal_moves_text()) or "no legal moves")
            case "undo":
                self.undo()
            case "hint":
                self.hint()
            case "save":
                self.save(rest.strip())
            case "new":
                self.new_deal(rest.strip())
            case "position":
                self.print_position()
            case "resign" if not rest.strip() and self.resigning_asked():
                return True
            case _:
                mover = self.state.current_player
                several = len(self.humans) > 1
                seen = [self.state.observation(seat) for seat in self.humans] if several else []
                with whole():
                    self.state.apply(line.strip())
                if several:
                    self.person_moved(mover, self.state.history_text()[-1], seen)
                if self.state.current_player not in self.bots:
                    self.show()
        return True

    def print_position(self) -> None:
        """The position in the game's notation, on one line of its own, to hand to
        ``solve --position`` (the board draws 10♥ and suit symbols; a save keeps only the
        start and the moves). Only where nothing is hidden: the notation writes every card."""
        if self.spec.hidden_information:
            raise LudotecaError(
                f"position: {self.spec.title} has {pieces(self.spec)} you cannot see, which "
                "the notation would show; save FILE keeps the game"
            )
        # Not markup, and never wrapped: it is to be copied whole.
        console.print(escape(self.state.position()), soft_wrap=True)

    def new_deal(self, number: str) -> None:
        """Another deal of the same game, variant and seats (deal ``number`` if given); a game
        in progress is only left after a second ``new``, since it is not kept."""
        if number and not number.isdigit():
            raise LudotecaError(f"new takes a deal number: new 42, not {shown(number)}")
        if number and not may_choose_the_deal(self.spec, self.seats):
            raise LudotecaError(f"{DEAL_DRAWN}: new alone deals another")
        deal = int(number) if number else random_seed(self.spec)
        check_deal_numbers(deal)
        if not self.may_leave("new"):
            return
        fresh = self.spec.new_game(self.state.variant, deal, len(self.seats))
        with whole():
            self._begin(fresh, None)
        if self.state.current_player not in self.bots:
            self.show()

    def undo(self) -> None:
        """A solitaire: the last move. One person against bots: that person's last move and
        the bots' replies to it, as on the web (the bots answer anew). With other people at
        the table a move stands."""
        if self.spec.is_solitaire:
            with whole():
                move = self.state.undo()
                revealed = 0 in self.state.reveals_to(move)
        else:
            revealed = self._undo_against_bots()
        if revealed and self.spec.play_decides and not self.practice:
            # The person plays on knowing what the move showed (docs/architecture.md,
            # Practice): told once, and the board says so from now on.
            self.practice = True
            note(practice_notice(self.spec, counted=self.recorded))
        self.announced = False
        self.show()

    def _undo_against_bots(self) -> bool:
        """Take back the person's last move and the bots' replies; whether one of them
        showed the person something hidden (each asked where it was played from)."""
        you = self.person
        if you is None:
            raise LudotecaError(
                "undo is for games against bots: with people at the table a move stands"
            )
        taken: list[Any] = []
        revealed = False
        with whole():
            # Back to the last position where you were to move (a move taken back leaves its
            # player to move); none, if no move is yours: then everything is played again.
            while self.state.history:
                taken.append(self.state.undo())
                revealed = revealed or you in self.state.reveals_to(taken[-1])
                if self.state.current_player == you:
                    return revealed
            for move in reversed(taken):
                self.state.apply(move)
        raise LudotecaError("nothing to undo: no move of yours yet")

    def hint(self) -> None:
        if self.state.is_over:
            raise LudotecaError(f"the game is over: no hint ({self.after_the_end})")
        # The search gets a copy, so that Ctrl-C can stop it anywhere without leaving a
        # half-searched position behind; the game goes on (it used to end the session).
        # The copy replays the game: its time comes out of the hint's.
        asked = time.perf_counter()
        copy = restore(snapshot(self.state, self.seats, self.start, self.game_id))
        left = max(0.0, HINT_SECONDS - (time.perf_counter() - asked))
        try:
            with console.status("thinking… (Ctrl-C stops it)"):
                found = hint_for(copy, self.viewer(), left)
        except KeyboardInterrupt:
            raise LudotecaError("hint stopped") from None
        except SystemError as err:
            # Ctrl-C inside a compiled search's callback arrives wrapped (Numba).
            if not isinstance(err.__cause__, KeyboardInterrupt):
                raise
            raise LudotecaError("hint stopped") from None
        move = found.move or "no move"
        # A verdict only when the search reached one (as on the web), then what it learned.
        verdicts = {True: "still winnable", False: "not winnable", None: None}
        verdict = verdicts[found.winnable] if self.spec.is_solitaire else None
        said = "; ".join(part for part in (verdict, found.note) if part)
        console.print(f"hint: [bold]{move}[/]" + (f" ({said})" if said else ""))

    def save(self, name: str) -> None:
        """Save to ``name``: the rest of the line, spaces and all, less one pair of quotes
        around it (``save "q q.json"`` wrote a file named with its quotes)."""
        if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
            name = name[1:-1].strip()
        if not name:
            raise LudotecaError("save needs a file name: save FILE")
        path = Path(name).expanduser()
        try:
            if path.is_dir():
                raise LudotecaError(f"{path} is a folder: save FILE needs a file name")
            saved = snapshot(self.state, self.seats, self.start, self.game_id, self.practice)
            write_atomic(path, saved.dumps())
        except OSError as err:
            # A file the system will not write must not end the game (and lose it).
            raise LudotecaError(f"cannot save to {path}: {err.strerror or err}") from None
        self.kept = tuple(self.state.history_text())
        console.print(f"saved to {escape(str(path))}", soft_wrap=True)


def line_editing() -> None:
    """Arrow keys, history and editing at the prompt: ``input()`` (which Rich's prompt uses)
    has them only once ``readline`` is loaded; without it an arrow key types ``^[[D`` into
    the move. Absent on some platforms, where the prompt stays plain."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401


def run_session(session: Session) -> None:
    line_editing()
    if sys.stdin.isatty():
        # A person at a terminal: the hint's (and the bots') compiled code loads while they
        # look at the board, not in their first hint's 2 s. Not for input from a file or a
        # pipe, whose session may end before the loading does (and would wait for it).
        load_in_background([session.state.spec])
    session.show()
    quitting = False
    while True:
        try:
            if quitting:
                quitting = False
                console.print()
                if not _carry_out(session, "quit"):
                    return
            if not _turn(session):
                return
        except KeyboardInterrupt:
            # Ctrl-C (outside the hint, which stops its search) is quit, which asks once
            # before leaving moves not saved: it ended the game at once, wherever it came,
            # and a Ctrl-C meant for a hint lost the game. A second one leaves.
            quitting = True


def _turn(session: Session) -> bool:
    """One bot's move, or one line from the person to move; False when they quit."""
    state = session.state
    if state.is_over:
        session.finish()
    player = state.current_player
    if player >= 0 and player in session.bots:
        session.bot_turn(player)
        if state.current_player not in session.bots:
            session.show()
        return True
    try:
        typed = session.hot_seat(player) if player >= 0 else None
        # (quit or save typed at the hand-over is carried out there, the hand still hidden)
        line = ask("[bold cyan]›[/] ") if typed is None else typed
    except EOFError:  # Ctrl-D, or the end of piped input (at either prompt): quit, as Ctrl-C
        console.print()
        line = "quit"
    return _carry_out(session, line)


def _carry_out(session: Session, line: str) -> bool:
    try:
        return session.command(line)
    except LudotecaError as err:
        # What was typed comes back in the message: '[/x]' must not be read as markup.
        # One line however long (a path), as the command line's errors: in a pipe Rich cut
        # it at 80 columns.
        console.print(f"[bold red]error:[/] {escape(str(err))}", soft_wrap=True)
        return True


ENDED_AS = {"domino": "a player placed their last tile"}
"""Endings whose name says little on its own, in words (Domino's "domino")."""


def final_figures(outcome: Outcome) -> str:
    """The figures a game ended with and how it ended, for the end panel and the replay:
    "score: 19 (stuck)"; Domino's, whose score is minus the tiles left (rules, End), as
    "tiles left: 2 · 0 · 2 (a player placed their last tile)", where it said "score: -2 ·
    0 · -2 (domino)"."""
    ending = ENDED_AS.get(outcome.termination, outcome.termination.replace("_", " "))
    left = outcome.details.get("tiles_left")
    if isinstance(left, list):
        return f"tiles left: {' · '.join(str(n) for n in left)} ({ending})"
    return f"score: {' · '.join(f'{s:g}' for s in outcome.scores)} ({ending})"


def note(text: str) -> None:
    """A question or a word of advice at the prompt: not an error (nothing typed was wrong),
    on one line."""
    console.print(f"[yellow]{escape(text)}[/]", soft_wrap=True)


@contextlib.contextmanager
def whole() -> Iterator[None]:
    """A change of the game that Ctrl-C must not cut in two (a move half made): a Ctrl-C
    that comes meanwhile is held, and comes as ever once the change is made. (Blocking the
    signal would not do: it goes to any thread of the process that does not block it, and
    NumPy's threads do not.)"""
    if threading.current_thread() is not threading.main_thread():
        yield  # (only the main thread hears signals, and only it may set a handler)
        return
    held: list[int] = []
    before = signal.getsignal(signal.SIGINT)
    try:
        signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if held:
        raise KeyboardInterrupt


@app.command("play")
def play_command(
    game: Annotated[
        str | None,
        typer.Argument(help="Game name or alias (see 'ludoteca games'); not needed with --load."),
    ] = None,
    variant: VariantOpt = None,
    seed: Annotated[int | None, typer.Option(help="Deal number (default: a random one).")] = None,
    param: ParamOpt = None,
    players: Annotated[
        str | None,
        typer.Option(
            help="Seats in order, each you (a person at this screen) or a bot: strong, greedy "
            "or random, e.g. you,strong,greedy (multiplayer games; default: you and greedy "
            "bots, as few as the game takes)."
        ),
    ] = None,
    position: Annotated[str | None, typer.Option(help="Start from a position in notation.")] = None,
    load: Annotated[Path | None, typer.Option(help="Resume a saved game.")] = None,
    db: DbOpt = None,
) -> None:
    """Play a game in the terminal: moves in the game's notation, undo, hint, save, quit."""
    game_id, practice = None, False
    if load is not None:
        state, seats, start, game_id, practice = _resumed(
            load, game, [variant, seed, param, players, position]
        )
    else:
        if game is None:
            raise fail("say which game: ludoteca play GAME (see 'ludoteca games'), or --load FILE")
        spec, chosen = resolve(game, variant, param)
        seats = players_list(players, spec)
        if spec.is_solitaire and seats != [HUMAN]:
            # (a bot played the whole solitaire by itself, though the option's help says it
            # is for the multiplayer games)
            raise fail(f"{spec.name} is a solitaire: --players is for the multiplayer games")
        if (seed is not None or position is not None) and not may_choose_the_deal(spec, seats):
            options = (("seed", seed), ("position", position))
            named = " and ".join(f"--{name}" for name, given in options if given is not None)
            raise fail(f"{DEAL_DRAWN}: drop {named}")
        if position is not None:
            if seed is not None:
                # It was ignored: the redeals of a position without "| seed N" shuffle as deal 0.
                raise fail(
                    "--seed does not go with --position: a position carries its own deal "
                    "number, if any (gaps: '... | seed N')"
                )
            state, start = spec.from_position(position, chosen), position
        else:
            deal = random_seed(spec) if seed is None else seed
            state, start = spec.new_game(chosen, deal, len(seats)), None
    if HUMAN not in seats and not state.spec.is_solitaire:
        raise fail("--players needs at least one 'you' to play (use 'tournament' for bots only)")
    if state.seed is not None:
        # Checked before the game, not when its end is stored (SQLite's integers are 64-bit).
        check_deal_numbers(state.seed)
    if seats.count(HUMAN) == 1:
        # The database a finished game goes into (a solitaire, or one person against bots),
        # checked before the game: a folder or a file that is no database let the game be
        # played, then ended the session with its last move; a read-only one, likewise.
        open_db(db, writes="finished_games").close()
    run_session(Session(state, seats, db, start, game_id, practice))


def _resumed(
    load: Path, game: str | None, options: list[object]
) -> tuple[State[Any], list[str], str | None, str, bool]:
    """The saved game, its seats, start, id and whether it is practice; the file says
    which game, variant and deal, so options that would say otherwise are refused rather
    than quietly ignored."""
    if any(option not in (None, []) for option in options):
        raise fail("--load takes the game, variant, deal and seats from the file: drop the others")
    saved, state = loads(read_text(load), str(load))
    if game is not None and find_game(game).name != state.spec.name:
        raise fail(f"{load} is a saved game of {state.spec.name}, not of {game}")
    if not saved.seats and state.players > 1:
        # (it sat one person at a table of several: an IndexError)
        raise fail(f"{load}: the save names no seats, and play needs to know who sits where")
    seats = saved.seats or [HUMAN]
    if state.spec.is_solitaire and seats != [HUMAN]:
        named = ", ".join(seats)
        raise fail(
            f"{load}: {state.spec.name} is a solitaire for one person; the save seats {named}"
        )
    for seat in seats:
        if seat != HUMAN and seat not in bots_for(state.spec.name):
            # (the error came from the bot's making, without the file's name)
            known = ", ".join(sorted(bots_for(state.spec.name)))
            raise fail(f"{load}: no bot '{seat}' for {state.spec.name} (bots: {known})")
    # (A save from before games had an id gets one now.)
    return state, seats, saved.start, saved.game_id or uuid.uuid4().hex, saved.practice
