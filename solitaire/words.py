"""The core's words: numbers written the spoken language's way, and English words said in it whenever they are read.

A sentence made at import time (a class's rules text, a variant's title) cannot be said then: nobody is
listening yet. It is marked with ``N_`` where it is written and kept as :class:`Said` (on a class) or
:class:`SaidField` (a dataclass's field), which say it (``_``) in the language spoken each time it is read.
Outside any :func:`~solitaire.speech.speaking`, every word here is the English source, unchanged.
"""

from __future__ import annotations

from solitaire.speech import _, spoken


def number(value: int) -> str:
    """``value`` written the spoken language's way (``1.234`` in German); in English as Python writes it.

    >>> number(1234), number(-20)
    ('1234', '-20')
    """
    catalogue = spoken()
    return str(value) if catalogue is None else catalogue.number(value)


class Said:
    """A class attribute of English words (marked with ``N_``), said in the spoken language each time it is read.

    >>> from solitaire.speech import N_
    >>> class Sign:
    ...     words = Said(N_("Keep off the grass"))
    >>> Sign.words, Sign().words
    ('Keep off the grass', 'Keep off the grass')
    """

    def __init__(self, source: str) -> None:
        self.source = source
        """The English words, as written."""

    def __get__(self, instance: object | None, owner: type | None = None) -> str:
        return _(self.source) if self.source else self.source


class SaidField:
    """A frozen dataclass's field of English words (marked with ``N_``), said in the spoken language when read.

    The instance keeps the English source (its ``vars()`` show it); a field made without ``default``
    must be given (the dataclass sees no default).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Sign:
    ...     words: SaidField = SaidField()
    ...     note: SaidField = SaidField(default="")
    >>> Sign("Keep off the grass").words, vars(Sign("Keep off the grass"))
    ('Keep off the grass', {'words': 'Keep off the grass', 'note': ''})
    """

    def __init__(self, *, default: str | None = None) -> None:
        self.default = default
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: object | None, owner: type | None = None) -> str:
        if instance is None:
            if self.default is None:
                raise AttributeError(self.name)  # a dataclass reads this as "no default"
            return self.default
        source: str = vars(instance)[self.name]
        return _(source) if source else source  # never _(""): that is the catalogue's header

    def __set__(self, instance: object, value: str) -> None:
        vars(instance)[self.name] = value


def plural(count: int, word: str) -> str:
    """Return ``count`` with ``word``, plural unless the count is one: English only, for the command line.

    Whatever a player reads in another language is counted with ``n_`` instead.

    >>> plural(1, "game"), plural(2, "day"), plural(0, "win"), plural(-1, "point")
    ('1 game', '2 days', '0 wins', '-1 points')
    """
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
