"""The papers the report is organised by: what each claims, in a few sentences, and which
cases reproduce it -- read from the installed paper plug-ins (:data:`nsfric.plugins.PAPERS`,
entry-point group ``nsfric.papers``).  The keys are the ``source`` of the verdicts
(:mod:`nsfric.cases.verdicts`)."""
from __future__ import annotations

from ..plugins import PAPERS as _REGISTRY


class _Papers:
    """``{source: {"title", "cases", "claims"}}`` of the installed papers, in their declared
    order (a mapping read afresh, so that a plug-in installed later is seen)."""

    def _all(self) -> dict:
        return {p.key: {"title": p.title, "cases": p.cases, "claims": p.claims} for p in _REGISTRY.values()}

    def __iter__(self):
        return iter(self._all())

    def __contains__(self, key):
        return key in self._all()

    def __getitem__(self, key):
        return self._all()[key]

    def __len__(self):
        return len(self._all())

    def items(self):
        return self._all().items()

    def keys(self):
        return self._all().keys()


PAPERS = _Papers()


def paper_of(case_name: str) -> str | None:
    """The key of the paper ``case_name`` belongs to, or None."""
    for key, p in PAPERS.items():
        if case_name in p["cases"]:
            return key
    return None
