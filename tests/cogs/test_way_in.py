"""The way in on (simulated) Discord: ``/solitaire help``, a player's first-board tip, an admin's setup note once."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest

from bot.compete.onboarding import DAY_IN_UTC, NO_CHANNEL, SETUP_HEAD
from bot.play.pads import PADS, pad_for
from bot.version import bot_version
from cogs.help_commands import help_board
from render import render_board
from solitaire import VARIANTS
from solitaire.alt_text import describe_board
from solitaire.moves import PILES
from tests.support.decks import EASY_NUMBER
from tests.support.easy_daily import instant_daily
from tests.support.faults import LOCKED, WriteFaults
from tests.support.flows import labels

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["instant_daily"]  # every daily deal is the easy deck

KLONDIKE_TIP = pad_for(VARIANTS["draw3"].family).first_tip


@pytest.fixture
def admins(simcord_env, guild):
    """Two members with Manage Server."""
    role = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    return [guild.add_member(simcord_env.create_user(name), roles=[role]) for name in ("root", "deputy")]


async def start(actor: Any, channel: Any, **options: Any) -> Any:
    options.setdefault("variant", "draw3")
    options.setdefault("deal", EASY_NUMBER)
    result = await actor.slash(channel, "solitaire start", **options)
    assert result.response is not None, result
    return result.response


async def end(actor: Any, channel: Any) -> None:
    await actor.slash(channel, "solitaire end")


# -- /solitaire help ---------------------------------------------------------------------
@pytest.mark.parametrize("backend", ["sqlite"])  # the help reads nothing from the database
async def test_help_is_private_and_shows_the_games_the_buttons_a_real_board_and_the_version(
    simcord_env, channel, alice
):
    result = await alice.slash(channel, "solitaire help")
    shown = result.response
    assert shown is not None and shown.ephemeral and not result.followups
    [embed] = shown.embeds
    assert embed.footer.text == f"Solitaire Rush for Discord {bot_version()}"
    fields = {field.name: field.value for field in embed.fields}
    assert len(embed) <= 6000 and all(len(value) <= 1024 for value in fields.values())
    for rules in VARIANTS.values():
        assert any(rules.title in name for name in fields)  # every game, by its title
    for pad in PADS.values():
        assert any(pad.how_to in value for value in fields.values())  # how each family's buttons make a move
    commands = "\n".join(value for name, value in fields.items() if "ommands" in name)
    for name in ("start", "help", "rules", "daily", "race", "leaderboard", "settings", "config channel"):
        assert f"`/solitaire {name}` " in commands
    assert embed.image.url == "attachment://help.png"

    board = help_board()  # the picture is that real board, drawn by the real renderer, and what a click does
    pile = board.selected or next(m.source for m in board.view.legal_moves if m.source in PILES)
    clicked = "was clicked" if board.selected else "at once: it has one place to go"
    assert f"**Pile {pile}**" in fields["The board below"] and clicked in fields["The board below"]
    [attachment] = shown.attachments
    expected = render_board(board.view, time_left=300 - board.game.log[-1][1], selected=board.selected)
    assert bytes(await attachment.read()) == expected
    assert attachment.description == describe_board(board.view)  # what a screen reader says: what is shown

    buttons = labels(shown)  # and its buttons, as a board shows them, but disabled
    assert {spec.label for spec in pad_for(board.view.family).layout(board.view, board.selected)} == set(buttons)
    assert all(button["disabled"] for button in buttons.values())
    selected_style = discord.ButtonStyle.primary if board.selected else discord.ButtonStyle.secondary
    assert buttons[f"Pile {pile}"]["style"] == selected_style.value


# -- the first board's tip ---------------------------------------------------------------------
async def test_a_players_first_board_carries_the_tip_once_even_across_a_restart(
    simcord_env, channel, alice, bob, make_bot
):
    first = await start(alice, channel)
    assert first.content.startswith(f"{KLONDIKE_TIP}\n<@{alice.id}> · ")
    await alice.click(first, label="Draw")
    assert not first.content.startswith(KLONDIKE_TIP)  # the next board drops it
    await end(alice, channel)
    assert not (await start(alice, channel)).content.startswith(KLONDIKE_TIP)
    await end(alice, channel)

    await simcord_env.restart_bot(make_bot())
    assert not (await start(alice, channel)).content.startswith(KLONDIKE_TIP)  # once: it survives the restart
    assert (await start(bob, channel)).content.startswith(KLONDIKE_TIP)  # each player has a first board


async def test_the_tip_fits_the_family_and_a_daily_can_be_the_first_board(simcord_env, channel, alice, bob):
    friday = await start(alice, channel, variant="friday13", deal=7)
    assert friday.content.startswith(pad_for(VARIANTS["friday13"].family).first_tip + "\n")
    daily = await bob.slash(channel, "solitaire daily", variant="draw3")
    assert daily.response.ephemeral and daily.response.content.startswith(KLONDIKE_TIP)


async def test_a_refused_tip_write_shows_the_board_without_it_and_the_tip_comes_later(
    simcord_env, channel, alice, monkeypatch, caplog
):
    faults = WriteFaults(monkeypatch, tables=("onboarding_notes",))
    faults.fail(LOCKED)
    board = await start(alice, channel)
    assert faults.raised == 1 and board.content.startswith(f"<@{alice.id}> · ")  # the board, without the tip
    assert any("could not record the first_board note" in r.getMessage() for r in caplog.records)
    await end(alice, channel)
    assert (await start(alice, channel)).content.startswith(KLONDIKE_TIP)  # given once it could be recorded


# -- an admin's setup note ---------------------------------------------------------------------
async def setup_notes(result: Any) -> list[str]:
    return [followup.content for followup in result.followups if followup.content.startswith(SETUP_HEAD)]


async def test_an_admin_of_an_unconfigured_server_is_told_once_what_to_set(
    simcord_env, channel, alice, admins, make_bot
):
    admin, second_admin = admins
    assert await setup_notes(await alice.slash(channel, "solitaire help")) == []  # not a manager: never told
    [note] = await setup_notes(await admin.slash(channel, "solitaire stats"))
    assert note == f"{SETUP_HEAD} {NO_CHANNEL}; {DAY_IN_UTC}."
    [followup] = (await admin.slash(channel, "solitaire rules")).followups or [None]
    assert followup is None  # once
    await simcord_env.restart_bot(make_bot())
    assert await setup_notes(await admin.slash(channel, "solitaire help")) == []  # once, across a restart

    configured = await admin.slash(channel, "solitaire config timezone", timezone="Europe/Paris")
    assert configured.response.content.startswith("Time zone set to **Europe/Paris**")
    [partial] = await setup_notes(await second_admin.slash(channel, "solitaire stats"))  # each admin once
    assert partial == f"{SETUP_HEAD} {NO_CHANNEL}."  # only what is still missing


async def test_a_configured_server_gives_no_note(simcord_env, channel, admins):
    admin, second_admin = admins
    await admin.slash(channel, "solitaire config channel", channel=channel)
    await admin.slash(channel, "solitaire config timezone", timezone="Asia/Tokyo")
    assert await setup_notes(await second_admin.slash(channel, "solitaire stats")) == []
    assert await setup_notes(await second_admin.slash(channel, "solitaire stats")) == []


async def test_a_refused_note_write_leaves_the_command_answered_and_tells_later(
    simcord_env, channel, admins, monkeypatch, caplog
):
    admin = admins[0]
    caplog.set_level(logging.WARNING)
    faults = WriteFaults(monkeypatch, tables=("onboarding_notes",))
    faults.fail(LOCKED)
    result = await admin.slash(channel, "solitaire stats")
    assert result.response is not None and await setup_notes(result) == [] and faults.raised == 1
    assert len(await setup_notes(await admin.slash(channel, "solitaire stats"))) == 1
