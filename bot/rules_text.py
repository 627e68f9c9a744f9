"""Short rule and scoring texts for ``/solitaire rules`` (plain Markdown, discord-free)."""

from __future__ import annotations

from solitaire import find_variant
from solitaire.variants import Family, Rules

_KLONDIKE_PLAY = (
    "Build the seven piles down in alternating colours; move any face-up run; only a king (or a run headed "
    "by one) fills an empty pile. Build the four foundations up by suit, ace to king."
)
_KLONDIKE_SCORE = (
    "**Scoring**: a card's first arrival on a foundation A 50, 2 45 … 9 10, 10/J/Q/K 5; a card turned up +10; "
    "a move from the waste +10; a foundation card back to the tableau −10."
)
_FRIDAY13_PLAY = (
    "Thirteen foundations J Q K A 2 … 10 (J, Q, K, A start filled). Turn the stock one card at a time and play "
    "the waste top onto a foundation one rank higher, any suit, K wrapping to A. An empty foundation takes only "
    "its own rank, once every foundation to its left holds a card. One redeal."
)
_FRIDAY13_SCORE = "**Scoring**: +10 per card played, +20 more when it starts a foundation."
_COMMON = (
    "**Clock**: 5 minutes. When the game ends won, ended or stuck you get a time bonus: "
    "(300 − seconds used) × cards placed ÷ {total}. A game that runs out of time expires with no bonus.\n"
    "**Undo** takes back any move except one that showed you a card you had not seen.\n"
    "**Play**: click a source then a target (click the source again to cancel), or use `/solitaire move` "
    "with its suggestions; `/solitaire draw`, `/solitaire undo`, `/solitaire end`."
)


def _stock_rule(rules: Rules) -> str:
    if rules.name == "draw1":
        return "Draw turns 1 card; the stock can be turned over without limit, −100 each time."
    if rules.name == "draw3":
        return "Draw turns 3 cards; the stock can be turned over without limit, −20 from the third time on."
    if rules.name == "goldrush":
        return (
            "The stock is dealt in three passes: 3 cards per draw, then 2, then 1. Cards never leave the "
            "foundations, and no dealing while a tableau pile is empty: deal your last stock cards before you "
            "clear the tableau."
        )
    return ""


def rules_text(variant: str) -> str:
    """The rules of ``variant`` in a few lines; :raises UnknownVariantError:."""
    rules = find_variant(variant)
    if rules.family is Family.FRIDAY13:
        parts = [f"**{rules.title}**", _FRIDAY13_PLAY, _FRIDAY13_SCORE, _COMMON.format(total=48)]
    else:
        parts = [f"**{rules.title}**", _KLONDIKE_PLAY, _stock_rule(rules), _KLONDIKE_SCORE, _COMMON.format(total=52)]
    return "\n".join(part for part in parts if part)
