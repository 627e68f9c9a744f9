"""Races at full speed through the real bot (discord.py + SimCord's simulated Discord).

Usage: [RENDER_WORKERS=2] .venv/bin/python benchmarks/bench_race.py [--races 20] [--racers 8] [--seconds 20]

1. ``--races`` lobbies are opened with ``/solitaire race players:<racers>`` and filled by
   Join clicks (each starts by itself when full); after the countdown every racer opens
   their private board.
2. Full speed (``--rate 0``): every racer clicks "Draw" on their board again as soon as
   the previous click is answered; paced (``--rate N``): N clicks per second spread over the
   racers. Each click is a real INTERACTION_CREATE through the gateway with the board's current
   custom id, all racers at once, for ``--seconds`` of wall time. Click latency is the
   time from sending the interaction to the bot's response reaching (simulated) Discord.
3. Every standings update the race service hands to the race message is timestamped with
   the wall clock; the smallest gap between two updates of one race is reported. Then every
   racer ends their game, so every race finishes and posts its results once (counted from the
   stored results posts Discord took).

The bot reads the wall clock here (``now=time.time``, not SimCord's virtual clock) and the
race service waits out its interval with a real sleep (in a thread: SimCord parks the bot's
``asyncio.sleep`` until virtual time is advanced), so the gaps are real seconds; the countdown
before the common start is cut to 0.5 s to keep the run short. Everything runs in this one
process (SimCord included). The last line is ``key=value`` pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree's bot, not an installed one

import simcord

from benchmarks.sim_clicks import ANSWERED, OPEN_DECK, instant_daily, record_answers, send_click
from bot.compete import race as races
from bot.compete.race import start as race_start
from bot.play.deal_bank import DealBank
from bot.runtime.client import SolitaireBot
from bot.runtime.settings import load_settings
from solitaire import VARIANTS
from solitaire.deals import ProvenDeal


def _bot(folder: Path) -> SolitaireBot:
    settings = load_settings(_env_file=None, discord_token="bench", database_path=folder / "bench.db")
    deals: DealBank[Any] = DealBank(
        lambda variant, number: ProvenDeal(variant, number, OPEN_DECK, ()),
        variants=VARIANTS,
        size=0,
        numbers=lambda: 777,
    )
    return SolitaireBot(settings, deals=deals, now=time.time, daily_solve=instant_daily)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def _min_gap(stamps: dict[int, list[float]]) -> float:
    gaps = [b - a for times in stamps.values() for a, b in itertools.pairwise(times)]
    return min(gaps) if gaps else float("inf")


async def run(race_count: int, racers: int, seconds: float, rate: float) -> dict[str, float]:
    record_answers()
    with tempfile.TemporaryDirectory() as folder:
        bot = _bot(Path(folder))
        async with simcord.run(bot) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("races")
            members = [guild.add_member(env.create_user(f"racer{i}")) for i in range(race_count * racers)]
            wall_clock: dict[int, list[float]] = defaultdict(list)
            publish = bot.races.publish
            assert publish is not None

            async def recorded(snapshot: races.RaceSnapshot) -> None:
                if snapshot.race.status != "finished":
                    wall_clock[snapshot.race.id].append(time.perf_counter())
                await publish(snapshot)

            async def results_posted() -> int:
                """Results posts delivered: the race's stored announcements Discord took (each is posted once)."""
                row = await bot.db.fetchone(
                    "SELECT COUNT(*) AS n FROM announcements WHERE kind = 'race' AND state = 'posted'"
                )
                return int(row["n"]) if row else 0

            bot.races.publish = recorded
            sleeper = ThreadPoolExecutor(max_workers=64)

            async def wall_sleep(seconds: float) -> None:
                await asyncio.get_running_loop().run_in_executor(sleeper, time.sleep, seconds)

            lobbies = []
            for r in range(race_count):
                team = members[r * racers : (r + 1) * racers]
                opened = await team[0].slash(channel, "solitaire race", variant="draw3", players=racers)
                for member in team[1:]:
                    await member.click(opened.response, label="Join")
                lobbies.append((team, opened.response))
            await asyncio.sleep(races.COUNTDOWN_SECONDS)
            boards: list[tuple[Any, int]] = []
            for team, lobby in lobbies:
                for member in team:
                    result = await member.click(lobby, label="Open my board")
                    boards.append((member, result.response.id))
            sessions = [bot.sessions.active_for(guild.id, member.id) for member, _ in boards]
            assert all(s is not None for s in sessions)
            wall_clock.clear()

            bot.races.sleep = wall_sleep
            latencies: list[float] = []
            begin = time.perf_counter()
            pending: dict[int, tuple[int, float]] = {}

            def send(index: int) -> None:
                member, message_id = boards[index]
                session = sessions[index]
                assert session is not None
                custom_id = f"sol:{session.id}:{session.game.version}:-:draw"
                pending[send_click(env, member, message_id, channel.id, custom_id)] = (index, time.perf_counter())

            busy: set[int] = set()
            sent_count = 0

            def collect(resend: bool) -> None:
                for interaction_id in [i for i in pending if i in ANSWERED]:
                    index, sent_at = pending.pop(interaction_id)
                    busy.discard(index)
                    latencies.append((ANSWERED[interaction_id] - sent_at) * 1000)
                    if resend:
                        send(index)
                        busy.add(index)

            if rate <= 0:  # closed loop: each racer clicks again as soon as answered
                for index in range(len(boards)):
                    send(index)
                while time.perf_counter() - begin < seconds:
                    await asyncio.sleep(0.002)
                    collect(resend=True)
            else:  # paced: ``rate`` clicks per second over the racers, a racer's next only once answered
                while (now := time.perf_counter() - begin) < seconds:
                    due = int(now * rate)
                    while sent_count < due:
                        index = sent_count % len(boards)
                        sent_count += 1
                        if index not in busy:
                            send(index)
                            busy.add(index)
                    await asyncio.sleep(0.002)
                    collect(resend=False)
            while pending:
                await asyncio.sleep(0.005)
                for interaction_id in [i for i in pending if i in ANSWERED]:
                    _, sent_at = pending.pop(interaction_id)
                    latencies.append((ANSWERED[interaction_id] - sent_at) * 1000)
            elapsed = time.perf_counter() - begin
            edits = sum(len(t) for t in wall_clock.values())
            for index, (member, message_id) in enumerate(boards):  # every racer ends their game: the races finish
                session = sessions[index]
                assert session is not None
                send_click(env, member, message_id, channel.id, f"sol:{session.id}:{session.game.version}:-:end")
            while await results_posted() < race_count and time.perf_counter() - begin < seconds + 120:
                await asyncio.sleep(0.1)
            await asyncio.sleep(races.STANDINGS_INTERVAL + 0.5)  # the last real sleeps end
            await env.settle(timeout=30)
            posted = await results_posted()
            errors = len(env.errors)
            sleeper.shutdown(wait=False, cancel_futures=True)
        await bot.close_services()
    return {
        "races": race_count,
        "racers": racers,
        "rate": rate,
        "clicks": len(latencies),
        "clicks_per_s": len(latencies) / elapsed,
        "click_p50_ms": statistics.median(latencies),
        "click_p99_ms": _percentile(latencies, 0.99),
        "click_max_ms": max(latencies),
        "standings_edits": edits,
        "edits_per_race_per_2s": edits / race_count / (elapsed / races.STANDINGS_INTERVAL),
        "min_edit_gap_s": _min_gap(wall_clock),
        "results_posted": posted,
        "bot_errors": errors,
        "render_workers": bot.settings.render_workers,
    }


def main() -> None:
    race_start.COUNTDOWN_SECONDS = 0.5  # read where the race starts (bot/compete/race/start.py)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--racers", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=0.0, help="clicks/s over all racers; 0: full speed")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    figures = {**asyncio.run(run(args.races, args.racers, args.seconds, args.rate)), "load": load}
    for key, value in figures.items():
        print(f"{key}: {value:.3f}" if isinstance(value, float) else f"{key}: {value}")
    print(" ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
