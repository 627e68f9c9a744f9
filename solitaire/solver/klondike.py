"""A depth-first Klondike solver (draw 1, draw 3, Gold Rush) over a compact integer model.

Cards are ints ``rank * 4 + suit`` with suits ordered ``C D S H`` so that ``card & 1``
is the colour (1 = red). The stock and waste form one "talon" list in draw order with
``p`` cards turned (the waste); every stock card reachable by drawing is one move (the
K+ representation), translated back into ``draw`` commands for the engine.

The transposition table is keyed on what every card lies on (another card, an empty
pile, "face down", "foundation" or "talon"), plus the talon position and pass: the key
is exact and does not depend on the order of the piles.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from solitaire.cards import Card
from solitaire.variants import Rules

SUIT_CODES = {"C": 0, "D": 1, "S": 2, "H": 3}
FOUNDATION_NAMES = ("fc", "fd", "fs", "fh")
KING = 13

# What a card lies on, besides another card (4..55): these fill loc[card].
ON_EMPTY, FACE_DOWN, ON_FOUNDATION, IN_TALON = 0, 1, 2, 3
# loc[P_SLOT] and loc[R_SLOT] hold the talon position and the pass (no card uses 0..3).
P_SLOT, R_SLOT = 0, 1

# Move kinds (the first item of a move tuple).
RUN, PILE_HOME, TALON_PILE, TALON_HOME, HOME_PILE = 0, 1, 2, 3, 4

Move = tuple[int, ...]
Undo = tuple[Move, int, bool, int, int, list[tuple[int, int, bool]]]


def encode(card: Card) -> int:
    """Return the solver's int for ``card``."""
    return card.rank * 4 + SUIT_CODES[card.suit]


def _parents(card: int) -> tuple[int, ...]:
    """The cards ``card`` may be built on in the tableau (next rank up, other colour)."""
    rank = card >> 2
    if rank >= KING:
        return ()
    return tuple((rank + 1) * 4 + suit for suit in range(4) if (suit ^ card) & 1)


PARENTS: tuple[tuple[int, ...], ...] = tuple(_parents(card) for card in range(56))


class KlondikeSearch:
    """One solve of one Klondike deal; create, call :meth:`run`, read the results."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        cards = [encode(card) for card in deck]
        self.piles: list[list[int]] = []
        self.hidden: list[int] = []
        self.loc = bytearray(56)
        position = 0
        for size in range(1, 8):
            pile = cards[position : position + size]
            position += size
            self.piles.append(pile)
            self.hidden.append(size - 1)
            for card in pile[:-1]:
                self.loc[card] = FACE_DOWN
            self.loc[pile[-1]] = pile[-2] if size > 1 else ON_EMPTY
        self.talon = cards[position:]
        for card in self.talon:
            self.loc[card] = IN_TALON
        self.p = 0
        self.r = 0
        self.found = [0, 0, 0, 0]
        self.counts = rules.draw_counts
        self.max_passes = rules.max_passes
        self.home_to_pile = rules.foundation_to_tableau
        self.full_tableau_to_deal = rules.deal_needs_full_tableau
        self.draw_one = rules.max_passes is None and rules.draw_counts == (1,)
        """Every talon card is always reachable: the talon position does not matter."""
        self.nodes = 0
        self.solution: list[str] | None = None
        self.exhausted = False

    # -- the search ----------------------------------------------------------
    def run(self, max_nodes: int | None, deadline: float | None) -> None:
        """Search depth first until a solution, exhaustion or the budget."""
        seen = {bytes(self.loc)}
        path: list[Undo] = []
        frames = [iter(self.moves())]
        limit = max_nodes if max_nodes is not None else -1
        do, undo, moves, loc, add = self.do, self.undo, self.moves, self.loc, seen.add
        while frames:
            move = next(frames[-1], None)
            if move is None:
                frames.pop()
                if path:
                    undo(path.pop())
                continue
            token = do(move)
            key = bytes(loc)
            if key in seen:
                undo(token)
                continue
            add(key)
            self.nodes += 1
            path.append(token)
            if self.solved():
                self.solution = self.notation(path)
                return
            if self.nodes == limit:
                return
            if deadline is not None and not self.nodes & 255 and time.perf_counter() >= deadline:
                return
            frames.append(iter(moves()))
        self.exhausted = True

    def solved(self) -> bool:
        """Whether the engine would play the rest out itself (see ``KlondikeGame.is_solved``)."""
        if any(self.hidden) or len(self.talon) > 1:
            return False
        return self.p == len(self.talon) or not self.deal_blocked()

    def deal_blocked(self) -> bool:
        """Gold Rush: whether an empty pile forbids drawing from the stock."""
        return self.full_tableau_to_deal and not all(self.piles)

    # -- move generation -----------------------------------------------------
    def reach(self) -> list[tuple[int, int, int]]:
        """Talon cards drawing can bring to the waste top: ``(index, pass, draws)``."""
        talon_len, p = len(self.talon), self.p
        out = [(p - 1, self.r, 0)] if p else []
        if not talon_len:
            return out
        if self.max_passes is None:
            return out + self._reach_unlimited(talon_len, p)
        if self.deal_blocked():
            return out
        draws, q, pass_index = 0, p, self.r
        while True:
            count = self.counts[min(pass_index, len(self.counts) - 1)]
            while q < talon_len:
                q = min(q + count, talon_len)
                draws += 1
                out.append((q - 1, pass_index, draws))
            if pass_index + 1 >= self.max_passes:
                return out
            draws, q, pass_index = draws + 1, 0, pass_index + 1

    def _reach_unlimited(self, talon_len: int, p: int) -> list[tuple[int, int, int]]:
        count = self.counts[0]
        out: list[tuple[int, int, int]] = []
        draws, q = 0, p
        while q < talon_len:
            q = min(q + count, talon_len)
            draws += 1
            out.append((q - 1, 0, draws))
        draws += 1  # the draw that turns the waste over
        q = 0
        while q < talon_len:
            q = min(q + count, talon_len)
            draws += 1
            if q == talon_len or (q >= p and (q - p) % count == 0):
                break
            out.append((q - 1, 0, draws))
        return out

    def moves(self) -> list[Move]:
        """Every move worth trying here, best first."""
        piles, hidden, found, talon = self.piles, self.hidden, self.found, self.talon
        tops: dict[int, int] = {}
        empty = -1
        for j in range(7):
            if piles[j]:
                tops[piles[j][-1]] = j
            elif empty < 0:
                empty = j
        scored: list[tuple[int, Move]] = []
        append = scored.append
        for i in range(7):
            pile = piles[i]
            size = len(pile)
            if not size:
                continue
            down = hidden[i]
            top = pile[-1]
            if found[top & 3] == (top >> 2) - 1:
                if size - 1 == down and down:
                    append((90 + down, (PILE_HOME, i)))
                elif size == 1:
                    append((35, (PILE_HOME, i)))
                else:
                    append((60, (PILE_HOME, i)))
            for s in range(down, size):
                card = pile[s]
                for parent in PARENTS[card]:
                    dest = tops.get(parent)
                    if dest is None:
                        continue
                    if s == down:
                        append(((80 + down) if down else 20, (RUN, i, s, dest)))
                    else:
                        below = pile[s - 1]
                        exposes = found[below & 3] == (below >> 2) - 1
                        append((55 if exposes else 10, (RUN, i, s, dest)))
                if s == down and down and empty >= 0 and card >> 2 == KING:
                    append((75 + down, (RUN, i, s, empty)))
        for index, pass_index, draws in self.reach():
            card = talon[index]
            if found[card & 3] == (card >> 2) - 1:
                append((70, (TALON_HOME, index, pass_index, draws)))
            for parent in PARENTS[card]:
                dest = tops.get(parent)
                if dest is not None:
                    append((40, (TALON_PILE, index, pass_index, draws, dest)))
            if empty >= 0 and card >> 2 == KING:
                append((45, (TALON_PILE, index, pass_index, draws, empty)))
        if self.home_to_pile:
            for suit in range(4):
                rank = found[suit]
                if not rank:
                    continue
                card = rank * 4 + suit
                for parent in PARENTS[card]:
                    dest = tops.get(parent)
                    if dest is not None:
                        append((0, (HOME_PILE, suit, dest)))
                if empty >= 0 and rank == KING:
                    append((0, (HOME_PILE, suit, empty)))
        scored.sort(key=_priority, reverse=True)
        return [move for _, move in scored]

    # -- making and taking back moves -----------------------------------------
    def do(self, move: Move) -> Undo:
        """Make ``move`` and the safe foundation moves after it; return how to take them back."""
        kind = move[0]
        loc = self.loc
        info = 0
        flipped = False
        old_p, old_r = self.p, self.r
        if kind == RUN:
            _, i, s, j = move
            source, target = self.piles[i], self.piles[j]
            info = len(source) - s
            loc[source[s]] = target[-1] if target else ON_EMPTY
            target.extend(source[s:])
            del source[s:]
            flipped = self._turn_up(i)
        elif kind == PILE_HOME:
            i = move[1]
            info = self.piles[i].pop()
            loc[info] = ON_FOUNDATION
            self.found[info & 3] += 1
            flipped = self._turn_up(i)
        elif kind == HOME_PILE:
            _, suit, j = move
            card = self.found[suit] * 4 + suit
            self.found[suit] -= 1
            target = self.piles[j]
            loc[card] = target[-1] if target else ON_EMPTY
            target.append(card)
        else:
            info = self.talon.pop(move[1])
            self.p = move[1]
            self.r = move[2]
            if not self.draw_one:
                loc[P_SLOT] = self.p
                loc[R_SLOT] = self.r
            if kind == TALON_HOME:
                loc[info] = ON_FOUNDATION
                self.found[info & 3] += 1
            else:
                target = self.piles[move[4]]
                loc[info] = target[-1] if target else ON_EMPTY
                target.append(info)
        return (move, info, flipped, old_p, old_r, self._auto())

    def _turn_up(self, i: int) -> bool:
        """Turn up the top card of pile ``i`` if it lies face down; return whether it did."""
        pile = self.piles[i]
        if pile and self.hidden[i] == len(pile):
            self.hidden[i] -= 1
            self.loc[pile[-1]] = pile[-2] if len(pile) > 1 else ON_EMPTY
            return True
        return False

    def _auto(self) -> list[tuple[int, int, bool]]:
        """Play every provably safe tableau card to the foundations; return ``(pile, card, flipped)``."""
        played: list[tuple[int, int, bool]] = []
        piles, found, loc = self.piles, self.found, self.loc
        strict = self.home_to_pile
        keep_piles = self.full_tableau_to_deal and bool(self.talon)
        progress = True
        while progress:
            progress = False
            for i in range(7):
                pile = piles[i]
                if not pile or (keep_piles and len(pile) == 1):
                    continue
                card = pile[-1]
                rank, suit = card >> 2, card & 3
                if found[suit] != rank - 1:
                    continue
                # both other-colour cards of rank - 1 are home (and, when cards may come back
                # down, the other same-colour card of rank - 2): nothing can need this card
                if rank > 2 and (
                    found[suit ^ 1] < rank - 1 or found[suit ^ 3] < rank - 1 or (strict and found[suit ^ 2] < rank - 2)
                ):
                    continue
                pile.pop()
                loc[card] = ON_FOUNDATION
                found[suit] = rank
                played.append((i, card, self._turn_up(i)))
                progress = True
        return played

    def undo(self, token: Undo) -> None:
        """Take back a move made by :meth:`do`, safe foundation moves included."""
        move, info, flipped, old_p, old_r, autos = token
        loc = self.loc
        for i, card, auto_flipped in reversed(autos):
            self._unhome(i, card, auto_flipped)
        kind = move[0]
        if kind == RUN:
            i, j = move[1], move[3]
            source, target = self.piles[i], self.piles[j]
            if flipped:
                self._turn_down(i)
            run = target[-info:]
            del target[-info:]
            loc[run[0]] = source[-1] if source else ON_EMPTY
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
            if not self.draw_one:
                loc[P_SLOT] = old_p
                loc[R_SLOT] = old_r

    def _unhome(self, i: int, card: int, flipped: bool) -> None:
        if flipped:
            self._turn_down(i)
        pile = self.piles[i]
        self.loc[card] = pile[-1] if pile else ON_EMPTY
        self.found[card & 3] -= 1
        pile.append(card)

    def _turn_down(self, i: int) -> None:
        self.hidden[i] += 1
        self.loc[self.piles[i][-1]] = FACE_DOWN

    # -- the answer in notation -----------------------------------------------
    def notation(self, path: list[Undo]) -> list[str]:
        """Write the moves of ``path`` in the engine's notation."""
        out: list[str] = []
        for move, _, _, _, _, autos in path:
            kind = move[0]
            if kind == RUN:
                out.append(f"{move[1] + 1}-{move[3] + 1}")
            elif kind == PILE_HOME:
                out.append(f"{move[1] + 1}-f")
            elif kind == HOME_PILE:
                out.append(f"{FOUNDATION_NAMES[move[1]]}-{move[2] + 1}")
            else:
                out.extend(["draw"] * move[3])
                out.append("w-f" if kind == TALON_HOME else f"w-{move[4] + 1}")
            out.extend(f"{i + 1}-f" for i, _, _ in autos)
        return out


def _priority(item: tuple[int, Move]) -> int:
    return item[0]
