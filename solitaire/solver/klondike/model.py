"""The solver's position: piles, talon and foundations as ints, its hash, and making and taking back moves.

The stock and waste form one "talon" list in draw order with ``p`` cards turned (the
waste); every talon card that drawing can bring to the top is one move (the K+
representation), written back as ``draw`` commands for the engine.

A position is described by what each card lies on (another card, an empty pile, "face
down", "foundation" or "talon"), the talon position and the pass. That description does
not depend on the order of the piles; the transposition table holds a 128-bit Zobrist
hash of it, kept up to date move by move.
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING, Card
from solitaire.solver.klondike.tables import (
    FACE_DOWN,
    IN_TALON,
    ON_EMPTY,
    ON_FOUNDATION,
    P_SLOT,
    R_SLOT,
    ZOBRIST,
    encode,
)
from solitaire.variants import Rules

# SolverMove kinds, the first item of the tuple:
RUN = 0  # (RUN, source pile, card heading the run, target pile)
PILE_HOME = 1  # (PILE_HOME, pile)
TALON_PILE = 2  # (TALON_PILE, talon index, pass, draws, target pile)
TALON_HOME = 3  # (TALON_HOME, talon index, pass, draws)
HOME_PILE = 4  # (HOME_PILE, suit, target pile)

SolverMove = tuple[int, ...]
"""A move of the search (not :class:`solitaire.moves.Move`): a kind above, then its ints.

A plain tuple: several are built per node, and a ``NamedTuple`` costs about 6 times as much to build."""


# Safe foundation moves made automatically (:meth:`SearchState._auto`), kept to take them back and
# to write them down; the first item names the kind:
AUTO_FROM_PILE = 0  # (AUTO_FROM_PILE, pile, card, whether it turned up the card below)
AUTO_FROM_TALON = 1  # (AUTO_FROM_TALON, card, draws bringing it to the waste top, talon index, talon position before)

Auto = tuple[int, ...]
"""A safe foundation move made automatically (kinds above). A plain tuple: draw 3 and Gold Rush
make about 0.4 per node, and ``NamedTuple`` records here measured 1% more time per node."""

Undo = tuple[SolverMove, int, bool, int, int, list[Auto], int]
"""How :meth:`SearchState.undo` takes a move back: ``(move, info, flipped, old_p, old_r, autos, old_hash)``.

``info`` is the run's length (``RUN``), the card moved (``PILE_HOME``, ``TALON_*``) or 0; ``flipped``
whether the move turned up a card; ``old_p``, ``old_r`` the talon position and pass before; ``autos``
the safe foundation moves that followed, in order; ``old_hash`` the hash before. A plain tuple: one
is built and unpacked for every move made, and a ``NamedTuple`` here measured 4% more time per node
(building one takes 240 ns instead of 40, unpacking 75 ns instead of 30; a node takes about 14 us)."""


class SearchState:
    """A Klondike position under the rules of one variant, with its hash; moves are made and taken back in place."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        cards = [encode(card) for card in deck]
        self.piles: list[list[int]] = []
        """The seven piles, bottom card first."""
        self.hidden: list[int] = []
        """Face-down cards at the bottom of each pile."""
        self.loc = bytearray(56)
        """What each card lies on: another card (4..55) or one of the places in ``tables``."""
        self.pile_of = bytearray(56)
        """The pile of each tableau card (stale for cards elsewhere)."""
        position = 0
        for size in range(1, 8):
            pile = cards[position : position + size]
            position += size
            self.piles.append(pile)
            self.hidden.append(size - 1)
            for card in pile:
                self.pile_of[card] = size - 1
                self.loc[card] = FACE_DOWN
            self.loc[pile[-1]] = pile[-2] if size > 1 else ON_EMPTY
        self.talon = cards[position:]
        """Stock and waste as one list in draw order."""
        for card in self.talon:
            self.loc[card] = IN_TALON
        self.p = 0
        """Talon cards turned: the waste is ``talon[:p]``, its top ``talon[p - 1]``."""
        self.r = 0
        """The pass through the stock, from 0."""
        self.found = [0, 0, 0, 0]
        """Cards home per suit (``C D S H``): the rank of each foundation's top, 0 if empty."""
        self.counts = rules.draw_counts
        self.max_passes = rules.max_passes
        self.home_to_pile = rules.foundation_to_tableau
        self.full_tableau_to_deal = rules.deal_needs_full_tableau
        self.talon_free = rules.max_passes is None and rules.draw_counts == (1,)
        """Draw 1 without a pass limit: every talon card is always reachable."""
        self.hash = ZOBRIST[P_SLOT << 6] ^ ZOBRIST[R_SLOT << 6]
        for card in range(4, 56):
            self.hash ^= ZOBRIST[card << 6 | self.loc[card]]
        self.opening = self._auto(range(7))
        """Safe foundation moves available in the deal itself, made before the search."""

    def p_class(self, p: int, talon_len: int) -> int:
        """The hashed talon position: with unlimited passes, positions drawing can cycle through are one."""
        if self.max_passes is None and (p % self.counts[0] == 0 or p == talon_len):
            return 0
        return p

    def solved(self) -> bool:
        """Whether the engine would play the rest out itself (see ``KlondikeGame.is_solved``)."""
        if any(self.hidden) or len(self.talon) > 1:
            return False
        return self.p == len(self.talon) or not self.deal_blocked()

    def deal_blocked(self) -> bool:
        """Gold Rush: whether an empty pile forbids drawing from the stock."""
        return self.full_tableau_to_deal and not all(self.piles)

    # -- hashing, making and taking back moves ---------------------------------
    def child_hash(self, move: SolverMove) -> int:
        """The hash after ``move``, before any safe foundation move it allows."""
        kind = move[0]
        loc, h = self.loc, self.hash
        if kind == RUN:
            _, i, card, j = move
            target = self.piles[j]
            old = loc[card]
            h ^= ZOBRIST[card << 6 | old] ^ ZOBRIST[card << 6 | (target[-1] if target else ON_EMPTY)]
            if old >= 4 and loc[old] == FACE_DOWN:
                down = self.hidden[i]
                h ^= ZOBRIST[old << 6 | FACE_DOWN] ^ ZOBRIST[old << 6 | (self.piles[i][down - 2] if down > 1 else 0)]
            return h
        if kind == PILE_HOME:
            pile = self.piles[move[1]]
            card = pile[-1]
            old = loc[card]
            h ^= ZOBRIST[card << 6 | old] ^ ZOBRIST[card << 6 | ON_FOUNDATION]
            if old >= 4 and loc[old] == FACE_DOWN:
                down = len(pile) - 1
                h ^= ZOBRIST[old << 6 | FACE_DOWN] ^ ZOBRIST[old << 6 | (pile[down - 2] if down > 1 else 0)]
            return h
        if kind == HOME_PILE:
            _, suit, j = move
            card = self.found[suit] * 4 + suit
            target = self.piles[j]
            return h ^ ZOBRIST[card << 6 | ON_FOUNDATION] ^ ZOBRIST[card << 6 | (target[-1] if target else ON_EMPTY)]
        card = self.talon[move[1]]
        if kind == TALON_HOME:
            place = ON_FOUNDATION
        else:
            target = self.piles[move[4]]
            place = target[-1] if target else ON_EMPTY
        h ^= ZOBRIST[card << 6 | IN_TALON] ^ ZOBRIST[card << 6 | place]
        if self.talon_free:
            return h  # the position is always hashed as 0 and there is one pass
        talon_len = len(self.talon)
        h ^= ZOBRIST[P_SLOT << 6 | self.p_class(self.p, talon_len)]
        h ^= ZOBRIST[P_SLOT << 6 | self.p_class(move[1], talon_len - 1)]
        return h ^ ZOBRIST[R_SLOT << 6 | self.r] ^ ZOBRIST[R_SLOT << 6 | move[2]]

    def do(self, move: SolverMove, new_hash: int) -> Undo:
        """Make ``move`` and the safe foundation moves after it; return how to take them back.

        ``new_hash`` is :meth:`child_hash` of ``move`` here: the search has always computed it already.
        """
        kind = move[0]
        loc = self.loc
        old_hash, old_p, old_r = self.hash, self.p, self.r
        self.hash = new_hash
        info = 0
        flipped = False
        check: Sequence[int]
        if kind == RUN:
            _, i, card, j = move
            source, target = self.piles[i], self.piles[j]
            s = source.index(card)
            info = len(source) - s
            loc[card] = target[-1] if target else ON_EMPTY
            run = source[s:]
            pile_of = self.pile_of
            for moved in run:
                pile_of[moved] = j
            target.extend(run)
            del source[s:]
            flipped = self._turn_up(i)
            check = (i,)
        elif kind == PILE_HOME:
            i = move[1]
            info = self.piles[i].pop()
            loc[info] = ON_FOUNDATION
            self.found[info & 3] += 1
            flipped = self._turn_up(i)
            check = range(7)
        elif kind == HOME_PILE:
            _, suit, j = move
            card = self.found[suit] * 4 + suit
            self.found[suit] -= 1
            target = self.piles[j]
            loc[card] = target[-1] if target else ON_EMPTY
            target.append(card)
            self.pile_of[card] = j
            check = (j,)
        else:
            info = self.talon.pop(move[1])
            self.p = move[1]
            self.r = move[2]
            if kind == TALON_HOME:
                loc[info] = ON_FOUNDATION
                self.found[info & 3] += 1
                check = range(7)
            else:
                target = self.piles[move[4]]
                loc[info] = target[-1] if target else ON_EMPTY
                target.append(info)
                self.pile_of[info] = move[4]
                check = (move[4],) if self.talon or not self.full_tableau_to_deal else range(7)
        return (move, info, flipped, old_p, old_r, self._auto(check), old_hash)

    def _turn_up(self, i: int) -> bool:
        """Turn up the top card of pile ``i`` if it lies face down; return whether it did."""
        pile = self.piles[i]
        if pile and self.hidden[i] == len(pile):
            self.hidden[i] -= 1
            self.loc[pile[-1]] = pile[-2] if len(pile) > 1 else ON_EMPTY
            return True
        return False

    def _auto(self, check: Sequence[int]) -> list[Auto]:
        """Play provably safe cards to the foundations, starting with the tops of piles ``check``.

        A card is safe when both other-colour cards of the rank below are home (and, when
        cards may come back down, the other same-colour card two ranks below): nothing can
        need it in the tableau. Gold Rush never empties a pile this way while the talon
        holds cards, since an empty pile stops the deal. With draw 1 and unlimited passes,
        safe talon cards go home too (taking one changes no other card's reach).
        """
        played: list[Auto] = []
        piles, found, loc, hidden = self.piles, self.found, self.loc, self.hidden
        strict = self.home_to_pile
        keep_piles = self.full_tableau_to_deal and bool(self.talon)
        while check:
            moved = False
            for i in check:
                pile = piles[i]
                if not pile or (keep_piles and len(pile) == 1):
                    continue
                card = pile[-1]
                if found[card & 3] != (card >> 2) - 1 or not self._safe_home(card, strict):
                    continue
                pile.pop()
                below = loc[card]
                loc[card] = ON_FOUNDATION
                found[card & 3] += 1
                h = self.hash ^ ZOBRIST[card << 6 | below] ^ ZOBRIST[card << 6 | ON_FOUNDATION]
                flipped = bool(pile) and hidden[i] == len(pile)
                if flipped:
                    top = pile[-1]
                    hidden[i] -= 1
                    loc[top] = pile[-2] if len(pile) > 1 else ON_EMPTY
                    h ^= ZOBRIST[top << 6 | FACE_DOWN] ^ ZOBRIST[top << 6 | loc[top]]
                self.hash = h
                played.append((AUTO_FROM_PILE, i, card, flipped))
                moved = True
            if self.talon_free:
                for suit in range(4):
                    card = (found[suit] + 1) * 4 + suit
                    if found[suit] < KING and loc[card] == IN_TALON and self._safe_home(card, strict):
                        played.append(self._talon_home(card))
                        moved = True
            check = range(7) if moved else ()
        return played

    def _safe_home(self, card: int, strict: bool) -> bool:
        """Whether ``card`` fits its foundation and nothing could ever need it in the tableau."""
        rank, suit = card >> 2, card & 3
        found = self.found
        if found[suit] != rank - 1:
            return False
        return rank <= 2 or (
            found[suit ^ 1] >= rank - 1 and found[suit ^ 3] >= rank - 1 and (not strict or found[suit ^ 2] >= rank - 2)
        )

    def _talon_home(self, card: int) -> Auto:
        """Draw 1: move talon ``card`` home, drawing (and turning the waste over) as needed."""
        index = self.talon.index(card)
        p, talon_len = self.p, len(self.talon)
        position = index + 1
        draws = position - p if position >= p else talon_len - p + 1 + position
        del self.talon[index]
        self.loc[card] = ON_FOUNDATION
        self.found[card & 3] += 1
        self.hash ^= ZOBRIST[card << 6 | IN_TALON] ^ ZOBRIST[card << 6 | ON_FOUNDATION]
        self.p = index
        return (AUTO_FROM_TALON, card, draws, index, p)

    def undo(self, token: Undo) -> None:
        """Take back a move made by :meth:`do`, safe foundation moves included."""
        move, info, flipped, old_p, old_r, autos, old_hash = token
        loc = self.loc
        for auto in reversed(autos):
            if auto[0] == AUTO_FROM_PILE:
                _, i, card, turned = auto
                self._unhome(i, card, bool(turned))
            else:
                _, card, _, index, p = auto
                self.found[card & 3] -= 1
                loc[card] = IN_TALON
                self.talon.insert(index, card)
                self.p = p
        kind = move[0]
        if kind == RUN:
            i, j = move[1], move[3]
            source, target = self.piles[i], self.piles[j]
            if flipped:
                self._turn_down(i)
            run = target[-info:]
            del target[-info:]
            loc[run[0]] = source[-1] if source else ON_EMPTY
            pile_of = self.pile_of
            for moved in run:
                pile_of[moved] = i
            source.extend(run)
        elif kind == PILE_HOME:
            self._unhome(move[1], info, flipped)
        elif kind == HOME_PILE:
            _, suit, j = move
            card = self.piles[j].pop()
            self.found[suit] += 1
            loc[card] = ON_FOUNDATION
        else:
            if kind == TALON_HOME:
                self.found[info & 3] -= 1
            else:
                self.piles[move[4]].pop()
            loc[info] = IN_TALON
            self.talon.insert(move[1], info)
            self.p, self.r = old_p, old_r
        self.hash = old_hash

    def _unhome(self, i: int, card: int, flipped: bool) -> None:
        if flipped:
            self._turn_down(i)
        pile = self.piles[i]
        self.loc[card] = pile[-1] if pile else ON_EMPTY
        self.found[card & 3] -= 1
        pile.append(card)
        self.pile_of[card] = i

    def _turn_down(self, i: int) -> None:
        self.hidden[i] += 1
        self.loc[self.piles[i][-1]] = FACE_DOWN
