"""The engine's own error types: every refusal is a :class:`SolitaireError`."""

from __future__ import annotations


class SolitaireError(ValueError):
    """Base class for every error the game core raises."""


class InvalidCardError(SolitaireError):
    """A card name could not be parsed, e.g. ``'1X'``."""


class InvalidDeckError(SolitaireError):
    """A deck is not 52 distinct cards."""


class UnknownVariantError(SolitaireError):
    """No variant has the given name."""


class InvalidMoveError(SolitaireError):
    """A move's notation could not be parsed (e.g. ``'9-3'``)."""


class IllegalMoveError(SolitaireError):
    """A well-formed move that the rules do not allow in this position."""


class GameOverError(IllegalMoveError):
    """A move was sent to a game that has already ended."""
