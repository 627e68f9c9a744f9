"""Every word the Activity's page shows, in one place: the page looks them up by key, said in its player's language.

The page holds no sentence of its own: the bot sends it :func:`speech_of` its language (the ``welcome``, and a
``menu`` after the language changed; the page itself, before its sign-in, in the language its browser asks for):
``words`` (key: the sentence said with ``_``, its ``{named}`` fields left for the page to fill), ``locale`` (the
page formats numbers and dates with the browser's ``Intl`` in it) and ``ordinals`` (a place's form by its
CLDR ordinal category). A sentence with a count is sent as its form for each CLDR plural category
(:data:`COUNTED`), the page picks one with ``Intl.PluralRules``. Building them costs a few hundred look-ups,
once per language and process: a frame never does.

Which language: :func:`known_locale` keeps a locale only if it is one of Discord's (anything else a page says is
ignored); :func:`accepted_language` reads a browser's ``Accept-Language`` for the words shown before the sign-in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from languages import ENGLISH, LANGUAGES, Language, formats, speaking_language
from solitaire.speech import N_, _, n_

Word = str | dict[str, str]
"""A sentence, or a counted sentence's form by CLDR plural category (``one``, ``other`` ...)."""

WORDS: dict[str, str] = {
    # Translators: the game's name, on the page's top bar and menu (usually kept as it is).
    "app_name": N_("Solitaire Rush"),
    # Translators: the short word before the game's clock on the page's top bar ("time 4:05").
    "clock": N_("time"),
    "time_left": N_("time left"),
    # Translators: a label for screen readers (the game's score).
    "score": N_("score"),
    "other_racers": N_("the other racers"),
    "card_table": N_("card table"),
    "game_buttons": N_("game buttons"),
    # Translators: a button: draw cards from the stock.
    "draw": N_("Draw"),
    # Translators: a button's tooltip; the letter in brackets is its keyboard key: keep it.
    "draw_key": N_("Draw (D)"),
    # Translators: a button: take the last move back.
    "undo": N_("Undo"),
    # Translators: a button's tooltip; the letter in brackets is its keyboard key: keep it.
    "undo_key": N_("Undo (U)"),
    # Translators: a button: move every card that can go to the foundations.
    "all_up": N_("All up"),
    # Translators: a button's tooltip; the letter in brackets is its keyboard key: keep it.
    "all_up_key": N_("All up (A)"),
    "hint": N_("Hint"),
    # Translators: a button's tooltip; the letter in brackets is its keyboard key: keep it.
    "hint_key": N_("Hint (H)"),
    # Translators: a short button: end the game now.
    "end": N_("End"),
    "end_game": N_("End game"),
    "end_confirm": N_("End this game now? It counts as played."),
    "keep_playing": N_("Keep playing"),
    # Translators: a label for screen readers (the page's menu section).
    "menu": N_("menu"),
    # Translators: a label for screen readers (the page's race section).
    "race": N_("race"),
    # Translators: a label for screen readers (the page's result section).
    "result": N_("result"),
    "connecting_discord": N_("Connecting to Discord…"),
    "connecting_game": N_("Connecting to the game…"),
    "reconnecting": N_("Reconnecting…"),
    "sign_in_failed": N_("Could not sign in through Discord: {reason}"),
    "sign_in_refused": N_("Discord sign-in failed ({status})"),
    "other_process": N_("another process of the bot runs this server"),
    # Translators: {reason} is the bot's own sentence saying why the page was sent elsewhere.
    "not_reached": N_("{reason}, and this page could not reach it: tell the bot's operator."),
    "cannot_play_here": N_("This game can't be played here."),
    # Translators: stands for a channel's link in a sentence of the bot shown on the page.
    "its_channel": N_("its channel"),
    # Translators: stands for a member's mention in a sentence of the bot shown on the page.
    "a_member": N_("a member"),
    "in_hours": N_("in {count} h"),
    "in_minutes": N_("in {count} min"),
    "in_a_moment": N_("in a moment"),
    "hours_ago": N_("{count} h ago"),
    "minutes_ago": N_("{count} min ago"),
    "moment_ago": N_("a moment ago"),
    # Translators: the heading of the challenges on the menu.
    "challenges": N_("Challenges"),
    # Translators: a challenge's line for its challenger who has not played yet.
    "state_challenger": N_("not played yet"),
    # Translators: a challenge's line for a named member who has not answered yet.
    "state_invited": N_("no answer yet"),
    "state_accepted": N_("accepted · not played yet"),
    "state_declined": N_("declined"),
    "state_playing": N_("playing now"),
    "played": N_("✓ played"),
    "played_hidden": N_("✓ played · score hidden"),
    "did_not_play": N_("did not play"),
    "your_challenge": N_("your challenge"),
    "challenge_from": N_("from {name}"),
    # Translators: a challenge that is over.
    "closed": N_("closed"),
    # Translators: {time} is a time left such as "3 h 20 min".
    "closes_in": N_("closes in {time}"),
    "no_more_attempts": N_("no more attempts"),
    "scores_open": N_("Scores show as they come: not rated."),
    "scores_hidden": N_("Scores stay hidden until it closes."),
    # Translators: a closed challenge's heading; {title} is its game.
    "challenge_results": N_("Results · {title}"),
    # Translators: the player themself in a list of players.
    "you": N_("You"),
    "challenger_tag": N_("(challenger)"),
    # Translators: a score in points, short.
    "points": N_("{points} pts"),
    # Translators: {place} is a place such as "1st"; {points} a score.
    "place_points": N_("{place} · {points} pts"),
    # Translators: a button: accept a challenge.
    "accept": N_("Accept"),
    # Translators: a button: go on with a game already started.
    "resume": N_("Resume"),
    # Translators: a button: play one's attempt at a challenge.
    "play": N_("Play"),
    # Translators: a button: decline a challenge.
    "decline": N_("Decline"),
    # Translators: a time left, short: hours and minutes.
    "hours_minutes": N_("{hours} h {minutes} min"),
    "hours": N_("{hours} h"),
    "minutes": N_("{minutes} min"),
    "under_a_minute": N_("under a minute"),
    # Translators: "pass 2 of 3": how many times the stock was gone through, of how many allowed.
    "pass_of": N_("pass {pass} of {passes}"),
    "pass_stock": N_("pass {pass} of {passes} · stock {stock}"),
    "hello": N_("Hello, {name}"),
    # Translators: a button; {title} is the game's name.
    "resume_game": N_("Resume {title}"),
    "score_small": N_("score {score}"),
    # Translators: a heading: games that are not ranked.
    "practice": N_("Practice"),
    "practice_note": N_("Games here are practice: nothing is ranked."),
    "deal_number": N_("Deal number"),
    # Translators: the placeholder of the deal number's box: any deal will do.
    "any_deal": N_("any"),
    "new_game": N_("New game"),
    # Translators: the heading of the channel's races on the menu.
    "races": N_("Races"),
    # Translators: the label of the list of games to race in.
    "game_label": N_("Game"),
    # Translators: the label of the list of race sizes.
    "racers_label": N_("Racers"),
    "open_race": N_("Open a race"),
    "no_race": N_("No race open here. Open one and the others join with a tap."),
    # Translators: {date} is today's date.
    "daily_title": N_("Today's daily {date}"),
    # Translators: the race screen's heading; {title} is the game raced.
    "race_title": N_("Race {title}"),
    # Translators: the race's results heading; {title} is the game raced.
    "results_title": N_("Results {title}"),
    "back_to_menu": N_("Back to menu"),
    "same_deal": N_("Same deal, same clock for every racer."),
    "you_watch": N_("You are watching."),
    # Translators: above the race's countdown ("Starts in 3").
    "starts_in": N_("Starts in"),
    "watching_note": N_("Watching: standings and counts only."),
    # Translators: the race's clock; {clock} is "4:05".
    "race_time_left": N_("time left {clock}"),
    "race_cancelled": N_("This race was cancelled."),
    "lobby_expired": N_("This lobby expired before a start."),
    "leave_confirm": N_("Leave the race now? You are ranked after everyone who stays."),
    "leave_race": N_("Leave race"),
    "keep_racing": N_("Keep racing"),
    "back_to_board": N_("Back to my board"),
    # Translators: a small tag beside the host's name in a race lobby.
    "tag_host": N_("host"),
    # Translators: a small tag beside the player's own name in a race lobby.
    "tag_you": N_("you"),
    # Translators: a button: start the race now.
    "start": N_("Start"),
    "cancel_race": N_("Cancel race"),
    # Translators: a button: leave the race lobby.
    "leave": N_("Leave"),
    # Translators: a button: join a race.
    "join": N_("Join"),
    "join_note": N_("Join to race on the same deal."),
    "start_note": N_("Start when everyone is in (it starts by itself when full)."),
    "waiting_second": N_("Waiting for a second racer…"),
    "waiting_host": N_("Waiting for {name} to start (it starts by itself when full)."),
    # Translators: a racer's game ended by winning (a small tag in the standings).
    "ending_won": N_("won"),
    # Translators: a racer's game ended with no move left (a small tag in the standings).
    "ending_stuck": N_("stuck"),
    # Translators: a racer's game ended when its time ran out (a small tag in the standings).
    "ending_expired": N_("time"),
    # Translators: a racer ended their game (a small tag in the standings).
    "ending_ended": N_("ended"),
    # Translators: a racer left the race (a small tag in the standings).
    "ending_left": N_("left"),
    # Translators: a racer lost (a small tag in the standings).
    "ending_lost": N_("lost"),
    # Translators: a button: show a race one is in.
    "open": N_("Open"),
    # Translators: a button: watch a race one is not in.
    "watch": N_("Watch"),
    # Translators: a column of the race's results: the racer's place.
    "head_place": N_("Place"),
    "head_racer": N_("Racer"),
    "head_score": N_("Score"),
    # Translators: a column of the standings: the cards a racer put up on the foundations.
    "head_up": N_("Up"),
    "head_time": N_("Time"),
    "head_rating": N_("Rating"),
    # Translators: a race result that did not change the racer's rating.
    "unrated": N_("unrated"),
    "cards_up": N_("cards up"),
    "time_used": N_("time used"),
    "standings": N_("standings"),
    # Translators: the word on the button beside a racer's board that opens the race's standings.
    "race_word": N_("Race"),
    "standings_title": N_("Standings and Leave race"),
    "standings_aria": N_("Race: standings and Leave race"),
    "status_won": N_("You won!"),
    "status_stuck": N_("No more moves"),
    "status_expired": N_("Time's up"),
    "status_ended": N_("Game ended"),
    "final_score": N_("Score {score}"),
    # Translators: the game's name and its deal ("Klondike (draw 3): ranked deal").
    "title_deal": N_("{title}: {deal}"),
    "race_results_later": N_("The race's results show here once every racer is done."),
    # Translators: a card read aloud to a screen reader: {rank} and {suit} are the words below ("queen of hearts").
    "card_name": N_("{rank} of {suit}"),
    "rank_ace": N_("ace"),
    "rank_jack": N_("jack"),
    "rank_queen": N_("queen"),
    "rank_king": N_("king"),
    "suit_spades": N_("spades"),
    "suit_hearts": N_("hearts"),
    "suit_diamonds": N_("diamonds"),
    "suit_clubs": N_("clubs"),
    # Translators: the pile cards are drawn from (a label for screen readers).
    "stock": N_("stock"),
    # Translators: the pile drawn cards are turned onto (a label for screen readers).
    "waste": N_("waste"),
    # Translators: {id} is the pile's number.
    "pile": N_("pile {id}"),
    # Translators: {label} is the foundation's suit or rank letter.
    "foundation": N_("{label} foundation"),
    "waste_card": N_("waste, {card}"),
    "waste_empty": N_("waste, empty"),
    # Translators: the card a foundation takes next; {rank} is its rank ("takes 10").
    "takes": N_("takes {rank}"),
    # Translators: a foundation that takes no card yet.
    "locked": N_("locked"),
    "foundation_card": N_("{label} foundation, {card}"),
    "foundation_empty": N_("{label} foundation, empty"),
    # Translators: {top} is the pile's top card in words, or "face down", or "empty".
    "pile_card": N_("pile {id}, {top}"),
    "face_down": N_("face down"),
    "empty": N_("empty"),
}
"""The page's sentences by key, marked for the catalogue and said with ``_`` in :func:`speech_of`."""

COUNTED: dict[str, Callable[[int], str]] = {
    "racer_count": lambda count: n_("{count} racer", "{count} racers", count),
    # Translators: how many racers of how many a lobby takes ("1/3 racers": English says "racers" for one too).
    "lobby_count": lambda count: n_(
        "{count}/{capacity} racers", "{count}/{capacity} racers", count, capacity="{capacity}"
    ),
    # Translators: a lobby on the menu ("1/3 racers · host Ada": English says "racers" for one too).
    "menu_race_lobby": lambda count: n_(
        "{count}/{capacity} racers · host {name}",
        "{count}/{capacity} racers · host {name}",
        count,
        capacity="{capacity}",
        name="{name}",
    ),
    "menu_race_running": lambda count: n_("running · {count} racer", "running · {count} racers", count),
    "stock_cards": lambda count: n_("stock, {count} card", "stock, {count} cards", count),
    "stock_cards_draw": lambda count: n_("stock, {count} card, draw", "stock, {count} cards, draw", count),
    "pile_hidden": lambda count: n_(
        "pile {id}, {top}, {count} hidden", "pile {id}, {top}, {count} hidden", count, id="{id}", top="{top}"
    ),
}
"""The page's sentences with a count (``{count}``): each says its sentence for a count, its other fields kept."""

SAMPLES = range(200)
"""The counts tried for an example of each plural and ordinal category (the page counts far less)."""


class Speech(TypedDict):
    """What the page is told of its language: its words, its locale for ``Intl``, its ordinals' forms."""

    locale: str
    words: dict[str, Word]
    ordinals: dict[str, str]


_SPOKEN: dict[str, Speech] = {}


def speech_of(language: Language) -> Speech:
    """The page's words in ``language`` (made once per language; the same object every time after)."""
    speech = _SPOKEN.get(language.code)
    if speech is None:
        with speaking_language(language):
            words: dict[str, Word] = {key: _(text) for key, text in WORDS.items()}
            words |= {key: _forms(say, language) for key, say in COUNTED.items()}
            speech = {"locale": locale_tag(language), "words": words, "ordinals": _ordinals(language)}
        _SPOKEN[language.code] = speech
    return speech


def locale_tag(language: Language) -> str:
    """The BCP 47 tag the page's ``Intl`` formats in (``pt-BR``; the pseudo-language formats as German does)."""
    return str(language.locale).replace("_", "-")


def _forms(say: Callable[[int], str], language: Language) -> dict[str, str]:
    """A counted sentence's form for each plural category of ``language``, ``{count}`` left to fill."""
    examples: dict[str, int] = {}
    for count in SAMPLES:
        examples.setdefault(str(language.locale.plural_form(count)), count)
    return {category: say(count).replace(str(count), "{count}", 1) for category, count in examples.items()}


def _ordinals(language: Language) -> dict[str, str]:
    """A place's form for each ordinal category of ``language`` (``{n}st`` ...), ``{n}`` left to fill."""
    examples: dict[str, int] = {}
    for place in SAMPLES[1:]:
        examples.setdefault(str(language.locale.ordinal_form(place)), place)
    return {category: formats.ordinal(place).replace(str(place), "{n}", 1) for category, place in examples.items()}


DISCORD_LOCALES = {
    locale.lower(): locale
    for locale in (
        "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr", "hi", "hr", "hu", "id", "it",
        "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru", "sv-SE", "th", "tr", "uk", "vi", "zh-CN", "zh-TW",
    )
}  # fmt: skip
"""Every locale Discord's clients report (``discord.Locale``'s values), by its lower case: the only locales a page
may name."""


def known_locale(value: object) -> str | None:
    """``value`` as Discord spells the locale, if it is one of Discord's; else ``None`` (ignored)."""
    return DISCORD_LOCALES.get(value.lower()) if isinstance(value, str) and len(value) <= 16 else None


def accepted_language(header: str | None) -> Language:
    """The language a browser's ``Accept-Language`` asks for first among the bot's (English when none is)."""
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "")[:500].split(",")[:20]):
        tag, _sep, weight = part.strip().partition(";")
        try:
            quality = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            continue
        wanted.append((-quality, index, tag.strip().lower()))
    for quality, _index, tag in sorted(wanted):
        if quality < 0:
            language = _language_of_tag(tag)
            if language is not None:
                return language
    return ENGLISH


def _language_of_tag(tag: str) -> Language | None:
    """The bot's language for a browser's language tag (``de-AT`` is German, ``pt`` Brazilian Portuguese)."""
    primary = tag.split("-")[0]
    for language in LANGUAGES:
        if tag in (locale.lower() for locale in language.discord_locales):
            return language
    for language in LANGUAGES:
        if any(locale.lower().split("-")[0] == primary for locale in language.discord_locales):
            return language
    return None
