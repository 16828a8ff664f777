"""The command line of a benchmark script: ``--quick`` (the smoke test's small run) and
``--write`` (the results table into ``benchmarks/``), the table printed either way."""
from __future__ import annotations

import argparse
import os


def main(argv, doc: str, full, quick, report, results: str):
    """Run ``quick()`` with ``--quick``, else ``full()``; print ``report(result)``; with
    ``--write`` also write it to ``benchmarks/<results>``."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--write", action="store_true", help=f"write benchmarks/{results}")
    a = ap.parse_args(argv)
    text = report(quick() if a.quick else full())
    print(text)
    if a.write:
        with open(os.path.join(os.path.dirname(__file__), results), "w") as fh:
            fh.write(text)
