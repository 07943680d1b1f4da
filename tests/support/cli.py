"""The ``quizbot`` command run inside the test process: ``main`` with the arguments, the
environment and the standard input given, and what a user would see of it: the exit code,
standard output and standard error (``run_quizbot``), or its output read and answered as
it comes (``conversation``). No interpreter to start and nothing to import again, so a
test may run many commands; a test that needs a real process (a shell's pipe, a terminal,
a signal, the installed script) starts one itself."""

from __future__ import annotations

import io
import logging
import os
import queue
import sys
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO
from unittest import mock

from adapters.cli import main


@dataclass(frozen=True)
class Outcome:
    returncode: int
    stdout: str
    stderr: str


def run_quizbot(
    *args: str, stdin: str = "", env: Mapping[str, str] | None = None, clear_env: bool = False
) -> Outcome:
    """``quizbot ARGS``, with ``env`` over the test's environment (instead of it, with
    ``clear_env``) and ``stdin`` for its input. ``main`` runs in a thread of its own, so
    that its event loop never meets an async test's; the test waits for it, as for a
    process."""
    out, err = io.StringIO(), io.StringIO()
    with (
        _redirected(io.StringIO(stdin), out, err, env or {}, clear_env),
        ThreadPoolExecutor(1, thread_name_prefix="quizbot") as thread,
    ):
        code = thread.submit(_exit_code, args).result()
    return Outcome(code, _as_read(out), _as_read(err))


class Keyboard(io.TextIOBase):
    """Standard input that a test types into, one ``write`` a line; closing it is Ctrl-D.
    It has no file descriptor, so the command reads it with ``readline``: no thread of the
    command's is left reading a descriptor that is closed, and then reused, after it."""

    def __init__(self) -> None:
        super().__init__()
        self._lines: queue.SimpleQueue[str] = queue.SimpleQueue()

    def write(self, line: str) -> int:
        self._lines.put(line)
        return len(line)

    def readline(self, size: int | None = -1) -> str:
        return self._lines.get()

    def close(self) -> None:
        self._lines.put("")
        super().close()


@dataclass(frozen=True)
class Conversation:
    stdin: Keyboard
    stdout: TextIO  # read to its end once the command has ended
    running: Future[int]  # its exit code


@contextmanager
def conversation(*args: str, env: Mapping[str, str] | None = None) -> Iterator[Conversation]:
    """``quizbot ARGS`` running while the test reads its questions and answers them, as a
    person at the keyboard does; its standard error is the test's. Inside the block the
    test's own ``print`` would go to the command's output."""
    keyboard = Keyboard()
    read_end, write_end = os.pipe()
    with (
        open(read_end, encoding="utf-8") as shown,
        open(write_end, "w", encoding="utf-8") as stdout,
        _redirected(keyboard, stdout, sys.stderr, env or {}, clear_env=False),
        ThreadPoolExecutor(1, thread_name_prefix="quizbot") as thread,
        keyboard,  # closed first: a command still waiting for an answer ends
    ):
        running = thread.submit(_exit_code, args)
        running.add_done_callback(lambda _: stdout.close())  # the end of what the test reads
        yield Conversation(keyboard, shown, running)


def _as_read(stream: io.StringIO) -> str:
    """What was written, read as ``subprocess.run(text=True)`` reads a pipe: "\\r\\n" and
    a lone "\\r" become "\\n"."""
    return stream.getvalue().replace("\r\n", "\n").replace("\r", "\n")


def _exit_code(args: Sequence[str]) -> int:
    try:
        return main(list(args))
    except SystemExit as exited:  # argparse's: --help, --version, a usage error
        assert exited.code is None or isinstance(exited.code, int), exited.code
        return exited.code or 0


@contextmanager
def _redirected(
    stdin: io.TextIOBase,
    stdout: io.TextIOBase | TextIO,
    stderr: io.TextIOBase | TextIO,
    env: Mapping[str, str],
    clear_env: bool,
) -> Iterator[None]:
    """The process-wide state a command reads or changes, for the length of the block:
    the environment, the standard streams, and the root logger (``main`` configures it
    afresh, with a handler on this standard error); all as they were after it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        with (
            mock.patch.dict(os.environ, env, clear=clear_env),
            mock.patch.multiple(sys, stdin=stdin, stdout=stdout, stderr=stderr),
        ):
            yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
