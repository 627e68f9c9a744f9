"""Playing on (simulated) Discord: start, clicks, slash moves, win, expiry, refusals, restarts, double clicks."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.play.deal_bank import PrivateDeal
from bot.play.pads import CHOOSING_TEXT, KlondikePad
from bot.storage import games as games_db
from solitaire import game_from_json, new_game, view_of
from solitaire.deals import ProvenDeal, numbered_deal
from solitaire.moves import FRIDAY13_LABELS
from tests.support.decks import EASY_KLONDIKE as EASY_DECK
from tests.support.decks import EASY_NUMBER
from tests.support.flows import labels, raw_clicks, row, start

pytestmark = pytest.mark.usefixtures("no_error_logs")
AFTER_GAME = {"Analyze", "Share replay"}
"""A finished board's only buttons (issue 14)."""


def custom_ids(message: Any) -> set[str]:
    return {c["custom_id"] for c in labels(message).values()}


async def click_all(actor: Any, message: Any, *names: str) -> None:
    for name in names:
        result = await actor.click(message, label=name)
        assert not (result.response and result.response.ephemeral), result.response.content


async def test_start_shows_board_deal_number_deadline_and_buttons(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw1", deal=42)
    assert not board.ephemeral
    assert "deal #42" in board.content and "Solitaire Rush (draw 1)" in board.content
    deadline = int(simcord_env.now().timestamp()) + 300
    assert f"<t:{deadline}:R>" in board.content
    assert [a.filename for a in board.attachments] == ["board.png"]
    buttons = labels(board)
    assert {f"Pile {n}" for n in range(1, 8)} | {"Waste", "Draw", "Undo", "All up", "End game"} <= set(buttons)
    assert {"♠", "♥", "♦", "♣"} <= set(buttons)
    assert len(board.components) <= 5 and all(len(r["components"]) <= 5 for r in board.components)
    assert buttons["Undo"].get("disabled")
    record = await row(simcord_env)
    assert (record.status, record.deal_number, record.variant, record.message_id) == ("playing", 42, "draw1", board.id)


async def test_friday13_board_has_one_button_per_foundation_and_disables_illegal_ones(simcord_env, channel, alice):
    board = await start(alice, channel, variant="friday13", deal=5)
    buttons = labels(board)
    assert {f"→ {label}" for label in FRIDAY13_LABELS} <= set(buttons)
    assert all(buttons[f"→ {label}"].get("disabled") for label in ("J", "Q", "K", "A", "2"))  # nothing drawn yet
    await alice.click(board, label="Draw")
    game = simcord_env.bot.sessions.get(1).game
    legal = {m.target for m in game.legal_moves() if m.source == "w"}
    enabled = {name[2:] for name, b in labels(board).items() if name.startswith("→") and not b.get("disabled")}
    assert enabled == legal


@pytest.mark.both_backends  # a main flow, on PostgreSQL too
async def test_win_by_clicks_and_slash_then_result_is_stored_and_announced(simcord_env, channel, alice):
    finished = []

    async def on_finished(record):
        finished.append(record)

    simcord_env.bot.add_listener(on_finished, "on_solitaire_game_finished")
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    # one click: pile 1 (A♠) goes up first (it could also go onto pile 4), then undo it (it revealed nothing)
    await click_all(alice, board, "Pile 1")
    assert "Selected" not in board.content
    assert (await row(simcord_env)).version == 1
    await click_all(alice, board, "Undo")
    assert (await row(simcord_env)).version == 2
    # everything that can go up, then draws by slash command and "All up" clicks
    await click_all(alice, board, "All up")
    for _ in range(8):
        result = await alice.slash(channel, "solitaire draw")
        assert result.response.ephemeral and result.response.content.startswith("Played draw")
        await click_all(alice, board, "All up")
    assert "**won**" in board.content and set(labels(board)) == AFTER_GAME
    record = await row(simcord_env)
    assert record.status == "won" and record.finished_at is not None and record.score == 1910
    replayed = game_from_json(json.loads(record.state))
    assert (replayed.status.value, replayed.score) == ("won", record.score)
    assert [r.id for r in finished] == [record.id] and finished[0].status == "won"


async def test_slash_move_with_autocomplete_in_words(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    choices = await alice.autocomplete(channel, "solitaire move", "move", "")
    by_value = {c["value"]: c["name"] for c in choices}
    assert by_value["1-f"] == "1 → f: A♠ starts the ♠ foundation"
    assert by_value["draw"] == "draw: turn 3 cards"
    assert {c["value"] for c in await alice.autocomplete(channel, "solitaire move", "move", "1-")} == {"1-f", "1-4"}
    result = await alice.slash(channel, "solitaire move", move="1-f")
    assert result.response.ephemeral and "Played 1-f" in result.response.content
    assert "score 50" in board.content  # the stored board was redrawn (A♠ scores 50)
    refused = await alice.slash(channel, "solitaire move", move="3-5")
    assert refused.response.ephemeral and refused.response.content.startswith("3-5:")
    assert (await row(simcord_env)).version == 1


async def test_undo_is_refused_after_a_reveal(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await click_all(alice, board, "Pile 1")  # A♠ up first (it could also go onto pile 4): nothing revealed
    await click_all(alice, board, "Pile 2")  # A♥ has one place to go: up, at once; it reveals A♦
    refused = await alice.slash(channel, "solitaire undo")
    assert refused.response.ephemeral and "revealed a card" in refused.response.content
    assert labels(board)["Undo"].get("disabled")
    assert (await row(simcord_env)).version == 2


async def test_clock_expires_the_game_and_redraws_the_board(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await click_all(alice, board, "Draw")
    await simcord_env.advance_time(299)
    assert (await row(simcord_env)).status == "playing"
    await simcord_env.advance_time(2)
    record = await row(simcord_env)
    assert record.status == "expired" and record.seconds_used == 300
    assert "time is up" in board.content and set(labels(board)) == AFTER_GAME
    late = await alice.slash(channel, "solitaire draw")
    assert late.response.ephemeral and "no game running" in late.response.content


async def test_a_strangers_click_changes_nothing(simcord_env, channel, alice, bob):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    result = await bob.click(board, label="Draw")
    assert result.response.ephemeral and f"<@{alice.id}>'s game" in result.response.content
    assert (await row(simcord_env)).version == 0
    assert "Draw" in labels(board)


async def test_a_stale_board_is_refused_and_the_offer_resumes_or_ends(simcord_env, channel, alice):
    old = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    offer = await alice.slash(channel, "solitaire start")
    assert offer.response.ephemeral and "already have" in offer.response.content
    resumed = await alice.click(offer.response, label="Resume it")
    assert "Resumed" in resumed.response.content and not offer.response.components  # no second board from it
    (new,) = resumed.followups
    assert new.id != old.id and (await row(simcord_env)).message_id == new.id
    await click_all(alice, new, "Draw")
    stale = await alice.click(old, label="Draw")
    assert stale.response.ephemeral and "out of date" in stale.response.content
    assert (await row(simcord_env)).version == 1
    offer = await alice.slash(channel, "solitaire start")
    ended = await alice.click(offer.response, label="End it")
    assert "game is over (ended)" in ended.response.content
    assert (await row(simcord_env)).status == "ended"
    assert "ended" in new.content and set(labels(new)) == AFTER_GAME
    gone = await alice.click(old, label="Draw")
    assert gone.response.ephemeral and "over" in gone.response.content


@pytest.mark.both_backends  # a main flow, on PostgreSQL too
async def test_restart_mid_game_keeps_the_old_board_playable_and_the_clock(simcord_env, channel, alice, make_bot):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await click_all(alice, board, "Pile 1")
    await simcord_env.advance_time(100)
    await simcord_env.restart_bot(make_bot())
    assert simcord_env.bot.sessions.get(1) is not None
    await click_all(alice, board, "Pile 2")
    assert (await row(simcord_env)).version == 2
    await simcord_env.advance_time(201)
    assert (await row(simcord_env)).status == "expired"
    assert "time is up" in board.content


async def test_double_click_plays_once(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    first, second = await raw_clicks(simcord_env, alice, board, labels(board)["Draw"]["custom_id"], times=2)
    answers = sorted([first.ephemeral, second.ephemeral])
    assert answers == [False, True]
    refused = first if first.ephemeral else second
    assert "out of date" in refused.response.content
    record = await row(simcord_env)
    assert record.version == 1 and json.loads(await games_db.game_state(simcord_env.bot.db, record))["log"] == [
        ["draw", 0]
    ]


async def test_commands_without_a_game_and_malformed_clicks_answer_privately(simcord_env, channel, alice):
    for name in ("solitaire draw", "solitaire undo", "solitaire end"):
        result = await alice.slash(channel, name)
        assert result.response.ephemeral and "no game running" in result.response.content
    result = await alice.slash(channel, "solitaire move", move="9-9")
    assert result.response.ephemeral
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    for forged in ("sol:1:0:-:zz", "sol:1:0:w:t5", "sol:nonsense", "sol:99:0:-:draw"):
        (answer,) = await raw_clicks(simcord_env, alice, board, forged)
        assert answer.ephemeral, forged
        assert "not one I understand" in answer.response.content or "not running" in answer.response.content
    assert (await row(simcord_env)).version == 0


LABELS = {
    "w": "Waste",
    "fs": "♠",
    "fh": "♥",
    "fd": "♦",
    "fc": "♣",
    "f": "Selected card up",
    "draw": "Draw",
    "pick": "Choose",
}


def clicks_for(game: Any, move: str) -> list[str]:
    """The labels of the buttons that play ``move`` on a Klondike board showing ``game`` (as the pad resolves)."""
    presses = KlondikePad().presses(view_of(game), game.parse_move(move))
    return [LABELS.get(action, f"Pile {action}") for action in presses]


async def test_a_proven_deal_is_won_by_replaying_its_solution_with_clicks(simcord_env, channel, alice):
    deal = numbered_deal("draw3", 1)
    simcord_env.bot.deals.add(PrivateDeal("draw3", deal))  # a ranked deal from the private bank
    board = await start(alice, channel, variant="draw3")
    assert "ranked deal" in board.content
    expected = new_game("draw3", deck=deal.deck)
    for move in deal.solution:
        if expected.is_over:
            break
        await click_all(alice, board, *clicks_for(expected, move))
        expected.play(move)
    record = await row(simcord_env)
    assert expected.status.value == "won" and record.status == "won"
    assert record.score == expected.score and "**won**" in board.content


async def test_a_banked_deal_starts_without_waiting(simcord_env, channel, alice):
    simcord_env.bot.deals.add(PrivateDeal("goldrush", ProvenDeal("goldrush", 31, EASY_DECK, ())))
    result = await alice.slash(channel, "solitaire start", variant="goldrush")
    assert not result.deferred and "Gold Rush" in result.response.content and "ranked deal" in result.response.content
    assert "31" not in result.response.content  # its seed stays unknown while it is played


async def test_a_failed_board_update_at_expiry_still_records_the_result(simcord_env, channel, alice, caplog):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    simcord_env.inject_error("PATCH", "/webhooks/*", status=500, times=None)
    await simcord_env.advance_time(301)
    assert (await row(simcord_env)).status == "expired"
    assert "could not update the board" in caplog.text
    assert "time runs out" in board.content  # the picture could not be changed; the result stands


async def test_friday13_is_played_with_its_foundation_buttons(simcord_env, channel, alice):
    board = await start(alice, channel, variant="friday13", deal=5)
    game = simcord_env.bot.sessions.get(1).game
    for _ in range(40):
        targets = [name for name, b in labels(board).items() if name.startswith("→") and not b.get("disabled")]
        await click_all(alice, board, targets[0] if targets else "Draw")
        if game.is_over:
            break
    assert (await row(simcord_env)).version == game.version > 0


async def test_a_game_in_direct_messages(simcord_env):
    carol = simcord_env.create_user("carol")
    result = await carol.slash("solitaire start", variant="draw3", deal=EASY_NUMBER)
    board = result.response
    assert "deal #777" in board.content
    await carol.click(board, label="Draw")
    record = await games_db.active_game(simcord_env.bot.db, 0, carol.id)
    assert record is not None and record.version == 1


def callbacks(env: Any) -> list[Any]:
    """The bot's interaction answers (callbacks), in order."""
    return [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/callback")]


def lit(message: Any) -> set[str]:
    """The labels of the board's green (lit) buttons."""
    return {name for name, button in labels(message).items() if button["style"] == 3 and not button.get("disabled")}


async def test_a_press_on_a_card_with_one_place_to_go_moves_it_at_once_and_undo_takes_it_back(
    simcord_env, channel, alice
):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await click_all(alice, board, "Pile 2")  # A♥: up is its only move
    record = await row(simcord_env)
    assert record.version == 1 and json.loads(await games_db.game_state(simcord_env.bot.db, record))["log"][0][0] == (
        "2-f"
    )
    assert "score 60" in board.content and "Selected" not in board.content
    await click_all(alice, board, "Choose", "Pile 1", "Pile 4")  # A♠ would go up first: Choose puts it on pile 4
    picture = board.attachments[0].id
    await click_all(alice, board, "Pile 4")  # now A♠ has one place to go: up
    game = simcord_env.bot.sessions.get(1).game
    assert game.log[-1][0] == "4-f" and "score 110" in board.content and board.attachments[0].id != picture
    await click_all(alice, board, "Undo")
    assert [entry[0] for entry in game.log[-2:]] == ["4-f", "undo"] and "score 60" in board.content
    assert (await row(simcord_env)).version == 4


async def test_a_press_with_several_places_selects_lights_them_and_keeps_the_picture(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    picture = board.attachments[0].id
    await click_all(alice, board, "Choose")  # A♠ would go up at once: Choose selects it instead
    sent = len(callbacks(simcord_env))
    await click_all(alice, board, "Pile 1")  # A♠: up, or onto pile 4
    [answer] = callbacks(simcord_env)[sent:]
    assert "attachments" not in answer.json["data"] and "files" not in str(answer.params)  # nothing uploaded
    assert [a.id for a in board.attachments] == [picture]  # the picture stays as it was
    assert "Selected **pile 1**" in board.content and (await row(simcord_env)).version == 0
    assert lit(board) == {"Pile 4", "♠", "Selected card up"}
    buttons = labels(board)
    assert buttons["Pile 1"]["style"] == 1 and not buttons["Pile 1"].get("disabled")  # the selection: blue
    off = {f"Pile {n}" for n in (2, 3, 5, 6, 7)} | {"Waste", "♥", "♦", "♣"}
    assert all(buttons[name].get("disabled") for name in off)
    assert not any(buttons[name].get("disabled") for name in ("Draw", "End game"))
    await click_all(alice, board, "Pile 1")  # cancels, again without a picture
    assert [a.id for a in board.attachments] == [picture] and "Selected" not in board.content
    assert not any(button.get("disabled") for name, button in labels(board).items() if name != "Undo")
    await click_all(alice, board, "Choose", "Pile 1", "Pile 4")
    assert simcord_env.bot.sessions.get(1).game.log[-1][0] == "1-4" and [a.id for a in board.attachments] != [picture]


async def test_a_forged_or_stale_press_on_a_lit_target_is_refused(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await click_all(alice, board, "Choose", "Pile 1")
    target = labels(board)["Pile 4"]["custom_id"]
    assert target == "sol:1:0:1:4"
    (forged,) = await raw_clicks(simcord_env, alice, board, "sol:1:0:1:5")  # pile 5 was never lit: A♠ cannot go there
    assert forged.ephemeral and forged.response.content.startswith("1-5:")
    (foreign,) = await raw_clicks(simcord_env, alice, board, "sol:2:0:1:4")  # a lit target of a game that is not hers
    assert foreign.ephemeral and (await row(simcord_env)).version == 0
    await click_all(alice, board, "Draw")
    (stale,) = await raw_clicks(simcord_env, alice, board, target)  # lit on the board before the draw
    assert stale.ephemeral and "out of date" in stale.response.content
    assert (await row(simcord_env)).version == 1


async def test_a_press_with_no_move_says_why_privately(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    result = await alice.click(board, label="Pile 7")
    assert result.response.ephemeral and "no card of that pile can move now" in result.response.content
    assert (await row(simcord_env)).version == 0


async def test_a_press_sends_a_card_up_first_and_choose_puts_it_on_a_pile_without_a_picture(
    simcord_env, channel, alice
):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    game = simcord_env.bot.sessions.get(1).game
    picture = board.attachments[0].id
    await click_all(alice, board, "Pile 1")  # A♠ could go up or onto pile 4: one press sends it up
    assert game.log[-1][0] == "1-f" and "score 50" in board.content and board.attachments[0].id != picture
    await click_all(alice, board, "Undo")
    picture = board.attachments[0].id
    sent = len(callbacks(simcord_env))
    await click_all(alice, board, "Choose")
    [answer] = callbacks(simcord_env)[sent:]
    assert "attachments" not in answer.json["data"] and "files" not in str(answer.params)  # nothing uploaded
    assert [a.id for a in board.attachments] == [picture] and (await row(simcord_env)).version == 2
    assert CHOOSING_TEXT in board.content and labels(board)["Choose"]["style"] == 1  # waiting: Choose is blue
    assert labels(board)["Pile 1"]["custom_id"] == "sol:1:2:ch:1" and not labels(board)["Pile 1"].get("disabled")
    await click_all(alice, board, "Choose")  # Choose again cancels, still without a picture
    assert CHOOSING_TEXT not in board.content and labels(board)["Choose"]["style"] == 2
    await click_all(alice, board, "Choose", "Pile 1")  # now A♠ is selected, its places lit, up among them
    assert [a.id for a in board.attachments] == [picture] and "Selected **pile 1**" in board.content
    assert lit(board) == {"Pile 4", "♠", "Selected card up"}
    await click_all(alice, board, "Pile 4")
    assert game.log[-1][0] == "1-4" and [a.id for a in board.attachments] != [picture]
    assert (await row(simcord_env)).version == 3


async def test_forged_choose_ids_are_refused_like_other_forged_ids(simcord_env, channel, alice):
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)
    await click_all(alice, board, "Draw")
    (stale,) = await raw_clicks(simcord_env, alice, board, "sol:1:0:ch:1")  # Choose from before the draw
    assert stale.ephemeral and "out of date" in stale.response.content
    (foreign,) = await raw_clicks(simcord_env, alice, board, "sol:2:1:ch:pick")  # a game that is not hers
    assert foreign.ephemeral
    (unreadable,) = await raw_clicks(simcord_env, alice, board, "sol:1:1:ch:t5")  # Choose never leads to Friday 13
    assert unreadable.ephemeral and "not one I understand" in unreadable.response.content
    assert (await row(simcord_env)).version == 1 and CHOOSING_TEXT not in board.content
    await click_all(alice, board, "End game")
    friday = await start(alice, channel, variant="friday13", deal=5)
    (other,) = await raw_clicks(simcord_env, alice, friday, "sol:2:0:ch:pick")  # Choose on a board without it
    assert other.ephemeral and "not a Friday 13 button" in other.response.content
    assert (await row(simcord_env, 2)).version == 0


PACED = ("Draw", "Pile 1", "♠", "Pile 4", "Pile 2", "Draw")
"""Presses of a paced game: one-press moves, a selection (A♠ back down), its target, and draws."""


@pytest.mark.parametrize(("late", "restart"), [(0.0, False), (0.5, False), (0.5, True)])
async def test_a_slow_bot_does_not_eat_the_players_time_even_across_a_restart(
    simcord_env, channel, alice, make_bot, late, restart
):
    """The same presses, 2 s of the player's own from each answer to the next press: the same time used."""
    board = await start(alice, channel, variant="draw3", deal=EASY_NUMBER)

    def slow_pictures() -> None:  # every picture takes ``late`` seconds more (a slow or busy worker)
        render = simcord_env.bot.renders.render

        async def late_render(picture: Any) -> bytes:
            await asyncio.sleep(late)
            return await render(picture)

        simcord_env.bot.renders.render = late_render

    slow_pictures()
    for index, name in enumerate(PACED):
        await click_all(alice, board, name)
        await simcord_env.advance_time(2)
        if restart and index == 2:
            await simcord_env.restart_bot(make_bot())
            slow_pictures()
    session = simcord_env.bot.sessions.get(1)
    assert session.game.log[-1][0] == "draw" and len(session.game.log) == len(PACED) - 1
    assert abs(session.seconds_at(simcord_env.bot.now()) - 2 * len(PACED)) < 0.1
    assert session.deadline == pytest.approx(
        (await row(simcord_env)).started_at + 300 + late * (len(PACED) - 1), abs=0.1
    )
