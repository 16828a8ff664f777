"""Provenance of a reference trajectory: what the JSON sidecar of ``nsfric reference`` holds."""
from __future__ import annotations

from ..io import versions


def reference_meta(case, law, sol, cross=None) -> dict:
    """Case, law, parameters, solver, tolerances, versions, event log, statistics and the
    case's scalar observables ``summary`` (:meth:`~nsfric.cases.base.Case.observables`,
    computed here and stored on ``sol`` if the solution has none yet)."""
    if not sol.summary:
        sol.summary = case.observables(law, sol)
    meta = {
        "case": case.name,
        "law": law,
        "reference": sol.model.reference,
        "parameters": dict(sol.params),
        "solver": sol.solver,
        "tolerances": sol.tolerances,
        "t_span": list(sol.t_span),
        "states": list(sol.model.state_names),
        "derived": list(sol.model.output_names),
        "events": [{"t": e["t"], "kind": e["kind"], "from": e["from"], "to": e["to"]}
                   for e in sol.event_log()],
        "segments": [{"mode": s.mode, "t0": s.t0, "t1": s.t1} for s in sol.segments],
        "stats": sol.stats,
        "termination": sol.termination,
        "summary": dict(sol.summary),
        "solver_messages": sol.info.get("solver_messages", []),
        "versions": versions(),
    }
    if cross is not None:
        meta["cross_check"] = cross
    return meta
