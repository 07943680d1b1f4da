"""``quizbot db forget``: a player's data (in one workspace or all of theirs), or a whole
workspace's, deleted on request while the bot runs."""

from __future__ import annotations

import argparse

from bot.services.engine import Engine

from ..errors import SetupError
from .options import Commands, add_db_option, platform_id, settings, with_engine, workspace


def _cmd_forget(args: argparse.Namespace) -> int:
    if args.player is None and args.workspace is None:
        raise SetupError("quizbot db forget needs --player PLATFORM:ID, --workspace, or both", 2)
    if args.player and args.workspace and args.player[0] != args.workspace.platform:
        raise SetupError("--player and --workspace name different platforms", 2)

    async def work(engine: Engine) -> int:
        forget = engine.store.forget
        if args.player is None:
            scope = args.workspace
            done = {scope.workspace_id: await forget.workspace(scope.platform, scope.workspace_id)}
            who = f"workspace {scope.platform}:{scope.workspace_id}"
        else:
            platform, player_id = args.player
            where = args.workspace.workspace_id if args.workspace else None
            done = await forget.player(platform, player_id, where)
            who = f"{platform}:{player_id}"
        if not any(forgotten.total for forgotten in done.values()):
            print(f"nothing stored for {who}")
        for workspace_id, forgotten in done.items():
            tables = ", ".join(
                f"{table} {count}" for table, count in sorted(forgotten.rows.items())
            )
            print(f"forgot {who} in {workspace_id}: {forgotten.total} rows ({tables})")
        return 0

    return with_engine(settings(args).core, work)


def add_parser(database_sub: Commands) -> None:
    forget = database_sub.add_parser(
        "forget", help="delete a player's data, or a workspace's, now (while the bot runs)"
    )
    forget.add_argument(
        "--player",
        type=platform_id,
        metavar="PLATFORM:ID",
        help="the player, e.g. slack:U0123 (every workspace of theirs unless --workspace)",
    )
    forget.add_argument(
        "--workspace", type=workspace, metavar="PLATFORM:ID", help="e.g. slack:T0123"
    )
    add_db_option(forget)
    forget.set_defaults(func=_cmd_forget)
