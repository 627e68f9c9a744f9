"""Short rule and scoring texts for ``/solitaire rules`` (plain Markdown, discord-free).

The variant's own words come from :func:`solitaire.guide.rules_parts` (the text the terminal
shows), turned into one Markdown paragraph each; only the clock and the controls are the bot's.
"""

from __future__ import annotations

import re

from solitaire import find_variant
from solitaire.games import engine_for
from solitaire.guide import rules_parts
from solitaire.speech import N_, _

_COMMON = (
    N_(
        "**Clock**: 5 minutes. When the game ends won, ended or stuck you get a time bonus: "
        "(300 − seconds used) × cards placed ÷ {total}. A game that runs out of time expires with no bonus."
    ),
    N_("**Undo** takes back any move except one that showed you a card you had not seen."),
    N_(
        "**Play**: click a source then a target (click the source again to cancel), or use `/solitaire move` "
        "with its suggestions; `/solitaire draw`, `/solitaire undo`, `/solitaire end`."
    ),
)
"""The bot's own lines under every variant's rules: the clock, undo and the controls (``{total}``: the bonus's)."""
_MINUS = re.compile(r"(?<![\w-])-(?=\d)")
_LABEL = re.compile(r"^(\w+):")


def markdown(text: str) -> str:
    """One plain rule paragraph as Discord shows it: unwrapped, a true minus and ellipsis, its label bold."""
    text = _MINUS.sub("\u2212", text.replace("\n", " ").replace(" .. ", " \u2026 "))
    return _LABEL.sub(r"**\1**:", text)


def rules_text(variant: str) -> str:
    """The rules of ``variant`` in a few lines; :raises UnknownVariantError:."""
    rules = find_variant(variant)
    parts = [f"**{rules.title}**", *(markdown(part) for part in rules_parts(rules))]
    total = engine_for(rules.family).bonus_total
    parts += [_(line, total=total) for line in _COMMON]
    return "\n".join(part for part in parts if part)
