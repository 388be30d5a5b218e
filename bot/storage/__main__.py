"""``python -m bot.storage migrate-to URL``: copy the bot's SQLite database (``DATABASE_URL``,
or ``--from URL``) into an empty PostgreSQL database, migrating it first.

    python -m bot.storage migrate-to postgresql://tavolo:secret@db/tavolo --from sqlite:///data/tavolo.db
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from bot.storage import DEFAULT_DATABASE_URL, Storage, StorageError, redacted
from bot.storage.copy import copy_database


async def migrate_to(source_url: str, target_url: str) -> dict[str, int]:
    source = await Storage.open(source_url)
    try:
        target = await Storage.open(target_url)
        try:
            return await copy_database(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.storage")
    commands = parser.add_subparsers(dest="command", required=True)
    move = commands.add_parser(
        "migrate-to", help="copy the SQLite database into an empty PostgreSQL one"
    )
    move.add_argument("url", help="the target, postgresql://...")
    move.add_argument(
        "--from",
        dest="source",
        default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL),
        help="the SQLite database (default: DATABASE_URL, else %(default)s)",
    )
    args = parser.parse_args(argv)
    if not args.source.startswith("sqlite:///"):
        print("tavolo: --from must be an SQLite database (sqlite:///...)", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(migrate_to(args.source, args.url))
    except StorageError as error:
        print(f"tavolo: cannot migrate: {error}", file=sys.stderr)
        return 1
    total = sum(copied.values())
    print(
        f"copied {total} rows to {redacted(args.url)}: "
        + ", ".join(f"{t} {n}" for t, n in copied.items())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
