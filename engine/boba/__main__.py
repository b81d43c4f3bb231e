"""CLI: ``python -m engine.boba replay RECORD.json [--json] [--upto K]``.

Exit status 0 when every action is legal, 1 at an illegal action, 2 for a malformed record,
3 when the engine itself failed (a bug to report; its traceback is logged to stderr) (spec:
Replay).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import EXIT_MALFORMED, ReplayError
from .coverage import run as run_coverage
from .replay import Replay, describe, dumps, replay_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.boba")
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a BoBA game record")
    rp.add_argument("record", help="path to the record (JSON), or - for stdin")
    rp.add_argument("--json", action="store_true", help="print the replay as JSON")
    rp.add_argument("--upto", type=int, default=None, help="replay only the first K actions")
    rp.add_argument(
        "--trace", action="store_true", help="with --json: add the position after each action"
    )
    cov = sub.add_parser("coverage", help="which real Play cards the engine can run")
    cov.add_argument("plays", help="path to a plays list (../shared/data/boba/plays.json)")
    cov.add_argument("--json", action="store_true", help="print the coverage as JSON")
    cov.add_argument("--baseline", help="fail (exit 1) if a card listed there is not executable")
    cov.add_argument("--write-baseline", help="write the executable cards to this file")
    args = parser.parse_args(argv)
    if args.command == "coverage":
        status, text = run_coverage(args.plays, args.json, args.baseline, args.write_baseline)
        print(text)
        return status
    try:
        if args.record == "-":
            data: bytes = sys.stdin.buffer.read()
        else:
            with open(args.record, "rb") as fh:
                data = fh.read(64 * 1024 * 1024 + 1)
        result = replay_text(data, upto=args.upto, keep_states=args.trace)
    except OSError as exc:
        result = Replay(
            None, None, error=ReplayError("unreadable_record", None, str(exc), None, "record")
        )
    print(dumps(result, trace=args.trace) if args.json else describe(result))
    return (
        result.exit_status
        if result.error is None or result.error.action is not None
        else EXIT_MALFORMED
    )


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # The reader closed the pipe early (`| head`): not a failure of the command.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
