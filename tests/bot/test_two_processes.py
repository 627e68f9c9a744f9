"""Two real OS processes on one database race for the same work: each piece is done exactly once.

Every process is ``python -m tests.bot.cluster_worker`` (the bot's own daily service and storage code),
started together on one database: a SQLite file in WAL mode, and an empty schema on a real PostgreSQL 15
server (``tests/support/postgres_server.py``). The ``database`` fixture is the only place that names it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.play.sessions import SessionManager
from bot.rules.daily_deals import deal_to_json
from bot.shards import Ownership
from bot.storage import Database
from bot.storage import champions as champions_db
from bot.storage import competition as competition_db
from bot.storage import games as games_db
from bot.storage import players as players_db
from solitaire import DRAW
from solitaire.deals import ProvenDeal
from tests.bot.cluster_worker import DAY, GUILD, VARIANT
from tests.support.cluster import NOW, WORKER_TIMEOUT, Cluster
from tests.support.decks import EASY_KLONDIKE
from tests.support.postgres_server import _admin as admin

pytestmark = pytest.mark.processes  # real processes: left out of the fast loop

FINISHED_AT = datetime(2026, 5, 1, 20, 0, tzinfo=UTC).timestamp()
GUILDS = [k << 22 for k in range(1, 7)]
"""Servers on shards 1, 0, 1, 0, ... of 2."""
PLAYERS = 3
SPARE_SEEDS = 1000
"""Spare deals are numbered from here (the processes' own solves are numbered 1 and 2)."""
LAUNCH = 1.5
"""Seconds from starting the processes to their common start (their imports take a fraction of one)."""


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the processes meet: a SQLite file (WAL mode), or a PostgreSQL schema's URL."""
    if request.param == "postgres":
        return str(request.getfixturevalue("postgres_dsn"))
    return str(tmp_path / "cluster.db")


@pytest.fixture
def posts(tmp_path: Path) -> Path:
    """The file the processes' stand-in for Discord appends posts to."""
    return tmp_path / "posts.txt"


@pytest.fixture
def cluster(database: str, posts: Path) -> Iterator[Cluster]:
    """Worker processes on the test database."""
    processes = Cluster(database, posts)
    yield processes
    processes.close()


async def open_db(database: str) -> Database:
    """Open the shared database from the test process (migrations are applied here, before the race)."""
    return await Database.open(database)


async def finished_dailies(db: Database, *, channels: bool) -> list[int]:
    """Each server of ``GUILDS``: ``PLAYERS`` dailies of ``DAY``, finished, their lines not yet queued."""
    ids = []
    for guild in GUILDS:
        if channels:
            await competition_db.set_channel(db, guild, guild + 1, podium_after="2026-04-29")
        for user in range(1, PLAYERS + 1):
            new = games_db.NewGame(guild, guild + 2, user, VARIANT, "daily", None, DAY, "{}", FINISHED_AT - 100, NOW)
            game = await games_db.insert_game(db, new)
            result = games_db.Result("{}", "ended", 10 * user, 100, FINISHED_AT, 1)
            assert await games_db.finish_game(db, game.id, result, saved_version=0) is not None
            ids.append(game.id)
    return ids


# -- a new database ------------------------------------------------------------------------------
ROUNDS = {"sqlite": 4, "postgres": 2}
"""Rounds of three processes opening one new database together (on SQLite, main lost a process in 7 of 10
rounds of two; PostgreSQL's migrations already took an advisory lock)."""


@pytest.fixture(params=["sqlite", "postgres"])
def new_database(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[int, Callable[[], str]]:
    """How many rounds to run, and a maker of new, empty databases: SQLite files, or PostgreSQL schemas (URLs)."""
    names = itertools.count()
    if request.param == "sqlite":
        return ROUNDS["sqlite"], lambda: str(tmp_path / f"new-{next(names)}.db")
    server, url = request.getfixturevalue("postgres_server"), request.getfixturevalue("postgres_database")

    def schema() -> str:
        name = server.next_name("new")
        admin(url, f'CREATE SCHEMA "{name}"')
        return f"{url}?search_path={name}"

    return ROUNDS["postgres"], schema


async def test_processes_starting_together_on_a_new_database_all_start_and_migrate_it_once(new_database, posts):
    rounds, make = new_database
    for round_ in range(rounds):
        target = make()
        cluster = Cluster(target, posts)
        try:
            start_at = time.time() + LAUNCH
            workers = [cluster.start("open", f"p{n}", Ownership(), start_at=start_at) for n in range(3)]
            reports = [cluster.report(worker) for worker in workers]
        finally:
            cluster.close()
        db = await open_db(target)
        try:
            rows = await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")
        finally:
            await db.close()
        recorded = [row["version"] for row in rows]
        assert recorded == sorted(set(recorded)) and recorded, f"round {round_}: {recorded}"
        assert [report["applied"] for report in reports] == [recorded] * 3, f"round {round_}"


# -- one game resumed by two processes (overlapping SHARD_IDS) --------------------------------------
async def test_the_process_with_a_stale_copy_of_a_game_never_writes_nor_announces_its_result(
    cluster, database, tmp_path
):
    db = await open_db(database)
    try:
        sessions = SessionManager(db, now=lambda: NOW)
        deal = ProvenDeal(VARIANT, 0, EASY_KLONDIKE, ())
        session = await sessions.start(guild_id=GUILD, channel_id=5, user_id=7, variant=VARIANT, deal=deal)
        await sessions.play(session, DRAW)  # stored at version 1, running (its clock stopped with the test's process)
        await sessions.close()
    finally:
        await db.close()
    both, go = Ownership(2, (0, 1)), tmp_path / "expire"
    stale = cluster.start("game", "stale", both, start_at=0, expire_when=go)  # resumes the game at 1, then waits
    deadline = time.monotonic() + WORKER_TIMEOUT
    while not [line for line in cluster.lines() if line[:2] == ["stale", "resumed"]]:
        assert stale.poll() is None and time.monotonic() < deadline, stale.communicate()[1]
        await asyncio.sleep(0.05)
    fresh = cluster.report(cluster.start("game", "fresh", both, start_at=0, moves=30))  # plays on: version 31
    assert fresh["played"] == {str(session.id): 31} and fresh["announced"] == []
    go.touch()  # now the stale process's clock runs out on its copy (1 move)
    old = cluster.report(stale)
    assert old["resumed"] == [session.id] and old["expired"] == [None]
    assert old["announced"] == [] and old["running"] == []  # it wrote nothing, dropped its copy, said nothing
    db = await open_db(database)
    try:
        row = await games_db.get_game(db, session.id)
        assert row is not None and row.is_playing and row.version == 31  # the real game, untouched
    finally:
        await db.close()
    last = cluster.report(cluster.start("game", "last", both, start_at=0, expire_when=go))  # a fresh copy ends it
    [ended] = last["announced"]
    assert ended == {"game": session.id, "status": "expired", "version": 32, "source": "clock"}


# -- the day's deal, the secret, a member's one daily ------------------------------------------------
async def test_two_processes_store_one_deal_one_secret_and_one_daily_per_member(cluster, database):
    db = await open_db(database)
    spares = [ProvenDeal(VARIANT, SPARE_SEEDS + n, EASY_KLONDIKE, ()) for n in range(8)]
    for spare in spares:
        await competition_db.add_spare(db, VARIANT, deal_to_json(spare))
    await db.close()
    start_at = time.time() + LAUNCH
    keys = 20
    first = cluster.start("day", "p1", Ownership(), tag_number=1, start_at=start_at, keys=keys, spares=2)
    second = cluster.start("day", "p2", Ownership(), tag_number=2, start_at=start_at, keys=keys, spares=2)
    one, two = cluster.report(first), cluster.report(second)

    assert one["secret"] == two["secret"]  # the first secret stored is everyone's
    assert one["deals"] == two["deals"]  # both processes deal the same deal each day
    assert set(one["started"]).isdisjoint(two["started"])  # a member's daily started once ...
    assert sorted(one["started"] + two["started"]) == list(range(1, keys + 1))  # ... by one process or the other
    db = await open_db(database)
    try:
        rows = await db.fetchall("SELECT guild_id, deal FROM daily_deals ORDER BY guild_id")
        assert [(row["guild_id"], json.loads(row["deal"])["seed"]) for row in rows] == [
            (int(guild), seed) for guild, seed in sorted(one["deals"].items(), key=lambda item: int(item[0]))
        ]
        assert set(one["deals"].values()) <= {1, 2} | {spare.seed for spare in spares}
        used = Counter(seed for seed in one["deals"].values() if seed >= SPARE_SEEDS)
        assert used and set(used.values()) == {1}  # a spare is one server's deal, never two
        left = await db.fetchall("SELECT deal FROM daily_spares")
        kept = [json.loads(row["deal"])["seed"] for row in left if json.loads(row["deal"])["seed"] >= SPARE_SEEDS]
        assert sorted([*used, *kept]) == [spare.seed for spare in spares]  # none lost, none used twice
        secrets = await db.fetchall("SELECT value FROM secrets")
        assert [row["value"] for row in secrets] == [one["secret"]]
        dailies = await db.fetchone("SELECT count(*) AS n FROM games WHERE mode = 'daily'")
        assert dailies is not None and dailies["n"] == keys
    finally:
        await db.close()


# -- announcements ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("first", "second"),
    [
        (Ownership(2, (0, 1)), Ownership(1, (0,))),  # both own every server (a reshard's overlap): claims decide
        (Ownership(2, (0,)), Ownership(2, (1,))),  # a cluster: each posts its own servers' lines
    ],
    ids=["overlapping", "split"],
)
async def test_two_processes_post_every_line_and_podium_exactly_once(cluster, database, first, second):
    db = await open_db(database)
    games = await finished_dailies(db, channels=True)
    await db.close()
    start_at = time.time() + LAUNCH
    workers = [
        cluster.start("announce", tag, ownership, start_at=start_at, run_for=30.0)
        for tag, ownership in (("p1", first), ("p2", second))
    ]
    for worker in workers:
        cluster.report(worker)

    lines = cluster.lines()
    posted = Counter((kind, int(guild), text) for _, kind, guild, text in lines)
    assert max(posted.values()) == 1, [key for key, n in posted.items() if n > 1]
    per_server = Counter((kind, guild) for kind, guild, _ in posted)
    assert per_server == Counter({**{("result", g): PLAYERS for g in GUILDS}, **{("podium", g): 1 for g in GUILDS}})
    owners = {"p1": first, "p2": second}
    assert all(owners[tag].owns(int(guild)) for tag, _, guild, _ in lines)
    db = await open_db(database)
    try:
        states = await db.fetchall("SELECT state, claimed_by FROM announcements")
        assert len(states) == len(GUILDS) * (PLAYERS + 1)
        assert {(row["state"], row["claimed_by"]) for row in states} == {("posted", None)}
        unqueued = await db.fetchall("SELECT id FROM games WHERE announced_at IS NULL")
        assert unqueued == [] and len(games) == len(GUILDS) * PLAYERS
    finally:
        await db.close()


def wait_for_hold(cluster: Cluster, holder: subprocess.Popen[str]) -> tuple[str, int, str]:
    """Wait for the holding process to claim its post; return that post as ``(kind, guild, text)``."""
    deadline = time.monotonic() + WORKER_TIMEOUT
    while not (held := [line for line in cluster.lines() if line[1].startswith("holding:")]):
        assert holder.poll() is None, holder.communicate()[1]
        assert time.monotonic() < deadline, "the first process never claimed a post"
        time.sleep(0.05)
    [[_, holding, guild, text]] = held
    return holding.removeprefix("holding:"), int(guild), text


def posted_by(cluster: Cluster, tag: str) -> list[tuple[str, int, str]]:
    """The posts the worker ``tag`` made."""
    return [(kind, int(guild), text) for who, kind, guild, text in cluster.lines() if who == tag]


def every_line_but(held: tuple[str, int, str]) -> Counter[int]:
    """Per server, the result lines there are when ``held`` is left out."""
    return Counter({guild: PLAYERS - (guild == held[1]) for guild in GUILDS})


SHORT_LEASE = 5.0
"""Seconds of the lease in the test of a dead holder (timed by the database's clock, so the test waits it out)."""


async def test_a_process_killed_holding_a_claim_blocks_the_post_only_until_the_lease_ends(cluster, database, tmp_path):
    db = await open_db(database)
    await finished_dailies(db, channels=False)
    await db.close()
    everything, other = Ownership(2, (0, 1)), Ownership(1, (0,))  # another shard set: it may take over only later
    go = tmp_path / "go"
    holder = cluster.start("hold", "dead", everything, start_at=time.time() + LAUNCH, run_for=3600, lease=SHORT_LEASE)
    early = cluster.start("announce", "early", other, start_at=0, run_for=30.0, lease=SHORT_LEASE, start_when=go)
    held = wait_for_hold(cluster, holder)
    claimed = time.monotonic()
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    go.touch()  # the other process, started meanwhile, begins now: well inside the lease
    cluster.report(early)
    assert time.monotonic() - claimed < SHORT_LEASE, "the machine was too slow for this test's lease"
    early_posts = posted_by(cluster, "early")
    assert held not in early_posts
    assert Counter(guild for _, guild, _ in early_posts) == every_line_but(held)

    time.sleep(max(0.0, claimed + SHORT_LEASE + 0.5 - time.monotonic()))  # the lease has run out on any clock
    cluster.report(cluster.start("announce", "later", other, start_at=0, run_for=30.0, lease=SHORT_LEASE))
    assert posted_by(cluster, "later") == [held]
    db = await open_db(database)
    try:
        waiting = await db.fetchone("SELECT count(*) AS n FROM announcements WHERE state <> 'posted'")
        assert waiting is not None and waiting["n"] == 0
    finally:
        await db.close()


async def test_a_live_claim_is_safe_from_a_process_given_the_same_shards_and_a_restart_takes_its_own_back(
    cluster, database, tmp_path
):
    db = await open_db(database)
    await finished_dailies(db, channels=False)
    await db.close()
    same = Ownership(2, (0, 1))  # both processes were given the same SHARD_IDS (one shard set, one label)
    go = tmp_path / "go"
    holder = cluster.start("hold", "first", same, start_at=time.time() + LAUNCH, run_for=3600)
    twin = cluster.start("announce", "twin", same, start_at=0, run_for=30.0, start_when=go)
    held = wait_for_hold(cluster, holder)
    go.touch()
    twin_report = cluster.report(twin)  # the holder still runs: its claim is not the twin's to take
    assert held not in posted_by(cluster, "twin")
    assert Counter(guild for _, guild, _ in posted_by(cluster, "twin")) == every_line_but(held)
    assert holder.poll() is None
    holder.send_signal(signal.SIGKILL)
    holder.wait()

    restarted = cluster.report(cluster.start("announce", "restarted", same, start_at=0, run_for=30.0))
    assert posted_by(cluster, "restarted") == [held]  # its dead run's claim, taken back at once (lease: 300 s)
    names = {twin_report["holder"], restarted["holder"]}
    assert len(names) == 2 and all(name.startswith(same.label + " ") for name in names)


# -- the daily habit: champion roles and streak reminders ----------------------------------------------
HABIT_NOW = datetime(2026, 5, 2, 20, 30, tzinfo=UTC).timestamp()
"""The day after ``DAY``, past 20:00 UTC: its podium's role change and the day's reminders are due."""
ROLE = 4242


async def habit_servers(db: Database) -> None:
    """Every server: a champion role, ``PLAYERS`` dailies of ``DAY`` (the last player wins), and member 1 on the
    day before too (a streak of two, reminders on)."""
    await finished_dailies(db, channels=False)
    for guild in GUILDS:
        await champions_db.set_champion_role(db, guild, ROLE, podium_after="2026-04-29", now=FINISHED_AT)
        before = games_db.NewGame(guild, guild + 2, 1, VARIANT, "daily", None, "2026-04-30", "{}", FINISHED_AT, NOW)
        game = await games_db.insert_game(db, before)
        await games_db.finish_game(
            db, game.id, games_db.Result("{}", "ended", 5, 100, FINISHED_AT - 86400, 1), saved_version=0
        )
    await players_db.set_reminders(db, 1, True)


@pytest.mark.parametrize(
    ("first", "second"),
    [(Ownership(2, (0, 1)), Ownership(1, (0,))), (Ownership(2, (0,)), Ownership(2, (1,)))],
    ids=["overlapping", "split"],
)
async def test_two_processes_give_each_champion_role_and_send_each_reminder_once(cluster, database, first, second):
    db = await open_db(database)
    await habit_servers(db)
    await db.close()
    start_at = time.time() + LAUNCH
    workers = [
        cluster.start("habit", tag, ownership, now=HABIT_NOW, start_at=start_at, run_for=30.0)
        for tag, ownership in (("p1", first), ("p2", second))
    ]
    for worker in workers:
        cluster.report(worker)

    done = Counter(
        (verb, int(guild), rest)
        for _, verb, guild, rest in cluster.lines()
        if verb in ("give", "take", "had", "lacked", "remind")
    )
    assert done == Counter(  # each server's change is delivered once: its winner is never asked twice ("had")
        {**{("give", g, f"{PLAYERS} {ROLE}"): 1 for g in GUILDS}, **{("remind", g, "1 2"): 1 for g in GUILDS}}
    )
    owners = {"p1": first, "p2": second}
    assert all(owners[tag].owns(int(guild)) for tag, verb, guild, _ in cluster.lines() if verb in ("give", "remind"))
    db = await open_db(database)
    try:
        holders = await db.fetchall("SELECT guild_id, user_id, given_at FROM champion_holders ORDER BY guild_id")
        assert [(row["guild_id"], row["user_id"]) for row in holders] == [(g, PLAYERS) for g in sorted(GUILDS)]
        assert all(row["given_at"] is not None for row in holders)
        rows = await db.fetchall(
            "SELECT kind, state, claimed_by FROM announcements WHERE kind IN ('champion', 'reminder')"
        )
        assert Counter((row["kind"], row["state"], row["claimed_by"]) for row in rows) == Counter(
            {("champion", "posted", None): len(GUILDS), ("reminder", "posted", None): len(GUILDS)}
        )
    finally:
        await db.close()
