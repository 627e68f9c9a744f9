"""The daily deals: their secret sources (nobody can predict a day's deal), stored as JSON, solved ahead.

Nothing here touches Discord or SQL.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import date
from typing import Any

from solitaire import format_deck, parse_deck
from solitaire.deals import ProvenDeal


def new_secret() -> str:
    """Return a fresh random server secret (64 hex digits)."""
    return secrets.token_hex(32)


def daily_source(secret: str, guild_id: int, day: date, variant: str) -> str:
    """Return the day's deal source for a server and variant: an HMAC-SHA256 hex nobody can predict.

    >>> a = daily_source("s3cret", 42, date(2024, 5, 1), "draw3")
    >>> len(a), a == daily_source("s3cret", 42, date(2024, 5, 1), "draw3")
    (64, True)
    >>> a == daily_source("other", 42, date(2024, 5, 1), "draw3")
    False
    """
    message = f"solitaire-daily|{guild_id}|{day.isoformat()}|{variant}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def spare_source(secret: str, nonce: str) -> str:
    """Return the source of a spare daily deal: an HMAC of a random nonce, as unpredictable as a day's source.

    >>> len(spare_source("s3cret", "ab12")), spare_source("s3cret", "ab12") == spare_source("s3cret", "ab13")
    (64, False)
    """
    return hmac.new(secret.encode(), f"solitaire-daily-spare|{nonce}".encode(), hashlib.sha256).hexdigest()


def deal_to_json(deal: ProvenDeal) -> dict[str, Any]:
    """Save a proven deal as JSON-ready data (to cache the day's deal)."""
    return {"variant": deal.variant, "seed": deal.seed, "deck": format_deck(deal.deck), "solution": list(deal.solution)}


def deal_from_json(data: dict[str, Any]) -> ProvenDeal:
    """Rebuild a deal saved by :func:`deal_to_json`."""
    return ProvenDeal(
        variant=str(data["variant"]),
        seed=int(data["seed"]),
        deck=parse_deck(str(data["deck"])),
        solution=tuple(str(move) for move in data["solution"]),
    )


PRESOLVE_DAYS = 7
"""A server's daily deal of a variant is solved ahead if the server played that daily within this many days."""


@dataclass(frozen=True)
class DailyActivity:
    """The last day a server started a variant's daily (``daily_activity``), with the server's zone."""

    guild_id: int
    variant: str
    timezone: str
    last_date: str
