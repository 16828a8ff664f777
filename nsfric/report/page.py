"""The HTML of ``nsfric report``: per paper its claims, the verdict table, the figures with
captions and the data files; then what is not reproduced yet and the symbolic checks.
Images and data are referenced beside the page (relative links), nothing is fetched."""
from __future__ import annotations

import html
import math
import os

from ..cases.verdicts import claims, inputs
from .papers import papers

STATUS_CLASS = {"match": "match", "differs": "differs", "depends on reading": "reading",
                "not reproduced": "missing"}

STYLE = """
body { font-family: sans-serif; max-width: 1400px; margin: 2em auto; padding: 0 1em; line-height: 1.4; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; }
/* figures use the whole window width (up to their natural size): the legends of the
   three-panel figures stay readable */
figure { width: 96vw; position: relative; left: 50%; transform: translateX(-50%); margin: 1.5em 0;
         text-align: center; }
figcaption { font-size: 0.95em; color: #333; max-width: 1100px; margin: 0.3em auto; text-align: left; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; width: 100%; }
/* the verdict tables fit the page: fixed column widths, long values wrap */
table.verdicts { table-layout: fixed; }
table.verdicts td { overflow-wrap: anywhere; }
td, th { border: 1px solid #ccc; padding: 3px 6px; text-align: left; vertical-align: top; }
tr.match td.status { background: #dfd; } tr.differs td.status { background: #fed; }
tr.reading td.status { background: #ffc; }
tr.missing td.status { background: #eee; } tr.fail td { background: #fdd; }
td.num { font-family: monospace; }
td.status { font-weight: bold; }
ul.readings { margin: 0.3em 0 0 0; padding-left: 1.2em; }
small.id { color: #666; font-family: monospace; }
.claims { background: #f6f6fa; padding: 0.6em 1em; border-left: 4px solid #88a; }
"""


def esc(x) -> str:
    return html.escape(str(x), quote=True)


def fmt(v, depth=0) -> str:
    """A value of a verdict as short text: numbers with 6 significant digits."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, (int, float)):
        return f"{v:.6g}" if isinstance(v, float) and math.isfinite(v) else str(v)
    if isinstance(v, dict):
        return "; ".join(f"{k}: {fmt(x, depth + 1)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        items = [fmt(x, depth + 1) for x in v]
        if len(items) > 8:
            items = items[:3] + ["…"] + items[-3:]
        return "[" + ", ".join(items) + "]"
    return str(v)


def _readings(v) -> str:
    if not v.get("readings"):
        return ""
    items = "".join(f"<li><strong>{esc(r['status'])}</strong> under <em>{esc(r['name'])}</em>"
                    f"{' (' + esc(r['meaning']) + ')' if r.get('meaning') and r['meaning'] != v['quantity'] else ''}:"
                    f" {esc(fmt(r['value']))}{' &mdash; ' + esc(r['note']) if r.get('note') else ''}</li>"
                    for r in v["readings"])
    return f"<ul class='readings'>{items}</ul>"


def _paper(v) -> str:
    if v.get("paper_kind") == "formula":
        return f"{esc(fmt(v['paper']))} <small>(the paper's formula, evaluated by nsfric)</small>"
    return esc(fmt(v["paper"]))


COLUMNS = ("<colgroup><col style='width:22%'><col style='width:17%'><col style='width:13%'>"
           "<col style='width:9%'><col style='width:9%'><col style='width:30%'></colgroup>")


def verdict_table(verdicts) -> str:
    """One row per claim: where and what, the paper's value, nsfric's, the difference, the
    status and the note with the readings under which the claim was tried."""
    rows = []
    for v in verdicts:
        cases = v.get("cases") or [v["case"]]
        rows.append(
            f"<tr class='{STATUS_CLASS[v['status']]}'><td>{esc(v['place'])}: {esc(v['quantity'])}<br>"
            f"<small class='id'>{esc(v.get('id') or '')} &middot; {esc(', '.join(cases))}</small></td>"
            f"<td>{_paper(v)}</td><td class='num'>{esc(fmt(v['nsfric']))}</td>"
            f"<td class='num'>{esc(fmt(v['difference']))}</td>"
            f"<td class='status'>{esc(v['status'])}</td><td>{esc(v['note'])}{_readings(v)}</td></tr>")
    return ("<table class='verdicts'>" + COLUMNS + "<thead><tr><th>claim (place, cases)</th><th>paper</th>"
            "<th>nsfric</th><th>difference</th><th>status</th><th>note, readings</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def input_table(items) -> str:
    """The paper's inputs read back from the outputs and nsfric's own checks: not verdicts."""
    rows = "".join(f"<tr><td>{esc(v['place'])}</td><td>{esc(v['quantity'])}</td>"
                   f"<td>{'nsfric check' if v.get('kind') == 'check' else 'paper input'}</td>"
                   f"<td class='num'>{esc(fmt(v['paper']))}</td><td class='num'>{esc(fmt(v['nsfric']))}</td>"
                   f"<td>{esc(v['status'])}</td><td>{esc(v['case'])}</td></tr>" for v in items)
    return ("<details><summary>Inputs taken from the paper and read back from the outputs, and nsfric's own "
            f"checks where the paper has no such setting ({len(items)}; not counted as verdicts)</summary><table>"
            "<thead><tr><th>place</th><th>quantity</th><th>kind</th><th>paper / closed form</th><th>nsfric</th>"
            "<th>status</th><th>case</th></tr></thead><tbody>" + rows + "</tbody></table></details>")


def counts(verdicts) -> dict:
    """The number of claims (inputs left out) per status."""
    out = {s: 0 for s in STATUS_CLASS}
    for v in claims(verdicts):
        out[v["status"]] += 1
    return out


def case_block(run, out_dir) -> tuple:
    """HTML of one case's figures and files, and the figures without a caption."""
    case, written, captions = run["case"], run["written"], run["captions"]
    how = "from the cache" if run["cached"] else "computed"
    items = [f"<h3 id='{esc(case.name)}'>{esc(case.name)}</h3>",
             f"<p>{esc(case.reference)} &mdash; laws: {esc(', '.join(case.laws))}; outputs {how} "
             f"(run took {run['seconds']:.1f} s).</p>"]
    uncaptioned, data, other = [], [], []
    for path in written:
        rel = os.path.relpath(path, out_dir).replace(os.sep, "/")
        name = os.path.basename(path)
        if name.endswith(".png"):
            cap = captions.get(name)
            if cap is None:
                uncaptioned.append(rel)
            text = esc(cap) if cap else f"<em>no caption</em>"
            items.append(f"<figure><a href='{esc(rel)}'><img src='{esc(rel)}' alt='{esc(cap or name)}'>"
                         f"</a><figcaption>{text} <small>({esc(rel)})</small></figcaption></figure>")
        elif name.endswith(".csv"):
            data.append(f"<a href='{esc(rel)}' download>{esc(name)}</a>")
        else:
            other.append(f"<a href='{esc(rel)}'>{esc(name)}</a>")
    if data:
        items.append("<p>Data (CSV): " + ", ".join(data) + "</p>")
    if other:
        items.append("<p>Metadata: " + ", ".join(other) + "</p>")
    return "\n".join(items), uncaptioned


def page(runs, verdicts, out_dir, checks_html="", versions="") -> str:
    """The whole page (see the module docstring)."""
    known = papers()
    by_paper = {}
    for run in runs:
        by_paper.setdefault(run["paper"], []).append(run)
    summary, sections, uncaptioned = [], [], []
    for key in [k for k in known if k in by_paper] + [k for k in by_paper if k not in known]:
        mine = [v for v in verdicts if v["source"] == key] if key else []
        c = counts(mine)
        anchor = f"paper-{len(sections)}"
        title = known[key]["title"] if key in known else "Other cases"
        summary.append(f"<tr><td><a href='#{anchor}'>{esc(title)}</a></td>"
                       + "".join(f"<td>{c[st]}</td>" for st in STATUS_CLASS) + "</tr>")
        part = [f"<h2 id='{anchor}'>{esc(title)}</h2>"]
        if key in known:
            part.append(f"<p class='claims'><strong>What the paper claims.</strong> {esc(known[key]['claims'])}</p>")
        if claims(mine):
            part.append(f"<p>Verdicts (one per claim): {c['match']} match, {c['differs']} differ, "
                        f"{c['depends on reading']} depend on the reading, "
                        f"{c['not reproduced']} not reproduced.</p>" + verdict_table(claims(mine)))
        if inputs(mine):
            part.append(input_table(inputs(mine)))
        for run in by_paper[key]:
            block, unc = case_block(run, out_dir)
            part.append(block)
            uncaptioned += unc
        sections.append("\n".join(part))
    order = list(known)
    missing = sorted((v for v in claims(verdicts) if v["status"] != "match"),
                     key=lambda v: order.index(v["source"]) if v["source"] in order else len(order))
    todo = "".join(f"<li><strong>{esc(v['status'])}</strong>: {esc(v['source'])}, {esc(v['place'])}: "
                   f"{esc(v['quantity'])} &mdash; {esc(v['note'])}</li>" for v in missing)
    todo += "".join(f"<li>figure without a caption: {esc(r)}</li>" for r in uncaptioned)
    total = counts(verdicts)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>nsfric report</title>
<style>{STYLE}</style></head><body>
<h1>nsfric report</h1>
<p>Numerically exact references for nonsmooth friction contact laws of DEM, and the discrete
schemes measured against them. Each verdict compares a published quantity with nsfric's value,
computed from the case's outputs (<a href="verdicts.json">verdicts.json</a>).
Versions: {esc(versions)}.</p>
<table><thead><tr><th>paper</th>{''.join(f"<th>{esc(st)}</th>" for st in STATUS_CLASS)}</tr></thead>
<tbody>{''.join(summary)}<tr><td>all</td>{''.join(f"<td>{total[st]}</td>" for st in STATUS_CLASS)}</tr></tbody></table>
<p><a href="#not-reproduced">What differs or is not reproduced yet</a>{' &middot; <a href="#checks">symbolic checks</a>' if checks_html else ''}</p>
{''.join(sections)}
<h2 id="not-reproduced">What differs, depends on a reading or is not reproduced yet</h2>
<ul>{todo or '<li>nothing</li>'}</ul>
{checks_html}
</body></html>
"""


def checks_html(results) -> str:
    rows = []
    for r in results:
        status = "PASS" if r["passed"] else "FAIL"
        rows.append(f"<tr class='{status.lower()}'><td>{esc(r['name'])}</td><td>{esc(r['source'])}</td>"
                    f"<td>{esc(r['statement'])}</td><td>{status}</td><td>{r['seconds']:.2f}</td></tr>")
    return ("<h2 id='checks'>Symbolic derivation checks</h2><table><thead><tr><th>check</th>"
            "<th>source</th><th>statement</th><th>result</th><th>s</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")
