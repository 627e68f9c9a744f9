"""The variants as data: one frozen :class:`Rules` object each, looked up by name."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from solitaire.errors import UnknownVariantError


class Family(Enum):
    """Which engine plays a variant."""

    KLONDIKE = "klondike"
    FRIDAY13 = "friday13"


@dataclass(frozen=True)
class Rules:
    """Everything that tells one variant from another."""

    name: str
    title: str
    family: Family
    draw_counts: tuple[int, ...]
    """Cards turned per draw on each pass; the last entry repeats when passes are unlimited."""
    max_passes: int | None
    """Passes through the stock allowed (``None``: unlimited)."""
    foundation_to_tableau: bool = True
    deal_needs_full_tableau: bool = False
    """Gold Rush: no dealing from the stock while a tableau pile is empty."""
    free_recycles: int = 0
    """Returns of the waste to the stock that cost nothing."""
    recycle_penalty: int = 0
    """Points taken for each later return of the waste to the stock."""
    stuck_when_only_futile_draws: bool = False
    """Unlimited stocks: stuck when drawing can never bring up a playable card."""
    time_limit: int = 300
    menu_name: str = ""
    """The name in the bot's variant menus (the title when empty)."""
    short_title: str = ""
    """The name where room is short, such as the rows and legends of the stats card (the title when empty)."""

    def draw_count(self, pass_index: int) -> int:
        """Cards turned per draw on pass ``pass_index`` (0-based)."""
        return self.draw_counts[min(pass_index, len(self.draw_counts) - 1)]

    def recycle_cost(self, recycle_number: int) -> int:
        """The penalty (as a positive number) for the ``recycle_number``-th return (1-based)."""
        return self.recycle_penalty if recycle_number > self.free_recycles else 0


DRAW1 = Rules(
    name="draw1",
    title="Solitaire Rush (draw 1)",
    menu_name="Solitaire Rush, draw 1",
    short_title="Rush draw 1",
    family=Family.KLONDIKE,
    draw_counts=(1,),
    max_passes=None,
    recycle_penalty=100,
    stuck_when_only_futile_draws=True,
)
DRAW3 = Rules(
    name="draw3",
    title="Solitaire Rush (draw 3)",
    menu_name="Solitaire Rush, draw 3",
    short_title="Rush draw 3",
    family=Family.KLONDIKE,
    draw_counts=(3,),
    max_passes=None,
    free_recycles=2,
    recycle_penalty=20,
    stuck_when_only_futile_draws=True,
)
GOLDRUSH = Rules(
    name="goldrush",
    title="Gold Rush",
    family=Family.KLONDIKE,
    draw_counts=(3, 2, 1),
    max_passes=3,
    foundation_to_tableau=False,
    deal_needs_full_tableau=True,
)
FRIDAY13 = Rules(
    name="friday13",
    title="Friday 13",
    family=Family.FRIDAY13,
    draw_counts=(1,),
    max_passes=2,
)

VARIANTS: dict[str, Rules] = {rules.name: rules for rules in (DRAW1, DRAW3, GOLDRUSH, FRIDAY13)}
"""Every variant by name: registering a variant of a known family is one entry here."""
DEFAULT_VARIANT = DRAW3.name
"""The variant a command plays when none is named (first in the menus)."""


def variant_menu() -> list[tuple[str, str]]:
    """``(menu name, variant name)`` of every variant: the default first, then in registry order."""
    ordered = sorted(VARIANTS.values(), key=lambda rules: rules.name != DEFAULT_VARIANT)
    return [(rules.menu_name or rules.title, rules.name) for rules in ordered]


def find_variant(name: str) -> Rules:
    """Return the rules named ``name`` (case-insensitive); :raises UnknownVariantError:."""
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r}: choose one of {known}") from None
