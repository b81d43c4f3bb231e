"""CLI: ``python -m engine.bos replay RECORD.json [--json]``.

Exit status 0 when every action is legal, 1 at an illegal action, 2 for a malformed or
unreadable record, 3 when the engine itself failed (a bug to report).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import ReplayError
from .replay import Replay, describe, dumps, replay_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bos")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a BOS game record")
    rp.add_argument("record", help="path to the record (JSON), or - for stdin")
    rp.add_argument("--json", action="store_true", help="print the replay as JSON")
    args = parser.parse_args(argv)
    try:
        if args.record == "-":
            data: bytes = sys.stdin.buffer.read()
        else:
            with open(args.record, "rb") as fh:
                data = fh.read(64 * 1024 * 1024 + 1)
        result = replay_text(data)
    except OSError as exc:
        result = Replay(
            None, None, error=ReplayError("unreadable_record", None, str(exc), None, "record")
        )
    print(dumps(result) if args.json else describe(result))
    return result.exit_status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
