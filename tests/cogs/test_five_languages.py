"""The whole bot in each of its five languages on (simulated) Discord: a member in one, their server in another.

A casual game, a daily and its result post, a race and a challenge: every answer only the member sees is in the
member's Discord language, every post the channel sees in the server's. Which language a text is in is told by
the catalogues themselves (:mod:`tests.support.language_of`).
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.compete import race as races
from languages import Language, for_discord, speaking_language
from solitaire.speech import _
from tests.support.competition import daily, instant_daily_solver
from tests.support.language_of import language_of, scores
from tests.support.pseudo_words import message_texts
from tests.support.races_on_discord import advance, simcord_bot

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["instant_daily_solver", "simcord_bot"]  # instant daily deals; the easy deck dealt to every race

PAIRS = [("de", "pt-BR"), ("fr", "de"), ("es-ES", "fr"), ("pt-BR", "es-419"), ("en-US", "de")]
"""(a member's Discord locale, their server's): each of the five languages is a member's once."""


def said(language: Language, words: str) -> str:
    """``words`` (a button's label) as ``language`` says them."""
    with speaking_language(language):
        return _(words)


class Reader:
    """Checks that every text of a message is in the language it should be."""

    def __init__(self) -> None:
        self.checked = 0

    def reads(self, message: Any, language: Language, what: str) -> None:
        """Every content, embed part and button of ``message`` that holds a sentence is in ``language``."""
        told = 0
        for where, text in message_texts(message):
            found = language_of(text)
            if found is None:
                continue  # a name, a number, a card: no sentence
            assert found == language.code, (what, where, text, scores(text))
            told += 1
        assert told, (what, [text for _, text in message_texts(message)])
        self.checked += told


@pytest.mark.parametrize(("member_locale", "server_locale"), PAIRS)
async def test_a_member_plays_everything_in_their_language_and_the_server_posts_in_its(
    simcord_env: Any, member_locales: dict[int, str], member_locale: str, server_locale: str
) -> None:
    mine, ours = for_discord(member_locale), for_discord(server_locale)
    guild = simcord_env.create_guild("Club", preferred_locale=server_locale)
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    member_locales[alice.id] = member_locale
    member_locales[bob.id] = server_locale
    reader = Reader()

    # A casual game: the board, a click, the end.
    board = (await alice.slash(channel, "solitaire start")).response
    reader.reads(board, mine, "the board")
    await alice.click(board, label=said(mine, "Draw"))
    reader.reads(board, mine, "the board after a draw")
    ended = (await alice.slash(channel, "solitaire end")).response
    assert ended.ephemeral
    reader.reads(ended, mine, "the end of a game")

    # The daily: her board is hers, its result post the server's.
    await simcord_env.bot.daily.set_channel(guild.id, channel.id, podium_after="2026-01-01")
    before = len(channel.history())
    board = await daily(alice, channel)
    reader.reads(board, mine, "the daily's board")
    await alice.click(board, label=said(mine, "All up"))
    await alice.slash(channel, "solitaire end")
    (post,) = channel.history()[before:]
    reader.reads(post, ours, "the daily's result post")

    # A race: the lobby and its results are the server's; her board is hers.
    lobby = (await alice.slash(channel, "solitaire race", players=2)).response
    reader.reads(lobby, ours, "the race's lobby")
    await bob.click(lobby, label=said(ours, "Join"))
    await simcord_env.advance_time(races.COUNTDOWN_SECONDS)
    reader.reads(lobby, ours, "the running race")
    board = (await alice.click(lobby, label=said(ours, "Open my board"))).response
    assert board.ephemeral
    reader.reads(board, mine, "her race board")
    await alice.click(board, label=said(mine, "All up"))
    await advance(simcord_env, 320)
    reader.reads(lobby, ours, "the race's results")

    # A challenge: its message is the server's, her attempt hers.
    challenge = (await alice.slash(channel, "solitaire challenge", opponent=bob)).response
    assert not challenge.ephemeral
    reader.reads(challenge, ours, "the challenge")
    board = (await alice.click(challenge, label=said(ours, "Play"))).response
    assert board.ephemeral
    reader.reads(board, mine, "her challenge board")
    assert reader.checked >= 12
