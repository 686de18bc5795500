"""The project's errors: each says in one line what was wrong and where."""


class LudotecaError(ValueError):
    """Base of every error a user can cause with bad input."""


class NotationError(LudotecaError):
    """Text that is not valid notation for a card, tile, move or position."""


class IllegalMoveError(LudotecaError):
    """A well-formed move that the rules do not allow in this position."""


class UnknownGameError(LudotecaError):
    """A game, variant, option or player kind that does not exist."""


class SaveFileError(LudotecaError):
    """A saved game that is unreadable, corrupt, or does not replay."""


ECHO_LIMIT = 40
"""The most characters of a user's text an error message repeats."""


def shown(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` as an error message repeats it: stripped, on one line, and cut to ``limit``
    characters (its start and end, with ``…`` between) so that the message stays one line."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    tail = limit // 4
    return f"{flat[: limit - tail - 1]}…{flat[-tail:]}"
