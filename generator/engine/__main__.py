"""`python -m generator.engine dump FILE...`: what the real engine reads from game XMLs, as JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from generator.engine.harness import DEFAULT_HEAP, EngineError, find_engine


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m generator.engine dump FILE...``: print the dumps as one JSON object."""
    parser = argparse.ArgumentParser(prog="python -m generator.engine")
    sub = parser.add_subparsers(dest="command", required=True)
    dump_cmd = sub.add_parser("dump", help="parse game XMLs with TripleA 1.9 and print canonical JSON")
    dump_cmd.add_argument("files", nargs="+", type=Path)
    dump_cmd.add_argument("--heap", default=DEFAULT_HEAP, help="JVM max heap (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        engine = find_engine()
        docs = engine.dump(args.files, heap=args.heap)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        json.dump(docs, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (`| head`): no traceback about it, and nothing more is written
        # (what Python flushes at exit goes nowhere), as with the triplea-forge command.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    # Exit status 1 when the engine rejected any file, so scripts can branch on it.
    return 1 if any("error" in doc for doc in docs.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
