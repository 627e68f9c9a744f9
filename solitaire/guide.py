"""Help and rules for each variant, written once: the terminal prints them, ``/solitaire rules`` in Markdown.

The family's game class gives the goal, the scoring and the move notation; the stock rule is
worded here from the variant's :class:`Rules` (draw counts, passes, recycle penalties), so a
new variant of a known family needs no new text.

>>> from solitaire.variants import find_variant
>>> stock_rule(find_variant("draw3"))
'Draw turns 3 cards; the stock can be turned over without limit, -20 from the third time on.'
"""

from __future__ import annotations

import textwrap

from solitaire.games import engine_for
from solitaire.variants import Rules
from solitaire.words import plural

WIDTH = 80
"""Plain rule text is wrapped to this many characters (a terminal's width)."""
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five"}
_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}
_CLOCK = (
    "Clock: {minutes} minutes. A game that ends won, ended (`end`) or stuck earns a time bonus:\n"
    "(seconds left) x cards placed / {total}. A game that runs out of time expires with no bonus.\n"
    "Undo takes back any move except one that showed you a card you had not seen."
)
_COMMON_COMMANDS = """\
  draw (or d)   turn cards from the stock (turns the waste over when the stock is empty)
  undo (or u)   take back the last move (not one that showed you a new card)
  moves         list the legal moves now
  hint          suggest a move from what you can see (costs 50 points)
  board         draw the board again
  end           end the game now and take the time bonus
  rules         the rules and scoring of {title}
  quit          leave without ending (also Ctrl-D or Ctrl-C)
"""


def _penalty(rules: Rules) -> str:
    """``-100 each time`` or ``-20 from the third time on`` (empty without a recycle penalty)."""
    if not rules.recycle_penalty:
        return ""
    free = rules.free_recycles
    when = "each time" if not free else f"from the {_ORDINALS.get(free + 1, f'{free + 1}th')} time on"
    return f"-{rules.recycle_penalty} {when}"


def _passes(rules: Rules) -> str:
    """How the stock is dealt and turned over, from the draw counts and the pass limit."""
    counts, passes = rules.draw_counts, rules.max_passes
    penalty = _penalty(rules)
    if passes is None:
        unlimited = f"Draw turns {plural(counts[0], 'card')}; the stock can be turned over without limit"
        return unlimited + (f", {penalty}." if penalty else ".")
    if len(counts) > 1:
        then = "".join(f", then {count}" for count in counts[1:])
        text = f"The stock is dealt in {_NUMBERS.get(passes, str(passes))} passes: {counts[0]} cards per draw{then}."
    elif passes == 2:
        text = "One redeal: the waste goes back to the stock once."
    else:
        text = f"Draw turns {plural(counts[0], 'card')}; the waste goes back to the stock {passes - 1} times at most."
    return text + (f" Each turn over costs {penalty}." if penalty else "")


def _limits(rules: Rules) -> str:
    """The Gold Rush style limits: cards that never leave the foundations, no dealing onto a gap."""
    stays = not rules.foundation_to_tableau
    if stays and rules.deal_needs_full_tableau:
        return (
            "Cards never leave the foundations, and there is no dealing while a pile is empty: "
            "deal your last stock cards first."
        )
    if rules.deal_needs_full_tableau:
        return "There is no dealing while a pile is empty: deal your last stock cards first."
    return "Cards never leave the foundations." if stays else ""


def stock_rule(rules: Rules) -> str:
    """The variant's stock rule in plain words, on one line (:func:`rules_text` wraps it)."""
    sentences = [_passes(rules), _limits(rules)]
    return " ".join(sentence for sentence in sentences if sentence)


def rules_parts(rules: Rules) -> tuple[str, str, str]:
    """The goal, the stock rule and the scoring of ``rules``' variant, in plain text (line breaks only for the eye)."""
    engine = engine_for(rules.family)
    return engine.goal, stock_rule(rules), engine.scoring_rule(rules)


def move_help(rules: Rules) -> str:
    """Return how to write a move in ``rules``' variant."""
    return engine_for(rules.family).move_help(rules)


def help_text(rules: Rules) -> str:
    """Return the terminal game's command list for ``rules``' variant."""
    return f"{rules.title}: commands\n" + move_help(rules) + _COMMON_COMMANDS.format(title=rules.title)


def rules_text(rules: Rules) -> str:
    """Return the rules and scoring of ``rules``' variant in a few plain lines."""
    total = engine_for(rules.family).bonus_total
    parts = [*rules_parts(rules), _CLOCK.format(minutes=rules.time_limit // 60, total=total)]
    return "\n".join([rules.title, *(_paragraph(part) for part in parts if part)]) + "\n"


def _paragraph(text: str) -> str:
    """``text`` as one paragraph wrapped to :data:`WIDTH` (its own line breaks are only for the eye)."""
    return textwrap.fill(" ".join(text.split()), WIDTH)
