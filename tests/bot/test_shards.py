"""Which process owns a server: shard ids read from the settings, and one rule in Python and in SQL."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.shards import ONE_PROCESS, Ownership, parse_shard_ids, shard_of

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
