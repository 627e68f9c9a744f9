"""Plain-text help and rules for each variant, as the terminal game shows them."""

from __future__ import annotations

from solitaire.variants import Family, Rules

_KLONDIKE_GOAL = (
    "Build the four foundations up by suit, ace to king. Build the seven piles down in alternating\n"
    "colours; move any face-up run; only a king (or a run headed by one) fills an empty pile."
)
_FRIDAY13_GOAL = (
    "Thirteen foundations J Q K A 2 .. 10 (J, Q, K and A start filled). Turn the stock one card at a\n"
    "time and play the waste top onto a foundation one rank higher, any suit, K wrapping to A. An empty\n"
    "foundation takes only its own rank, once every foundation to its left holds a card."
)
_KLONDIKE_SCORE = (
    "Scoring: a card's first arrival on a foundation A 50, 2 45 .. 9 10, 10 J Q K 5; a card turned up\n"
    "+10; a move from the waste +10; a foundation card back to a pile -10."
)
_FRIDAY13_SCORE = "Scoring: +10 per card played, +20 more when it starts a foundation."
_CLOCK = (
    "Clock: {minutes} minutes. A game that ends won, ended (`end`) or stuck earns a time bonus:\n"
    "(seconds left) x cards placed / {total}. A game that runs out of time expires with no bonus.\n"
    "Undo takes back any move except one that showed you a card you had not seen."
)
_STOCK_RULES = {
    "draw1": "Draw turns 1 card; the stock can be turned over without limit, -100 each time.",
    "draw3": "Draw turns 3 cards; the stock can be turned over without limit, -20 from the third time on.",
    "goldrush": (
        "The stock is dealt in three passes: 3 cards per draw, then 2, then 1. Cards never leave the\n"
        "foundations, and there is no dealing while a pile is empty: deal your last stock cards first."
    ),
    "friday13": "One redeal: the waste goes back to the stock once.",
}
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


def move_help(rules: Rules) -> str:
    """Return how to write a move in ``rules``' variant."""
    if rules.family is Family.FRIDAY13:
        return (
            "  w-J .. w-10   play the waste top onto a foundation: w-J w-Q w-K w-A w-2 .. w-10\n"
            "                (3→f style arrows work too: w→7, w->7)\n"
        )
    lines = [
        "  3-5           move pile 3's face-up run (as much as fits) onto pile 5",
        "  w-2           move the waste's top card (in [brackets]) onto pile 2",
        "  4-f  w-f      move a top card to its foundation",
    ]
    if rules.foundation_to_tableau:
        lines.append("  fh-6          move a foundation's top card back to pile 6 (fs fh fd fc)")
    lines.append("                arrows work too: 3→f, 3->f, w → 2")
    return "\n".join(lines) + "\n"


def help_text(rules: Rules) -> str:
    """Return the terminal game's command list for ``rules``' variant."""
    return f"{rules.title}: commands\n" + move_help(rules) + _COMMON_COMMANDS.format(title=rules.title)


def rules_text(rules: Rules) -> str:
    """Return the rules and scoring of ``rules``' variant in a few plain lines."""
    friday = rules.family is Family.FRIDAY13
    parts = [
        rules.title,
        _FRIDAY13_GOAL if friday else _KLONDIKE_GOAL,
        _STOCK_RULES.get(rules.name, ""),
        _FRIDAY13_SCORE if friday else _KLONDIKE_SCORE,
        _CLOCK.format(minutes=rules.time_limit // 60, total=48 if friday else 52),
    ]
    return "\n".join(part for part in parts if part) + "\n"
