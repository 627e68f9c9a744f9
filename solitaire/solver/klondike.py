"""A depth-first Klondike solver (draw 1, draw 3, Gold Rush) over a compact integer model.

Cards are ints ``rank * 4 + suit`` with suits ordered ``C D S H`` so that ``card & 1``
is the colour (1 = red) and ``card ^ 2`` is the other card of the same rank and colour.
The stock and waste form one "talon" list in draw order with ``p`` cards turned (the
waste); every talon card that drawing can bring to the top is one move (the K+
representation), written back as ``draw`` commands for the engine.

A position is described by what each card lies on (another card, an empty pile, "face
down", "foundation" or "talon"), the talon position and the pass. That description does
not depend on the order of the piles; the transposition table holds a 128-bit Zobrist
hash of it, kept up to date move by move.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from operator import itemgetter

from solitaire.cards import Card
from solitaire.shuffle import SplitMix64
from solitaire.variants import Rules

SUIT_CODES = {"C": 0, "D": 1, "S": 2, "H": 3}
FOUNDATION_NAMES = ("fc", "fd", "fs", "fh")
KING = 13

# What a card lies on, besides another card (4..55).
ON_EMPTY, FACE_DOWN, ON_FOUNDATION, IN_TALON = 0, 1, 2, 3
# Hash slots for the talon position and the pass (no card uses 0 or 1).
P_SLOT, R_SLOT = 0, 1

# Move kinds, the first item of a move tuple:
RUN = 0  # (RUN, source pile, card heading the run, target pile)
PILE_HOME = 1  # (PILE_HOME, pile)
TALON_PILE = 2  # (TALON_PILE, talon index, pass, draws, target pile)
TALON_HOME = 3  # (TALON_HOME, talon index, pass, draws)
HOME_PILE = 4  # (HOME_PILE, suit, target pile)

Move = tuple[int, ...]
Auto = tuple[int, int, int, int]
"""A safe foundation move made automatically: ``(pile, card, 1 if it turned a card up, 0)`` from
the tableau, ``(-1 - draws, card, talon index, talon position before)`` from the talon."""
Undo = tuple[Move, int, bool, int, int, list[Auto], int]

# Search tuning (measured with benchmarks/bench_solver.py).
FIRST_ROUND = 300
"""Nodes in the first round; each later round gets GROWTH times more, with its own move order."""
GROWTH = 1.1
JITTER = 120
"""Later rounds add a pseudo-random 0..JITTER-1 to each move's priority."""
ENABLING = 76
"""Priority of a talon-to-tableau move that lets a card lying on a face-down card move."""
PASS_COST = 100
"""Ordering cost of each stock pass a move uses up (Gold Rush)."""
ROLLOUT_SHARE = 3.0
"""Draw 1: after each restart round, greedy rollouts get this many times that round's nodes."""
ROLLOUT_DEPTH = 250
"""Moves in one greedy rollout at most."""
ROLLOUT_NOISE = 200
"""Rollouts add a pseudo-random 0..ROLLOUT_NOISE-1 to each child's score (32 per score point)."""


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
CHILDREN: tuple[tuple[int, ...], ...] = tuple(
    tuple(child for child in range(4, 56) if card in PARENTS[child]) for card in range(56)
)
KINGS = tuple(KING * 4 + suit for suit in range(4))


def _tables() -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Zobrist keys (128-bit, index ``card << 6 | place``) and the rounds' jitter tables."""
    rng = SplitMix64(0x5EED_C0DE)
    keys = tuple(rng.next_u64() << 64 | rng.next_u64() for _ in range(56 << 6))
    jitters = tuple(tuple(rng.below(JITTER) for _ in range(1024)) for _ in range(16))
    return keys, jitters


ZOBRIST, JITTERS = _tables()
_first = itemgetter(0)


def buried_deadlock(piles: Sequence[Sequence[int]]) -> bool:
    """Whether some dealt cards can never leave their places, so the deal is unwinnable.

    Start from every card other than a king that covers a face-down card, and drop each
    one unless both cards it could be built on and a lower card of its own suit lie under
    a card still in the set, in any pile. If a set survives, none of it can ever move: each
    card leaves only as the head of a run, and the first to leave would need a parent on
    top of a pile (both covered), its foundation (a lower card of its suit is covered) or
    an empty pile (not a king). The covered lower cards then never get home. Sound wherever
    every card under a pile's top lies face down, as in the deal.
    """
    stuck = {
        (i, height) for i, pile in enumerate(piles) for height, card in enumerate(pile) if height and card >> 2 != KING
    }
    while stuck:
        depth = [0] * len(piles)
        for i, height in stuck:
            depth[i] = max(depth[i], height)
        covered = {card for i, pile in enumerate(piles) for card in pile[: depth[i]]}
        kept = {(i, height) for i, height in stuck if _cannot_leave(piles[i][height], covered)}
        if kept == stuck:
            return True
        stuck = kept
    return False


def _cannot_leave(card: int, covered: set[int]) -> bool:
    """Whether ``card`` has both parents and a lower card of its suit among ``covered``."""
    return all(parent in covered for parent in PARENTS[card]) and any(
        lower in covered for lower in range(4 + (card & 3), card, 4)
    )


class KlondikeSearch:
    """One solve of one Klondike deal; create, call :meth:`run`, read the results."""

    from_deal = True
    """Whether the search starts from a deal (the buried-deadlock test is sound only there)."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        cards = [encode(card) for card in deck]
        self.piles: list[list[int]] = []
        self.hidden: list[int] = []
        self.loc = bytearray(56)
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
        for card in self.talon:
            self.loc[card] = IN_TALON
        self.p = 0
        self.r = 0
        self.found = [0, 0, 0, 0]
        self.counts = rules.draw_counts
        self.max_passes = rules.max_passes
        self.home_to_pile = rules.foundation_to_tableau
        self.full_tableau_to_deal = rules.deal_needs_full_tableau
        self.talon_free = rules.max_passes is None and rules.draw_counts == (1,)
        """Draw 1 without a pass limit: every talon card is always reachable."""
        self.hash = ZOBRIST[P_SLOT << 6] ^ ZOBRIST[R_SLOT << 6]
        for card in range(4, 56):
            self.hash ^= ZOBRIST[card << 6 | self.loc[card]]
        self.reach_memo: dict[tuple[int, int, int, bool], dict[int, tuple[tuple[int, int, int], ...]]] = {}
        self.nodes = 0
        self.solution: list[str] | None = None
        self.exhausted = False
        self.prune = True
        """Skip moves that are very unlikely to help (an exhausted search then proves nothing)."""
        self.pruned = False
        """Whether a move was skipped by :attr:`prune` in this search."""
        self.jitter: tuple[int, ...] = ()
        self.dead: set[int] = set()
        """Positions proven unable to win under the current pruning (kept across rounds)."""
        self.opening = self._auto(range(7))
        """Safe foundation moves available in the deal itself, made before the search."""

    # -- the search ----------------------------------------------------------
    def run(self, max_nodes: int | None, deadline: float | None) -> None:
        """Search in rounds of growing size, each with its own move order, until an answer or the budget.

        A round that exhausts its tree without pruning proves the deal unwinnable; one that
        exhausts a pruned tree switches the later rounds to complete searches.
        """
        if self.solved():
            self.solution = self.notation([])
            return
        if self.from_deal and buried_deadlock(self.piles):
            self.exhausted = True  # provably unwinnable: no search needed
            return
        cap = FIRST_ROUND
        restart = 0
        rng = SplitMix64(0x0B1A_5EED)
        while True:
            limit = self.nodes + cap
            if max_nodes is not None:
                limit = min(limit, max_nodes)
            self.jitter = JITTERS[restart % len(JITTERS)] if restart else ()
            self._search(limit, deadline)
            if self.solution is not None:
                return
            if self.exhausted:
                if not self.pruned or not self.prune:
                    return
                self.exhausted = False
                self.prune = False
                self.dead.clear()
            if self.nodes == max_nodes or (deadline is not None and time.perf_counter() >= deadline):
                return
            if restart and self.talon_free:  # measured: helps draw 1, not draw 3
                limit = self.nodes + int(cap * ROLLOUT_SHARE)
                if max_nodes is not None:
                    limit = min(limit, max_nodes)
                self._rollouts(limit, deadline, rng)
                if self.solution is not None:
                    return
                if self.nodes == max_nodes or (deadline is not None and time.perf_counter() >= deadline):
                    return
            cap = int(cap * GROWTH)
            restart += 1

    def _search(self, limit: int, deadline: float | None) -> None:
        """Search depth first until a solution, exhaustion, ``limit`` nodes in all, or ``deadline``.

        Positions are numbered as entered and kept on a stack as in Tarjan's algorithm: when
        a strongly connected component closes, none of its positions can reach a win, whatever
        order later rounds use, so they join :attr:`dead` for good. Positions that only failed
        because a move led back to a position still being searched stay unproven.
        """
        if self.nodes >= limit:
            return
        dead = self.dead
        number = {self.hash: 0}
        """Positions entered in this round and not proven dead, with their entry numbers."""
        stack = [self.hash]
        entered = 1
        path: list[Undo] = []
        frames = [iter(self.moves())]
        ids, lows, hashes = [0], [0], [self.hash]
        do, undo, moves, child_hash = self.do, self.undo, self.moves, self.child_hash
        check_dominance = not self.talon_free
        while frames:
            move = next(frames[-1], None)
            if move is None:
                frames.pop()
                low, own, h = lows.pop(), ids.pop(), hashes.pop()
                if low == own:  # the root of a closed component
                    while True:
                        member = stack.pop()
                        del number[member]
                        dead.add(member)
                        if member == h:
                            break
                elif low < lows[-1]:
                    lows[-1] = low
                if path:
                    undo(path.pop())
                continue
            h = child_hash(move)
            if check_dominance and TALON_PILE <= move[0] <= TALON_HOME:
                h = self.dominator(move, h, number, dead)
            if h in dead:
                continue
            known = number.get(h)
            if known is not None:
                if known < lows[-1]:
                    lows[-1] = known
                continue
            token = do(move)
            h = self.hash
            if h in dead:
                undo(token)
                continue
            known = number.get(h)
            if known is not None:
                if known < lows[-1]:
                    lows[-1] = known
                undo(token)
                continue
            number[h] = entered
            stack.append(h)
            ids.append(entered)
            lows.append(entered)
            hashes.append(h)
            entered += 1
            self.nodes += 1
            path.append(token)
            if self.solved():
                self.solution = self.notation(path)
                break
            if self.nodes >= limit:
                break
            if deadline is not None and not self.nodes & 255 and time.perf_counter() >= deadline:
                break
            frames.append(iter(moves()))
        else:
            self.exhausted = True
        while path:
            undo(path.pop())

    def _rollouts(self, limit: int, deadline: float | None, rng: SplitMix64) -> None:
        """Play greedy rollouts (best-scored child, with noise) until a solution, ``limit`` nodes or ``deadline``.

        Every child tried counts as a node. A rollout never revisits a position of its own
        line and skips positions proven dead; it proves nothing when it fails.
        """
        dead = self.dead
        do, undo, moves, child_hash, score = self.do, self.undo, self.moves, self.child_hash, self.score
        jitter, self.jitter = self.jitter, ()
        while self.nodes < limit:
            path: list[Undo] = []
            seen = {self.hash}
            while len(path) < ROLLOUT_DEPTH and self.nodes < limit:
                best: Move | None = None
                best_value = -1 << 30
                for rank, move in enumerate(moves()):
                    if self.nodes >= limit:
                        best = None
                        break
                    if child_hash(move) in seen:
                        continue
                    token = do(move)
                    self.nodes += 1
                    h = self.hash
                    if h in dead or h in seen:
                        undo(token)
                        continue
                    if self.solved():
                        path.append(token)
                        self.solution = self.notation(path)
                        break
                    value = score() * 32 - rank + rng.below(ROLLOUT_NOISE)
                    undo(token)
                    if value > best_value:
                        best, best_value = move, value
                if self.solution is not None or best is None:
                    break
                path.append(do(best))
                seen.add(self.hash)
            while path:
                undo(path.pop())
            if self.solution is not None or (deadline is not None and time.perf_counter() >= deadline):
                break
        self.jitter = jitter

    def score(self) -> int:
        """A rollout's value of the position: cards home, minus face-down cards, minus talon cards."""
        return 2 * sum(self.found) - 5 * sum(self.hidden) - len(self.talon)

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

    # -- move generation -----------------------------------------------------
    def reach(self, blocked: bool) -> dict[int, tuple[tuple[int, int, int], ...]]:
        """Talon cards drawing can bring to the waste top: talon index -> ``(pass, draws, cost)`` ways.

        ``blocked`` tells whether an empty pile stops the deal (Gold Rush).

        The cost orders moves: draws, and far more for each pass used up when passes are limited.
        """
        key = (self.p, len(self.talon), self.r, blocked)
        found = self.reach_memo.get(key)
        if found is None:
            ways: dict[int, list[tuple[int, int, int]]] = {}
            for index, pass_index, draws in self._reach(*key):
                cost = 0 if self.talon_free else min(draws, 12) + PASS_COST * (pass_index - self.r)
                ways.setdefault(index, []).append((pass_index, draws, cost))
            found = self.reach_memo[key] = {index: tuple(options) for index, options in ways.items()}
        return found

    def _reach(self, p: int, talon_len: int, pass_index: int, blocked: bool) -> list[tuple[int, int, int]]:
        out = [(p - 1, pass_index, 0)] if p else []
        if not talon_len or blocked:
            return out
        draws, q = 0, p
        if self.max_passes is None:
            count = self.counts[0]
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
                    break  # from here on the same cards as before the turn
                out.append((q - 1, 0, draws))
            return out
        while True:
            count = self.counts[min(pass_index, len(self.counts) - 1)]
            while q < talon_len:
                q = min(q + count, talon_len)
                draws += 1
                out.append((q - 1, pass_index, draws))
            if pass_index + 1 >= self.max_passes:
                return out
            draws, q, pass_index = draws + 1, 0, pass_index + 1

    def moves(self) -> list[Move]:
        """Every move worth trying here, best first."""
        piles, hidden, found, talon, loc, pile_of = (
            self.piles,
            self.hidden,
            self.found,
            self.talon,
            self.loc,
            self.pile_of,
        )
        prune = self.prune
        tops: dict[int, int] = {}
        empty = -1
        for j in range(7):
            if piles[j]:
                tops[piles[j][-1]] = j
            elif empty < 0:
                empty = j
        reach = self.reach(self.full_tableau_to_deal and empty >= 0)
        scored: list[tuple[int, Move]] = []
        append = scored.append
        for top, i in tops.items():
            if found[top & 3] == (top >> 2) - 1:
                down = hidden[i]
                if down and len(piles[i]) - 1 == down:
                    append((90 + down, (PILE_HOME, i)))
                else:
                    append((35 if len(piles[i]) == 1 else 60, (PILE_HOME, i)))
            for card in CHILDREN[top]:
                below = loc[card]
                if below >= 4:
                    source = pile_of[card]
                    if loc[below] == FACE_DOWN:
                        append((80 + hidden[source], (RUN, source, card, i)))
                    elif found[below & 3] == (below >> 2) - 1:
                        append((55, (RUN, source, card, i)))
                    elif (
                        not prune
                        or (twin := loc[card ^ 2]) in (IN_TALON, ON_FOUNDATION)
                        or (twin >= 4 and loc[twin] == FACE_DOWN)
                    ):
                        append((10, (RUN, source, card, i)))  # a split: the other such card could use the gap
                    else:
                        self.pruned = True
                elif below == IN_TALON:
                    index = talon.index(card)
                    ways = reach.get(index)
                    if ways:
                        base = ENABLING if self._child_reveals(card) else 40
                        for pass_index, draws, cost in ways:
                            append((base - cost, (TALON_PILE, index, pass_index, draws, i)))
                elif below == ON_EMPTY:
                    if not prune or self._king_waits():
                        append((20, (RUN, pile_of[card], card, i)))
                    else:
                        self.pruned = True
        if empty >= 0:
            for king in KINGS:
                below = loc[king]
                if below >= 4:  # a king always lies on a face-down card
                    source = pile_of[king]
                    append((75 + hidden[source], (RUN, source, king, empty)))
                elif below == IN_TALON:
                    index = talon.index(king)
                    for pass_index, draws, cost in reach.get(index, ()):
                        append((45 - cost, (TALON_PILE, index, pass_index, draws, empty)))
        for suit in range(4):
            rank = found[suit]
            if rank < KING and loc[(rank + 1) * 4 + suit] == IN_TALON:
                index = talon.index((rank + 1) * 4 + suit)
                for pass_index, draws, cost in reach.get(index, ()):
                    append((70 - cost, (TALON_HOME, index, pass_index, draws)))
            if rank and self.home_to_pile:
                card = rank * 4 + suit
                parents = PARENTS[card]
                if (parents and (parents[0] in tops or parents[1] in tops)) or (empty >= 0 and rank == KING):
                    self._home_to_pile_moves(card, tops, empty, scored)
        jitter = self.jitter
        if jitter:
            start = self.nodes
            scored = [(score + jitter[(start + n) & 1023], move) for n, (score, move) in enumerate(scored)]
        scored.sort(key=_first, reverse=True)
        return [move for _, move in scored]

    def _home_to_pile_moves(self, card: int, tops: dict[int, int], empty: int, scored: list[tuple[int, Move]]) -> None:
        """Add moves bringing foundation top ``card`` back down, if something could build on it."""
        targets = [tops[parent] for parent in PARENTS[card] if parent in tops]
        if empty >= 0 and card >> 2 == KING:
            targets.append(empty)
        if not targets:
            return
        if self.prune and not self._child_waits(card):
            self.pruned = True
            return
        scored.extend((0, (HOME_PILE, card & 3, target)) for target in targets)

    def _king_waits(self) -> bool:
        """Whether a king could still use an empty pile (from the talon, face down, or revealing).

        In Gold Rush an empty pile stops the deal, so only a king that can move in at once counts.
        """
        loc = self.loc
        if self.full_tableau_to_deal:
            top = self.talon[self.p - 1] if self.p else 0
            return any(loc[king] >= 4 or king == top for king in KINGS)
        for king in KINGS:
            where = loc[king]
            if where in (IN_TALON, FACE_DOWN) or (where >= 4 and loc[where] == FACE_DOWN):
                return True
        return False

    def _child_reveals(self, card: int) -> bool:
        """Whether a card that builds on ``card`` lies on a face-down card (moving it there reveals)."""
        loc = self.loc
        for child in CHILDREN[card]:
            where = loc[child]
            if where >= 4 and loc[where] == FACE_DOWN:
                return True
        return False

    def _child_waits(self, card: int) -> bool:
        """Whether a card that builds on ``card`` waits in the talon or on a face-down card."""
        loc = self.loc
        for child in CHILDREN[card]:
            where = loc[child]
            if where == IN_TALON or (where >= 4 and loc[where] == FACE_DOWN):
                return True
        return False

    # -- hashing, making and taking back moves ---------------------------------
    def child_hash(self, move: Move) -> int:
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

    def dominator(self, move: Move, h: int, number: dict[int, int], dead: set[int]) -> int:
        """Return the hash of a searched position that dominates the talon move's result, else ``h``.

        Drawing takes position ``p`` to ``p + k`` (same pass), so every move from the latter is
        a move from the former. Gold Rush only while no empty pile stops the deal.
        """
        p, pass_index = move[1], move[2]
        if self.max_passes is None:
            step = self.counts[0]
            if p % step == 0 or p == len(self.talon) - 1:
                return h  # hashed as the position drawing cycles through
            earlier = range(p - step, 0, -step)
        else:
            if self.deal_blocked():
                return h
            step = self.counts[min(pass_index, len(self.counts) - 1)]
            earlier = range(p - step, -1, -step)
        base = h ^ ZOBRIST[P_SLOT << 6 | p]
        for q in earlier:
            other = base ^ ZOBRIST[P_SLOT << 6 | q]
            if other in dead or other in number:
                return other
        return h

    def do(self, move: Move) -> Undo:
        """Make ``move`` and the safe foundation moves after it; return how to take them back."""
        kind = move[0]
        loc = self.loc
        old_hash, old_p, old_r = self.hash, self.p, self.r
        self.hash = self.child_hash(move)
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
                played.append((i, card, flipped, 0))
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
        return (-1 - draws, card, index, p)

    def undo(self, token: Undo) -> None:
        """Take back a move made by :meth:`do`, safe foundation moves included."""
        move, info, flipped, old_p, old_r, autos, old_hash = token
        loc = self.loc
        for i, card, extra, old in reversed(autos):
            if i >= 0:
                self._unhome(i, card, bool(extra))
            else:
                self.found[card & 3] -= 1
                loc[card] = IN_TALON
                self.talon.insert(extra, card)
                self.p = old
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

    # -- the answer in notation -----------------------------------------------
    def notation(self, path: list[Undo]) -> list[str]:
        """Write the opening safe moves and the moves of ``path`` in the engine's notation."""
        out: list[str] = []
        self._write_autos(self.opening, out)
        for move, _, _, _, _, autos, _ in path:
            kind = move[0]
            if kind == RUN:
                out.append(f"{move[1] + 1}-{move[3] + 1}")  # the engine finds the run itself
            elif kind == PILE_HOME:
                out.append(f"{move[1] + 1}-f")
            elif kind == HOME_PILE:
                out.append(f"{FOUNDATION_NAMES[move[1]]}-{move[2] + 1}")
            else:
                out.extend(["draw"] * move[3])
                out.append("w-f" if kind == TALON_HOME else f"w-{move[4] + 1}")
            self._write_autos(autos, out)
        return out

    @staticmethod
    def _write_autos(autos: list[Auto], out: list[str]) -> None:
        for i, _, _, _ in autos:
            if i >= 0:
                out.append(f"{i + 1}-f")
            else:
                out.extend(["draw"] * (-1 - i))
                out.append("w-f")
