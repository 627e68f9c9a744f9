"""The health check's one query: does the database answer at all."""

from __future__ import annotations

import asyncio
import logging

from bot.storage import Database

log = logging.getLogger(__name__)


async def database_answers(db: Database, *, timeout: float = 2.0) -> bool:
    """Whether ``SELECT 1`` comes back within ``timeout`` seconds (any failure is logged and means no)."""
    if db.closed:
        return False
    try:
        async with asyncio.timeout(timeout):
            row = await db.fetchone("SELECT 1")
    except TimeoutError:
        log.warning("health check: the database did not answer within %.1f s", timeout)
        return False
    except Exception:
        log.warning("health check: the database failed", exc_info=True)
        return False
    return row is not None and row[0] == 1
