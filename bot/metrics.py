"""Counters, gauges and histograms in the Prometheus text format, without a client
library: a few dozen lines cover what quizbot exports (see the README's operations
section for the list)."""

from __future__ import annotations

import bisect
import threading
from collections.abc import Callable, Iterable

Labels = tuple[tuple[str, str], ...]


def _labels(labels: Labels, extra: Labels = ()) -> str:
    pairs = (*labels, *extra)
    if not pairs:
        return ""
    body = ",".join(f'{k}="{_escape(v)}"' for k, v in pairs)
    return "{" + body + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


class _Metric:
    kind = ""

    def __init__(self, name: str, help_text: str):
        self.name = name
        self.help = help_text
        self._lock = threading.Lock()

    def header(self) -> list[str]:
        return [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]

    def lines(self) -> list[str]:
        raise NotImplementedError


class Counter(_Metric):
    kind = "counter"

    def __init__(self, name: str, help_text: str):
        super().__init__(name, help_text)
        self._values: dict[Labels, float] = {}

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(tuple(sorted(labels.items())), 0.0)

    def lines(self) -> list[str]:
        return [f"{self.name}{_labels(k)} {v:g}" for k, v in sorted(self._values.items())]


class Gauge(_Metric):
    """A value read when scraped, from a function (e.g. runs in progress)."""

    kind = "gauge"

    def __init__(self, name: str, help_text: str, read: Callable[[], float] | None = None):
        super().__init__(name, help_text)
        self.read = read

    def lines(self) -> list[str]:
        return [f"{self.name} {self.read():g}"] if self.read else []


class Histogram(_Metric):
    kind = "histogram"

    def __init__(self, name: str, help_text: str, buckets: Iterable[float]):
        super().__init__(name, help_text)
        self.buckets = tuple(sorted(buckets))
        self._counts = [0] * (len(self.buckets) + 1)
        self._sum = 0.0

    def observe(self, value: float) -> None:
        with self._lock:
            self._counts[bisect.bisect_left(self.buckets, value)] += 1
            self._sum += value

    @property
    def count(self) -> int:
        return sum(self._counts)

    def lines(self) -> list[str]:
        out, running = [], 0
        for bound, count in zip((*self.buckets, float("inf")), self._counts, strict=True):
            running += count
            le = "+Inf" if bound == float("inf") else f"{bound:g}"
            out.append(f"{self.name}_bucket{_labels((), (('le', le),))} {running}")
        out += [f"{self.name}_sum {self._sum:g}", f"{self.name}_count {running}"]
        return out


class Registry:
    def __init__(self) -> None:
        self.metrics: list[_Metric] = []

    def add(self, metric: _Metric) -> _Metric:
        self.metrics.append(metric)
        return metric

    def render(self) -> str:
        lines: list[str] = []
        for metric in self.metrics:
            lines += [*metric.header(), *metric.lines()]
        return "\n".join(lines) + "\n"


REGISTRY = Registry()
ANSWERS = Counter("quizbot_answers_recorded_total", "Answers written to the database, by mode.")
ANSWER_SECONDS = Histogram(
    "quizbot_answer_seconds",
    "From a click reaching the engine to its feedback, answer recorded on disk.",
    (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
INTERACTIONS = Counter(
    "quizbot_interactions_total", "Commands and clicks handled, by platform and outcome."
)
API_ERRORS = Counter(
    "quizbot_platform_api_errors_total", "Platform API calls that failed, by platform."
)
API_RETRIES = Counter(
    "quizbot_platform_api_retries_total", "Platform API calls retried, by platform."
)
DAILY_POSTS = Counter("quizbot_daily_posts_total", "Daily questions, by outcome (made, missed).")
DAILY_REVEALS = Counter(
    "quizbot_daily_reveals_total", "Daily results posted, by outcome (made, failed: retried)."
)
SCHEDULER_ERRORS = Counter(
    "quizbot_scheduler_errors_total", "Scheduled work that failed with a bug, by kind of work."
)
RUNS_IN_PROGRESS = Gauge("quizbot_runs_in_progress", "Personal quiz runs started, not finished.")
for _metric in (
    ANSWERS, ANSWER_SECONDS, INTERACTIONS, API_ERRORS, API_RETRIES, DAILY_POSTS, DAILY_REVEALS,
    SCHEDULER_ERRORS, RUNS_IN_PROGRESS,
):  # fmt: skip
    REGISTRY.add(_metric)
