"""The core must not depend on any platform: dependencies point adapters -> bot."""

from __future__ import annotations

import ast

from .support.environment import REPO

FORBIDDEN = ("discord", "slack_bolt", "slack_sdk", "adapters")


def imported_modules(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_imports_no_platform_code() -> None:
    offenders = []
    for path in sorted((REPO / "bot").rglob("*.py")):
        for name in imported_modules(path.read_text(encoding="utf-8")):
            if name.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(REPO)} imports {name}")
    assert offenders == []


def test_the_check_can_fail() -> None:
    assert imported_modules("import discord.ui\nfrom slack_bolt import App") == {
        "discord.ui",
        "slack_bolt",
    }
