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
