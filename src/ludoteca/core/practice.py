"""Practice: a game that one person plays alone, taken back past a move that showed them
something hidden (``docs/architecture.md``, *Practice*).

Whoever undoes such a move, or restarts the deal after it, plays on knowing what it showed
(a face-down tile, a card of the stock, the bots' hands, a redeal's layout). The game then
goes on as practice: its end is not counted in the statistics. The engine says which moves
show what (:meth:`ludoteca.core.game.State.reveals_to`); the terminal and the web page
keep the flag with the game and say why, in these words.
"""

from __future__ import annotations

from ludoteca.core.game import GameSpec

FRUIT_GAMES = ("scalafrutta", "domino", "muro", "mosaico")
"""The games of *I giochi della frutta*, played with tiles; the others with cards."""

PRACTICE = "practice"
"""The mark a practice game carries beside its title (terminal board, web page)."""


def pieces(spec: GameSpec) -> str:
    """What a game is played with, for messages: ``tiles`` or ``cards``."""
    return "tiles" if spec.name in FRUIT_GAMES else "cards"


def practice_notice(spec: GameSpec, counted: bool = False) -> str:
    """The one line that says why a game became practice; ``counted``: its first ending is
    in the statistics already, and stays there."""
    why = f"You took back a move that showed hidden {pieces(spec)}: this game is practice now"
    if counted:
        return f"{why}; its first ending stays in your statistics, no later one will count."
    return f"{why} and won't count in your statistics."


def practice_label(spec: GameSpec) -> str:
    """What the mark means, for a screen reader and a tooltip."""
    return (
        f"Practice: a move that showed hidden {pieces(spec)} was taken back, so this game"
        " won't count in your statistics"
    )
