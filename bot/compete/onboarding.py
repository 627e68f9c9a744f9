"""The way in: notes given once (a player's first-board tip, an admin's notes of what to configure or fix).

"Once" is a row in ``onboarding_notes`` (V015), so it survives restarts; a note already given is
also remembered in memory, so asking again costs no query. Nothing here knows Discord: the cog
decides where the words go. The notes are said in the language spoken where they are asked for (an admin's own).
"""

from __future__ import annotations

import logging
import re
from datetime import date

from bot.compete.champions import problem_words
from bot.outbox.announcements import PARK_AFTER
from bot.play.session import Clock
from bot.rules.calendar import DEFAULT_TIMEZONE
from bot.storage import Database, StorageError
from bot.storage.competition import GuildConfig
from bot.storage.onboarding import (
    CHAMPION_PROBLEM,
    EVERY_SERVER,
    FIRST_BOARD,
    OUTBOX_PROBLEM,
    SERVER_SETUP,
    give_note,
)
from bot.storage.outbox import WHAT
from languages import formats
from solitaire.speech import _, n_

log = logging.getLogger(__name__)

SETUP_HEAD = "**Setting up this server** (I say this once to each member who can manage it):"
NO_CHANNEL = "daily results and podiums are posted nowhere until you choose a channel with `/solitaire config channel:`"
DAY_IN_UTC = "the server's day runs from midnight UTC until you set `/solitaire config timezone:` (e.g. Europe/Paris)"
"""The parts of the English setup note (it is said whole, one sentence for each case: :func:`setup_note`)."""


def setup_note(config: GuildConfig) -> str | None:
    """What an admin of a server with ``config`` should still set, or ``None`` when nothing is missing."""
    no_channel = config.channel_id is None
    in_utc = config.timezone == DEFAULT_TIMEZONE and config.clock.next_zone is None
    if no_channel and in_utc:
        return _(
            "**Setting up this server** (I say this once to each member who can manage it): daily results and "
            "podiums are posted nowhere until you choose a channel with `/solitaire config channel:`; the server's "
            "day runs from midnight UTC until you set `/solitaire config timezone:` (e.g. Europe/Paris)."
        )
    if no_channel:
        return _(
            "**Setting up this server** (I say this once to each member who can manage it): daily results and "
            "podiums are posted nowhere until you choose a channel with `/solitaire config channel:`."
        )
    if in_utc:
        return _(
            "**Setting up this server** (I say this once to each member who can manage it): the server's day runs "
            "from midnight UTC until you set `/solitaire config timezone:` (e.g. Europe/Paris)."
        )
    return None


def _since(at: float | None) -> str:
    """When a problem began: a space and a Discord timestamp (nothing when unknown)."""
    return f" <t:{int(at)}:R>" if at is not None else ""


def champion_warning(config: GuildConfig) -> str | None:
    """Why the champion role could not be given or taken back lately, for the admins (``None``: nothing wrong)."""
    if config.champion_problem is None:
        return None
    role = f" <@&{config.champion_role_id}>" if config.champion_role_id is not None else ""
    since, problem = _since(config.champion_problem_at), problem_words(config.champion_problem)
    # Translators: {role} is a space and the role's mention (or nothing), {since} a space and a Discord timestamp
    # such as "3 hours ago" (or nothing), {problem} what went wrong; "Server Settings → Roles" is Discord's menu.
    return _(
        "⚠️ I could not give or take back the champion role{role}{since} ({problem}): the change waits and is "
        "tried again. Fix it in Server Settings → Roles, or choose another role with "
        "`/solitaire config champion_role`.",
        role=role,
        since=since,
        problem=problem,
    )


_POSTS = {kind: re.compile(re.escape(words).replace(re.escape("{subject}"), "(.*)")) for kind, words in WHAT.items()}
"""How the admins' words of each kind of post read (:data:`bot.storage.outbox.WHAT`), to find a stored one's kind."""


def _kind_of(post: str) -> tuple[str, str]:
    """The kind and subject of a post given up, read back from its stored English words (``""``: unknown)."""
    for kind, pattern in _POSTS.items():
        if found := pattern.fullmatch(post):
            return kind, (found.group(1) if pattern.groups else "")
    return "", post


def _podium_day(subject: str) -> str:
    """A podium's day as the spoken language writes it (as stored, if it is no date)."""
    try:
        return formats.day(date.fromisoformat(subject))
    except ValueError:
        return subject


def _given_up(post: str, since: str) -> str:
    """The sentence naming the post given up, when, and why it will not be posted."""
    kind, subject = _kind_of(post)
    if kind == "result":
        # Translators: {when} is a space and a Discord timestamp such as "3 hours ago" (or nothing).
        return n_(
            "⚠️ I gave up a daily's result line (game {game}){when}: it failed {count} time with an error on my "
            "side, so it will not be posted.",
            "⚠️ I gave up a daily's result line (game {game}){when}: it failed {count} times with an error on my "
            "side, so it will not be posted.",
            PARK_AFTER,
            game=subject,
            when=since,
        )
    if kind == "podium":
        # Translators: {when} is a space and a Discord timestamp such as "3 hours ago" (or nothing).
        return n_(
            "⚠️ I gave up the podium of {day}{when}: it failed {count} time with an error on my side, so it will "
            "not be posted.",
            "⚠️ I gave up the podium of {day}{when}: it failed {count} times with an error on my side, so it will "
            "not be posted.",
            PARK_AFTER,
            day=_podium_day(subject),
            when=since,
        )
    if kind == "race":
        # Translators: {when} is a space and a Discord timestamp such as "3 hours ago" (or nothing).
        return n_(
            "⚠️ I gave up the results of race {race}{when}: it failed {count} time with an error on my side, so it "
            "will not be posted.",
            "⚠️ I gave up the results of race {race}{when}: it failed {count} times with an error on my side, so "
            "it will not be posted.",
            PARK_AFTER,
            race=subject,
            when=since,
        )
    if kind == "challenge":
        # Translators: {when} is a space and a Discord timestamp such as "3 hours ago" (or nothing).
        return n_(
            "⚠️ I gave up the results of challenge {challenge}{when}: it failed {count} time with an error on my "
            "side, so it will not be posted.",
            "⚠️ I gave up the results of challenge {challenge}{when}: it failed {count} times with an error on my "
            "side, so it will not be posted.",
            PARK_AFTER,
            challenge=subject,
            when=since,
        )
    if kind == "champion":
        # Translators: {when} is a space and a Discord timestamp such as "3 hours ago" (or nothing).
        return n_(
            "⚠️ I gave up a change of the champion role's holders{when}: it failed {count} time with an error on "
            "my side, so it will not be posted.",
            "⚠️ I gave up a change of the champion role's holders{when}: it failed {count} times with an error on "
            "my side, so it will not be posted.",
            PARK_AFTER,
            when=since,
        )
    if kind == "reminder":
        # Translators: {when} is a space and a Discord timestamp such as "3 hours ago" (or nothing).
        return n_(
            "⚠️ I gave up a streak reminder{when}: it failed {count} time with an error on my side, so it will not "
            "be posted.",
            "⚠️ I gave up a streak reminder{when}: it failed {count} times with an error on my side, so it will not "
            "be posted.",
            PARK_AFTER,
            when=since,
        )
    # Translators: {post} names a post in English words, {when} is a space and a Discord timestamp (or nothing).
    return n_(
        "⚠️ I gave up {post}{when}: it failed {count} time with an error on my side, so it will not be posted.",
        "⚠️ I gave up {post}{when}: it failed {count} times with an error on my side, so it will not be posted.",
        PARK_AFTER,
        post=post,
        when=since,
    )


def outbox_warning(config: GuildConfig) -> str | None:
    """The last post of the server given up after repeated errors on the bot's side, for the admins (else ``None``).

    Its kind is read back from the stored English words, so that the whole note is said in the admin's language.
    """
    if config.outbox_problem is None:
        return None
    given_up = _given_up(config.outbox_problem, _since(config.outbox_problem_at))
    operator = _("Nothing here needs fixing by you; the bot's operator has the error in the log.")
    return f"{given_up} {operator}"


def admin_notes(config: GuildConfig) -> list[tuple[str, str]]:
    """The notes an admin of a server with ``config`` is due, each once: ``(note, text)``.

    What to configure is one note per admin and server; each champion-role problem is another (its key
    holds the time the problem began, so a new problem is told again), and so is each post given up.
    """
    notes = []
    if (setup := setup_note(config)) is not None:
        notes.append((SERVER_SETUP, setup))
    if (warning := champion_warning(config)) is not None:
        notes.append((f"{CHAMPION_PROBLEM}:{int(config.champion_problem_at or 0)}", warning))
    if (given_up := outbox_warning(config)) is not None:
        notes.append((f"{OUTBOX_PROBLEM}:{int(config.outbox_problem_at or 0)}", given_up))
    return notes


class Onboarding:
    """Which once-only notes were given: in the database, and in memory once known."""

    def __init__(self, db: Database, *, now: Clock) -> None:
        self._db = db
        self._now = now
        self._given: set[tuple[str, int, int]] = set()

    def known(self, note: str, user_id: int, guild_id: int = EVERY_SERVER) -> bool:
        """Whether this process already knows ``note`` was given (no query)."""
        return (note, user_id, guild_id) in self._given

    def remember(self, note: str, user_id: int, guild_id: int = EVERY_SERVER) -> None:
        """Treat ``note`` as given in this process (nothing needed saying), without writing it."""
        self._given.add((note, user_id, guild_id))

    async def first_time(self, note: str, user_id: int, guild_id: int = EVERY_SERVER) -> bool:
        """Record ``note`` as given to ``user_id`` and return whether this is the first time.

        A refused write answers ``False`` (the note is simply not given now; a later call tries again).
        """
        if self.known(note, user_id, guild_id):
            return False
        try:
            first = await give_note(self._db, note, user_id, guild_id=guild_id, now=self._now())
        except StorageError as error:
            log.warning("could not record the %s note of user %s: %s", note, user_id, error)
            return False
        self.remember(note, user_id, guild_id)
        return first

    async def first_board(self, user_id: int) -> bool:
        """Record the first-board tip as given to ``user_id``; return whether this is their first board."""
        return await self.first_time(FIRST_BOARD, user_id)
