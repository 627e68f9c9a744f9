"""Which process owns a server: shard ids read from the settings, and one rule in Python and in SQL."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.shards import ONE_PROCESS, ActivityRoutes, Ownership, parse_shard_ids, shard_of, shard_runs

SNOWFLAKES = st.one_of(st.just(0), st.integers(min_value=1, max_value=2**63 - 1))


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0", (0,)), ("0,1", (0, 1)), ("0-3", (0, 1, 2, 3)), (" 7 , 0 - 1 ", (0, 1, 7)), ("4-4", (4,))],
)
def test_shard_ids_are_numbers_and_ranges(text, ids):
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "'' is not a shard number"),
        ("0,,1", "'' is not a shard number"),
        ("one", "'one' is not a shard number"),
        ("-1", "'-1' is not a shard number"),
        ("3-1", "the range '3-1' runs backwards"),
        ("0-1,1", "a shard is listed twice"),
        ("0-99999", "larger than 4096 shards"),
    ],
)
def test_bad_shard_ids_quote_the_part_at_fault(text, words):
    with pytest.raises(ValueError, match=words):
        parse_shard_ids(text)


def test_an_ownership_must_name_real_shards():
    with pytest.raises(ValueError, match="shard 4 is not below the shard count 4"):
        Ownership(4, (1, 4))
    with pytest.raises(ValueError, match="at least one shard"):
        Ownership(4, ())
    with pytest.raises(ValueError, match="at least 1"):
        Ownership(0, (0,))


def test_the_settings_decide_the_ownership():
    assert Ownership.of(None, None) == ONE_PROCESS == Ownership(1, (0,))
    assert Ownership.of(3, None) == Ownership(3, (0, 1, 2))
    assert Ownership.of(4, (3, 1)) == Ownership(4, (1, 3))


def test_labels_name_the_shard_set():
    assert [o.label for o in (ONE_PROCESS, Ownership(4, (0, 1)), Ownership(8, (0, 2, 3, 4, 7)))] == [
        "0/1",
        "0-1/4",
        "0,2-4,7/8",
    ]


def test_every_server_has_exactly_one_owner_in_a_cluster():
    cluster = [Ownership(4, (0, 1)), Ownership(4, (2,)), Ownership(4, (3,))]
    for guild in [0, 1, 81384788765712384, 81384788765712384 + (1 << 22), 2**63 - 1, *range(0, 1 << 26, 1 << 22)]:
        assert sum(process.owns(guild) for process in cluster) == 1
        assert ONE_PROCESS.owns(guild)
    assert Ownership(4, (0,)).owns(None)  # direct messages belong to shard 0


@given(guild=SNOWFLAKES, count=st.integers(min_value=1, max_value=16), data=st.data())
def test_the_sql_rule_agrees_with_owns(guild, count, data):
    ids = data.draw(st.sets(st.integers(min_value=0, max_value=count - 1), min_size=1))
    ownership = Ownership(count, tuple(sorted(ids)))
    clause, params = ownership.sql("guild_id")
    with sqlite3.connect(":memory:") as connection:
        connection.execute("CREATE TABLE t (guild_id INTEGER NOT NULL)")
        connection.execute("INSERT INTO t VALUES (?)", (guild,))
        found = connection.execute(f"SELECT count(*) FROM t WHERE {clause}", params).fetchone()[0]
    assert bool(found) == ownership.owns(guild) == (shard_of(guild, count) in ids)


def test_the_sql_rule_takes_only_a_column_name():
    with pytest.raises(ValueError, match="not a column name"):
        ONE_PROCESS.sql("guild_id; DROP TABLE games")


# -- the Activity's routes (ACTIVITY_ROUTES) ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "count", "prefixes"),
    [
        ("0-1=/c0,2-3=/c1", 4, ("/c0", "/c0", "/c1", "/c1")),
        (" 0 , 2 = /even , 1,3=/odd ", 4, ("/even", "/odd", "/even", "/odd")),  # a route's shards hold commas
        ("0=/a,1=/b,2=/a", 3, ("/a", "/b", "/a")),  # one prefix may take shards of several routes
        ("0=/activity/p-0_A", 1, ("/activity/p-0_A",)),
        ("0-1=/c0,", 2, ("/c0", "/c0")),  # a trailing comma is forgiven
    ],
)
def test_activity_routes_give_every_shard_its_prefix(text, count, prefixes):
    assert ActivityRoutes.parse(text, count).prefixes == prefixes


@pytest.mark.parametrize(
    ("text", "count", "words"),
    [
        ("", 2, "no route: write shards=prefix"),
        ("0-1", 2, "'0-1' has no prefix: write shards=prefix"),
        ("0=/c0,1", 2, "'1' has no prefix"),
        ("=/c0", 1, "'' is not a shard number"),
        ("0-1=/c0,two=/c1", 3, "'two' is not a shard number"),
        ("0=c0,1=/c1", 2, "'c0' is not a path prefix like /c0"),
        ("0=/,1=/c1", 2, "'/' is not a path prefix"),
        ("0=/c0/,1=/c1", 2, "'/c0/' is not a path prefix"),
        ("0=/c 0,1=/c1", 2, "'/c 0' is not a path prefix"),
        ("0=/../c0,1=/c1", 2, "'/../c0' is not a path prefix"),
        ("0=/c0?x,1=/c1", 2, "is not a path prefix"),
        ("0=/c0=/c1,1=/c1", 2, "'/c0=/c1' is not a path prefix"),
        (f"0=/{'a' * 64},1=/c1", 2, "at most 64 characters"),
        ("0=/ws,1=/c1", 2, "starts with /ws, a path of the Activity's own"),
        ("0=/assets/c0,1=/c1", 2, "starts with /assets"),
        ("0=/api,1=/c1", 2, "starts with /api"),
        ("0-2=/c0,3=/c1", 3, "shard 3 is not below SHARD_COUNT=3"),
        ("0-1=/c0,1-2=/c1", 3, r"shard 1 is routed twice \(/c0 and /c1\)"),
        ("0=/c0,0=/c0,1=/c1", 2, "shard 0 is routed twice"),
        ("0=/c0", 2, "shard 1 of the 2 not routed"),
        ("0=/c0,3=/c1", 6, "shards 1-2,4-5 of the 6 not routed"),
    ],
)
def test_bad_activity_routes_say_what_is_wrong(text, count, words):
    with pytest.raises(ValueError, match=words):
        ActivityRoutes.parse(text, count)


def test_a_server_is_routed_to_the_prefix_of_the_process_that_owns_it():
    routes = ActivityRoutes.parse("0-1=/c0,2=/c1,3=/c2", 4)
    cluster = {"/c0": Ownership(4, (0, 1)), "/c1": Ownership(4, (2,)), "/c2": Ownership(4, (3,))}
    assert {prefix: routes.own(ownership) for prefix, ownership in cluster.items()} == {p: p for p in cluster}
    for guild in [None, 0, 1, 81384788765712384, 2**63 - 1, *range(0, 1 << 26, 1 << 22)]:
        owner = routes.prefix_of(guild)
        assert cluster[owner].owns(guild)
        assert [prefix for prefix, ownership in cluster.items() if ownership.owns(guild)] == [owner]


def test_a_process_whose_shards_have_two_prefixes_has_no_prefix_of_its_own():
    routes = ActivityRoutes.parse("0-1=/c0,2-3=/c1", 4)
    with pytest.raises(ValueError, match="shards 1-2 are routed to /c0 and /c1: a process serves under one"):
        routes.own(Ownership(4, (1, 2)))


@given(guild=SNOWFLAKES, count=st.integers(min_value=1, max_value=12), data=st.data())
def test_the_route_of_a_server_leads_to_the_one_process_that_owns_it(guild, count, data):
    process_of = data.draw(st.lists(st.integers(min_value=0, max_value=3), min_size=count, max_size=count))
    processes = {p: tuple(s for s in range(count) if process_of[s] == p) for p in set(process_of)}
    text = ",".join(f"{shard_runs(shards)}=/p{p}" for p, shards in sorted(processes.items()))
    routes = ActivityRoutes.parse(text, count)
    owners = [f"/p{p}" for p, shards in processes.items() if Ownership(count, shards).owns(guild)]
    assert owners == [routes.prefix_of(guild)]
    assert all(routes.own(Ownership(count, shards)) == f"/p{p}" for p, shards in processes.items())
