"""The ``numbered_deals`` table (V005): numbered deals solved once, keyed by variant, number and solver version."""

from __future__ import annotations

import json

from bot.storage import Database
from solitaire.cards import format_deck, parse_deck
from solitaire.deals import ProvenDeal


async def load_numbered(db: Database, variant: str, number: int, solver: str) -> ProvenDeal | None:
    """The stored deal ``number`` of ``variant`` found by solver version ``solver``, or ``None``."""
    row = await db.fetchone(
        "SELECT deal FROM numbered_deals WHERE variant = ? AND number = ? AND solver = ?", (variant, number, solver)
    )
    if row is None:
        return None
    data = json.loads(row["deal"])
    return ProvenDeal(
        variant=str(data["variant"]),
        seed=int(data["seed"]),
        deck=parse_deck(str(data["deck"])),
        solution=tuple(str(move) for move in data["solution"]),
    )


async def save_numbered(db: Database, number: int, solver: str, deal: ProvenDeal) -> None:
    """Store a solved numbered deal (a second save of the same key keeps the first)."""
    data = {"variant": deal.variant, "seed": deal.seed, "deck": format_deck(deal.deck), "solution": list(deal.solution)}
    await db.execute(
        "INSERT INTO numbered_deals (variant, number, solver, deal) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        (deal.variant, number, solver, json.dumps(data, separators=(",", ":"))),
    )


class StoredDeals:
    """A :class:`bot.play.deal_bank.DealCache` of proven deals in the database."""

    def __init__(self, db: Database, solver: str) -> None:
        self.db = db
        self.solver = solver

    async def load(self, variant: str, number: int) -> ProvenDeal | None:
        """The cached deal, or ``None``."""
        return await load_numbered(self.db, variant, number, self.solver)

    async def save(self, variant: str, number: int, deal: object) -> None:
        """Cache a solved deal (only proven deals are kept)."""
        if isinstance(deal, ProvenDeal):
            await save_numbered(self.db, number, self.solver, deal)
