"""The papers the report is organised by: what each claims, in a few sentences, and which
cases reproduce it -- read from the installed paper plug-ins (:data:`nsfric.plugins.PAPERS`,
entry-point group ``nsfric.papers``).  The keys are the ``source`` of the verdicts
(:mod:`nsfric.cases.verdicts`)."""
from __future__ import annotations

from ..plugins import PAPERS as _REGISTRY


def papers() -> dict:
    """``{source: {"title", "cases", "claims"}}`` of the installed papers, in their declared
    order (read at each call, so that a plug-in installed later is seen)."""
    return {p.key: {"title": p.title, "cases": p.cases, "claims": p.claims} for p in _REGISTRY.values()}


def paper_of(case_name: str) -> str | None:
    """The key of the paper ``case_name`` belongs to, or None."""
    for key, p in papers().items():
        if case_name in p["cases"]:
            return key
    return None
