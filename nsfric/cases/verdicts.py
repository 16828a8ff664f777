"""Verdicts: the published quantities a case reproduces, compared with nsfric's values.

A verdict is one dict with the keys ``case, source, place, quantity, paper, nsfric,
difference, status, note``: the paper (``source``) and the place in it (eq/Fig/Table),
what is compared, the paper's value or claim, nsfric's value -- always computed from the
outputs the case's ``run`` wrote (never typed in) --, their difference and a status:

* ``match`` -- within the stated tolerance, or the claim holds;
* ``differs`` -- the note says why;
* ``not reproduced`` -- the output needed is missing, or the quantity is not computed
  (yet); the note says what is missing.

Declarations live in the paper plug-ins (the ``verdicts`` modules a
:class:`~nsfric.plugins.Paper` names), each registering a function ``f(out_dir) -> list
of dicts`` per case with :func:`verdicts_for` and the figure captions with
:func:`captions_for`.  :meth:`nsfric.cases.base.Case.verdicts`
and :meth:`~nsfric.cases.base.Case.captions` look them up here.
"""
from __future__ import annotations

import csv
import json
import math
import os

import numpy as np

from ..plugins import PAPERS

STATUSES = ("match", "differs", "not reproduced")

_VERDICTS: dict = {}
_CAPTIONS: dict = {}
_loaded = False


def verdicts_for(case_name: str):
    """Register ``f(out_dir) -> list of verdict dicts`` for ``case_name`` (decorator)."""
    def deco(f):
        _VERDICTS.setdefault(case_name, []).append(f)
        return f
    return deco


def captions_for(case_name: str, captions: dict):
    """Register figure captions ``{file name: caption}`` of ``case_name``."""
    _CAPTIONS.setdefault(case_name, {}).update(captions)


def _load():
    global _loaded
    if not _loaded:
        _loaded = True
        for paper in PAPERS.values():  # the installed paper plug-ins
            paper.load("verdicts")


def case_verdicts(case_name: str, out_dir: str) -> list:
    """Every registered verdict of ``case_name`` evaluated on its outputs in ``out_dir``."""
    _load()
    out = []
    for f in _VERDICTS.get(case_name, []):
        out += f(out_dir)
    return out


def case_captions(case_name: str) -> dict:
    _load()
    return dict(_CAPTIONS.get(case_name, {}))


# -- reading a case's outputs ---------------------------------------------------------
class Outputs:
    """The files a case's ``run`` wrote into ``out_dir``: JSON and CSV by name."""

    def __init__(self, out_dir: str):
        self.dir = out_dir
        self._cache = {}

    def json(self, name: str) -> dict:
        path = os.path.join(self.dir, name)
        if path not in self._cache:
            with open(path) as f:
                self._cache[path] = json.load(f)
        return self._cache[path]

    def csv(self, name: str) -> dict:
        """``{column: array}``; numeric columns as float arrays, others as str arrays."""
        path = os.path.join(self.dir, name)
        if path not in self._cache:
            with open(path) as f:
                rows = list(csv.reader(f))
            cols = {}
            for j, h in enumerate(rows[0]):
                col = [r[j] for r in rows[1:]]
                try:
                    cols[h] = np.array([float(x) if x != "" else math.nan for x in col])
                except ValueError:
                    cols[h] = np.array(col)
            self._cache[path] = cols
        return self._cache[path]

    def records(self, name: str) -> list:
        """The rows of ``name`` as dicts ``{column: value}`` (the values of :meth:`csv`)."""
        cols = self.csv(name)
        return [dict(zip(cols, vals)) for vals in zip(*cols.values())]

    def rows(self, name: str, **where) -> dict:
        """The columns of ``name`` restricted to the rows where each ``column == value``."""
        cols = self.csv(name)
        keep = np.ones(len(next(iter(cols.values()))), bool)
        for k, v in where.items():
            keep &= cols[k] == v
        return {k: c[keep] for k, c in cols.items()}


_MISSING = (OSError, KeyError, IndexError, ValueError, TypeError)


class Sheet:
    """Collects the verdicts of one case and one paper (``source``)."""

    def __init__(self, case: str, source: str, out_dir: str):
        self.case, self.source, self.out = case, source, Outputs(out_dir)
        self.items = []

    def _add(self, place, quantity, paper, nsfric, difference, status, note):
        if status not in STATUSES:  # pragma: no cover - programming error
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        self.items.append({"case": self.case, "source": self.source, "place": place,
                           "quantity": quantity, "paper": paper, "nsfric": nsfric,
                           "difference": difference, "status": status, "note": note})

    def _value(self, place, quantity, paper, get):
        try:
            return True, get()
        except _MISSING as e:
            self._add(place, quantity, paper, None, None, "not reproduced",
                      f"output missing or unreadable: {type(e).__name__}: {e}")
            return False, None

    def number(self, place, quantity, paper, get, tol=None, rtol=None, reason="", note=""):
        """Compare the number ``get()`` with the paper's number ``paper`` (or ``paper()``,
        the paper's formula evaluated on the case's parameters): ``match`` when
        ``|nsfric - paper| <= tol`` (absolute) or ``<= rtol |paper|``; else ``differs``
        with ``reason`` (or the tolerance missed)."""
        if callable(paper):  # the paper's formula evaluated with the case's parameters
            ok, paper = self._value(place, quantity, "(formula)", paper)
            if not ok:
                return
        ok, value = self._value(place, quantity, paper, lambda: float(get()))
        if not ok:
            return
        diff = value - float(paper)
        bound = tol if tol is not None else rtol * abs(float(paper))
        good = math.isfinite(diff) and abs(diff) <= bound
        how = f"tolerance {'abs' if tol is not None else 'rel'} {tol if tol is not None else rtol:g}"
        self._add(place, quantity, paper, value, diff, "match" if good else "differs",
                  (note or how) if good else (reason or f"outside the {how}"))

    def claim(self, place, quantity, paper, get, holds, reason="", note=""):
        """A qualitative claim: ``paper`` is its text, ``get()`` the measured value(s) and
        ``holds(value)`` decides; ``differs`` carries ``reason``."""
        ok, value = self._value(place, quantity, paper, get)
        if not ok:
            return
        try:
            good = bool(holds(value))
        except _MISSING as e:
            self._add(place, quantity, paper, _plain(value), None, "not reproduced",
                      f"cannot evaluate: {type(e).__name__}: {e}")
            return
        self._add(place, quantity, paper, _plain(value), None, "match" if good else "differs",
                  note if good else (reason or "the claim does not hold for nsfric's values"))

    def missing(self, place, quantity, paper, why):
        """A published quantity nsfric does not compute (yet)."""
        self._add(place, quantity, paper, None, None, "not reproduced", why)


def _plain(v):
    """JSON-friendly value: numpy scalars and arrays to Python numbers and lists."""
    if isinstance(v, np.ndarray):
        return [_plain(x) for x in v.tolist()]
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, np.generic):
        return v.item()
    return v


def exponent(x, y, lo, hi) -> float:
    """The exponent ``p`` of ``y ~ x^p`` over ``lo <= x <= hi``: the study's log-log fit
    (:func:`nsfric.study.fit.fit_order`) on that range."""
    from ..study.fit import fit_order

    fit = fit_order(np.asarray(x, float), np.abs(np.asarray(y, float)), fit_range=(lo, hi),
                    min_order=-np.inf, min_points=3)
    if not fit.ok:
        raise ValueError(fit.reason)
    return float(fit.order)
