"""Help and rules for each variant, written once: the terminal prints them, ``/solitaire rules`` in Markdown.

The family's game class gives the goal, the scoring and the move notation; the stock rule is
worded here from the variant's :class:`Rules` (draw counts, passes, recycle penalties), so a
new variant of a known family needs no new text. The goal, the stock rule and the scoring
(:func:`rules_parts`) are said in the spoken language; the terminal's own words (the command
list, the clock) are English, as the command line is.

>>> from solitaire.variants import find_variant
>>> stock_rule(find_variant("draw3"))
'Draw turns 3 cards; the stock can be turned over without limit, -20 from the third time on.'
"""

from __future__ import annotations

import textwrap

from solitaire.games import engine_for
from solitaire.speech import N_, _, n_
from solitaire.variants import Rules

WIDTH = 80
"""Plain rule text is wrapped to this many characters (a terminal's width)."""
_NUMBERS = {
    # Translators: a number of passes through the stock, in "The stock is dealt in {passes} passes: ..."
    2: N_("two"),
    # Translators: a number of passes through the stock, in "The stock is dealt in {passes} passes: ..."
    3: N_("three"),
    # Translators: a number of passes through the stock, in "The stock is dealt in {passes} passes: ..."
    4: N_("four"),
    # Translators: a number of passes through the stock, in "The stock is dealt in {passes} passes: ..."
    5: N_("five"),
}
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
    """``-100 each time`` or ``-20 from the third time on`` (empty without a recycle penalty).

    Said whole where it stands in a sentence (it follows a comma, or "costs").
    """
    if not rules.recycle_penalty:
        return ""
    points, turn = rules.recycle_penalty, rules.free_recycles + 1
    if turn == 1:
        # Translators: the penalty for turning the waste back into the stock: {points} points every time
        return _("-{points} each time", points=points)
    if turn == 2:
        # Translators: the penalty for turning the waste back into the stock: {points} points, the first turn free
        return _("-{points} from the second time on", points=points)
    if turn == 3:
        # Translators: the penalty for turning the waste back into the stock: {points} points, the first two free
        return _("-{points} from the third time on", points=points)
    if turn == 4:
        return _("-{points} from the fourth time on", points=points)
    if turn == 5:
        return _("-{points} from the fifth time on", points=points)
    # Translators: the penalty for turning the waste back into the stock: {points} points from turn {turn} on
    return _("-{points} from the {turn}th time on", points=points, turn=turn)


def _passes(rules: Rules) -> str:
    """How the stock is dealt and turned over, from the draw counts and the pass limit."""
    counts, passes = rules.draw_counts, rules.max_passes
    penalty = _penalty(rules)
    if passes is None:
        if penalty:
            # Translators: {count} cards a draw turns; {penalty} is a penalty ("-20 from the third time on")
            return n_(
                "Draw turns {count} card; the stock can be turned over without limit, {penalty}.",
                "Draw turns {count} cards; the stock can be turned over without limit, {penalty}.",
                counts[0],
                penalty=penalty,
            )
        return n_(
            "Draw turns {count} card; the stock can be turned over without limit.",
            "Draw turns {count} cards; the stock can be turned over without limit.",
            counts[0],
        )
    if len(counts) > 1:
        then = str(counts[1])
        for count in counts[2:]:
            # Translators: the cards per draw of the later passes, in a list: "2, then 1"
            then = _("{earlier}, then {later}", earlier=then, later=count)
        # Translators: {passes} is a number in words ("three"); {first} cards per draw on the first pass, then
        # {then}: the cards per draw of the later passes ("2, then 1")
        text = _(
            "The stock is dealt in {passes} passes: {first} cards per draw, then {then}.",
            passes=_(_NUMBERS[passes]) if passes in _NUMBERS else passes,
            first=counts[0],
            then=then,
        )
    elif passes == 2:
        text = _("One redeal: the waste goes back to the stock once.")
    else:
        # Translators: {count} cards a draw turns; {times}: how often the waste may go back (2 or more)
        text = n_(
            "Draw turns {count} card; the waste goes back to the stock {times} times at most.",
            "Draw turns {count} cards; the waste goes back to the stock {times} times at most.",
            counts[0],
            times=passes - 1,
        )
    if not penalty:
        return text
    # Translators: a second sentence after the stock rule; {penalty} is a penalty ("-20 from the third time on")
    cost = _("Each turn over costs {penalty}.", penalty=penalty)
    return f"{text} {cost}"


def _limits(rules: Rules) -> str:
    """The Gold Rush style limits: cards that never leave the foundations, no dealing onto a gap."""
    stays = not rules.foundation_to_tableau
    if stays and rules.deal_needs_full_tableau:
        return _(
            "Cards never leave the foundations, and there is no dealing while a pile is empty: "
            "deal your last stock cards first."
        )
    if rules.deal_needs_full_tableau:
        return _("There is no dealing while a pile is empty: deal your last stock cards first.")
    return _("Cards never leave the foundations.") if stays else ""


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
