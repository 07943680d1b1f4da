"""quizbot's metrics, in the maintained Prometheus client: labels are declared with each
metric, so a misspelt label fails at once instead of making a new series. Everything is
registered on quizbot's own registry (with the process's CPU, memory and file
descriptors), which ``/metrics`` serves."""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

ANSWERS = Counter(
    "quizbot_answers_recorded",
    "Answers written to the database, by mode.",
    ["mode"],
    registry=REGISTRY,
)
ANSWER_SECONDS = Histogram(
    "quizbot_answer_seconds",
    "From a click reaching the engine to its feedback, answer recorded on disk.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
    registry=REGISTRY,
)
INTERACTIONS = Counter(
    "quizbot_interactions",
    "Commands and clicks handled, by platform and outcome.",
    ["platform", "outcome"],
    registry=REGISTRY,
)
API_ERRORS = Counter(
    "quizbot_platform_api_errors",
    "Platform API calls that failed, by platform.",
    ["platform"],
    registry=REGISTRY,
)
API_RETRIES = Counter(
    "quizbot_platform_api_retries",
    "Platform API calls retried, by platform.",
    ["platform"],
    registry=REGISTRY,
)
REMINDERS = Counter(
    "quizbot_review_reminders",
    "Review reminders, by outcome (sent, failed).",
    ["outcome"],
    registry=REGISTRY,
)
DAILY_POSTS = Counter(
    "quizbot_daily_posts",
    "Daily questions, by outcome (made, missed).",
    ["outcome"],
    registry=REGISTRY,
)
DAILY_REVEALS = Counter(
    "quizbot_daily_reveals",
    "Daily results posted, by outcome (made, failed: retried).",
    ["outcome"],
    registry=REGISTRY,
)
GATEWAY_RECONNECTS = Counter(
    "quizbot_gateway_reconnect_attempts",
    "Attempts to reconnect to a platform's gateway that failed (each outage retries with backoff).",
    registry=REGISTRY,
)
LOOP_LONGEST_STALL = Gauge(
    "quizbot_event_loop_longest_stall_seconds",
    "The longest time the event loop was held by one piece of work since the process started.",
    registry=REGISTRY,
)
SCHEDULER_LEADER = Gauge(
    "quizbot_scheduler_leader",
    "1 while this process runs the scheduler (one process does, with several on a database).",
    registry=REGISTRY,
)
SCHEDULER_PASSES = Counter(
    "quizbot_scheduler_passes",
    "Passes of the scheduler's loop, leading or not: it is alive when this grows.",
    registry=REGISTRY,
)
SCHEDULER_ERRORS = Counter(
    "quizbot_scheduler_errors",
    "Scheduled work that failed with a bug, by kind of work.",
    ["work"],
    registry=REGISTRY,
)
TASK_FAILURES = Counter(
    "quizbot_background_task_failures",
    "Background tasks that ended with an exception, by task.",
    ["task"],
    registry=REGISTRY,
)
OFFLOADED_JOBS = Counter(
    "quizbot_offloaded_jobs",
    "Jobs run in a child process off the event loop (checking a bank file), by outcome"
    " (done; busy: refused with the queue full; slow: stopped at the time limit; crashed).",
    ["outcome"],
    registry=REGISTRY,
)
RUNS_IN_PROGRESS = Gauge(
    "quizbot_runs_in_progress", "Personal quiz runs started, not finished.", registry=REGISTRY
)


def exposition() -> tuple[bytes, str]:
    """The registry in the Prometheus text format, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def sample(name: str, **labels: str) -> float:
    """One sample's current value (0 when it has none yet), e.g. for tests and benchmarks."""
    return REGISTRY.get_sample_value(name, labels) or 0.0
