"""A bank of proven-winnable deals per variant, kept filled by worker processes in the background.

Solving is CPU-bound, so it never runs on the event loop: every solve is a job of the heavy-work
scheduler (:mod:`bot.heavy`, in production). A start takes a banked deal at once, and the bank
refills behind it; only an empty bank or a requested deal number makes the caller wait for a solve.

Two kinds of deal (STYLE lesson 14, "ranked means unknowable"): the bank's **private** deals,
each keyed by 128 random bits nobody ever sees (ranked casual games and races: nobody can compute
one before it is dealt), and **public** ones a player asks for by number or seed (practice:
playable and comparable, never ranked).

Players first: every job goes through :meth:`DealBank.run`; ``urgent=True`` (the default: a
player waits: numbered and seeded deals, an empty bank, dailies) is a :attr:`~bot.heavy.Priority.START`
job, served before every background refill (:attr:`~bot.heavy.Priority.BACKGROUND`), which runs on
a worker of its own in the bot (:meth:`~bot.heavy.Scheduler.for_workers`): no player waits for one.
Numbered deals are kept in a :class:`DealCache` (the database, in production), so a repeated number
costs no solve.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from bot.heavy import Priority, Scheduler
from solitaire import Card
from solitaire.deals import ProvenDeal, numbered_deal, seeded_deal

log = logging.getLogger(__name__)

DealT = TypeVar("DealT")
ResultT = TypeVar("ResultT")

SOLVER_VERSION = "1"
"""Keys the cached numbered deals: bump it when the solver or its budgets change which deal a number gives."""


class Deal(Protocol):
    """What a session needs of a deal (``solitaire.deals.ProvenDeal`` fits)."""

    @property
    def variant(self) -> str:
        """The variant name."""

    @property
    def deck(self) -> Sequence[Card]:
        """The 52 cards in dealing order."""

    @property
    def seed(self) -> int:
        """The shuffle seed that deals ``deck`` (``solitaire.shuffle.shuffled_deck(seed)``)."""


def solve_numbered(variant: str, number: int) -> ProvenDeal:
    """Return the proven deal ``number`` of ``variant``; CPU-bound, so run it in a worker process."""
    return numbered_deal(variant, number)


def solve_seeded(variant: str, seed: int) -> ProvenDeal:
    """Return the shuffle ``seed`` proven winnable (:raises SolitaireError: if it cannot be); run it in a worker."""
    return seeded_deal(variant, seed)


@dataclass(frozen=True)
class NumberedDeal(Generic[DealT]):
    """A public deal: the number that reproduces it, for practice (never ranked)."""

    variant: str
    number: int
    deal: DealT


@dataclass(frozen=True)
class PrivateDeal(Generic[DealT]):
    """A deal from the private bank (ranked play): nothing public names it until its game is over."""

    variant: str
    deal: DealT


Solver = Callable[[str, int], DealT]
"""``solver(variant, number)`` returns the proven deal of that number (or key, or seed); picklable for processes."""


class DealCache(Protocol[DealT]):
    """Where numbered deals are kept once solved (keyed by variant, number and :data:`SOLVER_VERSION`)."""

    async def load(self, variant: str, number: int) -> DealT | None:
        """The deal stored for this number, or ``None``."""

    async def save(self, variant: str, number: int, deal: DealT) -> None:
        """Store a solved deal."""


class DealBank(Generic[DealT]):
    """Private deals per variant, ``size`` of each kept ready; public ones solved on request."""

    def __init__(
        self,
        solver: Solver[DealT],
        *,
        variants: Iterable[str],
        size: int,
        jobs: Scheduler | None = None,
        private: Solver[DealT] | None = None,
        seeded: Solver[DealT] | None = None,
        numbers: Callable[[], int] | None = None,
        cache: DealCache[DealT] | None = None,
    ) -> None:
        """Bank ``size`` private deals of each variant, solving as jobs of ``jobs``.

        ``solver(variant, number)`` finds public numbered deals, ``private(variant, key)`` the bank's
        deals (keys from ``numbers()``: 128 random bits unless a test gives its own; default: ``solver``
        itself, on keys nobody can guess), ``seeded(variant, seed)`` a shuffle seed asked for by a player.
        ``jobs=None`` calls the solvers on the event loop: only for tests with instant solvers.
        ``cache`` keeps numbered deals (see :meth:`use_cache`).
        """
        self.solver = solver
        self.private = private or solver
        self.seeded_solver: Solver[DealT] | None = seeded
        self.size = size
        self.jobs = jobs
        self.cache = cache
        self._numbers = numbers or _private_key
        self._banks: dict[str, deque[PrivateDeal[DealT]]] = {variant: deque() for variant in variants}
        self._refills: dict[str, asyncio.Task[None]] = {}
        self._closed = False
        self.solving = 0
        """Solves asked of the workers and not finished yet (waiting for a worker or running)."""

    def available(self, variant: str) -> int:
        """How many deals of ``variant`` are ready."""
        return len(self._banks[variant])

    def levels(self) -> dict[str, int]:
        """How many deals of each variant are ready."""
        return {variant: len(bank) for variant, bank in self._banks.items()}

    def ready(self, variant: str) -> bool:
        """Whether :meth:`take` would return at once."""
        return bool(self._banks.get(variant))

    def add(self, deal: PrivateDeal[DealT]) -> None:
        """Put a solved private deal in the bank (e.g. a pre-solved one in tests)."""
        self._banks[deal.variant].append(deal)

    def start(self) -> None:
        """Begin filling every variant's bank in the background."""
        for variant in self._banks:
            self._refill(variant)

    async def wait_idle(self) -> None:
        """Wait until no variant's bank is refilling (lower-priority solves go after the casual bank)."""
        while running := [task for task in self._refills.values() if not task.done()]:
            await asyncio.wait(running)

    async def take(self, variant: str) -> PrivateDeal[DealT]:
        """Return a private deal, each given out once (solving one now only if the bank is empty); refill behind it."""
        bank = self._banks[variant]
        deal = bank.popleft() if bank else PrivateDeal(variant, await self._solve_private(variant, urgent=True))
        self._refill(variant)
        return deal

    def use_cache(self, cache: DealCache[DealT]) -> None:
        """Keep numbered deals in ``cache`` from now on (a repeated number is then never solved again)."""
        self.cache = cache

    async def numbered(self, variant: str, number: int) -> NumberedDeal[DealT]:
        """Return deal ``number`` of ``variant``: banked, cached, or solved now in a worker (urgent) and cached."""
        if variant not in self._banks:
            raise KeyError(variant)
        if self.cache is not None and (cached := await self.cache.load(variant, number)) is not None:
            return NumberedDeal(variant, number, cached)
        solved = await self.run(self.solver, variant, number, urgent=True)
        if self.cache is not None:
            try:
                await self.cache.save(variant, number, solved)
            except Exception as error:  # the deal is good; only the next request will solve it again
                log.warning("could not cache %s deal %d: %s", variant, number, error)
        return NumberedDeal(variant, number, solved)

    async def seeded(self, variant: str, seed: int) -> DealT:
        """Return the shuffle ``seed`` of ``variant`` once proven winnable (solved now in a worker, urgent).

        :raises SolitaireError: the solver could not prove it winnable.
        """
        if variant not in self._banks:
            raise KeyError(variant)
        return await self.run(self.seeded_solver or solve_seeded, variant, seed, urgent=True)  # type: ignore[arg-type]

    async def run(self, job: Callable[..., ResultT], *args: Any, urgent: bool = True) -> ResultT:
        """Run the picklable CPU-bound ``job(*args)`` on a worker and return its result.

        ``urgent=True`` (a player is waiting: a numbered deal, a daily deal) is a start, served
        before every background job (``urgent=False``: bank refills, deals solved ahead). Without
        ``jobs`` (tests) the job runs on the event loop.
        """
        self.solving += 1
        try:
            if self.jobs is None:
                return job(*args)
            return await self.jobs.submit(job, *args, priority=Priority.START if urgent else Priority.BACKGROUND)
        finally:
            self.solving -= 1

    async def _solve_private(self, variant: str, *, urgent: bool = False) -> DealT:
        return await self.run(self.private, variant, self._numbers(), urgent=urgent)

    def _refill(self, variant: str) -> None:
        if self._closed or len(self._banks[variant]) >= self.size:
            return
        running = self._refills.get(variant)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._fill(variant), name=f"deal-bank-{variant}")
        self._refills[variant] = task

    async def _fill(self, variant: str) -> None:
        bank = self._banks[variant]
        while not self._closed and len(bank) < self.size:
            try:
                deal = await self._solve_private(variant)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not solve a private %s deal for the bank", variant)
                return
            if not self._closed:
                bank.append(PrivateDeal(variant, deal))

    async def close(self) -> None:
        """Stop refilling (the solves already asked for are the scheduler's to stop)."""
        self._closed = True
        tasks = [task for task in self._refills.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _private_key() -> int:
    """128 random bits from the operating system: the key of one private deal, never stored or shown."""
    return secrets.randbits(128)
