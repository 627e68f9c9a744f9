"""The games running in this process (:class:`RunningGames`): each session by its game and by its player."""

from __future__ import annotations

import asyncio

from bot.play.session import Session
from bot.storage.games import GameRecord
from solitaire import Game


class RunningGames:
    """Every running session of this process, by game id and by (server, player); no I/O."""

    def __init__(self) -> None:
        self.by_id: dict[int, Session] = {}
        self._players: dict[tuple[int, int], int] = {}

    def __contains__(self, game_id: object) -> bool:
        """Whether game ``game_id`` runs here."""
        return game_id in self.by_id

    def get(self, game_id: int) -> Session | None:
        """The running session of game ``game_id``, or ``None``."""
        return self.by_id.get(game_id)

    def of_player(self, guild_id: int, user_id: int) -> Session | None:
        """The player's running session in this server (0 for DMs), or ``None``."""
        game_id = self._players.get((guild_id, user_id))
        return self.by_id.get(game_id) if game_id is not None else None

    def all(self) -> list[Session]:
        """Every running session."""
        return list(self.by_id.values())

    def add(self, record: GameRecord, game: Game, *, four_colour: bool = False) -> Session:
        """Run ``game`` (stored as ``record``) as a new session and return it."""
        session = Session(record, game, four_colour=four_colour)
        self.by_id[record.id] = session
        self._players[(record.guild_id, record.user_id)] = record.id
        return session

    def drop(self, session: Session) -> None:
        """Forget ``session`` and cancel its clock task (unless that task is the one running this)."""
        self.by_id.pop(session.id, None)
        key = (session.record.guild_id, session.owner_id)
        if self._players.get(key) == session.id:
            del self._players[key]
        timer, session.timer = session.timer, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
