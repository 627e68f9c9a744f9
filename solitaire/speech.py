"""Every player-facing sentence is said through here: English by default, a catalogue's language when one is spoken.

``_("You won in {time}", time=...)`` looks the English sentence up in the catalogue of the language being spoken
(:func:`speaking`), then fills its named fields; ``n_`` picks the plural form for a count; ``N_`` only marks a
sentence for the catalogue (it is said later, with ``_``). Outside :func:`speaking` (the command line, the solver,
every test that does not ask) nothing is looked up: the words are the English source, unchanged.

The catalogue lives in a context variable, so each asyncio task (an interaction, a post) speaks its own language.
This module is the standard library's only: the catalogues and their formats are :mod:`languages`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol


class Catalogue(Protocol):
    """A language's sentences: the translation of a source sentence, by its English words."""

    def gettext(self, message: str, /) -> str:
        """The translation of ``message`` (the message itself when the catalogue has none)."""
        ...

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        """The translation of the form of ``singular``/``plural`` that ``count`` takes."""
        ...

    def number(self, value: int, /) -> str:
        """``value`` written the language's way (``1,234`` in English, ``1.234`` in German)."""
        ...


_spoken: ContextVar[Catalogue | None] = ContextVar("solitaire_spoken_catalogue", default=None)


def spoken() -> Catalogue | None:
    """The catalogue being spoken in this context, or ``None`` for the English source."""
    return _spoken.get()


@contextmanager
def speaking(catalogue: Catalogue | None) -> Iterator[None]:
    """Say everything inside the block from ``catalogue`` (``None``: English)."""
    token = _spoken.set(catalogue)
    try:
        yield
    finally:
        _spoken.reset(token)


def speak(catalogue: Catalogue | None) -> None:
    """Say everything from here to the end of this task (an interaction's, a post's) from ``catalogue``."""
    _spoken.set(catalogue)


def _(message: str, /, **fields: object) -> str:
    """Say ``message`` in the spoken language, its ``{named}`` fields filled.

    >>> _("You won in {time}", time="3:07")
    'You won in 3:07'
    """
    catalogue = _spoken.get()
    text = message if catalogue is None else catalogue.gettext(message)
    return text.format(**fields) if fields else text


def n_(singular: str, plural: str, count: int, /, **fields: object) -> str:
    """Say the form of ``singular``/``plural`` that ``count`` takes; ``{count}`` is filled with it.

    >>> n_("{count} move", "{count} moves", 1), n_("{count} move", "{count} moves", 3)
    ('1 move', '3 moves')
    """
    catalogue = _spoken.get()
    if catalogue is None:
        return (singular if count == 1 else plural).format(count=count, **fields)
    return catalogue.ngettext(singular, plural, count).format(count=catalogue.number(count), **fields)


def N_(message: str, /) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    """Mark ``message`` for the catalogue without saying it: it is said later with ``_(message)``."""
    return message
