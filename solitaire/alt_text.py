"""Alt text for a board picture: what the player can see, in words for a screen reader.

Built from the same :class:`BoardView` the renderer draws, so a hidden card is never named.

>>> from solitaire import new_game
>>> from solitaire.view import view_of
>>> text = describe_board(view_of(new_game("draw3", deck=" ".join(
...     f"{r}{s}" for s in "SHDC" for r in "A23456789TJQK"))))
>>> text.splitlines()[0]
'Solitaire Rush (draw 3), playing, score 0, 0 moves.'
>>> text.splitlines()[4]
'Pile 2: 1 face down, 3♠.'
"""

from __future__ import annotations

from solitaire.games import engine_for
from solitaire.speech import _, n_
from solitaire.status import Status
from solitaire.view import BoardView, PileView
from solitaire.words import number

MAX_LENGTH = 1024
"""Discord's limit for an attachment description."""


def describe_board(view: BoardView) -> str:
    """Describe foundations, stock, waste and every pile (face-up cards, face-down counts) in plain lines.

    Said in the spoken language: build it in the task that speaks the reader's language.
    """
    lines = [_headline(view), _foundations(view), _stock_and_waste(view)]
    lines += [_pile(place, pile) for place, pile in enumerate(view.tableau, start=1)]
    text = "\n".join(lines)
    return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 1] + "\u2026"


def _headline(view: BoardView) -> str:
    """``Solitaire Rush (draw 3), playing, score 0, 0 moves.``: the title, how the game stands, score and moves."""
    fields = {"title": view.title, "score": number(view.score)}
    count = view.move_count
    if view.status is Status.WON:
        return n_(
            "{title}, won, score {score}, {count} move.", "{title}, won, score {score}, {count} moves.", count, **fields
        )
    if view.status is Status.ENDED:
        # Translators: "ended": the player ended the game early
        return n_(
            "{title}, ended, score {score}, {count} move.",
            "{title}, ended, score {score}, {count} moves.",
            count,
            **fields,
        )
    if view.status is Status.STUCK:
        # Translators: "stuck": no useful move was left
        return n_(
            "{title}, stuck, score {score}, {count} move.",
            "{title}, stuck, score {score}, {count} moves.",
            count,
            **fields,
        )
    if view.status is Status.EXPIRED:
        # Translators: "expired": the game's clock ran out
        return n_(
            "{title}, expired, score {score}, {count} move.",
            "{title}, expired, score {score}, {count} moves.",
            count,
            **fields,
        )
    # Translators: the first line of a board picture's description for a screen reader; {title} is the variant's name
    return n_(
        "{title}, playing, score {score}, {count} move.",
        "{title}, playing, score {score}, {count} moves.",
        count,
        **fields,
    )


def _foundations(view: BoardView) -> str:
    words = engine_for(view.family).foundation_words
    # Translators: {foundations} lists each foundation ("♠: A, ♥: empty, ...")
    return _("Foundations: {foundations}.", foundations=", ".join(words(foundation) for foundation in view.foundations))


def _stock_and_waste(view: BoardView) -> str:
    """The stock (cards left, the pass) and the waste (its size, its top card, the cards fanned): two sentences."""
    count, current, passes = view.stock_count, view.pass_number, view.max_passes
    if passes is not None:
        # Translators: {count} cards left in the stock, which is on its pass {current} of {passes} through the deck
        stock = n_(
            "Stock {count} card, pass {current} of {passes}.",
            "Stock {count} cards, pass {current} of {passes}.",
            count,
            current=current,
            passes=passes,
        )
    elif current > 1:
        # Translators: {count} cards left in the stock, which is on its pass {current} through the deck
        stock = n_(
            "Stock {count} card, pass {current}.", "Stock {count} cards, pass {current}.", count, current=current
        )
    else:
        stock = n_("Stock {count} card.", "Stock {count} cards.", count)
    if not view.waste_count:
        waste = _("Waste empty.")
        return f"{stock} {waste}"
    top = view.waste_fan[-1].label
    if len(view.waste_fan) > 1:
        shown = " ".join(card.label for card in view.waste_fan)
        # Translators: {count} cards on the waste; {top} its top card (the one that plays); {cards} the cards fanned
        waste = _("Waste {count}, top {top} (showing {cards}).", count=view.waste_count, top=top, cards=shown)
    else:
        waste = _("Waste {count}, top {top}.", count=view.waste_count, top=top)
    return f"{stock} {waste}"


def _pile(place: int, pile: PileView) -> str:
    """One tableau pile: its face-down count and its face-up cards."""
    cards = " ".join(card.label for card in pile.cards)
    if not pile.hidden and not cards:
        # Translators: a tableau pile with no card; {number} is its number (1-7)
        return _("Pile {number}: empty.", number=place)
    if not pile.hidden:
        # Translators: a tableau pile's face-up {cards}, bottom to top
        return _("Pile {number}: {cards}.", number=place, cards=cards)
    if not cards:
        # Translators: a tableau pile of {count} face-down cards and none face up
        return n_("Pile {number}: {count} face down.", "Pile {number}: {count} face down.", pile.hidden, number=place)
    # Translators: a tableau pile: {count} face-down cards, then the face-up {cards} bottom to top
    return n_(
        "Pile {number}: {count} face down, {cards}.",
        "Pile {number}: {count} face down, {cards}.",
        pile.hidden,
        number=place,
        cards=cards,
    )
