"""The start's heap is kept out of the garbage collector's later passes."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot.runtime.heap import settle_heap


@pytest.fixture
def thawed() -> Iterator[None]:
    """Give the test process its collector back afterwards."""
    yield
    gc.unfreeze()


def test_what_the_start_built_is_frozen_and_a_full_collection_no_longer_walks_it(thawed: None) -> None:
    built = [[index] for index in range(20_000)]  # long-lived containers, as a start makes
    kept = settle_heap()
    assert kept >= len(built) and gc.get_freeze_count() == kept
    assert len(gc.get_objects(generation=2)) < len(built)  # a full collection walks what came since, not the start
