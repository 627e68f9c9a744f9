"""A bank of proven-winnable deals per variant, kept filled by worker processes in the background.

Solving is CPU-bound, so it never runs on the event loop: every solve goes to an
executor (a :class:`concurrent.futures.ProcessPoolExecutor` in production). A
start takes a banked deal at once, and the bank refills behind it; only an empty
bank or a requested deal number makes the caller wait for a solve.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from solitaire import Card
from solitaire.deals import ProvenDeal, numbered_deal

log = logging.getLogger(__name__)

DealT = TypeVar("DealT")

MAX_DEAL_NUMBER = 999_999
"""Banked deals get a random public number in ``1..MAX_DEAL_NUMBER``."""


class Deal(Protocol):
    """What a session needs of a deal (``solitaire.deals.ProvenDeal`` fits)."""

    @property
    def variant(self) -> str:
        """The variant name."""

    @property
    def deck(self) -> Sequence[Card]:
        """The 52 cards in dealing order."""


def solve_numbered(variant: str, number: int) -> ProvenDeal:
    """Return the proven deal ``number`` of ``variant``; CPU-bound, so run it in a worker process."""
    return numbered_deal(variant, number)


@dataclass(frozen=True)
class NumberedDeal(Generic[DealT]):
    """A solved deal and the public number that reproduces it."""

    variant: str
    number: int
    deal: DealT


Solver = Callable[[str, int], DealT]
"""``solver(variant, number)`` returns the proven deal of that number; must be picklable for processes."""


class DealBank(Generic[DealT]):
    """Solved deals per variant, ``size`` of each kept ready."""

    def __init__(
        self,
        solver: Callable[[str, int], DealT],
        *,
        variants: Iterable[str],
        size: int,
        executor: Executor | None,
        numbers: Callable[[], int] | None = None,
    ) -> None:
        """Bank ``size`` deals of each variant, solving with ``solver`` in ``executor``.

        ``executor=None`` calls the solver on the event loop: only for tests with instant solvers.
        """
        self.solver = solver
        self.size = size
        self.executor = executor
        self._numbers = numbers or _random_number
        self._banks: dict[str, deque[NumberedDeal[DealT]]] = {variant: deque() for variant in variants}
        self._refills: dict[str, asyncio.Task[None]] = {}
        self._closed = False
        self.solving = 0
        """Solves handed to the executor and not finished yet (waiting for a worker or running)."""

    def available(self, variant: str) -> int:
        """How many deals of ``variant`` are ready."""
        return len(self._banks[variant])

    def levels(self) -> dict[str, int]:
        """How many deals of each variant are ready."""
        return {variant: len(bank) for variant, bank in self._banks.items()}

    def ready(self, variant: str) -> bool:
        """Whether :meth:`take` would return at once."""
        return bool(self._banks.get(variant))

    def add(self, deal: NumberedDeal[DealT]) -> None:
        """Put a solved deal in the bank (e.g. a pre-solved one in tests)."""
        self._banks[deal.variant].append(deal)

    def start(self) -> None:
        """Begin filling every variant's bank in the background."""
        for variant in self._banks:
            self._refill(variant)

    async def wait_idle(self) -> None:
        """Wait until no variant's bank is refilling (lower-priority solves go after the casual bank)."""
        while running := [task for task in self._refills.values() if not task.done()]:
            await asyncio.wait(running)

    async def take(self, variant: str) -> NumberedDeal[DealT]:
        """Return a banked deal (solving one now only if the bank is empty) and refill behind it."""
        bank = self._banks[variant]
        if bank:
            deal = bank.popleft()
        else:
            deal = await self.numbered(variant, self._numbers())
        self._refill(variant)
        return deal

    async def numbered(self, variant: str, number: int) -> NumberedDeal[DealT]:
        """Return deal ``number`` of ``variant`` (from the bank if it is there, else solved in a worker)."""
        if variant not in self._banks:
            raise KeyError(variant)
        for banked in self._banks[variant]:
            if banked.number == number:
                return banked
        solved = await self._solve(variant, number)
        return NumberedDeal(variant, number, solved)

    async def _solve(self, variant: str, number: int) -> DealT:
        if self.executor is None:
            return self.solver(variant, number)
        loop = asyncio.get_running_loop()
        self.solving += 1
        try:
            return await loop.run_in_executor(self.executor, self.solver, variant, number)
        finally:
            self.solving -= 1

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
            number = self._numbers()
            try:
                deal = await self._solve(variant, number)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not solve %s deal %d for the bank", variant, number)
                return
            if not self._closed:
                bank.append(NumberedDeal(variant, number, deal))

    async def close(self) -> None:
        """Stop refilling and shut the executor down without waiting for running solves."""
        self._closed = True
        tasks = [task for task in self._refills.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)


def _random_number() -> int:
    return random.SystemRandom().randint(1, MAX_DEAL_NUMBER)
