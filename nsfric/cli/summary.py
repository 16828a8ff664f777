"""The closing summary of ``nsfric run``: after the paths of the files written, what they
are (figures, tables, sidecars), the verdicts of the case -- the published quantities it
reproduces, evaluated on the outputs just written (:meth:`~nsfric.cases.base.Case.verdicts`)
-- counted by status, the ones that do not match by name, and how to get the HTML report."""
from __future__ import annotations

import collections
import os

#: the groups of files, by suffix, in the order printed
GROUPS = (("figures", (".png", ".svg", ".pdf")), ("tables", (".csv",)), ("JSON sidecars", (".json",)))
#: the most verdicts that do not match named one by one
NAMED = 5


def file_groups(paths) -> dict:
    """``{group: count}`` of ``paths`` by suffix (:data:`GROUPS`, then ``other files``)."""
    counts = collections.Counter()
    for p in paths:
        ext = os.path.splitext(p)[1].lower()
        counts[next((g for g, exts in GROUPS if ext in exts), "other files")] += 1
    return {g: counts[g] for g in [g for g, _ in GROUPS] + ["other files"] if counts[g]}


def run_summary(case, out: str, paths) -> list:
    """The summary lines of ``nsfric run`` of ``case`` into ``out`` (``paths``: written)."""
    groups = ", ".join(f"{n} {g}" for g, n in file_groups(paths).items()) or "no files"
    lines = [f"{case.name}: wrote {len(paths)} files into {out}: {groups}"]
    verdicts = getattr(case, "verdicts", None)
    try:
        found = verdicts(out) if verdicts else []
    except (OSError, ValueError, KeyError) as e:  # the outputs are written; say it, do not fail
        lines.append(f"verdicts: not evaluated ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})")
        found = None
    if found == []:
        lines.append("verdicts: none declared for this case")
    elif found:
        from ..cases.verdicts import STATUSES, claims, inputs, merge_claims

        n_inputs = len(inputs(found))
        found = merge_claims(claims(found))
        counts = collections.Counter(v["status"] for v in found)
        lines.append(f"verdicts: {len(found)} paper claims: "
                     + ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
                     + (f" (and {n_inputs} inputs from the paper read back)" if n_inputs else ""))
        off = [v for v in found if v["status"] != "match"]
        for v in off[:NAMED]:
            lines.append(f"  {v['status']}: {v.get('quantity', '')} ({v.get('source', '')} {v.get('place', '')})".rstrip())
        if len(off) > NAMED:
            lines.append(f"  ... and {len(off) - NAMED} more")
    lines.append(f"report: nsfric report --cases {case.name} --out DIR writes the HTML page of the figures, "
                 "tables and verdicts")
    return lines
