"""One process of a test cluster: ``python -m tests.bot.cluster_worker SCENARIO --database ... [options]``.

``tests/bot/test_two_processes.py`` starts several of these as real OS processes on one database;
each waits for ``--start-at`` (a wall-clock instant) so they race, does its share with the
bot's own code (the daily service, the storage functions) and prints one JSON line of what it did.

Scenarios:
  ``day``       race for the daily secret, the day's deal of ``--keys`` servers (taking ``--spares``
                spare deals when there are), and the one daily of ``--keys`` members (the solver
                answers deal number ``--tag-number``, so a stored deal tells who stored it);
  ``announce``  run the daily service (its recovery, then its rounds) until nothing is due for it
                (at most ``--run-for`` seconds), posting by appending ``"<tag> <kind> <guild> <text>"``
                lines to ``--posts``; its claims hold ``--lease`` seconds; with ``--start-when FILE``
                it starts once that file exists (as well as at ``--start-at``);
  ``hold``      the same, but the first post never returns: it writes ``"<tag> holding:<kind> <guild>
                <text>"`` and waits to be killed while holding its claim;
  ``habit``     like ``announce``, and it also gives champion roles and sends streak reminders, writing
                ``"<tag> give <guild> <user> <role>"``, ``"<tag> take <guild> <user> <role>"`` and
                ``"<tag> remind <guild> <user> <streak>"`` lines (its roles are kept, as Discord keeps them, in
                the file ``<posts>.roles``: giving a role a member holds writes ``"<tag> had ..."``);
  ``open``      open the database at ``--start-at`` (so several processes migrate a new one together)
                and report the migrations recorded;
  ``game``      resume the running games of its shards as the bot does at a start (its clock at ``--now``),
                write ``"<tag> resumed <ids> -"`` to ``--posts``, play ``--moves`` draws on each, and, once
                the file ``--expire-when`` exists, let their
                clocks run out (``--now`` moved past every deadline): report what it resumed, played,
                finished and announced, and what still runs in it;
  ``activity``  serve the Activity (the composition root's, as ``python -m bot`` with ``ACTIVITY_PORT``) for its
                shards with the cluster's ``--routes`` (``ACTIVITY_ROUTES``), asking the fake Discord API on
                ``--discord-port``; print ``ready <port>`` on a line of its own, serve until the file
                ``--stop-when`` exists, then report the moves it played, the pages it sent elsewhere and
                the games it runs.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import os
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from bot.compete.champions import RoleChange, RoleFacts, RolePort, ServerRole
from bot.compete.daily import DailyService
from bot.compete.reminders import DmOutcome, Reminder
from bot.outbox.announcements import Announcement, Announcements, Delivery
from bot.play.deal_bank import DealBank
from bot.play.session import FinishSource, Session
from bot.play.sessions import SessionManager
from bot.shards import Ownership, parse_shard_ids
from bot.storage import Database, claims
from bot.storage import games as games_db
from solitaire import DRAW, VARIANTS
from solitaire.deals import DealRequest, ProvenDeal
from tests.support.activity_stack import activity_stack
from tests.support.decks import EASY_KLONDIKE
from tests.support.fake_discord_api import FakeDiscordApi

VARIANT = "draw3"
DAY = "2026-05-01"
GUILD = 1 << 22  # shard 1 of 2
SETTLE = 0.5
"""Seconds an ``announce`` worker runs at least (and one round of its service) before it may stop when idle."""


async def connect(database: str) -> Database:
    """Open the shared database (a SQLite file; a PostgreSQL URL once that backend exists)."""
    return await Database.open(database)


def service_for(
    db: Database, ownership: Ownership, now: float, number: int, spares: int = 0, lease: float = claims.LEASE
) -> DailyService:
    """The bot's daily service, as a cluster process builds it, on a fixed clock and an instant solver."""

    def solve(request: DealRequest) -> ProvenDeal:
        return ProvenDeal(request.variant, number, EASY_KLONDIKE, ())

    deals: DealBank[ProvenDeal] = DealBank(
        lambda variant, n: ProvenDeal(variant, n, EASY_KLONDIKE, ()), variants=VARIANTS, size=0
    )
    outbox = Announcements(db, now=lambda: now, ownership=ownership, lease=lease)
    return DailyService(
        db,
        deals,
        announcements=outbox,
        now=lambda: now,
        solve=solve,
        variants=VARIANTS,
        ownership=ownership,
        spares=spares,
    )


def wait_until(start_at: float, start_when: str = "") -> None:
    """Sleep until the agreed instant (and until the file ``start_when`` exists, if named): the processes race."""
    time.sleep(max(0.0, start_at - time.time()))
    while start_when and not os.path.exists(start_when):
        time.sleep(0.01)


async def day(db: Database, args: argparse.Namespace, ownership: Ownership) -> dict[str, Any]:
    """Race for the secret, the day's deals and the members' dailies; report what this process got."""
    service = service_for(db, ownership, args.now, args.tag_number, args.spares)
    wait_until(args.start_at)
    secret = await service._daily_secret()
    deals = {}
    for guild in range(1, args.keys + 1):
        deal = await service.deal(guild, VARIANT, date.fromisoformat(DAY))
        deals[guild] = deal.seed
    started = []
    for user in range(1, args.keys + 1):
        game = games_db.NewGame(GUILD, 10, user, VARIANT, "daily", None, DAY, "{}", args.now, args.now + 300)
        try:
            await games_db.insert_game(db, game)
        except games_db.DuplicateGameError as error:
            assert error.kind == "daily", error.kind
        else:
            started.append(user)
    await service.close()
    return {"secret": secret, "deals": deals, "started": started}


def poster(args: argparse.Namespace, *, hold: bool) -> Callable[[Announcement], Any]:
    """A listener standing in for Discord: appends one line per post to the shared posts file."""

    async def post(announcement: Announcement) -> Delivery:
        text = announcement.text.replace("\n", " | ")
        if hold:
            write_line(args.posts, f"{args.tag} holding:{announcement.kind} {announcement.guild_id} {text}")
            await asyncio.Event().wait()  # killed here, holding the claim
        await asyncio.sleep(0.005)  # a post takes a while: the other process has every chance to race
        write_line(args.posts, f"{args.tag} {announcement.kind} {announcement.guild_id} {text}")
        return Delivery.POSTED

    return post


def write_line(path: str, line: str) -> None:
    """Append one whole line (one ``write`` on an ``O_APPEND`` file: lines of two processes never mix)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(descriptor, (line + "\n").encode())
    finally:
        os.close(descriptor)


class SharedRoles:
    """Discord's roles, one copy for every process: ``guild user role`` lines in a file, changed under a lock.

    Like Discord, a member who holds a role holds it: giving it again changes nothing, and the cog, which
    looks at the member's roles first (``cogs/habit.py``), answers :attr:`RoleChange.HAD_IT` without a call.
    """

    def __init__(self, path: str) -> None:
        self.path = path

    def change(self, guild_id: int, user_id: int, role_id: int, *, give: bool) -> bool:
        """Give (or take back) a role; whether the member's roles changed."""
        held = f"{guild_id} {user_id} {role_id}"
        with open(self.path, "a+") as roles:
            fcntl.flock(roles, fcntl.LOCK_EX)  # released when the file closes
            roles.seek(0)
            holding = set(roles.read().splitlines())
            if (held in holding) == give:
                return False
            holding = holding | {held} if give else holding - {held}
            roles.truncate(0)
            roles.write("".join(f"{line}\n" for line in sorted(holding)))
        return True


def habit_calls(args: argparse.Namespace) -> tuple[RolePort, Callable[[Reminder], Any]]:
    """Stand-ins for Discord's role changes and direct messages: each appends a line to the posts file.

    A role change that changes nothing (the member held the role, or did not) is written ``had`` or ``lacked``.
    """
    roles = SharedRoles(f"{args.posts}.roles")

    def role_call(verb: str, unchanged: str) -> Callable[[int, int, int, str], Any]:
        async def call(guild_id: int, user_id: int, role_id: int, reason: str) -> RoleChange:
            await asyncio.sleep(0.005)  # a call takes a while: the other process has every chance to race
            changed = roles.change(guild_id, user_id, role_id, give=verb == "give")
            write_line(args.posts, f"{args.tag} {verb if changed else unchanged} {guild_id} {user_id} {role_id}")
            return RoleChange.HAD_IT if verb == "give" and not changed else RoleChange.DONE

        return call

    async def remind(reminder: Reminder) -> DmOutcome:
        await asyncio.sleep(0.005)
        write_line(args.posts, f"{args.tag} remind {reminder.guild_id} {reminder.user_id} {reminder.streak}")
        return DmOutcome.SENT

    async def look(guild_id: int, role_id: int) -> ServerRole:
        return ServerRole(RoleFacts(role_id, 1, frozenset()), frozenset())  # a cosmetic role

    return RolePort(role_call("give", "had"), role_call("take", "lacked"), look), remind


async def announce(
    db: Database, args: argparse.Namespace, ownership: Ownership, *, hold: bool, habit: bool = False
) -> dict[str, Any]:
    """Run the daily service's loop (recovery first) for ``--run-for`` seconds."""
    service = service_for(db, ownership, args.now, args.tag_number, lease=args.lease)
    service.add_listener(poster(args, hold=hold))
    if habit:
        roles, remind = habit_calls(args)
        service.champions.use(roles)
        service.reminders.use(remind)
    rounds = count_rounds(service)
    wait_until(args.start_at, args.start_when)
    service.announcements.start()
    service.start()
    began = time.monotonic()
    while time.monotonic() - began < args.run_for:
        await asyncio.sleep(0.05)
        if rounds[0] and time.monotonic() - began >= SETTLE and await idle(service, args.now):
            break
    await service.close()
    await service.announcements.close()
    return {"tag": args.tag, "holder": service.announcements.holder.name}


def count_rounds(service: DailyService) -> list[int]:
    """Count the service's finished rounds (``[n]``), so a worker never stops before its first one."""
    rounds = [0]
    run_once = service.run_once

    async def counted() -> float:
        wait = await run_once()
        rounds[0] += 1
        return wait

    service.run_once = counted
    return rounds


async def idle(service: DailyService, now: float) -> bool:
    """Whether nothing is due for this process now and it holds no claim (its posts are all made)."""
    db = service.db
    posts = service.announcements
    due = await claims.next_due(db, service.ownership, now, lease=posts.lease)
    held = await db.fetchone("SELECT count(*) AS n FROM announcements WHERE claimed_by = ?", (posts.holder.name,))
    return (due is None or due > now) and held is not None and held["n"] == 0


async def game(db: Database, args: argparse.Namespace, ownership: Ownership) -> dict[str, Any]:
    """Resume this process's running games, play, then let their clocks run out when told; report it all."""
    now = [args.now]
    sessions = SessionManager(db, now=lambda: now[0])
    announced: list[dict[str, Any]] = []

    async def listener(session: Session, record: games_db.GameRecord, source: FinishSource) -> None:
        announced.append({"game": record.id, "status": record.status, "version": record.version, "source": source})

    sessions.add_finish_listener(listener)
    try:
        resumed, _ = await sessions.resume_all(owns=ownership.owns)
        write_line(args.posts, f"{args.tag} resumed {','.join(str(session.id) for session in resumed)} -")
        for session in resumed:
            for _ in range(args.moves):
                await sessions.play(session, DRAW)
        played = {session.id: session.game.version for session in resumed}
        expired = []
        if args.expire_when:
            wait_until(0, args.expire_when)
            now[0] = max(session.deadline for session in resumed) + 1
            for session in resumed:
                record = await sessions.expire(session, source="clock")  # what each game's clock task does
                expired.append(record.version if record is not None else None)
        running = sorted(session.id for session in sessions.running)
    finally:
        await sessions.close()
    return {"resumed": sorted(played), "played": played, "expired": expired, "announced": announced, "running": running}


async def activity(args: argparse.Namespace, ownership: Ownership) -> dict[str, Any]:
    """Serve the Activity for this process's shards until told to stop; report what it played and sent elsewhere."""
    database: Path | str = args.database if "://" in args.database else Path(args.database)
    discord = FakeDiscordApi(port=args.discord_port)  # the test's, in its own process: only its address is used
    settings = {"shard_count": ownership.shard_count, "shard_ids": ownership.shard_ids, "activity_routes": args.routes}
    async with activity_stack(database, discord=discord, **settings) as stack:
        server = stack.services.activity
        assert server is not None
        print(f"ready {server.port}", flush=True)
        while not os.path.exists(args.stop_when):
            await asyncio.sleep(0.02)
        running = {session.id: session.game.version for session in stack.services.sessions.running}
        return {
            "tag": args.tag,
            "prefix": server.prefix,
            "moves": server.counts.moves,
            "not_here": server.counts.closed["not_here"],
            "running": running,
        }


async def main(argv: list[str]) -> int:
    """Run one scenario and print its JSON report."""
    parser = argparse.ArgumentParser(prog="cluster_worker")
    parser.add_argument("scenario", choices=("day", "announce", "hold", "habit", "open", "game", "activity"))
    parser.add_argument("--database", required=True)
    parser.add_argument("--tag", required=True)
    parser.add_argument("--tag-number", type=int, default=0)
    parser.add_argument("--shard-count", type=int, default=1)
    parser.add_argument("--shard-ids", default="0")
    parser.add_argument("--start-at", type=float, default=0.0)
    parser.add_argument("--now", type=float, required=True)
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--spares", type=int, default=0)
    parser.add_argument("--posts", default=os.devnull)
    parser.add_argument("--run-for", type=float, default=1.0)
    parser.add_argument("--lease", type=float, default=claims.LEASE)
    parser.add_argument("--start-when", default="")
    parser.add_argument("--moves", type=int, default=0)
    parser.add_argument("--expire-when", default="")
    parser.add_argument("--discord-port", type=int, default=0)
    parser.add_argument("--routes", default="")
    parser.add_argument("--stop-when", default="")
    args = parser.parse_args(argv)
    ownership = Ownership(args.shard_count, parse_shard_ids(args.shard_ids))
    if args.scenario == "activity":  # the services open the database themselves
        print(json.dumps(await activity(args, ownership)), flush=True)
        return 0
    if args.scenario == "open":
        wait_until(args.start_at)
    db = await connect(args.database)
    try:
        if args.scenario == "open":
            report = {"applied": await db.applied_migrations()}
        elif args.scenario == "game":
            report = await game(db, args, ownership)
        elif args.scenario == "day":
            report = await day(db, args, ownership)
        else:
            report = await announce(db, args, ownership, hold=args.scenario == "hold", habit=args.scenario == "habit")
    finally:
        await db.close()
    print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
