"""Named studies ``nsfric run NAME`` runs besides the cases: measurements that are not one
published system, e.g. ``lammps-conformance`` (every LAMMPS contact style against its
exact law, :mod:`nsfric.adapters.lammps_conformance`).

A :class:`Study` names a callable ``run(out_dir, progress=None, params=None) -> {"written":
[paths]}`` by its module path, imported only when the study runs; one that also takes
``jobs`` runs its independent parts on that many local processes (``nsfric run NAME
--jobs N``).  Studies are registered with :func:`register_study` or through the
entry-point group ``nsfric.studies`` (a :class:`Study` instance).

Ground floor: imports no layer.
"""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass

from .plugins import GROUPS, LazyRegistry, named_adder, register_named


@dataclass(frozen=True)
class Study:
    """A study ``nsfric run`` knows by name.

    Parameters
    ----------
    name : str
        Registry name (``lammps-conformance``).
    target : str
        ``"module:function"`` of its ``run(out_dir, progress=None, params=None)``.
    doc : str
        One line: what it measures.
    params : tuple of str
        The ``--param`` names it takes.
    """

    name: str
    target: str
    doc: str = ""
    params: tuple = ()

    def run(self, out_dir: str, progress=None, params=None, jobs=None) -> dict:
        """Import :attr:`target` and run it; ValueError for a ``--param`` it does not take,
        or for ``jobs`` (local worker processes) when its function takes none."""
        unknown = sorted(set(params or {}) - set(self.params))
        if unknown:
            raise ValueError(f"study {self.name!r} takes the parameters {list(self.params)}, not {unknown}")
        if jobs is not None and not self.takes_jobs:
            raise ValueError(f"study {self.name!r} takes no jobs (it runs in one process)")
        extra = {} if jobs is None else {"jobs": jobs}
        return self.function()(out_dir, progress=progress, params=params or {}, **extra)

    def function(self):
        """The function :attr:`target` names (imported)."""
        module, _, func = self.target.partition(":")
        return getattr(importlib.import_module(module), func)

    @property
    def takes_jobs(self) -> bool:
        """Whether its function takes ``jobs``: independent parts on local processes."""
        return "jobs" in inspect.signature(self.function()).parameters


#: name -> :class:`Study` (completed by the entry-point group ``nsfric.studies``)
STUDIES: dict = LazyRegistry(GROUPS["studies"], named_adder(Study, "study"))


def register_study(study: Study) -> Study:
    """Add ``study`` to :data:`STUDIES` under its name; returns it."""
    return register_named(STUDIES, study, Study, "register_study")


def find_study(name: str):
    """The study ``name``, or None when there is none of that name."""
    try:
        return STUDIES.find(name)
    except KeyError:
        return None
