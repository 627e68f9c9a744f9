"""A forgotten member's stand-in: the id below zero that keeps their place in a finished race or challenge.

Forgetting a member (:mod:`bot.storage.privacy`) gives each of their race and challenge entries a stand-in
id, unique within its race or challenge (-1, -2, ...), so everyone else keeps their place. The same stand-in
id in two races is not one player: a stand-in is never rated, never holds a rating and is never listed
with one.

>>> is_stand_in(-1), is_stand_in(424242424242424242)
(True, False)
"""

from __future__ import annotations


def is_stand_in(user_id: int) -> bool:
    """Whether an entry's id is a forgotten member's stand-in rather than a member."""
    return user_id < 0
