"""One settings model: every field declared once, read from the TOML file, the
environment and the command line in that order of precedence, each problem one line
naming its setting, never a secret's value."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from adapters.settings import SECTIONS, load
from bot.operations.settings import database, declared

from .support.cli import run_quizbot
from .support.settings import SETTINGS, problems


def test_the_help_table_is_the_declared_variables() -> None:
    names = [s.env for model in SECTIONS for _, s in declared(model) if s.env]
    assert len(names) == len(set(names)) == len(SETTINGS)
    assert all(SETTINGS[name] for name in names)


def test_a_command_line_option_wins_and_is_named_in_its_problem(tmp_path: Path) -> None:
    env = {"QUIZBOT_DB": str(tmp_path / "env.db"), "QUIZBOT_METRICS_PORT": "9100"}
    core = load(env, {"--db": tmp_path / "option.db", "--metrics-port": 9200}).core
    assert (core.db, core.metrics_port) == (tmp_path / "option.db", 9200)
    assert load(env, {"--db": None, "--metrics-port": None}).core.metrics_port == 9100
    assert problems(env, {"--metrics-port": 70000}) == [
        "--metrics-port must be a port number, not '70000'"
    ]
    assert problems({"QUIZBOT_METRICS_PORT": "70000"}) == [
        "QUIZBOT_METRICS_PORT must be a port number, not '70000'"
    ]


def test_the_file_gives_lists_and_its_problems_come_first(tmp_path: Path) -> None:
    banks = [tmp_path / "a", tmp_path / "b"]
    for bank in banks:
        bank.mkdir()
    toml = tmp_path / "quizbot.toml"
    toml.write_text(f"banks = {[str(b) for b in banks]!r}\nreveal_hours = 2.5\n", encoding="utf-8")
    core = load({"QUIZBOT_CONFIG": str(toml)}).core
    assert (core.banks, core.reveal_hours, core.config_file) == (tuple(banks), 2.5, toml)
    toml.write_text('log_level = "loud"\nslack_bot_token = "xoxb-1"\n', encoding="utf-8")
    found = problems({"QUIZBOT_CONFIG": str(toml), "QUIZBOT_QUIZ_LENGTH": "0"})
    assert [line.split(" ", 1)[0] for line in found] == [
        f"{toml}:",
        "QUIZBOT_LOG_LEVEL",
        "QUIZBOT_QUIZ_LENGTH",
    ]
    missing = tmp_path / "missing.toml"
    assert problems({"QUIZBOT_CONFIG": str(missing)})[0].startswith(
        f"QUIZBOT_CONFIG: cannot read {missing}:"
    )


def test_a_platform_not_run_is_not_checked() -> None:
    wrong = {"DISCORD_GUILD_ID": "my-server", "SLACK_API_URL": "slack.example"}
    assert problems(wrong) == []
    assert problems(wrong, platforms=None) == []  # neither is configured
    assert [p.split(" ", 1)[0] for p in problems(wrong, platforms=("slack", "discord"))] == [
        "SLACK_BOT_TOKEN",
        "SLACK_APP_TOKEN",
        "SLACK_API_URL",
        "DISCORD_TOKEN",
        "DISCORD_GUILD_ID",
    ]
    configured = {**wrong, "DISCORD_TOKEN": "x"}
    assert load(configured).configured() == ("discord",)
    assert [p.split(" ", 1)[0] for p in problems(configured, platforms=None)] == [
        "DISCORD_GUILD_ID"
    ]


def test_secrets_stay_out_of_the_repr() -> None:
    env = {
        "SLACK_BOT_TOKEN": "xoxb-known-secret",
        "SLACK_APP_TOKEN": "xapp-known-secret",
        "SLACK_SIGNING_SECRET": "known-secret",
        "DISCORD_TOKEN": "known-secret",
    }
    settings = load(env, platforms=("slack", "discord"))
    assert settings.slack.bot_token == "xoxb-known-secret"
    assert "known-secret" not in repr(settings)


def test_every_problem_line_is_prefixed() -> None:
    env = {"QUIZBOT_LOG_LEVEL": "loud", "QUIZBOT_LOG_FORMAT": "xml"}
    listed = run_quizbot("banks", "list", env=env)
    assert listed.returncode == 1
    assert listed.stderr.splitlines() == [
        "quizbot: QUIZBOT_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'",
        "quizbot: QUIZBOT_LOG_FORMAT must be text or json, not 'xml'",
    ]


def test_reading_the_settings_loads_no_platform_library() -> None:
    # The platforms' sections come without slack-bolt or discord.py: commands that run
    # no platform start without them.
    code = (
        "import sys, adapters.cli, adapters.settings as s; s.load({})\n"
        "print(sorted({'discord', 'slack_bolt'} & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_database_is_a_sqlite_file_or_a_postgresql_url(tmp_path: Path) -> None:
    assert database("postgresql://quiz@db.internal:5432/quizbot") == (
        "postgresql://quiz@db.internal:5432/quizbot"
    )
    assert database("sqlite:////var/lib/quizbot/quiz.db") == Path("/var/lib/quizbot/quiz.db")
    assert database("sqlite:///quiz.db") == Path("quiz.db")
    assert database(str(tmp_path / "q.db")) == tmp_path / "q.db"
    unreachable = run_quizbot("db", "check", "--db", "postgresql://quiz:secret@127.0.0.1:1/quizbot")
    assert unreachable.returncode == 1
    assert unreachable.stderr.startswith("quizbot: postgresql://quiz@127.0.0.1:1/quizbot: ")
    assert "Connection refused" in unreachable.stderr
    assert "secret" not in unreachable.stderr
    refused = run_quizbot("db", "backup", "b.db", "--db", "postgresql://quiz@127.0.0.1:1/quizbot")
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        "quizbot: quizbot db backup copies a SQLite file; back PostgreSQL up with its own"
        " pg_dump (or pg_basebackup for the whole server)"
    )
