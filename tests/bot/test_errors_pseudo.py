"""Every refusal the bot raises to a player is said in the member's language: in the pseudo-language, no plain word."""

from __future__ import annotations

from typing import get_args

import pytest

from bot import errors
from bot.heavy import JobTimeoutError, OneJobAtATimeError, Priority, WorkerDiedError
from bot.heavy.jobs import SchedulerClosedError
from bot.play.after_game import (
    AfterGame,
    HintsNotAllowedError,
    NotFinishedError,
    NotYetError,
    ReplayPostedError,
)
from bot.rules.calendar import InvalidTimezoneError, validate_timezone
from bot.storage.replays import SharedReplay
from languages import speaking_language
from languages.pseudo import PSEUDO
from tests.support.pseudo_words import escaped

EVERY_ERROR = [
    (errors.NoActiveGameError, ()),
    (errors.ActiveGameError, (7,)),
    (errors.AlreadyPlayedError, ("draw3", "2026-11-29")),
    (errors.AlreadyPlayedError, ("draw3", None)),
    (errors.UnknownGameError, ()),
    (errors.NotYourGameError, (1234,)),
    (errors.StaleBoardError, ()),
    (errors.NotStartedGameError, ()),
    *[(errors.GameEndedError, (status,)) for status in ("won", "ended", "stuck", "expired", "broken", "gone")],
    (errors.TimeUpError, ()),
    (errors.BadClickError, ()),
    *[(errors.NotInServerError, (what,)) for what in get_args(errors.ServerThing)],
    *[(errors.NotSavedError, (what,)) for what in get_args(errors.Unsaved)],
    *[(errors.BusyError, (what,)) for what in get_args(errors.Unsaved)],
    (errors.ChangedElsewhereError, ()),
    (errors.BadRaceClickError, ()),
    (errors.BadChallengeClickError, ()),
    (errors.ForeignClickError, ()),
    (errors.BadMoveTextError, ("fly me",)),
    (errors.StartingError, ()),
    (errors.BadSeedError, ("banana",)),
    (errors.DealAndSeedError, ()),
    (errors.InLobbyError, ()),
    (errors.MemberBusyError, ()),
    (errors.TooManyStartsError, (12,)),
    (errors.TooManyMovesError, (10_000,)),
    (errors.ActivityOffError, ()),
    (errors.ActivityRefusedError, ()),
    *[(NotYetError, (what, mode)) for what in get_args(AfterGame) for mode in ("daily", "race", "challenge")],
    (HintsNotAllowedError, ()),
    (NotFinishedError, ()),
    (ReplayPostedError, (None,)),
    (ReplayPostedError, (SharedReplay(1, 2, 3, 4, 0.0),)),
    *[
        (error, (priority,))
        for error in (OneJobAtATimeError, JobTimeoutError, WorkerDiedError)
        for priority in Priority
    ],
    (SchedulerClosedError, ()),
]


def test_every_refusal_of_errors_py_is_tested():
    tested = {error for error, _ in EVERY_ERROR}
    defined = {
        value for value in vars(errors).values() if isinstance(value, type) and issubclass(value, errors.BotError)
    }
    assert defined - {errors.BotError} <= tested


@pytest.mark.parametrize(("error", "args"), EVERY_ERROR, ids=lambda value: getattr(value, "__name__", None))
def test_a_refusal_is_said_whole_in_the_members_language(error, args):
    english = str(error(*args))
    with speaking_language(PSEUDO):
        said = str(error(*args))
    assert said != english
    assert escaped(said, *args, "fly me", "banana", "draw3") == [], said


def test_a_refusal_keeps_its_english_words_outside_any_language():
    assert str(errors.TooManyMovesError(10_000)) == (
        "This game reached 10,000 moves, the limit: end it with `/solitaire end`."
    )
    assert str(errors.BusyError("The end of your game")) == (
        "I am busy right now: the end of your game was not saved, try again."
    )
    assert str(errors.AlreadyPlayedError("draw3", "2026-11-29")) == (
        "You already played the draw3 daily for 2026-11-29: one try per day."
    )
    assert str(errors.NotInServerError()) == "Daily competitions belong to a server: use this command in one."
    assert str(errors.GameEndedError("playing")) == "That game is over (playing)."


def test_numbers_and_days_are_written_the_languages_way():
    with speaking_language(PSEUDO):
        assert "10.000" in str(errors.TooManyMovesError(10_000))
        assert "2026-11-29" not in str(errors.AlreadyPlayedError("draw3", "2026-11-29"))


def test_an_unknown_time_zone_is_refused_in_the_members_language():
    with speaking_language(PSEUDO), pytest.raises(InvalidTimezoneError) as refused:
        validate_timezone("Paris")
    assert escaped(str(refused.value), "'Paris'", "Europe/Paris") == []
