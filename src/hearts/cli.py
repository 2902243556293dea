"""The ``hearts`` command line: ``serve``, ``arena``, ``validate`` (SPEC §4), ``prune``."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Sequence


def _validate(args: argparse.Namespace) -> int:
    from hearts.record import IllegalStep, RecordError, validate

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"hearts validate: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        points = validate(text)
    except RecordError as exc:
        print(f"hearts validate: unreadable record: {exc}", file=sys.stderr)
        return 2
    except IllegalStep as exc:
        print(json.dumps({"illegal": exc.to_json()}, ensure_ascii=False))
        print(f"hearts validate: illegal {exc}", file=sys.stderr)
        return 1
    print(json.dumps(points))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from hearts.server.run import serve

    return serve(args)


def _prune(args: argparse.Namespace) -> int:
    from hearts.server.store.retention import run_cli

    return run_cli(args)


def _arena(args: argparse.Namespace) -> int:
    from hearts.bots.arena import run_cli

    return run_cli(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hearts", description="Hearts: play, measure, check.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("validate", help="check a hearts-hand/1 record against the rules")
    p.add_argument("file", help="the record's path, or - for standard input")
    p.set_defaults(func=_validate)

    p = sub.add_parser("serve", help="start the web game and print its address")
    from hearts.server.config import add_arguments  # every setting: docs/config.md

    add_arguments(p)
    p.set_defaults(func=_serve)

    p = sub.add_parser("prune", help="apply the retention policy once (docs/retention.md)")
    kept = ("unused_days", "keep_days", "room_lobby_days", "room_days")
    add_arguments(p, only=("database_url", "data_dir", *kept))
    p.add_argument("--dry-run", action="store_true", help="only print what would go")
    p.set_defaults(func=_prune)

    p = sub.add_parser("arena", help="play bots against each other (duplicate deals)")
    p.add_argument("--bots", default="hard,medium,medium,medium", help="one name per seat")
    p.add_argument("--hands", type=int, default=100, help="deals to play (each in every rotation)")
    p.add_argument("--matches", type=int, default=0, help="also play M matches to the target")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=0, help="worker processes (0: all cores)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--rules",
        default=None,
        metavar="JSON",
        help='the table\'s rules as in hearts-hand/1, e.g. \'{"players": 5, "jd_bonus": true}\' '
        "(players: the number of --bots by default)",
    )
    p.add_argument(
        "--opt",
        action="append",
        default=[],
        metavar="BOT.KEY=VALUE",
        help="a bot option, e.g. hard.budget_ms=300",
    )
    p.set_defaults(func=_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        result: int = args.func(args)
    except KeyboardInterrupt:
        # Ctrl+C: a stop asked for (the server has shut down: uvicorn raises it again
        # once it has), not an error to print a traceback for
        return 128 + signal.SIGINT
    return result


if __name__ == "__main__":
    raise SystemExit(main())
