"""``solitaire-bot`` (``python -m bot``): read the settings, log, run the bot until SIGINT/SIGTERM, shut down cleanly.

The settings are checked before discord.py is even imported, so a bad one stops the bot at once.
The command line (``--help``, ``--version``, ``backup``, ``forget``) is :mod:`bot.command_line`.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Sequence

from bot.settings import Settings, SettingsError, load_settings

log = logging.getLogger("bot")


async def run(settings: Settings) -> None:
    """Run the bot until it stops or a SIGINT/SIGTERM arrives, then close it (games stay saved)."""
    from bot.client import make_bot

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    async with make_bot(settings) as bot:
        runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()), name="bot")
        stopper = asyncio.create_task(stop.wait(), name="signals")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("shutting down: games are saved; stopping the clocks and closing the database")
            await bot.close()
        else:
            stopper.cancel()
        await runner


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit status."""
    from bot.command_line import parse_arguments, run_backup, run_forget

    args = parse_arguments(argv)
    if args.command == "backup":
        return run_backup(args)
    if args.command == "forget":
        return run_forget(args)
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from bot.logging_setup import setup_logging

    setup_logging(settings.log_level)
    import discord

    from bot.client import use_api_base
    from bot.metrics import MetricsPortError
    from bot.storage import MigrationError, StorageError

    if settings.api_base:
        use_api_base(settings.api_base)
    try:
        asyncio.run(run(settings))
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
