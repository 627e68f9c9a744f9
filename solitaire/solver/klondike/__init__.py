"""A depth-first Klondike solver (draw 1, draw 3, Gold Rush) over a compact integer model.

``tables``: card ints and precomputed tables; ``model``: the position, its hash, making and
taking back moves; ``movegen``: the moves of a position, best first; ``search``: the rounds,
rollouts and the answer in notation; ``deadlock``: a sound unwinnability test on the deal.
"""

from solitaire.solver.klondike.deadlock import buried_deadlock
from solitaire.solver.klondike.search import KlondikeSearch
from solitaire.solver.klondike.tables import encode

__all__ = ["KlondikeSearch", "buried_deadlock", "encode"]
