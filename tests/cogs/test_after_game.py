"""After the game on (simulated) Discord: Analyze, Share replay and Hint, with their gates."""

from __future__ import annotations

import io
import json
import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from PIL import Image

from bot.play import after_game as after_game_jobs
from bot.play import render_pool
from bot.play.clicks import AfterGameClick, parse_after_game_click
from bot.play.move_words import describe_move
from bot.storage import games as games_db
from bot.storage import replays as replays_db
from cogs import after_game as after_game_cog
from render import palette, render_board
from render.layout import CARD_H, CARD_W, TOP_Y, column_x
from solitaire import format_deck
from solitaire.analysis import Analysis
from solitaire.cli import main
from solitaire.deals import DealRequest, ProvenDeal
from solitaire.hint import hint_for
from solitaire.knowledge import knowledge_of
from tests.support.decks import EASY_KLONDIKE, EASY_NUMBER
from tests.support.flows import clicks_at_once, raw_clicks

pytestmark = pytest.mark.usefixtures("no_error_logs")


@pytest.fixture(autouse=True)
def instant_daily_solver(make_bot: Any) -> None:
    def solver(request: DealRequest) -> ProvenDeal:
        return ProvenDeal(request.variant, 0, EASY_KLONDIKE, ())

    make_bot.daily_solve = solver


def labels(message: Any) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for row in message.components for c in row.get("components", [])}


async def start(actor: Any, channel: Any) -> Any:
    result = await actor.slash(channel, "solitaire start", variant="draw3", deal=EASY_NUMBER)
    return result.response


async def finished_casual_game(actor: Any, channel: Any) -> Any:
    board = await start(actor, channel)
    await actor.slash(channel, "solitaire draw")
    await actor.slash(channel, "solitaire end")
    return board


async def hinted_flag(env: Any, game_id: int) -> int:
    row = await env.bot.db.fetchone("SELECT hinted FROM games WHERE id = ?", (game_id,))
    return int(row["hinted"])


def test_after_game_ids_round_trip_and_refuse_forgeries():
    for click in (AfterGameClick(7, "analyze"), AfterGameClick(7, "replay"), AfterGameClick(7, "hint", 3)):
        assert parse_after_game_click(click.custom_id) == click
    for forged in ("solag:7:hint", "solag:7:analyze:3", "solag:x:replay", "solag:7:solve", "solag:7:replay:"):
        assert parse_after_game_click(forged) is None
    assert parse_after_game_click(f"solag:{2**63 - 1}:analyze") == AfterGameClick(2**63 - 1, "analyze")
    for past_64_bits in (f"solag:{2**63}:analyze", "solag:9999999999999999999:replay", f"solag:{2**64}:hint:1"):
        assert parse_after_game_click(past_64_bits) is None


@pytest.mark.parametrize("action", ["analyze", "replay", "hint:1"])
async def test_after_game_ids_past_64_bits_get_a_private_refusal(simcord_env, channel, alice, action):
    board = await finished_casual_game(alice, channel)
    (result,) = await raw_clicks(simcord_env, alice, board, f"solag:9999999999999999999:{action}")
    assert result.response.ephemeral and "not one I understand" in result.response.content


async def test_boards_carry_alt_text_without_hidden_cards(simcord_env, channel, alice):
    board = await start(alice, channel)
    alt = board.attachments[0].description
    assert alt.startswith("Solitaire Rush (draw 3), playing, score 0, 0 moves.")
    assert "Pile 7: 6 face down, " in alt


async def test_analyze_answers_privately_with_a_marked_picture(simcord_env, channel, alice):
    board = await finished_casual_game(alice, channel)
    assert set(labels(board)) == {"Analyze", "Share replay"}
    result = await alice.click(board, label="Analyze")
    answer = result.response
    assert answer.ephemeral
    assert "The deal was winnable." in answer.content
    assert "still winnable after move 1, when the game ended" in answer.content
    assert "A winning line from there" in answer.content and len(answer.content) <= 2000
    assert [a.filename for a in answer.attachments] == ["analysis.png"]
    assert answer.attachments[0].description.startswith("Solitaire Rush (draw 3)")


async def test_the_analysis_picture_marks_the_losing_moves_source_and_target(simcord_env, channel, alice, monkeypatch):
    # The easy deal is never lost, so the solver's verdict is replaced: "1-f" (A♠ to its foundation) lost it.
    verdict = Analysis("draw3", True, 0, "1-f", (), True, "ended", 1)
    monkeypatch.setattr(after_game_jobs, "analyze_state", lambda state: verdict)
    asked: list[dict[str, Any]] = []

    def spy(view: Any, **options: Any) -> bytes:
        asked.append(options)
        return render_board(view, **options)

    monkeypatch.setattr(render_pool, "render_board", spy)
    board = await finished_casual_game(alice, channel)
    answer = (await alice.click(board, label="Analyze")).response
    assert "**1 → f: A♠ starts the ♠ foundation** lost it" in answer.content
    marked = [(options["selected"], options["target"]) for options in asked if options["target"] is not None]
    assert marked == [("1", "fs")]  # only the analysis picture marks a move
    data = simcord_env.backend.cdn.get(answer.attachments[0].url)
    assert data is not None
    picture = Image.open(io.BytesIO(data))
    spades = picture.crop((column_x(3) - 6, TOP_Y - 6, column_x(3) + CARD_W + 6, TOP_Y + CARD_H + 6))
    assert dict((i, n) for n, i in spades.getcolors(256) or []).get(palette.index(palette.ALERT), 0) > 400


async def test_share_replay_posts_a_gif_in_the_channel(simcord_env, channel, alice):
    board = await finished_casual_game(alice, channel)
    result = await alice.click(board, label="Share replay")
    posted = result.response
    assert not posted.ephemeral
    assert "replay: ended" in posted.content
    assert posted.content.endswith("**0 points** in 1 move")  # one draw (ending is no move); counted nouns
    assert [a.filename for a in posted.attachments] == ["replay.gif"]
    data = simcord_env.backend.cdn.get(posted.attachments[0].url)
    assert data is not None
    assert Image.open(io.BytesIO(data)).n_frames == 3  # the deal, the draw, the end


async def test_someone_else_cannot_analyze_your_game(simcord_env, channel, alice, bob):
    board = await finished_casual_game(alice, channel)
    result = await bob.click(board, label="Analyze")
    assert result.response.ephemeral and "'s game" in result.response.content


async def test_a_daily_opens_analysis_and_replay_only_after_the_servers_day(simcord_env, channel, alice):
    daily = await alice.slash(channel, "solitaire daily", variant="draw3")
    board = daily.response
    assert "Hint (−50)" not in labels(board)
    await alice.slash(channel, "solitaire end")
    for name in ("Analyze", "Share replay"):
        early = await alice.click(board, label=name)
        assert early.response.ephemeral and "once this server's day is over" in early.response.content
    await advance(simcord_env, datetime(2026, 1, 2, 0, 0, 1, tzinfo=UTC))
    later = await alice.click(board, label="Analyze")
    assert later.response.ephemeral and "The deal was winnable." in later.response.content


async def advance(env: Any, moment: datetime) -> None:
    while (left := (moment - env.now()).total_seconds()) > 0:
        await env.advance_time(min(left, 6 * 3600))


async def test_hint_is_private_costs_points_and_marks_the_game(simcord_env, channel, alice):
    board = await start(alice, channel)
    assert "Hint (−50)" in labels(board)
    result = await alice.click(board, label="Hint (−50)")
    answer = result.response
    assert answer.ephemeral and answer.content.startswith("Hint: **"), answer.content
    assert "not ranked on the casual leaderboards" in answer.content
    session = simcord_env.bot.sessions.get(1)
    assert session.game.hinted and session.game.sheet.hints == -50
    assert "score -50" in board.content  # the board was redrawn with the charge
    record = await games_db.get_game(simcord_env.bot.db, 1)
    assert record is not None and '"hint"' in await games_db.game_state(simcord_env.bot.db, record)
    await alice.slash(channel, "solitaire end")
    assert await hinted_flag(simcord_env, 1) == 1  # written with the result, in the same statement


async def test_the_hint_button_and_the_command_line_give_the_same_move_in_the_same_words(simcord_env, channel, alice):
    board = await start(alice, channel)
    await alice.slash(channel, "solitaire draw")
    session = simcord_env.bot.sessions.get(1)
    game = session.game
    moves = " ".join(move for move, _ in game.log)
    expected = hint_for(knowledge_of(game), number=1, salt=session.id)
    words = describe_move(game, game.parse_move(expected.move))
    out = io.StringIO()
    common = ["--variant", "draw3", "--deck", format_deck(game.deck), "--moves", moves, "--rng", str(session.id)]
    assert main(["hint", *common, "--json"], out) == 0
    assert json.loads(out.getvalue()) == expected.to_dict()
    answer = (await alice.click(board, label="Hint (−50)")).response
    assert answer.content.startswith(f"Hint: **{words}** — {expected.why}."), answer.content


async def test_a_forged_hint_on_a_daily_is_refused(simcord_env, channel, alice):
    daily = await alice.slash(channel, "solitaire daily", variant="draw3")
    game = simcord_env.bot.sessions.get(1)
    forged = AfterGameClick(game.id, "hint", game.game.version).custom_id
    (result,) = await raw_clicks(simcord_env, alice, daily.response, forged)
    assert result.response.ephemeral and "casual games only" in result.response.content
    assert not game.game.hinted


async def test_a_hinted_game_is_left_off_the_casual_leaderboards(simcord_env, channel, alice, bob):
    board = (await alice.slash(channel, "solitaire start", variant="draw3")).response  # ranked deals
    await alice.click(board, label="Hint (−50)")
    await alice.slash(channel, "solitaire end")
    bob_board = (await bob.slash(channel, "solitaire start", variant="draw3")).response
    await bob.slash(channel, "solitaire end")
    assert bob_board is not None
    best = await simcord_env.bot.db.fetchall("SELECT user_id FROM best_results WHERE mode = 'casual'")
    assert [row["user_id"] for row in best] == [bob.id]
    today = await alice.slash(channel, "solitaire leaderboard", variant="draw3", period="today", games="casual")
    text = today.response.embeds[0].description or ""
    assert text.startswith(f"🥇 <@{bob.id}>") and f"<@{alice.id}> has no result here yet" in text
    assert "1 ranked" in text


async def test_a_hint_cannot_be_typed_as_a_move(simcord_env, channel, alice):
    await start(alice, channel)
    result = await alice.slash(channel, "solitaire move", move="hint")
    assert result.response.ephemeral and "Hint button" in result.response.content
    assert simcord_env.bot.sessions.get(1).game.hints == 0


@pytest.mark.parametrize("variant", ["draw1", "friday13"])
async def test_boards_with_the_hint_button_fit_discord_limits(simcord_env, channel, alice, variant):
    result = await alice.slash(channel, "solitaire start", variant=variant, deal=5)
    board = result.response
    assert "Hint (−50)" in labels(board)
    assert len(board.components) <= 5 and all(len(row["components"]) <= 5 for row in board.components)


# -- heavy work: one job at a time per member, reuse, one public replay per game ----------------
def counting(verdict: Analysis, calls: list[str], gate: threading.Event | None = None) -> Any:
    """A stand-in for the analysis job that counts its runs (and waits for ``gate``, if given)."""

    def analyze(state: str) -> Analysis:
        calls.append(state)
        if gate is not None:
            gate.wait(10)
        return verdict

    return analyze


WON = Analysis("draw3", True, 0, None, (), True, "won", 1)


async def test_a_finished_analysis_is_reused_and_a_double_click_joins_it(simcord_env, channel, alice, monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(after_game_jobs, "analyze_state", counting(WON, calls))
    board = await finished_casual_game(alice, channel)
    double = await raw_clicks(simcord_env, alice, board, AfterGameClick(1, "analyze").custom_id, times=2)
    assert all(r.response.ephemeral and "You won it" in r.response.content for r in double)
    later = await alice.click(board, label="Analyze")
    assert later.response.ephemeral and "You won it" in later.response.content
    assert len(calls) == 1  # solved once for the three clicks


async def test_a_second_heavy_job_of_a_member_is_refused_privately_while_one_runs(
    simcord_env, channel, alice, monkeypatch
):
    calls: list[str] = []
    gate = threading.Event()
    monkeypatch.setattr(after_game_jobs, "analyze_state", counting(WON, calls, gate))
    board = await finished_casual_game(alice, channel)
    timer = threading.Timer(0.5, gate.set)  # whichever job goes first still runs when the other is asked for
    timer.start()
    ids = [AfterGameClick(1, "analyze").custom_id, AfterGameClick(1, "replay").custom_id]
    analysis, replay = (result.response for result in await clicks_at_once(simcord_env, alice, board, ids))
    timer.join()
    shared = await replays_db.shared_replay(simcord_env.bot.db, 1)
    if "still being prepared" in replay.content:  # the analysis went first
        assert replay.ephemeral and replay.content.startswith("Your analysis is still being prepared")
        assert analysis.ephemeral and "You won it" in analysis.content
        assert shared is None  # the refused replay claimed nothing
    else:  # the replay went first
        assert analysis.ephemeral and analysis.content.startswith("Your replay is still being prepared")
        assert not replay.ephemeral and [a.filename for a in replay.attachments] == ["replay.gif"]
        assert shared is not None and shared.message_id == replay.id and not calls


async def test_a_game_is_posted_publicly_once_even_after_a_restart(simcord_env, channel, alice, make_bot):
    board = await finished_casual_game(alice, channel)
    posted = (await alice.click(board, label="Share replay")).response
    assert not posted.ephemeral and posted.attachments
    link = f"https://discord.com/channels/{channel.guild.id}/{channel.id}/{posted.id}"
    again = await alice.click(board, label="Share replay")
    assert again.response.ephemeral and "already posted" in again.response.content and link in again.response.content
    await simcord_env.restart_bot(make_bot())
    after = await alice.click(board, label="Share replay")
    assert after.response.ephemeral and link in after.response.content
    gifs = [m for m in channel.history() if any(a.filename == "replay.gif" for a in m.attachments)]
    assert [m.id for m in gifs] == [posted.id]


@pytest.mark.both_backends  # its statements run on PostgreSQL nowhere else
async def test_a_replay_that_could_not_be_drawn_can_be_shared_again(simcord_env, channel, alice, monkeypatch):
    from bot.heavy import JobTimeoutError, Priority

    def too_long(state: str) -> Any:
        raise JobTimeoutError(Priority.REPLAY)

    board = await finished_casual_game(alice, channel)
    with monkeypatch.context() as patched:
        patched.setattr(after_game_cog, "replay_of", too_long)
        failed = await alice.click(board, label="Share replay")
    assert "took too long" in (failed.response.content if failed.response else failed.followups[0].content)
    assert await replays_db.shared_replay(simcord_env.bot.db, 1) is None  # the claim was given back
    posted = await alice.click(board, label="Share replay")
    assert [a.filename for a in posted.response.attachments] == ["replay.gif"]
    stored = await replays_db.shared_replay(simcord_env.bot.db, 1)
    assert stored is not None and stored.message_id == posted.response.id
    assert stored.link == f"https://discord.com/channels/{channel.guild.id}/{channel.id}/{posted.response.id}"
