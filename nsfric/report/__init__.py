"""``nsfric report``: one HTML page stating what each paper claims and what nsfric reproduces.

``build_report(out_dir, cases)`` runs each case's ``run`` into ``out_dir/<case>`` -- or
copies its outputs from the cache when its inputs did not change
(:mod:`nsfric.report.cache`; ``force=True`` recomputes) --, evaluates the case's verdicts
(:meth:`nsfric.cases.base.Case.verdicts`) on those outputs, and writes
``out_dir/verdicts.json`` and ``out_dir/index.html`` (:mod:`nsfric.report.page`).

A case that fails does not stop the others: every case runs (and the ones that complete
are cached), then :class:`~nsfric.errors.ReportError` names each failed case with its error, and no page
is written.  Run the report again: the completed cases come from the cache and only the
failed ones run.
"""
from __future__ import annotations

import os
import time

from ..cases.verdicts import KEYS, merge_claims
from ..errors import ReportError
from ..io import json_text, versions, write_text
from . import cache
from .page import checks_html, page
from .papers import paper_of

def _failure(exc: BaseException) -> str:
    line = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {line}"


def _guarded(case, dest, force, progress) -> dict:
    """:func:`run_case`, a failure returned as ``{"failed": error}`` instead of raised
    (interrupts still propagate)."""
    try:
        return run_case(case, dest, force, progress)
    except Exception as exc:  # noqa: BLE001 -- any case's failure is reported by name, below
        return {"case": case, "failed": _failure(exc)}


#: the keys of every verdict in verdicts.json (:data:`nsfric.cases.verdicts.KEYS`)
VERDICT_KEYS = KEYS


def _files(folder: str) -> list:
    out = []
    for d, _, files in os.walk(folder):
        out += [os.path.relpath(os.path.join(d, f), folder) for f in files]
    return sorted(out)


def run_case(case, dest: str, force: bool = False, progress=None) -> dict:
    """The outputs of ``case`` in ``dest``: from the cache, or computed (and cached)."""
    spec = cache.case_spec(case)
    key = cache.cache_store.spec_key(spec)[:32]
    manifest = None if force else cache.load(key, dest, spec)
    cached = manifest is not None
    if not cached:
        t0 = time.perf_counter()
        result = case.run(dest, progress=progress)
        seconds = time.perf_counter() - t0
        written = [os.path.relpath(p, dest) for p in result["written"]]
        manifest = {"case": case.name, "seconds": seconds, "written": written, "files": _files(dest)}
        cache.store(key, manifest, dest, spec)
    return {"case": case, "paper": paper_of(case.name), "cached": cached,
            "seconds": manifest["seconds"], "captions": case.captions(),
            "written": [os.path.join(dest, p) for p in manifest["written"]]}


def _checks(force: bool, progress=None) -> list:
    spec = cache.checks_spec()
    key = cache.cache_store.spec_key(spec)[:32]
    hit = None if force else cache.load(key, spec=spec)
    if hit is not None:
        return hit["results"]
    from ..symbolic.checks import run_checks

    if progress:
        progress("symbolic checks")
    results = [{"name": r.name, "source": r.source, "statement": r.statement,
                "passed": bool(r.passed), "seconds": r.seconds} for r in run_checks()]
    cache.store(key, {"results": results, "files": []}, spec=spec)
    return results


def _case_outputs(task) -> dict:
    """:func:`run_case` in a worker process: ``(case name, dest, force)`` -> its record
    with the case by name (the parent puts its case object back); ``{"unknown": name}``
    where the worker does not know the case (registered at run time in the parent, and the
    worker a fresh interpreter, not a fork): the parent runs it itself."""
    from ..cases import get_case

    name, dest, force = task
    try:
        case = get_case(name)
    except ValueError:
        return {"unknown": name}
    return dict(_guarded(case, dest, force, None), case=name)


def _run_cases(objs, out_dir: str, force: bool, progress, jobs: int) -> list:
    """The records of :func:`run_case` of ``objs``, in order; ``jobs`` > 1: the cases
    on a pool of local processes (:func:`nsfric.study.execute.run_tasks`), each writing
    its own folder."""
    if jobs <= 1 or len(objs) <= 1:
        runs = []
        for case in objs:
            if progress:
                progress(f"{case.name}")
            runs.append(_guarded(case, os.path.join(out_dir, case.name), force, progress))
        return runs
    from ..study.execute import run_tasks

    done = {}

    def arrived(i, run):
        if "unknown" in run:  # a case only this process knows: run here, below
            return
        done[i] = dict(run, case=objs[i])
        if progress:
            state = "FAILED" if "failed" in run else "done"
            progress(f"{objs[i].name}: {state} ({len(done)}/{len(objs)} cases)")

    todo = [(i, (case.name, os.path.join(out_dir, case.name), force)) for i, case in enumerate(objs)]
    run_tasks(_case_outputs, todo, arrived, jobs=jobs, chunksize=1)
    for i, case in enumerate(objs):
        if i not in done:
            if progress:
                progress(f"{case.name} (in this process: the workers do not know it)")
            done[i] = _guarded(case, os.path.join(out_dir, case.name), force, progress)
    return [done[i] for i in range(len(objs))]


def build_report(out_dir: str, cases=None, checks: bool = True, progress=None, force: bool = False,
                 jobs: int = 1) -> str:
    """Write ``out_dir/index.html`` and ``out_dir/verdicts.json``; returns the page's path.

    Parameters
    ----------
    out_dir : str
        Folder of the page; each case's outputs go to ``out_dir/<case>``.
    cases : sequence of str, optional
        Case names (default: every registered case whose ``in_report`` is true).
    checks : bool
        Include the symbolic derivation checks.
    force : bool
        Recompute every case (and the checks) instead of reusing the cache.
    jobs : int
        Local worker processes running the cases (default 1: in this process, in order);
        the page and the verdicts do not depend on it.
    """
    from ..arguments import integer
    from ..cases import CASES, get_case

    jobs = integer(jobs, "jobs", lo=1)
    names = list(cases) if cases else [n for n in CASES if getattr(get_case(n), "in_report", True)]
    objs = [get_case(n) for n in names]  # validates the names before any work
    runs = _run_cases(objs, out_dir, force, progress, jobs)
    failed = [r for r in runs if "failed" in r]
    if failed:
        done = len(runs) - len(failed)
        raise ReportError(f"{len(failed)} of {len(runs)} cases failed -- "
                          + "; ".join(f"{r['case'].name}: {r['failed']}" for r in failed)
                          + f" -- the other {done} completed and are cached: run the report again to run only "
                          "the failed ones (no page written)")
    verdicts = []
    for case in objs:
        verdicts += [{k: v.get(k) for k in VERDICT_KEYS} for v in case.verdicts(os.path.join(out_dir, case.name))]
    verdicts = merge_claims(verdicts)  # one verdict per claim, its cases listed
    checks_part = checks_html(_checks(force, progress)) if checks else ""
    write_text(os.path.join(out_dir, "verdicts.json"), json_text(verdicts))
    ver = ", ".join(f"{k} {v}" for k, v in versions().items())
    path = os.path.join(out_dir, "index.html")
    write_text(path, page(runs, verdicts, out_dir, checks_part, ver))
    return path
