"""One offloaded job, in a fresh interpreter (``python -m bot.operations.offload_worker``):
read the parent's module path and the pickled job from stdin, limit this process's memory
and CPU priority, run the job, and write the pickled outcome to stdout."""

from __future__ import annotations

import os
import pickle
import resource
import sys
import traceback

# A check can wait; chats cannot: the job runs only when no other process wants the CPU
# (Linux's SCHED_IDLE, which also lets the bot preempt it at once), else at the lowest
# priority.
NICENESS = 19


def _yield_the_cpu() -> None:
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):  # not Linux, or not allowed here
        os.nice(NICENESS)


def main() -> None:
    path, job = pickle.load(sys.stdin.buffer)
    sys.path[:0] = [p for p in path if p not in sys.path]  # where the parent finds the job
    function, args, memory = pickle.loads(job)
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    _yield_the_cpu()
    try:
        outcome = (True, function(*args))
    except MemoryError:  # the input needs more than a bank may
        outcome = (False, "")
    except Exception:  # a bug: the parent logs it
        outcome = (False, traceback.format_exc())
    pickle.dump(outcome, sys.stdout.buffer, protocol=pickle.HIGHEST_PROTOCOL)


if __name__ == "__main__":
    main()
