"""The RACE as the pages see it: the race, its racers' counts and its results, never a card."""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.activity.outgoing import Person, Race, Racer
from bot.activity.pages import Pages
from bot.compete.race import RaceSnapshot, Standing
from bot.play.session import Clock
from solitaire import find_variant
from solitaire.speech import N_, _

# Translators: stands for a racer whose name is not known here.
SOMEONE = N_("a member")
"""A player's name when neither the server's cache nor a page knows it."""
YOU = ("racer", "watcher")
"""What a page is to a race: one of its racers, or a watcher."""


class RaceCards:
    """Builds a RACE: the names from the server, else from a signed-in page; the times from ``now``.

    Its words (a game's title, a name not known) are said in the language spoken where it is built.
    """

    def __init__(self, pages: Pages, *, now: Clock, name_of: Callable[[int, int], str | None]) -> None:
        self.pages = pages
        self.now = now
        self.name_of = name_of

    def body(self, snapshot: RaceSnapshot, *, placed: dict[int, int] | None = None) -> Race:
        """A RACE without ``you``: the race, its racers' counts, and its results once finished."""
        race, now = snapshot.race, self.now()
        counting = race.status == "running" and race.start_at is not None and now < race.start_at
        return {
            "id": race.id,
            "variant": race.variant,
            "title": find_variant(race.variant).title,  # said in the spoken language as it is read
            "status": race.status,
            "host": self._person(race.guild_id, race.host_id),
            "capacity": race.capacity,
            "starts_in": round(race.start_at - now, 3) if counting and race.start_at is not None else None,
            "ends_in": (
                round(max(race.end_at - now, 0.0), 3) if race.status == "running" and race.end_at is not None else None
            ),
            "racers": self._racers(snapshot, placed or {}),
            "results": [
                {
                    "place": result.place,
                    **self._person(race.guild_id, result.user_id),
                    "score": result.score,
                    "seconds": result.seconds_used,
                    "status": result.status,
                    "rating_before": result.rating_before,
                    "rating_after": result.rating_after,
                }
                for result in snapshot.results
            ],
        }

    def _racers(self, snapshot: RaceSnapshot, placed: dict[int, int]) -> list[Racer]:
        """Every racer's counts in live order (the joining order in a lobby, the places once finished)."""
        race = snapshot.race
        if snapshot.standings:
            elapsed = max(int(self.now() - race.start_at), 0) if race.start_at is not None else None
            return [self._racer(race.guild_id, standing, elapsed) for standing in snapshot.standings]
        if snapshot.results:
            return [
                {
                    **self._person(race.guild_id, result.user_id),
                    "status": result.status,
                    "score": result.score,
                    "up": placed.get(result.user_id, 0),
                    "seconds": result.seconds_used,
                    "moves": 0,
                }
                for result in snapshot.results
            ]
        return [
            {
                **self._person(race.guild_id, user_id),
                "status": "waiting",
                "score": 0,
                "up": 0,
                "seconds": None,
                "moves": 0,
            }
            for user_id in snapshot.racers
        ]

    def _racer(self, guild_id: int, standing: Standing, elapsed: int | None) -> Racer:
        """One racer's line: status, score, cards up, time used and moves (their game's version)."""
        if standing.status == "playing":
            seconds = elapsed
        elif standing.status == "waiting":
            seconds = None
        else:
            seconds = standing.seconds_used
        return {
            **self._person(guild_id, standing.user_id),
            "status": standing.status,
            "score": standing.score,
            "up": standing.placed,
            "seconds": seconds,
            "moves": standing.moves,
        }

    def _person(self, guild_id: int, user_id: int) -> Person:
        """A PLAYER: the server's name for them, else a signed-in page's, else a neutral one."""
        name = self.name_of(guild_id, user_id)
        if name is None:
            pages = self.pages.of_member(guild_id, user_id)
            name = next((page.seat.player.name for page in pages if page.seat is not None), None)
        return {"id": str(user_id), "name": name or _(SOMEONE)}


def race_texts(body: Race) -> dict[str, str]:
    """The pushed ``race`` frame in JSON for a racer and for a watcher: the RACE written once, ``you`` added.

    >>> race_texts({"id": 7})["watcher"]
    '{"type":"race","ref":null,"race":{"id":7,"you":"watcher"},"words":null}'
    """
    race = json.dumps(body, separators=(",", ":"))[:-1]
    return {you: f'{{"type":"race","ref":null,"race":{race},"you":"{you}"}},"words":null}}' for you in YOU}
