"""``quizbot``'s entry point: the command run, its problems as ``quizbot:`` lines on
standard error and an exit code, never a traceback."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from bot.operations import logs
from bot.persistence import StoreError

from ..errors import SetupError
from .commands import parser


def main(argv: Sequence[str] | None = None) -> int:
    logs.configure("WARNING")
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except SetupError as exc:
        for line in str(exc).splitlines():
            print(f"quizbot: {line}", file=sys.stderr)
        return exc.exit_code
    except StoreError as exc:
        print(f"quizbot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`quizbot banks export | head`): end quietly, and keep the
        # interpreter's final flush from raising again on the closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a tool the pipe closed on
