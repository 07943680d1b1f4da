"""The command line's parser: ``quizbot`` and its version, then each group's commands as
its module adds them, in the order ``quizbot --help`` lists them."""

from __future__ import annotations

import argparse
from importlib.metadata import version

from . import banks, db, discord_sync, insights, player, run

DESCRIPTION = "quizbot: quizzes for ML engineering teams, on Slack, Discord and in the terminal."
GROUPS = (
    player.add_play,
    player.add_review_and_stats,
    insights.add_parser,
    run.add_parser,
    banks.add_parser,
    db.add_parser,
    discord_sync.add_parser,
    player.add_leaderboard,
)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="quizbot", description=DESCRIPTION)
    top.add_argument("--version", action="version", version=f"quizbot {version('quizbot')}")
    commands = top.add_subparsers(dest="command", required=True)
    for add in GROUPS:
        add(commands)
    return top
