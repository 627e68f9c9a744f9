"""A supply of proven-winnable deals: the same key gives the same deal everywhere.

A key (``source``) names a deterministic walk of candidate seeds; the first deal
the solver proves winnable within a NODE budget (never a time budget) is the deal.
The answer for a key depends only on the key, the variant, the node budget and the
solver's version, so store a chosen deal rather than recomputing it after upgrades.

>>> deal = numbered_deal("draw3", 1)
>>> deal == numbered_deal("draw3", 1), len(deal.deck), deal.solution[-1] != ""
(True, 52, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from itertools import count

from solitaire.cards import Card
from solitaire.errors import SolitaireError
from solitaire.shuffle import shuffled_deck
from solitaire.solver import WINNABLE, solve
from solitaire.variants import find_variant

MAX_DEAL_NUMBER = 999_999
"""Public deal numbers (the bot's and the terminal's) run ``1..MAX_DEAL_NUMBER``."""
DEAL_MAX_NODES = 50_000
"""Search budget per candidate deal: part of the determinism contract (changing it changes deals)."""
DEFAULT_MAX_CANDIDATES = 10_000
"""Candidates tried before giving up (a safety net: every variant proves a deal in far fewer)."""


@dataclass(frozen=True)
class ProvenDeal:
    """A deal with a full solution that replays to a win through the engine."""

    variant: str
    seed: int
    """The shuffle seed: ``shuffled_deck(seed) == deck``."""
    deck: tuple[Card, ...]
    solution: tuple[str, ...]


@dataclass(frozen=True)
class DealRequest:
    """A picklable order for a worker process: find the winnable deal for ``source``."""

    variant: str
    source: str
    max_nodes: int = DEAL_MAX_NODES


def candidate_seed(source: str, index: int) -> int:
    """Return the ``index``-th candidate seed for ``source``: 64 bits of SHA-256, stable everywhere.

    The seed is the first 8 bytes (big-endian) of ``sha256(source + "\\n" + str(index))``
    over UTF-8.

    >>> candidate_seed("deal:draw3:1", 0) == candidate_seed("deal:draw3:1", 0)
    True
    """
    digest = hashlib.sha256(f"{source}\n{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def winnable_deal(
    variant: str,
    source: str,
    *,
    max_nodes: int = DEAL_MAX_NODES,
    max_candidates: int = DEFAULT_MAX_CANDIDATES,
) -> ProvenDeal:
    """Return the first candidate deal for ``source`` proven winnable within ``max_nodes``.

    :raises UnknownVariantError: for an unknown variant.
    :raises SolitaireError: if ``max_candidates`` candidates all fail (never seen in practice).
    """
    rules = find_variant(variant)
    for index in count():
        if index >= max_candidates:
            break
        seed = candidate_seed(source, index)
        deck = shuffled_deck(seed)
        result = solve(rules, deck, max_nodes=max_nodes)
        if result.result == WINNABLE:
            return ProvenDeal(rules.name, seed, deck, result.moves)
    raise SolitaireError(f"no winnable {rules.name} deal for {source!r} in {max_candidates} candidates")


def numbered_deal(variant: str, number: int) -> ProvenDeal:
    """Return public deal number ``number`` of ``variant`` (the key ``deal:VARIANT:NUMBER``): practice, never ranked."""
    name = find_variant(variant).name
    return winnable_deal(name, f"deal:{name}:{number}")


def private_deal(variant: str, key: int) -> ProvenDeal:
    """Return the private deal of ``key`` (the key ``private:VARIANT:<32 hex digits>``).

    With ``key`` drawn from 128 secret random bits, nobody can compute the deal before it is
    dealt; its seed may be shown once its game or race is over (the seed names only the shuffle).

    >>> private_deal("draw3", 5).deck == private_deal("draw3", 5).deck
    True
    """
    name = find_variant(variant).name
    return winnable_deal(name, f"private:{name}:{key:032x}")


def seeded_deal(variant: str, seed: int, *, max_nodes: int = DEAL_MAX_NODES) -> ProvenDeal:
    """Return the shuffle ``seed`` of ``variant`` once the solver proves it winnable within ``max_nodes``.

    Every seed the bot shows (a private deal's, once its game is over) passes: it was proven with
    the same budget.

    :raises UnknownVariantError: for an unknown variant.
    :raises SolitaireError: the solver could not prove it winnable.
    """
    rules = find_variant(variant)
    if not 0 <= seed < 2**64:
        raise SolitaireError(f"seed {seed} is not a shuffle seed (0 to {2**64 - 1})")
    deck = shuffled_deck(seed)
    result = solve(rules, deck, max_nodes=max_nodes)
    if result.result != WINNABLE:
        raise SolitaireError(f"seed {seed} is not a {rules.name} deal I can prove winnable: pick another")
    return ProvenDeal(rules.name, seed, deck, result.moves)


def solve_request(request: DealRequest) -> ProvenDeal:
    """Fulfil ``request`` (a top-level function, so a ``ProcessPoolExecutor`` can run it)."""
    return winnable_deal(request.variant, request.source, max_nodes=request.max_nodes)
