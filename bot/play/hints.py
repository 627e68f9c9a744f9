"""A hint on a running game, on any surface: found by the heavy workers from what the player has seen, then charged."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.heavy import Priority, Scheduler
from bot.play.after_game import check_hints_allowed, hint_of
from bot.play.move_words import describe_move
from bot.play.session import Outcome, Session
from bot.play.sessions import SessionManager
from solitaire.knowledge import knowledge_of
from solitaire.scoring import HINT_PENALTY
from solitaire.speech import _, n_

Wait = Callable[[], Awaitable[None]]
"""Called once the hint is asked for and before it is awaited (a surface says "thinking…")."""


def charged() -> str:
    """What a hint costs, said after it."""
    return n_(
        "−{count} point; this game is now hinted, so it is not ranked on the casual leaderboards.",
        "−{count} points; this game is now hinted, so it is not ranked on the casual leaderboards.",
        HINT_PENALTY,
    )


@dataclass(frozen=True)
class HintAnswer:
    """A hint's words (``None``: no move to suggest, nothing charged), why, and the charged game's outcome."""

    words: str | None
    why: str
    outcome: Outcome | None

    @property
    def text(self) -> str:
        """What the player is told."""
        if self.words is None:
            # Translators: {why} is the hint finder's reason, in words (e.g. "the game is over").
            return _("No hint: {why}. No points taken.", why=self.why)
        # Translators: {move} is the move in words, {why} what the hint found.
        return _("Hint: **{move}** — {why}.", move=self.words, why=self.why) + "\n" + charged()

    @property
    def plain(self) -> str:
        """What the player is told, without Markdown (for the Activity's page)."""
        return self.text.replace("**", "")


async def _no_wait() -> None:
    """A surface that shows nothing while the hint is found."""


class Hints:
    """Finds a hint in the heavy workers and charges it through the sessions (only if a move was found)."""

    def __init__(self, sessions: SessionManager, jobs: Scheduler) -> None:
        """Charge hints in ``sessions``; find them through ``jobs``."""
        self.sessions = sessions
        self.jobs = jobs

    async def hint(
        self, session: Session, version: int | None, user_id: int, *, waiting: Wait = _no_wait
    ) -> HintAnswer:
        """Find and charge a hint on ``session`` as shown at ``version``; ``waiting`` runs once it is asked for.

        :raises HintsNotAllowedError: in a daily or a race.
        :raises StaleBoardError: the game has moved on since ``version``.
        :raises OneJobAtATimeError: the member has another heavy job under way.
        """
        check_hints_allowed(session.record)
        self.sessions.require_playable(session.id, user_id, version)
        finding = self.jobs.submit(
            hint_of,
            knowledge_of(session.game),
            session.game.hints + 1,
            session.id,
            priority=Priority.HINT,
            owner=user_id,
            key=("hint", session.id, version),
            keep=True,
        )
        await waiting()
        hint = await finding
        if hint.move is None:
            return HintAnswer(None, hint.why, None)
        words = describe_move(session.game, session.game.parse_move(hint.move))
        outcome = await self.sessions.take_hint(session, version=version)
        return HintAnswer(words, hint.why, outcome)
