"""``python -m nsfric.symbolic.checks [--markdown [PATH]] [--only PATTERN] [--json]``.

Without ``--markdown``: run the checks, print a table (or JSON) and exit 1 if any
failed.  With ``--markdown``: write the checks page (default ``docs/checks.md``)
atomically and exit.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from . import checks_markdown, run_checks


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m nsfric.symbolic.checks", description=__doc__)
    ap.add_argument("--markdown", nargs="?", const="docs/checks.md", metavar="PATH",
                    help="write the checks page (default docs/checks.md) and exit")
    ap.add_argument("--only", metavar="PATTERN", help="glob or substring of check names")
    ap.add_argument("--json", action="store_true", help="print results as JSON")
    args = ap.parse_args(argv)
    if args.markdown:
        write_atomic(Path(args.markdown), checks_markdown())
        print(f"wrote {args.markdown}")
        return 0
    try:
        results = run_checks(args.only)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([r.as_dict() for r in results], indent=2, ensure_ascii=False))
    else:
        w = max(len(r.name) for r in results)
        for r in results:
            print(f"{r.name:<{w}}  {r.source:<28}  {'pass' if r.passed else 'FAIL'}  {r.seconds:6.2f} s")
            if not r.passed:
                print(f"    {r.detail}")
        print(f"{sum(r.passed for r in results)}/{len(results)} passed in "
              f"{sum(r.seconds for r in results):.1f} s")
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
