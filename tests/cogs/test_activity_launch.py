"""Play here and the Entry Point command on (simulated) Discord: each opens the Activity, where it is served.

SimCord does not model the ``LAUNCH_ACTIVITY`` interaction response (callback type 12): :func:`launches`
teaches it, as Discord answers it, and records each interaction so answered.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr
from simcord.backend import errors as sim_errors
from simcord.enums import InteractionType
from simcord.http import router
from simcord.http.routes import interactions as sim_routes

from bot.runtime.client import ENTRY_POINT
from bot.runtime.settings import Settings
from tests.support.competition import daily, instant_daily_solver
from tests.support.decks import EASY_NUMBER
from tests.support.flows import raw_clicks, start
from tests.support.postgres_server import free_port

pytestmark = pytest.mark.usefixtures("no_error_logs")
__all__ = ["instant_daily_solver"]  # the competition tests' instant daily solver, used here too
LAUNCH_ACTIVITY = 12
"""The interaction callback type that opens the app's Activity for the member who asked."""
PLAY_HERE = "solact:play"
SERVED = pytest.mark.parametrize("settings", ["served"], indirect=True)
"""The bot of the test serves the Activity (``ACTIVITY_PORT`` set); without it, it does not."""


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The test bot's settings, serving the Activity on a free port when the test asks for ``"served"``."""
    if getattr(request, "param", None) != "served":
        return settings
    return settings.model_copy(update={"activity_port": free_port(), "discord_client_secret": SecretStr("s")})


@pytest.fixture
def launches() -> Iterator[list[int]]:
    """SimCord answering ``LAUNCH_ACTIVITY`` as Discord does; the ids of the interactions answered so."""
    launched: list[int] = []

    def callback(ctx: router.RequestContext) -> Any:
        if ctx.body().get("type") != LAUNCH_ACTIVITY:
            return sim_routes.interaction_callback(ctx)
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"]:
            raise sim_errors.unknown_interaction()
        if record.responded:
            raise sim_errors.already_acknowledged()
        record.responded = True
        launched.append(record.id)
        instance = {"id": f"i-{record.id}"}
        answer = {"id": str(record.id), "type": record.type, "activity_instance_id": instance["id"]}
        return {"interaction": answer, "resource": {"type": LAUNCH_ACTIVITY, "activity_instance": instance}}

    routes = router._ROUTES["POST"]
    [index] = [i for i, (_, handler) in enumerate(routes) if handler is sim_routes.interaction_callback]
    original = routes[index]
    routes[index] = (original[0], callback)
    try:
        yield launched
    finally:
        routes[index] = original


def play_here_buttons(message: Any) -> list[dict[str, Any]]:
    """The Play here buttons of ``message`` (their rows and labels)."""
    found = []
    for row_number, row in enumerate(message.components):
        for button in row["components"]:
            if button.get("custom_id") == PLAY_HERE:
                found.append({"row": row_number, "label": button["label"], "disabled": button.get("disabled", False)})
    return found


async def use_entry_point(env: Any, actor: Any, channel: Any) -> Any:
    """The member uses the app's Entry Point command (its handler: the app), as Discord sends it."""
    data = {"id": "900", "name": "launch", "type": ENTRY_POINT}
    return await actor._dispatch_interaction(InteractionType.APPLICATION_COMMAND, channel, data)


# -- Play here on the boards and the help -----------------------------------------------
@SERVED
async def test_a_started_board_offers_play_here_on_its_last_row_and_keeps_it_after_a_press(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    assert play_here_buttons(board) == [{"row": 4, "label": "Play here", "disabled": False}]
    await alice.click(board, label="Draw")
    await alice.click(board, label="Choose")  # a selection redraws only the buttons
    assert play_here_buttons(board) == [{"row": 4, "label": "Play here", "disabled": False}]


@SERVED
@pytest.mark.parametrize("variant", ["friday13", "draw1"])
async def test_every_family_has_room_for_play_here(simcord_env, channel, alice, variant):
    board = await start(alice, channel, variant=variant, deal=EASY_NUMBER)
    assert len(play_here_buttons(board)) == 1 and len(board.components) == 5


@SERVED
async def test_the_daily_private_board_offers_play_here(simcord_env, channel, alice):
    board = await daily(alice, channel)
    assert board.ephemeral and len(play_here_buttons(board)) == 1


@SERVED
@pytest.mark.parametrize("backend", ["sqlite"])  # the help reads nothing from the database
async def test_the_help_offers_play_here_and_says_what_it_does(simcord_env, channel, alice):
    shown = (await alice.slash(channel, "solitaire help")).response
    assert play_here_buttons(shown) == [{"row": 4, "label": "Play here", "disabled": False}]
    assert any(field.name == "Play here" for field in shown.embeds[0].fields)


async def test_without_the_activity_no_board_nor_the_help_offers_play_here(simcord_env, channel, alice):
    shown = (await alice.slash(channel, "solitaire help")).response
    assert play_here_buttons(shown) == [] and all(field.name != "Play here" for field in shown.embeds[0].fields)
    assert play_here_buttons(await start(alice, channel, variant="draw3", deal=EASY_NUMBER)) == []
    await alice.slash(channel, "solitaire end")
    assert play_here_buttons(await daily(alice, channel)) == []


@SERVED
async def test_a_finished_board_no_longer_offers_play_here(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await alice.slash(channel, "solitaire end")
    assert play_here_buttons(board) == [] and '"solag:1:analyze"' in json.dumps(board.components)


# -- pressing it ---------------------------------------------------------------------------
@SERVED
async def test_play_here_opens_the_activity_for_whoever_presses_it(simcord_env, channel, alice, bob, launches):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    pressed = await bob.click(board, custom_id=PLAY_HERE)  # anyone may press it, for themselves
    assert pressed.acknowledged and pressed.response is None and launches == [pressed._interaction.id]


async def test_play_here_from_a_time_the_activity_was_served_says_it_is_not_open(simcord_env, channel, alice, launches):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    [answer] = await raw_clicks(simcord_env, alice, board, PLAY_HERE)
    assert answer.response is not None and answer.response.ephemeral and launches == []
    assert "Activity is not open on this bot" in answer.response.content


@SERVED
async def test_a_forged_play_here_id_is_answered_like_other_forged_ids(simcord_env, channel, alice, launches):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    [answer] = await raw_clicks(simcord_env, alice, board, "solact:play:1")
    assert answer.response is not None and answer.response.ephemeral and launches == []
    assert "not one I understand" in answer.response.content


@SERVED
async def test_when_discord_will_not_open_it_the_member_is_told_privately(simcord_env, channel, alice, caplog):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)  # SimCord refuses type 12 by itself
    pressed = await alice.click(board, custom_id=PLAY_HERE)
    assert pressed.response is not None and pressed.response.ephemeral
    assert "Discord would not open the game's Activity here" in pressed.response.content
    assert "are Activities enabled for the application?" in caplog.text


# -- the Entry Point command ---------------------------------------------------------------
@SERVED
@pytest.mark.parametrize("backend", ["sqlite"])  # nothing read from the database
async def test_the_entry_point_command_opens_the_activity(simcord_env, channel, alice, launches):
    used = await use_entry_point(simcord_env, alice, channel)
    assert used.acknowledged and launches == [used._interaction.id]


@pytest.mark.parametrize("backend", ["sqlite"])
async def test_the_entry_point_command_without_the_activity_served_is_answered_privately(
    simcord_env, channel, alice, launches
):
    used = await use_entry_point(simcord_env, alice, channel)
    assert used.response is not None and used.response.ephemeral and launches == []
    assert "Activity is not open on this bot" in used.response.content
