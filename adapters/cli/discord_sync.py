"""``quizbot discord sync``: the slash commands uploaded to Discord now, changed or not."""

from __future__ import annotations

import argparse
import asyncio

from ..discord import Discord
from .options import Commands, settings


def _cmd_sync(args: argparse.Namespace) -> int:
    chosen = settings(args, ("discord",), exit_code=2)  # the same settings as `run`
    return asyncio.run(Discord(chosen.discord).sync(chosen.core))


def add_parser(commands: Commands) -> None:
    discord = commands.add_parser("discord", help="Discord maintenance")
    discord_sub = discord.add_subparsers(dest="discord_command", required=True)
    sync = discord_sub.add_parser("sync", help="push the slash commands to Discord now")
    sync.set_defaults(func=_cmd_sync)
