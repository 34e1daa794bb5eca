"""`python -m generator.docs [--check] [--base-map MAP]`: regenerate the site's reference pages and pictures."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.docs.pictures import DocsError
from generator.docs.site import DEFAULT_BASE_MAP, generated, stale, write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m generator.docs", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 and list stale files")
    parser.add_argument("--root", type=Path, default=Path("."), help="the repository (default: here)")
    parser.add_argument("--base-map", type=Path, default=None, help=f"the board (default: {DEFAULT_BASE_MAP})")
    args = parser.parse_args(argv)
    root: Path = args.root
    try:
        files = generated(root, args.base_map or root / DEFAULT_BASE_MAP)
    except DocsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.check:
        found = stale(root, files)
        for path in found:
            print(f"stale: {path} (run: python -m generator.docs)")
        return 1 if found else 0
    for path in write(root, files):
        print(f"wrote {path}" if path in files else f"removed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
