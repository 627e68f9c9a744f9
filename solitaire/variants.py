"""The variants as data: one frozen :class:`Rules` object each, looked up by name."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from solitaire.errors import UnknownVariantError
from solitaire.speech import N_, _
from solitaire.words import SaidField


class Family(Enum):
    """Which engine plays a variant."""

    KLONDIKE = "klondike"
    FRIDAY13 = "friday13"


@dataclass(frozen=True)
class Rules:
    """Everything that tells one variant from another.

    Its names (:attr:`title`, :attr:`menu_name`, :attr:`short_title`) are English words marked with ``N_``,
    said in the spoken language each time they are read (``vars(rules)`` holds the English).
    """

    name: str
    family: Family
    draw_counts: tuple[int, ...]
    """Cards turned per draw on each pass; the last entry repeats when passes are unlimited."""
    max_passes: int | None
    """Passes through the stock allowed (``None``: unlimited)."""
    title: SaidField = SaidField()  # noqa: RUF009 - a descriptor: the dataclass reads its default through it
    """The variant's name as players read it everywhere (it must be given)."""
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
    menu_name: SaidField = SaidField(default="")  # noqa: RUF009 - a descriptor, as the title
    """The name in the bot's variant menus (the title when empty)."""
    short_title: SaidField = SaidField(default="")  # noqa: RUF009 - a descriptor, as the title
    """The name where room is short, such as the rows and legends of the stats card (the title when empty)."""

    def draw_count(self, pass_index: int) -> int:
        """Cards turned per draw on pass ``pass_index`` (0-based)."""
        return self.draw_counts[min(pass_index, len(self.draw_counts) - 1)]

    def recycle_cost(self, recycle_number: int) -> int:
        """The penalty (as a positive number) for the ``recycle_number``-th return (1-based)."""
        return self.recycle_penalty if recycle_number > self.free_recycles else 0


DRAW1 = Rules(
    name="draw1",
    # Translators: a variant's name, shown everywhere; "Solitaire Rush" is the bot's name (keep it),
    # "draw 1": each draw turns one card
    title=N_("Solitaire Rush (draw 1)"),
    # Translators: the same variant's name in the menus that choose a game
    menu_name=N_("Solitaire Rush, draw 1"),
    # Translators: the same variant's name where room is short (rows and legends of the stats card)
    short_title=N_("Rush draw 1"),
    family=Family.KLONDIKE,
    draw_counts=(1,),
    max_passes=None,
    recycle_penalty=100,
    stuck_when_only_futile_draws=True,
)
DRAW3 = Rules(
    name="draw3",
    # Translators: a variant's name, shown everywhere; "Solitaire Rush" is the bot's name (keep it),
    # "draw 3": each draw turns three cards
    title=N_("Solitaire Rush (draw 3)"),
    # Translators: the same variant's name in the menus that choose a game
    menu_name=N_("Solitaire Rush, draw 3"),
    # Translators: the same variant's name where room is short (rows and legends of the stats card)
    short_title=N_("Rush draw 3"),
    family=Family.KLONDIKE,
    draw_counts=(3,),
    max_passes=None,
    free_recycles=2,
    recycle_penalty=20,
    stuck_when_only_futile_draws=True,
)
GOLDRUSH = Rules(
    name="goldrush",
    # Translators: a variant's name (a Klondike with three passes through the stock), shown everywhere
    title=N_("Gold Rush"),
    family=Family.KLONDIKE,
    draw_counts=(3, 2, 1),
    max_passes=3,
    foundation_to_tableau=False,
    deal_needs_full_tableau=True,
)
FRIDAY13 = Rules(
    name="friday13",
    # Translators: a variant's name (the patience "Friday the 13th"), shown everywhere
    title=N_("Friday 13"),
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
        raise UnknownVariantError(
            _("unknown variant {name}: choose one of {known}", name=repr(name), known=known)
        ) from None
