"""Friday 13: thirteen foundations J Q K A 2 .. 10 built up regardless of suit, one redeal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from solitaire.cards import ACE, FULL_DECK, JACK, KING, QUEEN, SUITS, Card, pack_piles, unpack_piles
from solitaire.errors import IllegalMoveError, InvalidMoveError
from solitaire.game import CellText, Game
from solitaire.moves import DRAW, FRIDAY13_LABELS, Move, MoveKind
from solitaire.scoring import FRIDAY13_CARD_POINTS, FRIDAY13_START_POINTS
from solitaire.seen import BoardView, FoundationView, Knowledge, PileView
from solitaire.shuffle import SplitMix64, shuffle_in_place
from solitaire.speech import N_, _
from solitaire.variants import Family, Rules
from solitaire.words import Said

LABEL_RANKS = (JACK, QUEEN, KING, ACE, 2, 3, 4, 5, 6, 7, 8, 9, 10)
"""The rank each foundation starts with, left to right."""
STARTER_RANKS = LABEL_RANKS[:4]
FOUNDATIONS_PER_LINE = 5
"""Foundations per line of the text board (five of up to 13 columns: the line fits 80 columns)."""
_LABEL_ALIASES = {"T": "10", "11": "J", "12": "Q", "13": "K", "1": "A"}
_NO_STOCK, _NO_PASSES = "no stock", "no passes"
"""Why drawing is refused (:meth:`Friday13Game._deal_blocker`); said by :meth:`Friday13Game._deal_refusal`."""
_WRONG_RANK, _WRONG_START, _GAP = "wrong rank", "wrong start", "gap"
"""Why a card may not go on a foundation (:meth:`Friday13Game._blocker`); said by :meth:`Friday13Game._refusal`."""


def next_rank(rank: int) -> int:
    """The rank that builds on ``rank``, wrapping K to A."""
    return ACE if rank == KING else rank + 1


class Friday13Game(Game):
    """Turn the stock one card at a time and play the waste top onto the foundations.

    >>> from solitaire import new_game
    >>> game = new_game("friday13", seed=1)
    >>> [len(pile) for pile in game.foundations][:5], len(game.stock)
    ([1, 1, 1, 1, 0], 48)
    """

    foundations: list[list[Card]]
    """Cards on each foundation, left to right (J Q K A 2 .. 10), bottom to top."""

    family = Family.FRIDAY13
    # Translators: how to write a move in Friday 13; draw, undo, end, w-LABEL and the labels are the move
    # notation (keep them)
    notation_help = N_("use draw, undo, end or w-LABEL with LABEL one of J Q K A 2 3 4 5 6 7 8 9 10")
    goal = Said(
        # Translators: the goal of Friday 13; J Q K A 2 .. 10 are the foundations' labels (card ranks)
        N_(
            "Thirteen foundations J Q K A 2 .. 10 (J, Q, K and A start filled). Turn the stock one card at a "
            "time and play the waste top onto a foundation one rank higher, any suit, K wrapping to A. An empty "
            "foundation takes only its own rank, once every foundation to its left holds a card."
        )
    )
    # Translators: the scoring of Friday 13; keep "Scoring:" a label
    scoring_text = Said(N_("Scoring: +10 per card played, +20 more when it starts a foundation."))
    bonus_total = 48

    @classmethod
    def at(
        cls, rules: Rules, foundations: Sequence[Sequence[Card]], talon: Sequence[Card], turned: int, recycles: int
    ) -> Friday13Game:
        """A game already under way at this board, to look ahead from (its deck and log say nothing of the past).

        ``foundations``: each foundation's cards bottom to top, left to right; ``talon``: the waste
        bottom to top, then the stock in draw order, the first ``turned`` of them on the waste.
        """
        game = cls(rules, FULL_DECK)
        game.foundations = [list(pile) for pile in foundations]
        game.waste, game.stock = list(talon[:turned]), list(reversed(talon[turned:]))
        game.recycles = recycles
        game.seen = set(game.waste) | {card for pile in game.foundations for card in pile}
        game.visited = {game.layout_key(): (recycles, game.unseen())}
        return game

    @classmethod
    def guess(cls, rules: Rules, knowledge: Knowledge, rng: SplitMix64) -> Friday13Game:
        """A game that looks exactly as ``knowledge`` says, each rank the player has not seen dealt at random.

        Only ranks matter here: cards under a foundation's top get the suits nobody has seen.
        """
        view = knowledge.view
        ranks = [_ranks_from(LABEL_RANKS[i], f.count) for i, f in enumerate(view.foundations)]
        known = [f.top for f in view.foundations if f.top] + list(knowledge.known_talon)
        left = Counter(dict.fromkeys(range(1, 14), 4))
        left.subtract(rank for pile in ranks for rank in pile)
        left.subtract(card.rank for card in knowledge.known_talon)
        unseen = iter(shuffle_in_place(sorted(left.elements()), rng))
        talon_ranks = [card.rank if card else next(unseen) for card in knowledge.talon]
        suits = {rank: [suit for suit in SUITS if Card(rank, suit) not in known] for rank in range(1, 14)}

        def card(rank: int, seen: Card | None) -> Card:
            return seen if seen is not None else Card(rank, suits[rank].pop())

        foundations = [
            [card(rank, f.top if height == len(pile) - 1 else None) for height, rank in enumerate(pile)]
            for pile, f in zip(ranks, view.foundations, strict=True)
        ]
        talon = [card(rank, seen) for rank, seen in zip(talon_ranks, knowledge.talon, strict=True)]
        world = cls.at(rules, foundations, talon, view.waste_count, view.pass_number - 1)
        world.seen |= knowledge.known_talon
        world.visited = {world.layout_key(): (world.recycles, world.unseen())}
        return world

    def _deal(self) -> None:
        self.foundations = [[] for _rank in LABEL_RANKS]
        for index, rank in enumerate(STARTER_RANKS):
            self.foundations[index].append(next(card for card in self.deck if card.rank == rank))
        starters = {pile[0] for pile in self.foundations[:4]}
        self.stock = [card for card in reversed(self.deck) if card not in starters]
        self.waste = []
        self.recycles = 0
        self.seen = set(starters)

    def _capture(self) -> Any:
        return pack_piles((*self.foundations, self.stock, self.waste)), self.recycles

    def _restore(self, board: Any) -> None:
        packed, self.recycles = board
        *self.foundations, self.stock, self.waste = unpack_piles(packed)

    @property
    def draw_count(self) -> int:
        """Cards a draw turns: always one."""
        return 1

    def placed_count(self) -> int:
        """Cards played from the stock onto the foundations."""
        return 48 - len(self.stock) - len(self.waste)

    def _deal_blocker(self) -> str | None:
        """Why drawing is refused now (a reason :meth:`_deal_refusal` says), or ``None`` when it is allowed."""
        if self.stock:
            return None
        if not self.waste:
            return _NO_STOCK
        if self.rules.max_passes is not None and self.recycles + 1 >= self.rules.max_passes:
            return _NO_PASSES
        return None

    @staticmethod
    def _deal_refusal(move: Move, blocker: str) -> IllegalMoveError:
        """The refusal of the draw ``move`` for the reason ``blocker``, in the spoken language."""
        if blocker == _NO_STOCK:
            return IllegalMoveError(_("{move}: the stock and the waste are both empty", move=move))
        # Translators: Friday 13 allows one redeal (the waste turned back into the stock once)
        return IllegalMoveError(_("{move}: the redeal is used up: no passes left", move=move))

    def _blocker(self, card: Card, index: int) -> str | None:
        """Why ``card`` may not go on foundation ``index`` (a reason :meth:`_refusal` says), or ``None`` if it may."""
        pile = self.foundations[index]
        if pile:
            return _WRONG_RANK if card.rank != next_rank(pile[-1].rank) else None
        if card.rank != LABEL_RANKS[index]:
            return _WRONG_START
        return _GAP if not all(self.foundations[:index]) else None

    def _refusal(self, move: Move, card: Card, index: int, blocker: str) -> IllegalMoveError:
        """The refusal of ``move`` (``card`` onto foundation ``index``) for the reason ``blocker``."""
        pile, label = self.foundations[index], FRIDAY13_LABELS[index]
        if blocker == _WRONG_RANK:
            wanted = _rank_name(next_rank(pile[-1].rank))
            return IllegalMoveError(
                # Translators: {card} is the waste's card (7♠), {top} a foundation's top card, {rank} the rank it takes
                _(
                    "{move}: {card} does not go on {top} (it takes any {rank})",
                    move=move,
                    card=card.label,
                    top=pile[-1].label,
                    rank=wanted,
                )
            )
        if blocker == _WRONG_START:
            return IllegalMoveError(
                # Translators: {label} is a foundation's label, the only rank it starts with (J, Q, K, A, 2 .. 10)
                _(
                    "{move}: the empty {label} foundation takes only a {label}, not {card}",
                    move=move,
                    label=label,
                    card=card.label,
                )
            )
        gap = next(FRIDAY13_LABELS[i] for i in range(index) if not self.foundations[i])
        return IllegalMoveError(
            # Translators: {label} is the label of the leftmost empty foundation (J, Q, K, A, 2 .. 10)
            _("{move}: fill the {label} foundation first: empty foundations fill left to right", move=move, label=gap)
        )

    def legal_moves(self) -> list[Move]:
        """Every draw and waste play allowed now."""
        if self.is_over:
            return []
        moves = [DRAW] if self._deal_blocker() is None else []
        if self.waste:
            card = self.waste[-1]
            moves += [Move.play("w", label) for i, label in enumerate(FRIDAY13_LABELS) if not self._blocker(card, i)]
        return moves

    def _is_won(self) -> bool:
        return not self.stock and not self.waste

    def _is_stuck(self) -> bool:
        return not self.legal_moves()

    # -- what the player sees and writes ---------------------------------------
    def view_piles(self) -> tuple[PileView, ...]:
        """No tableau."""
        return ()

    def view_foundations(self) -> tuple[FoundationView, ...]:
        """The thirteen foundations J Q K A 2 .. 10, each with the rank it takes next (none while locked).

        >>> from solitaire import new_game
        >>> [(f.label, f.takes) for f in new_game("friday13", seed=1).view_foundations()][2:6]
        [('K', 'A'), ('A', '2'), ('2', '2'), ('3', None)]
        """
        views, open_gap = [], True
        for label, pile in zip(FRIDAY13_LABELS, self.foundations, strict=True):
            if pile:
                takes: str | None = _rank_name(next_rank(pile[-1].rank))
            else:
                takes, open_gap = (label if open_gap else None), False  # empty ones fill left to right
            views.append(FoundationView(label, pile[-1] if pile else None, len(pile), takes))
        return tuple(views)

    def describe_play(self, move: Move) -> str | None:
        """``7♠ onto 6♥`` or ``2♠ starts the 2 foundation``; ``None`` with an empty waste."""
        if not self.waste:
            return None
        pile = self.foundations[FRIDAY13_LABELS.index(move.target)]
        card = self.waste[-1].label
        if pile:
            # Translators: what a move does; {card} is the card moved (7♥), {top} the card it goes on (8♠)
            return _("{card} onto {top}", card=card, top=pile[-1].label)
        # Translators: what a move does (Friday 13); {label} is the label of the empty foundation it starts (2)
        return _("{card} starts the {label} foundation", card=card, label=move.target)

    @classmethod
    def parse_play(cls, text: str, source: str, target: str) -> Move:
        """Check ``w-LABEL`` (``T``, ``11``..``13`` and ``1`` name 10, J, Q, K and A)."""
        if source != "w":
            raise InvalidMoveError(
                # Translators: {text} is the move as typed, quoted; {help} says how to write a move
                _("only the waste plays in Friday 13: {text}; {help}", text=repr(text), help=_(cls.notation_help))
            )
        label = target.upper()
        label = _LABEL_ALIASES.get(label, label)
        if label not in FRIDAY13_LABELS:
            raise InvalidMoveError(
                # Translators: {target} and {text} are what was typed, quoted; {help} says how to write a move
                _(
                    "no foundation labelled {target} in {text}; {help}",
                    target=repr(target),
                    text=repr(text),
                    help=_(cls.notation_help),
                )
            )
        return Move.play("w", label)

    @classmethod
    def move_help(cls, rules: Rules) -> str:
        """Waste plays only."""
        return (
            "  w-J .. w-10   play the waste top onto a foundation: w-J w-Q w-K w-A w-2 .. w-10\n"
            "                (3→f style arrows work too: w→7, w->7)\n"
        )

    @classmethod
    def text_foundations(cls, view: BoardView, cell: CellText) -> list[str]:
        """Three lines of foundations, five, five and three, to fit 80 columns: `` J:  J♠ (1)``."""
        cells = [f"{f.label:>2}:{cell(f.top)} ({f.count})" for f in view.foundations]
        starts = range(0, len(cells), FOUNDATIONS_PER_LINE)
        return ["  ".join(cells[start : start + FOUNDATIONS_PER_LINE]) for start in starts]

    @classmethod
    def foundation_words(cls, foundation: FoundationView) -> str:
        """``J: Q♠`` (the top card) or ``2: empty``."""
        if foundation.top is None:
            # Translators: a foundation in a board's description for a screen reader; {label} is its label (2)
            return _("{label}: empty", label=foundation.label)
        return f"{foundation.label}: {foundation.top.label}"

    def _apply(self, move: Move) -> bool:
        if move.kind is MoveKind.DRAW:
            return self._draw(move)
        if not self.waste:
            raise IllegalMoveError(_("{move}: the waste is empty: draw a card first", move=move))
        index = FRIDAY13_LABELS.index(move.target)
        card = self.waste[-1]
        blocker = self._blocker(card, index)
        if blocker is not None:
            raise self._refusal(move, card, index, blocker)
        starts = FRIDAY13_START_POINTS if not self.foundations[index] else 0
        self.foundations[index].append(self.waste.pop())
        self._score(cards=FRIDAY13_CARD_POINTS, starts=starts)
        return False

    def _draw(self, move: Move) -> bool:
        blocker = self._deal_blocker()
        if blocker is not None:
            raise self._deal_refusal(move, blocker)
        if not self.stock:
            self._turn_waste_over()
            return False
        return self._turn_from_stock(1)


def _ranks_from(rank: int, count: int) -> list[int]:
    """The ranks of a foundation of ``count`` cards that starts with ``rank``, bottom to top."""
    ranks = []
    for _height in range(count):
        ranks.append(rank)
        rank = next_rank(rank)
    return ranks


def _rank_name(rank: int) -> str:
    return Card(rank, "S").rank_name
