"""Klondike as Solitaire Rush (draw 1 / draw 3) and Gold Rush play it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from solitaire.cards import (
    CODES,
    FULL_DECK,
    KING,
    PILE_BREAK,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    notation,
    pack,
    unpack,
)
from solitaire.errors import IllegalMoveError, InvalidMoveError
from solitaire.game import CellText, Game
from solitaire.moves import DRAW, FOUNDATION_SOURCES, PILES, Move, MoveKind
from solitaire.scoring import (
    FOUNDATION_RETURN_PENALTY,
    REVEAL_POINTS,
    WASTE_MOVE_POINTS,
    foundation_points,
)
from solitaire.seen import BoardView, FoundationView, Knowledge, PileView
from solitaire.shuffle import SplitMix64, shuffle_in_place
from solitaire.speech import N_, _, n_
from solitaire.variants import Family, Rules
from solitaire.words import Said

FOUNDATION_ORDER = "SHDC"
"""The order foundations are shown and named in (``fs fh fd fc``)."""
_FOUNDATION_OF_SUIT = {suit: source for source, suit in FOUNDATION_SOURCES.items()}
_KINGS = frozenset(Card(KING, suit) for suit in SUITS)
_TAKES = {
    top: frozenset(Card(top.rank - 1, suit) for suit in SUITS if Card(top.rank, suit).is_red != top.is_red)
    for top in FULL_DECK
    if top.rank > 1
}
"""The cards that go on each card in a pile: the two of the rank below in the other colour."""
_NOTHING: frozenset[Card] = frozenset()
_FOUNDATION_VIEWS = {
    suit: tuple(
        FoundationView(
            suit, Card(rank, suit) if rank else None, rank, Card(rank + 1, suit).rank_name if rank < KING else None
        )
        for rank in range(KING + 1)
    )
    for suit in FOUNDATION_ORDER
}
"""Each suit's foundation as the player sees it, by its top rank (0: empty): a view is immutable, so made once."""
_WASTE_HOME = Move.play("w", "f")
_WASTE_TO = tuple(Move.play("w", target) for target in PILES)
_PILE_HOME = tuple(Move.play(source, "f") for source in PILES)
_PILE_TO = tuple(tuple(Move.play(source, target) for target in PILES) for source in PILES)
_FOUNDATION_TO = {source: tuple(Move.play(source, target) for target in PILES) for source in FOUNDATION_SOURCES}
"""Every card move, made once (a move is immutable): the move generator hands these out."""


def _takes(pile: Sequence[Card]) -> frozenset[Card]:
    """The cards that may be placed on ``pile``: a king on an empty pile, else the two that go on its top card."""
    return _TAKES.get(pile[-1], _NOTHING) if pile else _KINGS


# Translators: the scoring of a Klondike variant whose foundation cards may come back down; keep "Scoring:" a label
_SCORING = N_(
    "Scoring: a card's first arrival on a foundation A 50, 2 45 .. 9 10, 10 J Q K 5; a card turned up "
    "+10; a move from the waste +10; a foundation card back to a pile -10."
)
# Translators: the scoring of a Klondike variant whose cards never leave the foundations (Gold Rush)
_SCORING_STAYS = N_(
    "Scoring: a card's first arrival on a foundation A 50, 2 45 .. 9 10, 10 J Q K 5; a card turned up "
    "+10; a move from the waste +10."
)
_NO_STOCK, _NO_PASSES, _GAPS = "no stock", "no passes", "gaps"
"""Why drawing is refused (:meth:`KlondikeGame._deal_blocker`); said by :meth:`KlondikeGame._deal_refusal`."""


class KlondikeGame(Game):
    """Seven piles, four suit foundations, a stock and a waste.

    >>> from solitaire import new_game
    >>> game = new_game("draw3", seed=1)
    >>> len(game.stock), [len(pile) for pile in game.piles]
    (24, [1, 2, 3, 4, 5, 6, 7])
    """

    piles: list[list[Card]]
    hidden: list[int]
    """Face-down cards at the bottom of each pile."""
    foundations: dict[str, int]
    """Top rank per suit (0 when empty)."""
    scored: set[Card]
    """Cards that have earned their foundation value (once each)."""

    family = Family.KLONDIKE
    # Translators: how to write a move; draw, undo, end, SRC-DST, 1-7, w, fs .. fc, f and the examples are
    # the move notation (keep them)
    notation_help = N_(
        "use draw, undo, end or SRC-DST with SRC 1-7, w, fs, fh, fd, fc and DST 1-7 or f (e.g. 3-5, w-f)"
    )
    goal = Said(
        # Translators: the goal of a Klondike game (Solitaire Rush, Gold Rush)
        N_(
            "Build the four foundations up by suit, ace to king. Build the seven piles down in alternating "
            "colours; move any face-up run; only a king (or a run headed by one) fills an empty pile."
        )
    )
    scoring_text = Said(_SCORING)
    bonus_total = 52

    @classmethod
    def scoring_rule(cls, rules: Rules) -> str:
        """The scoring, without the foundation-to-pile penalty where cards never leave the foundations."""
        return cls.scoring_text if rules.foundation_to_tableau else _(_SCORING_STAYS)

    @classmethod
    def at(
        cls,
        rules: Rules,
        piles: Sequence[tuple[Sequence[Card], Sequence[Card]]],
        foundations: Mapping[str, int],
        talon: Sequence[Card],
        turned: int,
        recycles: int,
    ) -> KlondikeGame:
        """A game already under way at this board, to look ahead from (its deck and log say nothing of the past).

        ``piles``: each pile's face-down then face-up cards, bottom first; ``foundations``: the top
        rank per suit; ``talon``: the waste bottom to top, then the stock in draw order, the first
        ``turned`` of them on the waste.
        """
        game = cls(rules, FULL_DECK)
        game.piles = [[*down, *up] for down, up in piles]
        game.hidden = [len(down) for down, _up in piles]
        game.waste, game.stock = list(talon[:turned]), list(reversed(talon[turned:]))
        game.foundations = dict.fromkeys(SUITS, 0) | dict(foundations)
        game.recycles = recycles
        game.seen = {card for i, pile in enumerate(game.piles) for card in pile[game.hidden[i] :]} | set(game.waste)
        game.visited = {game.layout_key(): (recycles, game.unseen())}
        return game

    @classmethod
    def guess(cls, rules: Rules, knowledge: Knowledge, rng: SplitMix64) -> KlondikeGame:
        """A game that looks exactly as ``knowledge`` says, each card the player has not seen dealt at random."""
        view = knowledge.view
        known = {card for pile in view.tableau for card in pile.cards} | cls.known_foundation_cards(view)
        known |= knowledge.known_talon
        unseen = iter(shuffle_in_place([card for card in FULL_DECK if card not in known], rng))
        piles = [([next(unseen) for _card in range(pile.hidden)], pile.cards) for pile in view.tableau]
        talon = [card if card is not None else next(unseen) for card in knowledge.talon]
        foundations = {f.label: f.count for f in view.foundations}
        world = cls.at(rules, piles, foundations, talon, view.waste_count, view.pass_number - 1)
        world.seen |= knowledge.known_talon
        world.visited = {world.layout_key(): (world.recycles, world.unseen())}
        return world

    def _deal(self) -> None:
        self.piles, self.hidden, position = [], [], 0
        for size in range(1, 8):
            self.piles.append(list(self.deck[position : position + size]))
            self.hidden.append(size - 1)
            position += size
        self.stock = list(reversed(self.deck[position:]))
        self.waste = []
        self.foundations = dict.fromkeys(SUITS, 0)
        self.recycles = 0
        self.scored = set()
        self.seen = {pile[-1] for pile in self.piles}

    def _capture(self) -> Any:
        parts = (
            *map(pack, self.piles),
            bytes(self.hidden),
            pack(self.stock),
            pack(self.waste),
            bytes(self.foundations[suit] for suit in SUITS),
            bytes(sorted(map(CODES.__getitem__, self.scored))),
        )
        return PILE_BREAK.join(parts), self.recycles

    def _restore(self, board: Any) -> None:
        packed, self.recycles = board
        *piles, hidden, stock, waste, foundations, scored = packed.split(PILE_BREAK)
        self.piles = list(map(unpack, piles))
        self.hidden = list(hidden)
        self.stock, self.waste = unpack(stock), unpack(waste)
        self.foundations = dict(zip(SUITS, foundations, strict=True))
        self.scored = set(unpack(scored))

    # -- questions -----------------------------------------------------------
    @property
    def pass_index(self) -> int:
        """The current pass through the stock, from 0."""
        return self.recycles

    @property
    def draw_count(self) -> int:
        """Cards a draw turns on this pass."""
        return self.rules.draw_count(self.recycles)

    def placed_count(self) -> int:
        """Cards on the foundations."""
        return sum(self.foundations.values())

    def face_up(self, pile: int) -> list[Card]:
        """The face-up cards of pile ``pile`` (0-based), bottom to top."""
        return self.piles[pile][self.hidden[pile] :]

    def fits_foundation(self, card: Card) -> bool:
        """Whether ``card`` is the next card of its suit's foundation."""
        return self.foundations[card.suit] == card.rank - 1

    def fits_pile(self, card: Card, pile: int) -> bool:
        """Whether ``card`` may be placed on pile ``pile`` (0-based)."""
        return card in _takes(self.piles[pile])

    def _deal_blocker(self) -> str | None:
        """Why drawing is refused now (a reason :meth:`_deal_refusal` says), or ``None`` when it is allowed."""
        if self.stock:
            if self.rules.deal_needs_full_tableau and not all(self.piles):
                return _GAPS
            return None
        if not self.waste:
            return _NO_STOCK
        if self.rules.max_passes is not None and self.recycles + 1 >= self.rules.max_passes:
            return _NO_PASSES
        return None

    def _deal_refusal(self, move: Move, blocker: str) -> IllegalMoveError:
        """The refusal of the draw ``move`` for the reason ``blocker``, in the spoken language."""
        if blocker == _NO_STOCK:
            return IllegalMoveError(_("{move}: the stock and the waste are both empty", move=move))
        if blocker == _NO_PASSES:
            return IllegalMoveError(_("{move}: the stock is finished: no passes left", move=move))
        empty = [str(i + 1) for i, pile in enumerate(self.piles) if not pile]
        return IllegalMoveError(
            # Translators: Gold Rush; {piles} are the numbers of the empty piles (1, 3), {count} how many
            n_(
                "{move}: fill empty pile {piles} with a king before dealing",
                "{move}: fill empty pile {piles} with a king before dealing",
                len(empty),
                move=move,
                piles=", ".join(empty),
            )
        )

    def legal_moves(self) -> list[Move]:
        """Every draw and card move allowed now."""
        return [] if self.is_over else list(self._generate_moves())

    def _generate_moves(self) -> Iterator[Move]:
        if self._deal_blocker() is None:
            yield DRAW
        piles, foundations = self.piles, self.foundations
        takes = [_takes(pile) for pile in piles]
        anywhere = frozenset().union(*takes)
        if self.waste:
            card = self.waste[-1]
            if foundations[card.suit] == card.rank - 1:
                yield _WASTE_HOME
            yield from (_WASTE_TO[j] for j, wanted in enumerate(takes) if card in wanted)
        for i, pile in enumerate(piles):
            if not pile:
                continue
            top = pile[-1]
            if foundations[top.suit] == top.rank - 1:
                yield _PILE_HOME[i]
            hidden = self.hidden[i]
            run = pile[hidden:]
            if anywhere.isdisjoint(run):
                continue
            for j, wanted in enumerate(takes):
                # some card of the run fits, and it is not a king already heading its own pile (a move to nothing)
                if j != i and not wanted.isdisjoint(run) and (piles[j] or hidden or run[0] not in wanted):
                    yield _PILE_TO[i][j]
        if self.rules.foundation_to_tableau:
            for source, suit in FOUNDATION_SOURCES.items():
                rank = foundations[suit]
                if rank:
                    card = Card(rank, suit)
                    yield from (_FOUNDATION_TO[source][j] for j, wanted in enumerate(takes) if card in wanted)

    def _run_start(self, source: int, target: int) -> int | None:
        """Index in pile ``source`` of the one face-up run that fits on ``target``, if any."""
        pile, wanted = self.piles[source], _takes(self.piles[target])
        for index in range(self.hidden[source], len(pile)):
            if pile[index] in wanted:
                if index == 0 and not self.piles[target]:
                    return None  # a king already heading its own pile: the move would change nothing
                return index
        return None

    def is_safe_play(self, move: Move) -> bool:
        """A card sent home that no pile could need: both other-colour cards of the rank below are home.

        Where cards may come back down, the other card of the same colour two ranks below must be
        home too. A waste card only with draw 1 and unlimited passes (elsewhere taking it moves
        every later card's place in the draw); in Gold Rush a move that empties a pile (which stops
        the deal) is never safe.
        """
        card = self._moving_card(move) if move.kind is MoveKind.PLAY and move.target == "f" else None
        if card is None or not self.fits_foundation(card):
            return False
        if move.source == "w" and (self.rules.max_passes is not None or set(self.rules.draw_counts) != {1}):
            return False
        empties = move.source in PILES and len(self.piles[int(move.source) - 1]) == 1
        if empties and self.rules.deal_needs_full_tableau and (self.stock or self.waste):
            return False
        homes = self.foundations
        other = [suit for suit in SUITS if Card(1, suit).is_red != card.is_red]
        twin = next(suit for suit in SUITS if suit != card.suit and Card(1, suit).is_red == card.is_red)
        return card.rank <= 2 or (
            all(homes[suit] >= card.rank - 1 for suit in other)
            and (not self.rules.foundation_to_tableau or homes[twin] >= card.rank - 2)
        )

    def draw_is_free(self) -> bool:
        """Unlimited passes, and the stock stands at a multiple of the draw (or its end) before and after the draw.

        Drawing then only walks the cycle of positions that turning the stock goes through anyway.
        """
        if self.rules.max_passes is not None or self._deal_blocker() is not None:
            return False
        count, talon, turned = self.draw_count, len(self.stock) + len(self.waste), len(self.waste)
        after = min(turned + count, talon) if self.stock else 0
        return all(place % count == 0 or place == talon for place in (turned, after))

    def is_solved(self) -> bool:
        """No face-down card, at most one card in stock and waste, and it can be reached."""
        if any(self.hidden) or len(self.stock) + len(self.waste) > 1:
            return False
        return not self.stock or self._deal_blocker() is None

    def _is_won(self) -> bool:
        return all(rank == KING for rank in self.foundations.values())

    def _is_stuck(self) -> bool:
        if any(move.kind is MoveKind.PLAY for move in self._generate_moves()):
            return False
        if self._deal_blocker() is not None:
            return True
        if not self.rules.stuck_when_only_futile_draws:
            return False
        somewhere = frozenset().union(*map(_takes, self.piles))
        return not any(self.fits_foundation(card) or card in somewhere for card in self._future_waste_tops())

    def _future_waste_tops(self) -> Iterator[Card]:
        """Waste tops that drawing alone would show, through one full turn of the stock."""
        stock, waste, recycles = list(self.stock), list(self.waste), self.recycles
        turned_over = False
        while True:
            if stock:
                for _turn in range(min(self.rules.draw_count(recycles), len(stock))):
                    waste.append(stock.pop())
                yield waste[-1]
            elif waste and not turned_over:
                stock, waste, turned_over = list(reversed(waste)), [], True
                recycles += 1
            else:
                return

    # -- what the player sees and writes ---------------------------------------
    def unseen(self) -> int:
        """How many cards the player has never seen: the face-down ones, and those of stock and waste never turned."""
        seen, stock, waste = self.seen, self.stock, self.waste
        return (
            sum(self.hidden) + len(stock) + len(waste) - len(seen.intersection(stock)) - len(seen.intersection(waste))
        )

    def _layout_text(self) -> str:
        """The text of the generic layout key, read off the piles directly (no view is built after each move)."""
        piles = " ".join(
            f"{hidden}{''.join(notation(pile[hidden:]))}" for pile, hidden in zip(self.piles, self.hidden, strict=True)
        )
        homes = " ".join(f"{suit}{self.foundations[suit]}" for suit in FOUNDATION_ORDER)
        return f"{piles}/{homes}/{len(self.stock)}/{len(self.waste)}"

    def view_piles(self) -> tuple[PileView, ...]:
        """The seven piles: face-down counts and face-up cards."""
        return tuple(PileView(self.hidden[i], tuple(self.face_up(i))) for i in range(7))

    def view_foundations(self) -> tuple[FoundationView, ...]:
        """The four suit foundations in :data:`FOUNDATION_ORDER`."""
        ranks = self.foundations
        return tuple(_FOUNDATION_VIEWS[suit][ranks[suit]] for suit in FOUNDATION_ORDER)

    def describe_play(self, move: Move) -> str | None:
        """``7♥ onto 8♠``, ``A♠ starts the ♠ foundation``; ``None`` when no card would move."""
        card = self._moving_card(move)
        if card is None:
            return None
        if move.target == "f":
            if self.foundations[card.suit]:
                # Translators: what a move does; {card} is a card (7♥)
                return _("{card} to the foundation", card=card.label)
            # Translators: what a move does; {card} is an ace (A♠), {suit} its suit's symbol (♠)
            return _("{card} starts the {suit} foundation", card=card.label, suit=SUIT_SYMBOLS[card.suit])
        pile = self.piles[int(move.target) - 1]
        if not pile:
            # Translators: what a move does; {card} is a card (K♠), {pile} a tableau pile's number (1-7)
            return _("{card} onto empty pile {pile}", card=card.label, pile=move.target)
        if move.source in FOUNDATION_SOURCES:
            # Translators: what a move does: a card comes back down from its foundation onto a pile's top card
            return _("{card} back onto {top}", card=card.label, top=pile[-1].label)
        # Translators: what a move does; {card} is the card moved (7♥), {top} the card it goes on (8♠)
        return _("{card} onto {top}", card=card.label, top=pile[-1].label)

    def move_places(self, move: Move) -> tuple[str, str]:
        """A foundation target (``f``) names the foundation of the moving card's suit (``fs``)."""
        if move.target == "f" and (card := self._moving_card(move)) is not None:
            return move.source, _FOUNDATION_OF_SUIT[card.suit]
        return move.source, move.target

    def _moving_card(self, move: Move) -> Card | None:
        """The card (or the head of the run) that ``move`` would move."""
        if move.source == "w":
            return self.waste[-1] if self.waste else None
        if move.source in FOUNDATION_SOURCES:
            suit = FOUNDATION_SOURCES[move.source]
            rank = self.foundations[suit]
            return Card(rank, suit) if rank else None
        face_up = self.face_up(int(move.source) - 1)
        if not face_up:
            return None
        if move.target == "f":
            return face_up[-1]
        target = int(move.target) - 1
        return next((card for card in face_up if self.fits_pile(card, target)), face_up[0])

    @classmethod
    def parse_play(cls, text: str, source: str, target: str) -> Move:
        """Check ``SRC-DST`` with SRC 1-7, w, fs fh fd fc and DST 1-7 or f (a foundation name means f)."""
        quoted = repr(text)
        if source == "f":
            # Translators: {text} is the move as typed, quoted; fs, fh, fd and fc are notation (keep them)
            raise InvalidMoveError(_("say which foundation in {text}: fs, fh, fd or fc", text=quoted))
        if source not in PILES and source != "w" and source not in FOUNDATION_SOURCES:
            raise InvalidMoveError(
                # Translators: {source} and {text} are what was typed, quoted; {help} says how to write a move
                _(
                    "unknown source {source} in {text}: {help}",
                    source=repr(source),
                    text=quoted,
                    help=_(cls.notation_help),
                )
            )
        if target == "w":
            raise InvalidMoveError(_("cards never move onto the waste: {text}", text=quoted))
        if target in FOUNDATION_SOURCES:
            target = "f"
        if target not in PILES and target != "f":
            raise InvalidMoveError(
                # Translators: {target} and {text} are what was typed, quoted; {help} says how to write a move
                _(
                    "unknown target {target} in {text}: {help}",
                    target=repr(target),
                    text=quoted,
                    help=_(cls.notation_help),
                )
            )
        if source == target:
            raise InvalidMoveError(_("a move needs two different places: {text}", text=quoted))
        if source in FOUNDATION_SOURCES and target == "f":
            raise InvalidMoveError(_("a foundation card can only go to a tableau pile: {text}", text=quoted))
        return Move.play(source, target)

    @classmethod
    def move_help(cls, rules: Rules) -> str:
        """Pile, waste and foundation moves (foundation to pile only where the rules allow it)."""
        lines = [
            "  3-5           move pile 3's face-up run (as much as fits) onto pile 5",
            "  w-2           move the waste's top card (in [brackets]) onto pile 2",
            "  4-f  w-f      move a top card to its foundation",
        ]
        if rules.foundation_to_tableau:
            lines.append("  fh-6          move a foundation's top card back to pile 6 (fs fh fd fc)")
        lines.append("                arrows work too: 3→f, 3->f, w → 2")
        return "\n".join(lines) + "\n"

    @classmethod
    def text_foundations(cls, view: BoardView, cell: CellText) -> list[str]:
        """One line: ``fs:[  ]  fh: A♥ ...``."""
        return ["  ".join(f"f{f.label.lower()}:{cell(f.top)}" for f in view.foundations)]

    @classmethod
    def foundation_words(cls, foundation: FoundationView) -> str:
        """``♠: A`` (the top rank of a suit's foundation) or ``♠: empty``."""
        suit = SUIT_SYMBOLS[foundation.label]
        if foundation.top is None:
            # Translators: a foundation in a board's description for a screen reader; {suit} is its suit's symbol
            return _("{suit}: empty", suit=suit)
        return f"{suit}: {foundation.top.rank_name}"

    @classmethod
    def known_foundation_cards(cls, view: BoardView) -> set[Card]:
        """A suit foundation holds every rank of its suit up to its top."""
        return {Card(rank, f.label) for f in view.foundations for rank in range(1, f.count + 1)}

    # -- changes -------------------------------------------------------------
    def _after_move(self) -> None:
        if not self.is_solved() or self._is_won():
            return
        if self.stock:
            self._apply(DRAW)
        while (move := self._lowest_foundation_move()) is not None:
            self._apply(move)

    def _lowest_foundation_move(self) -> Move | None:
        candidates = [(pile[-1], PILES[i]) for i, pile in enumerate(self.piles) if pile]
        if self.waste:
            candidates.append((self.waste[-1], "w"))
        playable = [(card.rank, source) for card, source in candidates if self.fits_foundation(card)]
        return Move.play(min(playable)[1], "f") if playable else None

    def _apply(self, move: Move) -> bool:
        if move.kind is MoveKind.DRAW:
            return self._draw(move)
        if move.source == "w":
            return self._from_waste(move)
        if move.source in FOUNDATION_SOURCES:
            return self._from_foundation(move)
        return self._from_pile(move)

    def _draw(self, move: Move) -> bool:
        blocker = self._deal_blocker()
        if blocker is not None:
            raise self._deal_refusal(move, blocker)
        if not self.stock:
            self._turn_waste_over()
            self._score(recycles=-self.rules.recycle_cost(self.recycles))
            return False
        return self._turn_from_stock(self.draw_count)

    def _from_waste(self, move: Move) -> bool:
        if not self.waste:
            raise IllegalMoveError(_("{move}: the waste is empty", move=move))
        card = self.waste[-1]
        self._place(move, card)
        self.waste.pop()
        self._score(waste_moves=WASTE_MOVE_POINTS)
        return False

    def _from_pile(self, move: Move) -> bool:
        source = int(move.source) - 1
        pile = self.piles[source]
        if not pile:
            raise IllegalMoveError(_("{move}: pile {pile} is empty", move=move, pile=move.source))
        if move.target == "f":
            self._place(move, pile[-1])
            pile.pop()
        else:
            target = int(move.target) - 1
            start = self._run_start(source, target)
            if start is None:
                raise IllegalMoveError(self._why_no_run(move, source, target))
            self.piles[target].extend(pile[start:])
            del pile[start:]
        return self._turn_up(source)

    def _why_no_run(self, move: Move, source: int, target: int) -> str:
        run = self.face_up(source)
        if not self.piles[target]:
            if run[0].rank == KING and self.hidden[source] == 0:
                # Translators: {move} is a move in notation (3-5); {card} a king (K♠) at the bottom of its pile
                return _("{move}: the {card} already heads its own pile", move=move, card=run[0].label)
            return _(
                "{move}: only a king (or a run headed by one) may fill empty pile {pile}", move=move, pile=target + 1
            )
        top = self.piles[target][-1]
        if len(run) == 1:
            return _does_not_go(move, run[0], top)
        # Translators: {pile} is a pile's number; {first} to {last} its face-up cards; {top} the target's top card
        return _(
            "{move}: no card of pile {pile} ({first} to {last}) goes on {top}",
            move=move,
            pile=source + 1,
            first=run[0].label,
            last=run[-1].label,
            top=top.label,
        )

    def _from_foundation(self, move: Move) -> bool:
        if not self.rules.foundation_to_tableau:
            raise IllegalMoveError(
                # Translators: {title} is a variant's name (Gold Rush)
                _("{move}: cards never leave the foundations in {title}", move=move, title=self.rules.title)
            )
        suit = FOUNDATION_SOURCES[move.source]
        rank = self.foundations[suit]
        if not rank:
            # Translators: {suit} is a suit's symbol (♠)
            raise IllegalMoveError(_("{move}: the {suit} foundation is empty", move=move, suit=SUIT_SYMBOLS[suit]))
        card = Card(rank, suit)
        self._place(move, card)
        self.foundations[suit] = rank - 1
        self._score(foundation_returns=-FOUNDATION_RETURN_PENALTY)
        return False

    def _place(self, move: Move, card: Card) -> None:
        """Put ``card`` on the move's target, scoring a first arrival on a foundation."""
        if move.target == "f":
            if not self.fits_foundation(card):
                raise IllegalMoveError(self._why_not_foundation(move, card))
            self.foundations[card.suit] = card.rank
            if card not in self.scored:
                self.scored.add(card)
                self._score(cards=foundation_points(card.rank))
            return
        target = int(move.target) - 1
        if not self.fits_pile(card, target):
            raise IllegalMoveError(self._why_not_pile(move, card, target))
        self.piles[target].append(card)

    def _why_not_foundation(self, move: Move, card: Card) -> str:
        rank = self.foundations[card.suit]
        if rank == 0:
            return _("{move}: {card} can't start a foundation: aces first", move=move, card=card.label)
        return _does_not_go(move, card, Card(rank, card.suit))

    def _why_not_pile(self, move: Move, card: Card, target: int) -> str:
        if not self.piles[target]:
            return _(
                "{move}: only a king may fill empty pile {pile}, not {card}",
                move=move,
                pile=target + 1,
                card=card.label,
            )
        return _does_not_go(move, card, self.piles[target][-1])

    def _turn_up(self, pile: int) -> bool:
        """Turn up the top card of ``pile`` if it is face down; return whether it was."""
        if self.piles[pile] and self.hidden[pile] == len(self.piles[pile]):
            self.hidden[pile] -= 1
            self.seen.add(self.piles[pile][-1])
            self._score(reveals=REVEAL_POINTS)
            return True
        return False


def _does_not_go(move: Move, card: Card, top: Card) -> str:
    """The refusal of ``card`` on ``top``: ``3-5: 7♥ does not go on 9♠``."""
    # Translators: {move} is a move in notation (3-5); {card} the card moved (7♥); {top} the card it may not go on
    return _("{move}: {card} does not go on {top}", move=move, card=card.label, top=top.label)
