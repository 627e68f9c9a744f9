"""After the game: when analysis and replays open, and the heavy jobs behind the buttons (ids: :mod:`bot.play.clicks`).

Nothing here knows Discord. The jobs (analysis, hint, replay GIF) are picklable functions that the
cog hands to the heavy-work scheduler (:mod:`bot.heavy`) at their priority, one at a time per member.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from bot.errors import BotError
from bot.play.analysis_words import analysis_text, game_after
from bot.play.move_words import move_places
from bot.play.render_pool import BoardPicture, draw
from bot.rules.modes import mode_of
from bot.storage.games import GameRecord
from bot.storage.replays import SharedReplay
from render.animate import animate
from solitaire import game_from_json
from solitaire.alt_text import describe_board
from solitaire.analysis import DEFAULT_BUDGET_MS, Analysis, analyze
from solitaire.hint import Hint, hint_for
from solitaire.knowledge import Knowledge
from solitaire.speech import N_, _
from solitaire.view import view_of

T = TypeVar("T")

CompetitionOver = Callable[[GameRecord], Awaitable[bool]]
"""Whether nobody can still gain from a finished game's deal: its day's dailies or its race are all over."""


AfterGame = Literal["Analysis", "The replay"]
"""What opens after the game (:func:`check_after_game`): each has its own sentences."""
_NOT_YET: dict[tuple[AfterGame, str], str] = {
    ("Analysis", "daily"): N_(
        "Analysis opens once this server's day is over and every daily of that day is finished: "
        "everyone plays this deal unaided until then."
    ),
    ("Analysis", "race"): N_("Analysis opens when the race ends: everyone plays this deal unaided until then."),
    ("Analysis", "challenge"): N_(
        "Analysis opens when the challenge closes: everyone plays this deal unaided until then."
    ),
    ("The replay", "daily"): N_(
        "The replay opens once this server's day is over and every daily of that day is finished: "
        "everyone plays this deal unaided until then."
    ),
    ("The replay", "race"): N_("The replay opens when the race ends: everyone plays this deal unaided until then."),
    ("The replay", "challenge"): N_(
        "The replay opens when the challenge closes: everyone plays this deal unaided until then."
    ),
}
"""The refusal of each thing that opens after the game, by the mode of the game (whose ``opens_when`` it says)."""


class NotYetError(BotError):
    """Analysis or a replay asked for before the competition it belongs to is over."""

    def __init__(self, what: AfterGame, mode: str) -> None:
        super().__init__(_(_NOT_YET[what, mode]))
        self.what = what
        self.mode = mode


class HintsNotAllowedError(BotError):
    """A hint asked for in a daily or a race."""

    def __init__(self) -> None:
        super().__init__(_("Hints are for casual games only: dailies and races are played unaided."))


class NotFinishedError(BotError):
    """Analysis or a replay of a game still running."""

    def __init__(self) -> None:
        super().__init__(_("That game is still running: analysis and replays open when it is over."))


class ReplayPostedError(BotError):
    """A second Share replay of a game: its one public replay is posted (or being posted)."""

    def __init__(self, shared: SharedReplay | None) -> None:
        if shared is not None and shared.link:
            text = _("This game's replay is already posted: {link} (one public replay per game).", link=shared.link)
        else:
            text = _("This game's replay is being posted now (one public replay per game).")
        super().__init__(text)


def hints_allowed(record: GameRecord) -> bool:
    """Whether hints may be taken in this game (casual games only)."""
    return mode_of(record.mode).hints


def check_hints_allowed(record: GameRecord) -> None:
    """:raises HintsNotAllowedError: in a daily or a race."""
    if not hints_allowed(record):
        raise HintsNotAllowedError()


def check_after_game(record: GameRecord, what: AfterGame, *, over: bool) -> None:
    """Let ``what`` (analysis, a replay) through only when nobody can still gain from it.

    Casual games: once finished. Dailies, races and challenges: once ``over`` (see
    :data:`CompetitionOver`): a daily once its server's day has ended and every daily of that day is
    finished or expired (the podium's own condition: someone who started at 23:59 still plays that deal
    after midnight), a race once every racer's game is over, a challenge once it is closed.

    :raises NotFinishedError: the game is running.
    :raises NotYetError: the day's dailies, the race or the challenge are not all over.
    """
    if record.is_playing:
        raise NotFinishedError()
    mode = mode_of(record.mode)
    if mode.opens_when is None or over:
        return
    raise NotYetError(what, mode.name)


def analyze_state(state: str, budget_ms: float = DEFAULT_BUDGET_MS) -> Analysis:
    """Analyze a stored game (``games.state``); picklable, so a worker process can run it."""
    game = game_from_json(json.loads(state))
    moves = [move for move, _ in game.log]
    return analyze(game.rules, game.deck, moves, budget_ms=budget_ms)


def hint_of(knowledge: Knowledge, number: int, salt: int) -> Hint:
    """Compute hint ``number`` from what the player knows, never the deck; picklable for a worker process."""
    return hint_for(knowledge, number=number, salt=salt)


@dataclass(frozen=True)
class AnalysisReply:
    """The whole answer to Analyze: the words and the picture of the last winnable position (with its alt text)."""

    text: str
    png: bytes
    alt: str


def analysis_reply(state: str) -> AnalysisReply:
    """Analyze a stored game and put the answer in words, with its picture; for a worker process.

    The losing move is marked on the picture: its source as a selected source, its target in red.
    """
    analysis = analyze_state(state)
    kept = game_after(game_from_json(json.loads(state)), analysis.last_winnable or 0)
    source, target = move_places(kept, kept.parse_move(analysis.lost_by)) if analysis.lost_by else (None, None)
    view = view_of(kept)
    return AnalysisReply(
        analysis_text(analysis, kept), draw(BoardPicture(view, selected=source, target=target)), describe_board(view)
    )


@dataclass(frozen=True)
class Replay:
    """A game's replay GIF and what its post says of the game."""

    gif: bytes
    title: str
    status: str
    score: int
    moves: int


def replay_of(state: str) -> Replay:
    """The replay GIF of a stored game (``games.state``), capped in frames and bytes; for a worker process."""
    game = game_from_json(json.loads(state))
    final = view_of(game)
    animation = animate(game.rules, game.deck, game.log)
    return Replay(animation.data, game.rules.title, final.status.value, final.score, final.move_count)
