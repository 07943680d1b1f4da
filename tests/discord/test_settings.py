"""Settings, ``serve`` and ``quizbot discord sync``: clear lines instead of tracebacks."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path

import pytest

from adapters.discord.runtime import REJECTED, serve
from adapters.discord.settings import SettingsError
from adapters.settings import load
from bot.content.banks import Catalog
from bot.operations.settings import InvalidSettings
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.discord import FakeDiscord

from ..support.cli import Outcome, run_quizbot
from ..support.settings import problems
from .support import discord_settings, running_bot

SECRET = "MTIzNDU2Nzg5.secret-part.do-not-print"


def settings_problems(environ: Mapping[str, str]) -> list[str]:
    return problems(environ, platforms=("discord",))


def configured(environ: Mapping[str, str]) -> bool:
    return load(environ).discord.configured


def test_settings_problems_name_the_variable_and_never_the_token() -> None:
    assert configured({}) is False and configured({"DISCORD_TOKEN": "x"}) is True
    missing = settings_problems({})
    assert len(missing) == 1 and missing[0].startswith("DISCORD_TOKEN is not set")
    assert "discord.com/developers/applications" in missing[0]
    assert settings_problems({"DISCORD_TOKEN": SECRET}) == []

    bad = {
        "DISCORD_TOKEN": f"Bot {SECRET}",
        "DISCORD_GUILD_ID": "my-server",
        "DISCORD_API_BASE_URL": "ftp://example.org",
        "DISCORD_GATEWAY_URL": "http://example.org",
    }
    lines = settings_problems(bad)
    assert [line.split(" ", 1)[0] for line in lines] == list(bad)
    assert all(SECRET not in line and "\n" not in line for line in lines)


def test_endpoints_default_to_discords_api_version() -> None:
    env = {"DISCORD_TOKEN": "x", "DISCORD_GUILD_ID": " 42 "}
    settings = discord_settings(
        {**env, "DISCORD_API_BASE_URL": "http://127.0.0.1:9/", "DISCORD_GATEWAY_URL": "ws://h/g"}
    )
    assert (settings.api_base_url, settings.gateway_url, settings.guild_id) == (
        "http://127.0.0.1:9/api/v10",
        "ws://h/g",
        42,
    )
    proxied = discord_settings({**env, "DISCORD_API_BASE_URL": "https://proxy/api/v9"})
    assert proxied.api_base_url == "https://proxy/api/v9"
    assert discord_settings(env).api_base_url is None
    with pytest.raises(InvalidSettings, match="DISCORD_TOKEN is not set"):
        discord_settings({})


def test_the_cli_reports_a_missing_token_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    run = run_quizbot("run", "discord")
    assert run.returncode == 2
    sync = run_quizbot("discord", "sync")
    assert sync.returncode == 2
    err = (run.stderr + sync.stderr).splitlines()
    assert err == [err[0], err[0]] and err[0].startswith("quizbot: DISCORD_TOKEN is not set")


async def sync() -> Outcome:
    """``quizbot discord sync`` in a thread, while this loop serves the fake Discord."""
    return await asyncio.to_thread(run_quizbot, "discord", "sync")


def _use_fake(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, token: str | None = None) -> None:
    for key, value in fake.environ().items():
        monkeypatch.setenv(key, value)
    if token is not None:
        monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.delenv("DISCORD_GUILD_ID", raising=False)


async def test_serve_runs_on_the_callers_loop_until_cancelled(
    fake: FakeDiscord, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _use_fake(fake, monkeypatch)
    task = asyncio.create_task(serve(engine, load().discord))
    await asyncio.wait_for(fake.connected.wait(), 10)
    outcome = await fake.slash("quiz", topic="offloading")
    assert "Question 1 of 17" in outcome.text()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_rejected_token_is_one_clear_line(
    fake: FakeDiscord, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _use_fake(fake, monkeypatch, token=SECRET)
    with pytest.raises(SettingsError) as raised:
        await serve(engine, load().discord)
    message = str(raised.value)
    assert message == REJECTED and "DISCORD_TOKEN" in message and SECRET not in message
    assert "\n" not in message


async def test_discord_sync_always_uploads_and_the_bot_then_skips_it(
    fake: FakeDiscord,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    _use_fake(fake, monkeypatch)
    db = tmp_path / "sync.db"
    monkeypatch.setenv("QUIZBOT_DB", str(db))
    synced = [await sync() for _ in range(2)]
    assert [s.returncode for s in synced] == [0, 0]
    assert fake.command_syncs == 2  # forced, though unchanged
    out = "".join(s.stdout for s in synced)
    assert out.count("Synced 19 slash commands to all servers.") == 2
    store = await Store.open(db)
    try:
        async with running_bot(fake, Engine(catalog, store)):
            assert fake.command_syncs == 2
    finally:
        await store.close()

    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    rejected = await sync()
    assert rejected.returncode == 1
    err = rejected.stderr
    assert err.startswith("quizbot: Discord rejected DISCORD_TOKEN") and SECRET not in err


async def test_discord_sync_reads_the_settings_file_like_run(
    fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _use_fake(fake, monkeypatch)
    monkeypatch.delenv("QUIZBOT_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # where a stray db would go
    settings = tmp_path / "quizbot.toml"
    settings.write_text(f'db = "{tmp_path / "configured.db"}"\n', encoding="utf-8")
    monkeypatch.setenv("QUIZBOT_CONFIG", str(settings))
    assert (await sync()).returncode == 0
    assert (tmp_path / "configured.db").exists()
    assert not (tmp_path / "xdg").exists()


def test_the_admin_role_is_a_role_name() -> None:
    env = {"DISCORD_TOKEN": "x"}
    assert discord_settings(env).admin_role is None
    assert discord_settings({**env, "QUIZBOT_ADMIN_ROLE": " Quiz leads "}).admin_role == (
        "Quiz leads"
    )
    [problem] = settings_problems({**env, "QUIZBOT_ADMIN_ROLE": "r" * 101})
    assert problem.startswith("QUIZBOT_ADMIN_ROLE must be a role's name")
