"""What an operator relies on: health and metrics, configuration errors, bank reload,
database check, backup and migration, and deploy files that match the code."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import yaml
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families

from adapters.cli import parser
from adapters.ops import ops_app
from adapters.settings import load
from bot.content.banks import Catalog, load_catalog, reload_catalog
from bot.operations import metrics
from bot.persistence import MIGRATIONS, Store, integrity_problems
from bot.services.engine import Engine
from bot.services.requests import button
from bot.ui.views import Feedback, Leaderboard, QuestionView

from .support.cli import run_quizbot
from .support.environment import FIXTURES, REPO, make_immutable
from .support.quiz import ANA, TEAM, right_choice
from .support.settings import SETTINGS, problems

DEPLOY = REPO / "deploy"


async def client_for(engine: Engine) -> TestClient:
    client = TestClient(TestServer(ops_app(engine), host="127.0.0.1", port=0))
    await client.start_server()
    return client


async def test_metrics_move_when_answers_are_recorded(engine: Engine) -> None:
    metrics.RUNS_IN_PROGRESS.set_function(lambda: engine.store.runs.in_progress)
    client = await client_for(engine)
    try:
        before = metrics.sample("quizbot_answers_recorded_total", mode="quiz")
        view = await engine.start_quiz(ANA, TEAM, "tiny", "en")
        assert isinstance(view, QuestionView)
        assert engine.store.runs.in_progress == 1
        assert isinstance(await engine.click(ANA, button(right_choice(engine, view))), Feedback)
        response = await client.get("/metrics")
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        families = {f.name: f for f in text_string_to_metric_families(await response.text())}
        samples = {
            (s.name, tuple(sorted(s.labels.items()))): s.value
            for f in families.values()
            for s in f.samples
        }
        assert samples[("quizbot_answers_recorded_total", (("mode", "quiz"),))] == before + 1
        assert samples[("quizbot_runs_in_progress", ())] == 1
        feedback = (("outcome", "Feedback"), ("platform", "slack"))
        assert samples[("quizbot_interactions_total", feedback)] >= 1
        assert families["quizbot_answer_seconds"].type == "histogram"
        assert samples[("quizbot_answer_seconds_bucket", (("le", "+Inf"),))] >= 1
        assert "process_resident_memory_bytes" in families  # the process's own metrics
    finally:
        await client.close()


async def test_healthz_follows_the_database_and_platforms(
    engine: Engine, immutable: list[Path]
) -> None:
    client = await client_for(engine)
    try:
        response = await client.get("/healthz")
        assert response.status == 200
        assert json.loads(await response.text()) == {"status": "ok", "database": "ok"}
        engine.health.set_platform("slack", True)
        engine.health.set_platform("discord", False)
        response = await client.get("/healthz")
        assert response.status == 503
        assert json.loads(await response.text())["discord"] == "not connected"
        engine.health.set_platform("discord", True)
        assert (await client.get("/healthz")).status == 200

        db = Path(engine.store.path)
        # Not the -shm file: SQLite maps it into memory, and writes there would fault.
        make_immutable(immutable, db, db.with_name(db.name + "-wal"))
        response = await client.get("/healthz")
        assert response.status == 503
        state = json.loads(await response.text())
        assert state["status"] == "unhealthy"
        assert state["database"].startswith("not writable")
    finally:
        await client.close()


def test_config_errors_are_one_line_each(tmp_path: Path) -> None:
    core = load({}).core
    assert core.log_level == "INFO" and core.metrics_port is None
    found = problems(
        {
            "QUIZBOT_LOG_LEVEL": "loud",
            "QUIZBOT_LOG_FORMAT": "xml",
            "QUIZBOT_METRICS_PORT": "ninety",
            "QUIZBOT_DEFAULT_LANG": "fr",
            "QUIZBOT_QUIZ_LENGTH": "0",
            "QUIZBOT_BANKS": str(tmp_path / "nowhere"),
        }
    )
    assert len(found) == 6
    assert all("\n" not in p for p in found)
    assert any(p.startswith("QUIZBOT_LOG_LEVEL must be one of") for p in found)
    assert any("QUIZBOT_METRICS_PORT must be a number" in p for p in found)
    assert any("QUIZBOT_BANKS names no such directory" in p for p in found)
    toml = tmp_path / "quizbot.toml"
    toml.write_text('quiz_length = 5\ndefault_lang = "hi"\n', encoding="utf-8")
    core = load({"QUIZBOT_CONFIG": str(toml), "QUIZBOT_DEFAULT_LANG": "bn"}).core
    assert core.quiz_length == 5 and core.default_lang == "bn"  # the environment wins
    toml.write_text('quiz_length = 5\ncolour = "blue"\n', encoding="utf-8")
    found = problems({"QUIZBOT_CONFIG": str(toml)})
    assert found == [f"{toml}: unknown setting 'colour' (known: " + found[0].split("(known: ")[1]]


def test_cli_reports_config_problems_without_a_traceback() -> None:
    result = run_quizbot(
        "banks", "list", env={"QUIZBOT_LOG_FORMAT": "xml", "PATH": "/usr/bin:/bin"}, clear_env=True
    )
    assert result.returncode == 1
    assert result.stderr.strip() == "quizbot: QUIZBOT_LOG_FORMAT must be text or json, not 'xml'"


def test_bank_reload_adds_new_banks_and_keeps_broken_ones(tmp_path: Path) -> None:
    tiny = (FIXTURES / "tiny.yaml").read_text(encoding="utf-8")
    (tmp_path / "tiny.yaml").write_text(tiny, encoding="utf-8")
    catalog = load_catalog([tmp_path])
    assert [b.id for b in catalog.banks] == ["tiny"]
    other = tiny.replace("id: tiny", "id: other").replace('aliases: ["small-one"]', "")
    (tmp_path / "other.yaml").write_text(other, encoding="utf-8")
    (tmp_path / "tiny.yaml").write_text(tiny.replace("answer: 0", "answer: 9"), encoding="utf-8")
    reloaded = reload_catalog(catalog, [tmp_path])
    assert sorted(b.id for b in reloaded.banks) == ["other", "tiny"]
    assert reloaded.get("tiny") is catalog.get("tiny")  # the last good version
    assert any("answer 9 is out of range" in str(e) for e in reloaded.errors)


async def test_db_check_backup_and_a_corrupt_file(tmp_path: Path, engine: Engine) -> None:
    await engine.start_quiz(ANA, TEAM, "tiny", "en")
    good = Path(engine.store.path)
    check = run_quizbot("db", "check", "--db", str(good))
    assert check.returncode == 0 and check.stdout.strip() == f"{good}: ok"
    copy = tmp_path / "backup.db"
    backup = run_quizbot("db", "backup", str(copy), "--db", str(good))
    assert backup.returncode == 0, backup.stderr
    assert integrity_problems(copy) == []
    with sqlite3.connect(copy) as db:
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone() == (1,)
    again = run_quizbot("db", "backup", str(copy), "--db", str(good))
    assert again.returncode == 1 and "exists already" in again.stderr

    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    bad = run_quizbot("db", "check", "--db", str(corrupt))
    assert bad.returncode == 1
    assert bad.stderr.startswith(f"quizbot: {corrupt}:") and "Traceback" not in bad.stderr
    opened = run_quizbot("leaderboard", "--db", str(corrupt))
    assert opened.returncode == 1 and "Traceback" not in opened.stderr
    assert "cannot open the database" in opened.stderr


async def test_db_check_leaves_no_files_and_reads_a_read_only_copy(
    tmp_path: Path, catalog: Catalog, immutable: list[Path]
) -> None:
    db = tmp_path / "quiz.db"
    store = await Store.open(db)
    await Engine(catalog, store).start_quiz(ANA, TEAM, "tiny", "en")
    await store.close()
    before = sorted(p.name for p in tmp_path.iterdir())
    check = run_quizbot("db", "check", "--db", str(db))
    assert check.returncode == 0 and check.stdout == f"{db}: ok\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no -wal or -shm left
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    copy = shelf / "copy.db"
    shutil.copy(db, copy)
    make_immutable(immutable, copy, shelf)  # nothing can be written there, even by root
    readonly = run_quizbot("db", "check", "--db", str(copy))
    assert readonly.returncode == 0, readonly.stderr
    assert readonly.stdout == f"{copy}: ok\n"


async def test_the_first_schema_version_migrates_with_its_data(tmp_path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript((FIXTURES / "schema_v1.sql").read_text(encoding="utf-8"))
        assert db.execute("PRAGMA user_version").fetchone() == (1,)
    store = await Store.open(path)
    try:
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS),)
        engine = Engine(catalog, store)
        board = await engine.leaderboard(ANA, TEAM, "en")
        assert isinstance(board, Leaderboard)
        assert [(r.name, r.points) for r in board.rows] == [("Ana", 10)]
        # The run in progress kept its language and continues where it stopped.
        kept = await store.runs.load("a1b2c3d4e5f60718")
        assert kept is not None and (kept.locale, kept.position) == ("hi", 1)
        resumed = await engine.start_quiz(ANA, TEAM, "offloading", "hi", resume=True)
        assert isinstance(resumed, QuestionView)
        assert (resumed.number, resumed.locale, resumed.run_id) == (2, "hi", "a1b2c3d4e5f60718")
        assert await store.runs.player_locale("slack", "U2") == "bn"
        assert await store.database.setting("discord.commands_hash") == "0123abcd"
        assert integrity_problems(path) == []
    finally:
        await store.close()


def env_names(text: str) -> set[str]:
    names = set()
    for line in text.splitlines():
        stripped = line.lstrip("# ").strip()
        if "=" in stripped and stripped.split("=", 1)[0].isupper():
            names.add(stripped.split("=", 1)[0])
    return names


def test_deploy_files_match_the_code() -> None:
    text = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    assert env_names(text) == set(SETTINGS)
    lines = text.splitlines()
    for name, explanation in SETTINGS.items():  # each with its help line above it
        assert lines[lines.index(next(x for x in lines if x.startswith(f"# {name}="))) - 1] == (
            f"# {explanation}"
        )

    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert dockerfile.startswith("#") and "FROM python:3.11." in dockerfile
    assert "USER quizbot" in dockerfile and "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile
    for line in dockerfile.splitlines():
        if line.startswith("COPY "):
            for source in line.split()[1:-1]:
                assert (REPO / source).exists(), source
    env_in_docker = {w.split("=")[0] for w in dockerfile.split() if w.startswith("QUIZBOT_")}
    assert env_in_docker <= set(SETTINGS)
    cmd = json.loads(next(line for line in dockerfile.splitlines() if line.startswith("CMD "))[4:])
    assert cmd[0] == "quizbot"
    parser().parse_args(cmd[1:])  # a command that exists

    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["quizbot"]
    assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).exists()
    assert set(service["environment"]) <= set(SETTINGS)
    assert "quizbot-data" in compose["volumes"]
    parser().parse_args(service["command"][1:])

    unit = (DEPLOY / "quizbot.service").read_text(encoding="utf-8")
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    parser().parse_args(start.split()[1:])
    for setting in ("ProtectSystem=strict", "NoNewPrivileges=true", "Restart=on-failure"):
        assert setting in unit
    assert "ExecReload=/bin/kill -HUP $MAINPID" in unit
