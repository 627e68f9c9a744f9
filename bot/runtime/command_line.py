"""The ``solitaire-bot`` command line: run the bot (no arguments), ``--help``, ``--version``, ``backup``, ``forget``.

Nothing here imports discord: ``--help`` and a settings error answer at once.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import textwrap
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bot.runtime.settings import Settings, SettingsError, load_settings
from bot.storage import StorageError, open_database, privacy
from bot.storage.backup import BackupError, backup_sqlite, names_a_folder
from bot.version import bot_version

PROG = "solitaire-bot"
WIDTH = 79
"""The help's text is wrapped to this many characters (it is printed as written, to keep the settings table)."""
DESCRIPTION = (
    "Run Solitaire Rush for Discord until SIGINT or SIGTERM. Settings come from the environment and from "
    "a .env file in the working folder (the environment wins); only DISCORD_TOKEN is required."
)
EXIT_STATUSES = (
    "exit status: 0 stopped cleanly; 2 a setting, the token or the database is wrong (fix it: restarting "
    "cannot help); 1 Discord could not be reached (worth a restart)."
)
NO_TOKEN_NEEDED = "unused: a backup never logs in"
"""The token a backup reads the settings with: it needs only the database settings."""


def settings_lines() -> list[str]:
    """Every setting with its default, as ``--help`` lists them (from :class:`Settings` itself)."""
    lines = []
    for name, field in Settings.model_fields.items():
        if field.is_required():
            default = "required"
        elif field.default is None:
            default = "unset"
        else:
            default = f"default {field.default}"
        lines.append(f"  {name.upper():<21} {default}")
    return lines


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``solitaire-bot``: no command runs the bot."""
    epilog = "\n".join(["settings (environment or .env):", *settings_lines(), "", textwrap.fill(EXIT_STATUSES, WIDTH)])
    parser = argparse.ArgumentParser(
        prog=PROG,
        description=textwrap.fill(DESCRIPTION, WIDTH),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {bot_version()}")
    commands = parser.add_subparsers(dest="command", title="commands (none: run the bot)")
    backup = commands.add_parser(
        "backup",
        help="copy the SQLite database consistently, even while the bot runs",
        description="Copy the SQLite database (DATABASE_PATH) with SQLite's online backup API, even while the "
        "bot runs. PostgreSQL (DATABASE_URL): use pg_dump instead.",
    )
    backup.add_argument(
        "destination",
        help="a new file, or a folder for solitaire-YYYYMMDD-HHMMSS.db (ending in /: created if missing)",
    )
    backup.add_argument("--database", type=Path, help="the SQLite file to copy (default: DATABASE_PATH)")
    forget = commands.add_parser(
        "forget",
        help="delete a member's data (a deletion request) or a server's (after the bot left it)",
        description="Delete a member's data in every server, or every row of a server, from the database the "
        "settings name (DATABASE_URL or DATABASE_PATH), even while the bot runs. Refused while the member (or "
        "anyone in the server) has a game, race or challenge that is not over. See docs/admin.md.",
    )
    forget.add_argument("what", choices=("member", "server"), help="a member (user id) or a server (server id)")
    forget.add_argument("id", type=int, help="the Discord id (Developer Mode: right-click, Copy ID)")
    return parser


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Read the command line (``--help`` and ``--version`` answer and exit here)."""
    return build_parser().parse_args(argv)


def run_backup(args: argparse.Namespace) -> int:
    """``solitaire-bot backup``: one line on stdout when done, or one ``error:`` line and status 2."""
    try:
        source = args.database or _database_path(load_settings(discord_token=NO_TOKEN_NEEDED))
        destination = args.destination
        done = backup_sqlite(source, Path(destination), now=datetime.now(), folder=names_a_folder(destination))
    except (SettingsError, BackupError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(
        f"backed up {source} to {done.path}: {done.size:,} bytes, migrations up to V{done.schema:03d}, "
        f"{done.games:,} games (checked)"
    )
    return 0


def run_forget(args: argparse.Namespace) -> int:
    """``solitaire-bot forget member|server ID``: one line on stdout when done; 1 while still in play, 2 on errors."""
    try:
        settings = load_settings(discord_token=NO_TOKEN_NEEDED)
        print(asyncio.run(_forget(settings, args.what, args.id)))
    except privacy.StillInPlayError as busy:
        print(f"not now: {args.what} {args.id} still has {busy}; try again once it is over{_by(busy)}", file=sys.stderr)
        return 1
    except (SettingsError, StorageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def _by(busy: privacy.StillInPlayError) -> str:
    """When what is in play should be over, if known (UTC).

    >>> _by(privacy.StillInPlayError(["a game in progress"], 1767225900.0))
    ' (about 2026-01-01 00:05 UTC)'
    """
    if busy.until is None:
        return ""
    return f" (about {datetime.fromtimestamp(busy.until, UTC):%Y-%m-%d %H:%M} UTC)"


async def _forget(settings: Settings, what: str, key: int) -> str:
    """Forget a member or a server; return the line that says what went."""
    db = await open_database(settings.database_target)
    try:
        if what == "server":
            return f"forgot server {key}: {await privacy.forget_server(db, key):,} rows deleted"
        done = await privacy.forget_member(db, key, now=time.time())
        return (
            f"forgot member {key}: {done.games:,} games deleted, {done.entries:,} race and challenge places kept "
            f"without their id, {done.rows:,} other rows deleted or cleared"
        )
    finally:
        await db.close()


def _database_path(settings: Settings) -> Path:
    """The SQLite file the settings name; :raises BackupError: when the data is in PostgreSQL."""
    if settings.database_url is not None:
        raise BackupError(
            "DATABASE_URL is set: the data is in PostgreSQL, back it up with pg_dump (see docs/deploy.md, Backups)"
        )
    return settings.database_path
