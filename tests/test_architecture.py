"""The layers import one way, as the import-linter contracts in pyproject.toml say, and a
contract can fail: a domain module that reaches up into the services breaks it, and so
does the web adapter reaching past the services into the store."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from .support.environment import REPO

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def copy_of_the_code(into: Path) -> Path:
    for package in ("bot", "adapters"):
        shutil.copytree(REPO / package, into / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(REPO / "pyproject.toml", into)
    return into


def lint_with_a_line(into: Path, module: str, line: str) -> subprocess.CompletedProcess[str]:
    """Lint a copy of the code whose ``module`` (a path) ends with ``line``."""
    source = copy_of_the_code(into) / module
    source.write_text(source.read_text() + f"\n{line}  # noqa\n")
    return lint_imports(into)


def test_the_contracts_are_kept() -> None:
    result = lint_imports(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken." in result.stdout


def test_a_domain_module_importing_a_service_breaks_the_layers(tmp_path: Path) -> None:
    result = lint_with_a_line(tmp_path, "bot/domain/scoring.py", "from bot.services import engine")
    assert result.returncode == 1
    assert "bot.domain.scoring -> bot.services.engine (l." in result.stdout
    assert "Contracts: 3 kept, 1 broken." in result.stdout


def test_a_platform_library_in_the_core_breaks_its_contract(tmp_path: Path) -> None:
    result = lint_with_a_line(tmp_path, "bot/domain/clock.py", "import discord")
    assert result.returncode == 1
    assert "bot.domain.clock -> discord (l." in result.stdout


def test_the_web_adapter_importing_the_store_breaks_its_contract(tmp_path: Path) -> None:
    result = lint_with_a_line(
        tmp_path, "adapters/web/charts.py", "from bot.persistence import Store"
    )
    assert result.returncode == 1
    assert "adapters.web.charts -> bot.persistence (l." in result.stdout
    assert "Contracts: 3 kept, 1 broken." in result.stdout
