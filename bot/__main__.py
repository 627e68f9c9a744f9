"""``solitaire-bot`` (``python -m bot``): read the settings, log, run the bot until SIGINT/SIGTERM, shut down cleanly.

The settings (the token's shape included) are checked before discord.py is even imported, so a bad
one stops the bot at once. The start is a sequence of logged steps with time limits
(:mod:`bot.runtime.startup`): the database is opened and the metrics port checked before logging in, then
the login, the set-up (commands synced) and the first gateway connection. Any of them failing ends
the start with one ``error:`` line. The command line (``--help``, ``--version``, ``backup``, ``forget``) is
:mod:`bot.runtime.command_line`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Sequence
from contextlib import AsyncExitStack, suppress
from typing import TYPE_CHECKING, Any

from bot.runtime.heap import settle_heap
from bot.runtime.settings import (
    Settings,
    SettingsError,
    load_settings,
    settings_source,
    unknown_settings,
    waits_on_bad_setting,
)

if TYPE_CHECKING:
    from bot.runtime.client import SolitaireBot
    from bot.runtime.startup import Step
    from bot.storage import Database

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    """Start step by step, run until the bot stops or a SIGINT/SIGTERM arrives, then close it (games stay saved).

    A signal during the start ends it at once (the step under way is cancelled).
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    async with AsyncExitStack() as resources:
        starting = asyncio.create_task(start(settings, resources), name="start")
        await _until(stop.wait(), starting)
        if not starting.done():
            log.info("shutting down during the start: nothing was running yet")
            await _cancelled(starting)
            return
        bot, runner = starting.result()
        stopper = asyncio.create_task(stop.wait(), name="signals")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutting down: games are saved; stopping the clocks and closing the database")
            await bot.close()
        else:
            stopper.cancel()
        await runner


async def start(settings: Settings, resources: AsyncExitStack) -> tuple[SolitaireBot, asyncio.Task[None]]:
    """The steps of the start, in order; return the bot, ready, and the task that runs it.

    What is opened is closed by ``resources`` (the database, then the bot that owns it).
    """
    from bot.runtime.client import make_bot
    from bot.runtime.metrics import check_port

    db = await open_database_step(settings)
    resources.push_async_callback(db.close)  # the bot closes it too, when it has it: closing twice is safe
    if settings.metrics_port is not None:
        check_port(settings.metrics_host, settings.metrics_port)
    bot = await resources.enter_async_context(make_bot(settings, db=db))
    await log_in(bot, settings)
    runner = asyncio.create_task(bot.connect(), name="bot")
    await first_connection(bot, runner, settings)
    log.debug("the start's %d objects are kept out of the garbage collector's later passes", settle_heap())
    return bot, runner


async def open_database_step(settings: Settings) -> Database:
    """Open the database and apply its migrations (the first step: a bad one stops the bot before logging in)."""
    from bot.runtime.startup import database_step, run_step
    from bot.storage import open_database

    return await run_step(database_step(settings.database_label), open_database(settings.database_target))


async def log_in(bot: SolitaireBot, settings: Settings) -> None:
    """Log in (a step of its own), then let the set-up run (its database work and the commands sync are logged)."""
    from bot.runtime.startup import login_step, run_step

    step = login_step(settings.startup_timeout)
    login = asyncio.create_task(bot.login(settings.discord_token.get_secret_value()), name="login")
    try:
        await _translated(step, run_step(step, _until(bot.setting_up.wait(), login)))
    except BaseException:
        await _cancelled(login)
        raise
    await login  # the set-up: its own steps name themselves when they fail


async def first_connection(bot: SolitaireBot, runner: asyncio.Task[None], settings: Settings) -> None:
    """Wait until the bot is connected and ready (a step of its own); a failure or a hang ends the start."""
    from bot.runtime.startup import gateway_step, run_step

    step = gateway_step(settings.startup_timeout)
    try:
        await _translated(step, run_step(step, _until(_ready(bot), runner)))
    except BaseException:
        await _cancelled(runner)
        raise


async def _ready(bot: SolitaireBot) -> None:
    """Wait until the bot is ready; :raises GatewayUnreachableError: as soon as its first connection failed."""
    ready = asyncio.ensure_future(bot.wait_until_ready())
    failed = asyncio.ensure_future(bot.gateway.wait_failed())
    try:
        done, _ = await asyncio.wait({ready, failed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in (ready, failed):
            await _cancelled(waiter)
    if ready not in done:
        failed.result()


async def _until(event: Awaitable[Any], task: asyncio.Task[Any]) -> None:
    """Wait for ``event`` or the end of ``task``, whichever comes first; raise the error of the one that ended."""
    waiter = asyncio.ensure_future(event)
    try:
        done, _ = await asyncio.wait({waiter, task}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        await _cancelled(waiter)
    (waiter if waiter in done else task).result()


async def _translated(step: Step, work: Awaitable[Any]) -> None:
    """Await ``work``; a network failure becomes the one line naming ``step`` and the cause.

    (A refused token, ``LoginFailure``, is no network failure: it passes through, for its own line.)
    """
    import aiohttp
    import discord

    from bot.runtime.client import GatewayUnreachableError
    from bot.runtime.startup import step_failed

    network = (OSError, aiohttp.ClientError, GatewayUnreachableError, discord.GatewayNotFound)
    try:
        await work
    except (*network, discord.HTTPException, discord.ConnectionClosed) as error:
        raise step_failed(step, error) from error


async def _cancelled(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` if it still runs, and wait for it to end (its own error is not ours to report)."""
    task.cancel()
    with suppress(BaseException):
        await task


BAD_SETTING = 2
"""The exit status of a setting or token the bot cannot work with (restarting changes nothing)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    from bot.runtime.command_line import parse_arguments, run_backup, run_forget

    args = parse_arguments(argv)
    if args.command == "backup":
        return run_backup(args)
    if args.command == "forget":
        return run_forget(args)
    status = start_bot()
    if status == BAD_SETTING and waits_on_bad_setting(os.environ):
        wait_for_a_stop()
    return status


def wait_for_a_stop() -> None:
    """Stay stopped until SIGTERM or SIGINT, so a container's restart policy does not retry a bad setting forever."""
    stops = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    print(
        "waiting (ON_BAD_SETTING=wait): fix the setting, then restart (docker compose up -d)",
        file=sys.stderr,
        flush=True,
    )
    signal.sigwait(stops)


def start_bot() -> int:
    """Read the settings and run the bot until it stops; returns the exit status."""
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if (problem := settings.token_problem()) is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    from bot.runtime.logging_setup import setup_logging

    setup_logging(settings.log_level)
    log.info(settings_source())
    for warning in unknown_settings(os.environ):
        log.warning(warning)
    return run_until_stopped(settings)


def run_until_stopped(settings: Settings) -> int:
    """Run the bot; every way it can fail to start is one ``error:`` line and an exit status."""
    import discord

    from bot.runtime.client import use_api_base
    from bot.runtime.metrics import MetricsPortError
    from bot.runtime.startup import StartupError
    from bot.storage import MigrationError, StorageError

    if settings.api_base:
        use_api_base(settings.api_base)
    try:
        asyncio.run(run(settings))
    except StartupError as error:
        print(f"error: {settings.redact(str(error))}", file=sys.stderr)
        return error.status
    except discord.LoginFailure:
        print(
            "error: Discord refused DISCORD_TOKEN: copy the bot token again from the developer portal", file=sys.stderr
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: Discord asked for privileged intents, which this bot never requests", file=sys.stderr)
        return 2
    except (StorageError, MigrationError) as error:
        reason = settings.redact(str(error))
        print(f"error: cannot use the database {settings.database_label!r}: {reason}", file=sys.stderr)
        return 2
    except MetricsPortError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (OSError, discord.HTTPException, discord.GatewayNotFound) as error:
        print(f"error: cannot reach Discord: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
