"""Other players' starts and moves while one member spams Analyze and Share replay, and boards with a stopped worker.

Usage: [RENDER_WORKERS=1 DEAL_WORKERS=2] .venv/bin/python benchmarks/bench_heavy.py [--rounds 20] [--pause 1]
       [--long 3000] [--spammers 1]

The real bot on SimCord's simulated Discord, in this process, with its worker processes (``RENDER_WORKERS``
and ``DEAL_WORKERS`` read from the environment like the bot), the real solver and a deal bank of 4 per
variant (filled before anything is timed). To time the code before, copy this file and ``sim_clicks.py``
into its checkout and run them there (with ``PYTHONPATH`` set to it).

1. Each spammer gets 12 finished games, made through the bot's own sessions: 8 lost games of 150 moves
   (``benchmarks/after_game_games.py``) and 4 won draw-1 games of ``--long`` commands (idle turns of the
   stock, then the solution).
2. Quiet: ``--rounds`` times, a player (a new member every 2 rounds) starts a numbered game (deals 700001
   on: each a real solve) and a plain one (a deal from the bank), clicks Draw 5 times in each (each click
   sent once the previous is answered), ends it and waits ``--pause`` seconds. Start: from sending
   ``/solitaire start`` to the board shown; move: from a click to its answer.
3. Spammed: the same, with the same deals solved again, while each spammer clicks Analyze on its 8 lost
   games and Share replay on its 4 long ones, one click every 0.5 s, never waiting. An event-loop lag
   probe (a 10 ms sleep) records the longest stall.
4. Stopped worker: the first worker process (the one pictures go to first) is stopped with SIGSTOP; 8
   players with a running game click Draw 5 times each (each sent once the previous is answered, or given
   up after 5 s: never answered counts as infinitely slow). Board: from sending the click to its answer.

Ends with one ``key=value`` line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import resource
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot, not an installed one

import simcord

from benchmarks.after_game_games import played_game
from benchmarks.sim_clicks import ANSWERED, instant_daily, record_answers, send_click, send_slash
from bot.runtime.client import SolitaireBot
from bot.runtime.settings import load_settings
from solitaire import END
from solitaire.deals import numbered_deal

ANALYZED = [("draw3", n) for n in (3, 5, 8, 13)] + [("goldrush", n) for n in (2, 4)] + [("draw1", n) for n in (6, 9)]
"""The spammer's lost games (variant, deal number), played 150 moves by ``played_game``."""
BANK_SIZE = 4
"""Deals kept ready per variant (the bot's default)."""
CLICK_EVERY = 0.5
FIRST_DEAL = 700_001
"""The players' numbered deals: the same in the quiet and the spammed phase (solved afresh in each)."""
GIVE_UP = 5.0
"""Seconds after which a click or start still unanswered counts as never answered."""


@dataclass
class Figures:
    """What the run measured, in seconds (``inf``: never answered)."""

    quiet_numbered: list[float] = field(default_factory=list)
    quiet_starts: list[float] = field(default_factory=list)
    quiet_moves: list[float] = field(default_factory=list)
    numbered: list[float] = field(default_factory=list)
    """Numbered starts (each a solve)."""
    starts: list[float] = field(default_factory=list)
    """Plain starts (a deal from the bank)."""
    moves: list[float] = field(default_factory=list)
    stopped: list[float] = field(default_factory=list)
    spam: list[str] = field(default_factory=list)
    stall: float = 0.0


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))] if ordered else math.nan


def _ms(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value * 1000:.0f}"


def long_log(commands: int) -> tuple[Any, list[str]]:
    """A won draw-1 game of at least ``commands`` commands: idle turns of the stock, then the solution."""
    deal = numbered_deal("draw1", 1)
    turns = max(commands - len(deal.solution), 0) // 25 + 1  # 25 commands turn the stock once
    return deal, ["draw"] * 25 * turns + list(deal.solution)


async def _finished(bot: SolitaireBot, channel: Any, member: Any, deal: Any, moves: list[str], ends: bool) -> int:
    """A finished game of ``member`` (``moves`` end it if ``ends``, else it is ended); its id.

    The moves are played on the session's engine and saved at once by the finishing command (the whole log
    goes into the result), so setting up thousands of commands takes seconds, not minutes.
    """
    session = await bot.sessions.start(
        guild_id=member.guild.id, channel_id=channel.id, user_id=member.id, variant=deal.variant, deal=deal
    )
    for move in moves[:-1] if ends else moves:
        session.game.play(move)
    await bot.sessions.play(session, moves[-1] if ends else END)
    assert session.game.is_over
    return int(session.id)


async def _answered(interaction: int, seconds: float = GIVE_UP) -> float | None:
    """When ``interaction`` was answered (``None``: not within ``seconds``)."""
    end = time.perf_counter() + seconds
    while interaction not in ANSWERED and time.perf_counter() < end:
        await asyncio.sleep(0.002)
    return ANSWERED.get(interaction)


async def _board_shown(env: Any, interaction: int, seconds: float = GIVE_UP) -> float | None:
    """When the answer to ``interaction`` first showed a board picture (``None``: not within ``seconds``)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        record = env.backend.interactions[interaction]
        if record.message_id is not None:
            message = env.backend.get_message(record.channel_id, record.message_id)
            if any(attachment["filename"] == "board.png" for attachment in message.attachments):
                return time.perf_counter()
        await asyncio.sleep(0.002)
    return None


async def _click(env: Any, member: Any, board: int, channel: Any, custom_id: str) -> float:
    """Send one click and wait for its answer; seconds taken (``inf``: never answered)."""
    sent = time.perf_counter()
    answered = await _answered(send_click(env, member, board, channel.id, custom_id))
    return math.inf if answered is None else answered - sent


def _draw_id(bot: SolitaireBot, guild: Any, member: Any) -> tuple[int, str]:
    session = bot.sessions.active_for(guild.id, member.id)
    assert session is not None and session.record.message_id is not None
    return session.record.message_id, f"sol:{session.id}:{session.game.version}:-:draw"


async def _spam(env: Any, channel: Any, spammer: Any, board: int, games: list[int], replays: list[int]) -> list[str]:
    """Click Analyze on ``games`` and Share replay on ``replays`` (interleaved), one click every 0.5 s."""
    analyses = [f"solag:{game}:analyze" for game in games]
    shares = [f"solag:{game}:replay" for game in replays]
    order = [click for pair in zip(analyses[0::2], analyses[1::2], shares, strict=True) for click in pair]
    sent = []
    for custom_id in order:
        sent.append(send_click(env, spammer, board, channel.id, custom_id, shown=True))
        await asyncio.sleep(CLICK_EVERY)
    outcomes = []
    end = time.perf_counter() + 120
    for interaction in sent:
        record = env.backend.interactions[interaction]
        while (record.message_id is None or _thinking(env, record)) and time.perf_counter() < end:
            await asyncio.sleep(0.05)
        outcomes.append(_outcome(env, record))
    return outcomes


def _thinking(env: Any, record: Any) -> bool:
    message = env.backend.get_message(record.channel_id, record.message_id)
    return not message.content and not message.attachments


def _outcome(env: Any, record: Any) -> str:
    if record.message_id is None:
        return "unanswered"
    message = env.backend.get_message(record.channel_id, record.message_id)
    if message.attachments:
        return "done"
    return "refused" if "one at a time" in message.content else "other"


async def _players(
    env: Any, bot: SolitaireBot, channel: Any, phase: str, args: argparse.Namespace, figures: Figures
) -> None:
    """``--rounds`` times: a numbered start and a plain one, each with 5 Draw clicks, the end and a pause."""
    rounds = args.rounds
    member = None
    for index, number in enumerate(range(FIRST_DEAL, FIRST_DEAL + rounds)):
        if index % 2 == 0:  # at most 4 starts per member in 30 s
            member = channel.guild.add_member(env.create_user(f"{phase}{index // 2}"))
        for deal, starts in ((number, figures.numbered), (None, figures.starts)):
            sent = time.perf_counter()
            options = {"deal": deal} if deal is not None else {}
            shown = await _board_shown(env, send_slash(env, member, channel, "solitaire start", **options))
            starts.append(math.inf if shown is None else shown - sent)
            if shown is None or bot.sessions.active_for(channel.guild.id, member.id) is None:
                continue
            for _ in range(5):
                board, custom_id = _draw_id(bot, channel.guild, member)
                figures.moves.append(await _click(env, member, board, channel, custom_id))
            await _answered(send_slash(env, member, channel, "solitaire end"))
            await asyncio.sleep(args.pause)


async def _probe(figures: Figures, running: asyncio.Event) -> None:
    """Record the event loop's longest stall (a 10 ms sleep that overshoots)."""
    while running.is_set():
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        figures.stall = max(figures.stall, time.perf_counter() - began - 0.01)


def _first_worker(bot: SolitaireBot) -> int:
    """The process pictures go to first (the scheduler's first worker; before it, the render pool's)."""
    pool = getattr(bot, "jobs", None) or bot.renders
    return int(pool.pids[0])


async def _stopped_worker(env: Any, bot: SolitaireBot, guild: Any, channel: Any, figures: Figures) -> int:
    """Stop the first worker and time 8 players' Draw clicks; returns the stopped pid."""
    members = [guild.add_member(env.create_user(f"stopped{i}")) for i in range(8)]
    for member in members:
        await _board_shown(env, send_slash(env, member, channel, "solitaire start"), 30)
    stopped = _first_worker(bot)
    os.kill(stopped, signal.SIGSTOP)

    async def clicks(member: Any) -> None:
        for _ in range(5):
            board, custom_id = _draw_id(bot, guild, member)
            took = await _click(env, member, board, channel, custom_id)
            figures.stopped.append(took)
            if math.isinf(took):
                return  # the board never came back: its next click would be stale

    await asyncio.gather(*(clicks(member) for member in members))
    return stopped


async def run(args: argparse.Namespace) -> Figures:
    """Set up, spam, time the players, stop a worker; return the figures."""
    record_answers()
    figures = Figures()
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(
            _env_file=None,
            discord_token="bench",
            database_path=Path(folder) / "bench.db",
            daily_spares=0,
            deal_bank_size=0,  # filled below, once connected (SimCord gives a connection 5 s to settle)
        )
        bot = SolitaireBot(settings, daily_solve=instant_daily)
        async with simcord.run(bot) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("games")
            bot.deals.size = BANK_SIZE
            bot.deals.start()
            began = time.perf_counter()
            await bot.deals.wait_idle()  # a full bank, as on a server that has been up a while
            print(f"bank filled in {time.perf_counter() - began:.1f} s", flush=True)
            spam_sets = []
            for number in range(args.spammers):
                spammer = guild.add_member(env.create_user(f"spammer{number}"))
                started = send_slash(env, spammer, channel, "solitaire start")
                await _board_shown(env, started, 60)
                board = env.backend.interactions[started].message_id
                await _answered(send_slash(env, spammer, channel, "solitaire end"), 60)
                games = []
                for variant, deal_number in ANALYZED:
                    game = played_game(variant, deal_number, 150)
                    moves = [move for move, _ in game.log]
                    deal = numbered_deal(variant, deal_number)
                    games.append(await _finished(bot, channel, spammer, deal, moves, game.is_over))
                deal, moves = long_log(args.long)
                replays = [await _finished(bot, channel, spammer, deal, moves, True) for _ in range(4)]
                spam_sets.append((spammer, board, games, replays))
            print(f"set up: {args.spammers} spammer(s), 12 finished games each", flush=True)
            quiet = Figures()
            await _players(env, bot, channel, "quiet", args, quiet)
            figures.quiet_numbered, figures.quiet_starts = quiet.numbered, quiet.starts
            figures.quiet_moves = quiet.moves
            await bot.db.execute("DELETE FROM numbered_deals")  # the same deals are solved again below
            running = asyncio.Event()
            running.set()
            probe = asyncio.create_task(_probe(figures, running))
            spam = [asyncio.create_task(_spam(env, channel, *spam_set)) for spam_set in spam_sets]
            await _players(env, bot, channel, "spammed", args, figures)
            running.clear()
            await probe
            print(
                f"players: {len(figures.starts) + len(figures.numbered)} starts, {len(figures.moves)} moves", flush=True
            )
            stopped = await _stopped_worker(env, bot, guild, channel, figures)
            print(f"stopped worker: {len(figures.stopped)} clicks", flush=True)
            figures.spam = [outcome for outcomes in await asyncio.gather(*spam) for outcome in outcomes]
            with contextlib.suppress(ProcessLookupError):
                os.kill(stopped, signal.SIGKILL)  # the code before never replaces it
        await bot.close_services()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="numbered and plain starts in each phase")
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between a game's end and the next start")
    parser.add_argument("--long", type=int, default=3000, help="commands of each game whose replay is asked for")
    parser.add_argument("--spammers", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    figures = asyncio.run(run(args))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    starts, numbered, moves, stopped = figures.starts, figures.numbered, figures.moves, figures.stopped
    values = {
        "tree": str(Path(__file__).resolve().parents[1]),
        "render_workers": os.environ.get("RENDER_WORKERS", "1"),
        "deal_workers": os.environ.get("DEAL_WORKERS", "2"),
        "spammers": args.spammers,
        "long": args.long,
        "rounds": args.rounds,
        "pause": args.pause,
        "quiet_start_p95_ms": _ms(_percentile(figures.quiet_starts, 0.95)),
        "quiet_numbered_p50_ms": _ms(statistics.median(figures.quiet_numbered)),
        "quiet_numbered_p95_ms": _ms(_percentile(figures.quiet_numbered, 0.95)),
        "quiet_move_p99_ms": _ms(_percentile(figures.quiet_moves, 0.99)),
        "start_p50_ms": _ms(statistics.median(starts)),
        "start_p95_ms": _ms(_percentile(starts, 0.95)),
        "start_max_ms": _ms(max(starts)),
        "numbered_p50_ms": _ms(statistics.median(numbered)),
        "numbered_p95_ms": _ms(_percentile(numbered, 0.95)),
        "numbered_max_ms": _ms(max(numbered)),
        "moves": len(moves),
        "move_p50_ms": _ms(statistics.median(moves)),
        "move_p99_ms": _ms(_percentile(moves, 0.99)),
        "move_max_ms": _ms(max(moves)),
        "loop_stall_max_ms": _ms(figures.stall),
        "spam_done": figures.spam.count("done"),
        "spam_refused": figures.spam.count("refused"),
        "spam_other": len(figures.spam) - figures.spam.count("done") - figures.spam.count("refused"),
        "stopped_clicks": len(stopped),
        "stopped_p50_ms": _ms(statistics.median(stopped)),
        "stopped_p99_ms": _ms(_percentile(stopped, 0.99)),
        "stopped_unanswered": sum(math.isinf(value) for value in stopped),
        "peak_rss_mb": f"{peak_mb:.0f}",
        "worker_peak_rss_mb": f"{worker_mb:.0f}",
        "load": f"{load:.2f}",
    }
    print(
        f"quiet: plain starts p95 {values['quiet_start_p95_ms']} ms; numbered starts p50 "
        f"{values['quiet_numbered_p50_ms']} ms, p95 {values['quiet_numbered_p95_ms']} ms (the solves themselves); "
        f"move clicks p99 {values['quiet_move_p99_ms']} ms"
    )
    print(
        f"while spammed: plain starts ({len(starts)}) p50 {values['start_p50_ms']} ms, "
        f"p95 {values['start_p95_ms']} ms, "
        f"max {values['start_max_ms']} ms; the same numbered starts p50 {values['numbered_p50_ms']} ms, "
        f"p95 {values['numbered_p95_ms']} ms, max {values['numbered_max_ms']} ms"
    )
    print(
        f"move clicks while spammed: {len(moves)}, p50 {values['move_p50_ms']} ms, p99 {values['move_p99_ms']} ms, "
        f"max {values['move_max_ms']} ms; longest event-loop stall {values['loop_stall_max_ms']} ms"
    )
    print(
        f"spammer's clicks: {values['spam_done']} done, {values['spam_refused']} refused (one at a time), "
        f"{values['spam_other']} other"
    )
    print(
        f"boards with the first worker stopped: {len(stopped)} clicks, p50 {values['stopped_p50_ms']} ms, "
        f"p99 {values['stopped_p99_ms']} ms, {values['stopped_unanswered']} never answered"
    )
    print(
        f"peak memory: bot process {values['peak_rss_mb']} MB, largest worker {values['worker_peak_rss_mb']} MB; "
        f"load {values['load']} at start"
    )
    print(" ".join(f"{key}={value}" for key, value in values.items()))


if __name__ == "__main__":
    main()
