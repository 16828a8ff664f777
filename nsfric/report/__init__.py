"""One HTML page with every case's figures and tables and the symbolic check results.

``build_report(out_dir, cases)`` runs each case's ``run`` into ``out_dir/<case>``,
then writes ``out_dir/index.html`` (atomically) linking every output: figures inline,
small CSV tables rendered, larger ones linked, and the provenance of the run.
"""
from __future__ import annotations

import csv
import html
import os
import time

from ..io import versions, write_text

MAX_TABLE_ROWS = 40


def _table(path: str) -> str | None:
    with open(path) as f:
        rows = list(csv.reader(f))
    if len(rows) - 1 > MAX_TABLE_ROWS or not rows:
        return None

    def cell(x):
        try:
            return f"{float(x):.6g}"
        except ValueError:
            return html.escape(x)

    head = "".join(f"<th>{html.escape(h)}</th>" for h in rows[0])
    body = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in r) + "</tr>" for r in rows[1:])
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _checks_section() -> str:
    from ..symbolic.checks import run_checks

    rows = []
    for r in run_checks():
        status = "PASS" if r.passed else "FAIL"
        rows.append(f"<tr class='{status.lower()}'><td>{html.escape(r.name)}</td>"
                    f"<td>{html.escape(r.source)}</td><td>{html.escape(r.statement)}</td>"
                    f"<td>{status}</td><td>{r.seconds:.2f}</td></tr>")
    return ("<h2 id='checks'>Symbolic derivation checks</h2><table><thead><tr><th>check</th>"
            "<th>source</th><th>statement</th><th>result</th><th>s</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def build_report(out_dir: str, cases=None, checks: bool = True, progress=None) -> str:
    """Run the cases and write ``out_dir/index.html``; returns its path."""
    from ..cases import CASES, get_case

    names = list(cases) if cases else list(CASES)
    cases = [get_case(n) for n in names]  # validates the names before any work
    parts = []
    toc = []
    for case in cases:
        t0 = time.perf_counter()
        sub = os.path.join(out_dir, case.name)
        result = case.run(sub, progress=progress)
        secs = time.perf_counter() - t0
        toc.append(f"<li><a href='#{case.name}'>{case.name}</a></li>")
        items = [f"<h2 id='{case.name}'>{html.escape(case.name)}</h2>",
                 f"<p>{html.escape(case.reference)} &mdash; laws: {', '.join(case.laws)}; "
                 f"run in {secs:.1f} s.</p>"]
        for path in result["written"]:
            rel = os.path.relpath(path, out_dir)
            if path.endswith(".png"):
                items.append(f"<figure><img src='{html.escape(rel)}' alt='{html.escape(rel)}'>"
                             f"<figcaption>{html.escape(rel)}</figcaption></figure>")
            elif path.endswith(".csv"):
                tab = _table(path)
                link = f"<a href='{html.escape(rel)}'>{html.escape(rel)}</a>"
                items.append(f"<details><summary>{link}</summary>{tab}</details>" if tab
                             else f"<p>data: {link}</p>")
            else:
                items.append(f"<p><a href='{html.escape(rel)}'>{html.escape(rel)}</a></p>")
        parts.append("\n".join(items))
    if checks:
        if progress:
            progress("symbolic checks")
        parts.append(_checks_section())
        toc.append("<li><a href='#checks'>symbolic checks</a></li>")
    ver = ", ".join(f"{k} {v}" for k, v in versions().items())
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>nsfric report</title>
<style>
body {{ font-family: sans-serif; max-width: 1100px; margin: 2em auto; }}
img {{ max-width: 100%; }} figure {{ margin: 1em 0; }}
table {{ border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }}
td, th {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; }}
tr.fail td {{ background: #fdd; }}
</style></head><body>
<h1>nsfric report</h1>
<p>Numerically exact references for nonsmooth friction contact laws of DEM, and the
discrete schemes measured against them. Versions: {html.escape(ver)}.</p>
<ul>{''.join(toc)}</ul>
{''.join(parts)}
</body></html>
"""
    path = os.path.join(out_dir, "index.html")
    write_text(path, page)
    return path
