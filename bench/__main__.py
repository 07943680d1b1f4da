"""Run every benchmark, one after another, each appending to bench/RESULTS.md.

python -m bench            # all of them (about 10 minutes on 2 cores)
python -m bench --quick    # smaller sizes, to check that they run
"""

from __future__ import annotations

import argparse
import subprocess
import sys

FULL = [
    ["answer_path"],
    ["leaderboards"],
    ["memory"],
    ["startup"],
    ["slack_clicks"],
    ["upload_attack"],
    ["discord_clicks"],
    ["answer_backends"],
    ["slack_workers"],
]
QUICK = {
    "answer_path": ["--seconds", "1", "--rates", "500,1000", "--burst", "1000"],
    "leaderboards": ["--answers", "50000", "--queries", "50"],
    "memory": ["--runs", "1000"],
    "startup": ["--repeat", "1"],
    "answer_backends": ["--seconds", "1", "--rates", "500", "--burst", "1000"],
    "slack_workers": ["--seconds", "1", "--rates", "200"],
    "upload_attack": ["--seconds", "2", "--rounds", "1"],
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    failed = []
    for (name,) in FULL:
        extra = QUICK.get(name, []) if args.quick else []
        # Each in its own process: memory and start-up figures must not mix.
        code = subprocess.run([sys.executable, "-m", f"bench.{name}", *extra], check=False)
        if code.returncode:
            failed.append(name)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
