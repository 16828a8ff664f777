"""Verdicts: the published claims a case reproduces, compared with nsfric's values.

A verdict is one paper claim: one dict with the keys of :data:`KEYS` -- its ``id`` (the
claim's name within the paper; verdicts of several cases sharing an ``id`` are one claim,
:func:`merge_claims`), ``case`` (and ``cases``), the paper (``source``) and the place in
it (eq/Fig/Table), what is compared (``quantity``), the paper's value or claim (``paper``;
``paper_kind`` says whether the paper states it -- ``"stated"`` -- or it is the paper's
formula evaluated by nsfric on the case's parameters -- ``"formula"`` --; a value only
nsfric computed is never put there), nsfric's value -- always computed from the outputs the
case's ``run`` wrote (never typed in) --, their difference and a status:

* ``match`` -- within the stated tolerance, or the claim holds (under every reading);
* ``differs`` -- the note says why (under every reading);
* ``depends on reading`` -- the paper leaves an implementation choice open and the claim
  holds under some of its plausible readings only: ``readings`` lists each (``name``,
  ``meaning``, ``value``, ``status``) and ``holds_under`` names those under which it holds;
* ``not reproduced`` -- the output needed is missing, or the quantity is not computed
  (yet); the note says what is missing.

``kind`` is ``"claim"`` for a verdict, ``"input"`` for a paper's input echoed back (a
parameter nsfric takes from the paper and reads back from its outputs) and ``"check"`` for
nsfric's own check on a setting the paper does not have (its reference against its own
closed form): inputs and checks are listed in a table of their own and never counted as
matches (:func:`claims`, :func:`inputs`).

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
import re

import numpy as np

from ..plugins import PAPERS

STATUSES = ("match", "differs", "depends on reading", "not reproduced")
#: the keys of every verdict (and of ``verdicts.json``)
#: the kinds of a verdict: a paper claim, a paper input read back, nsfric's own check
KINDS = ("claim", "input", "check")
KEYS = ("id", "kind", "case", "cases", "source", "place", "quantity", "paper", "paper_kind", "nsfric",
        "difference", "status", "note", "readings", "holds_under")
#: the keys of one reading of a claim
READING_KEYS = ("name", "meaning", "value", "status", "note")

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

    def _add(self, place, quantity, paper, nsfric, difference, status, note, id=None, kind="claim",
             paper_kind=None, readings=None, holds_under=None):
        if status not in STATUSES:  # pragma: no cover - programming error
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        if kind not in KINDS:  # pragma: no cover - programming error
            raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
        if paper_kind is None:
            paper_kind = "stated" if paper not in (None, "(formula)") else None
        self.items.append({"id": id or claim_id(place, quantity), "kind": kind, "case": self.case,
                           "cases": [self.case], "source": self.source, "place": place,
                           "quantity": quantity, "paper": paper, "paper_kind": paper_kind, "nsfric": nsfric,
                           "difference": difference, "status": status, "note": note,
                           "readings": list(readings or []), "holds_under": list(holds_under or [])})

    def _value(self, place, quantity, paper, get, **tags):
        try:
            return True, get()
        except _MISSING as e:
            self._add(place, quantity, paper, None, None, "not reproduced",
                      f"output missing or unreadable: {type(e).__name__}: {e}", **tags)
            return False, None

    def number(self, place, quantity, paper, get, tol=None, rtol=None, reason="", note="", id=None,
               kind="claim"):
        """Compare the number ``get()`` with the paper's number ``paper`` (or ``paper()``,
        the paper's formula evaluated on the case's parameters, ``paper_kind="formula"``):
        ``match`` when ``|nsfric - paper| <= tol`` (absolute) or ``<= rtol |paper|``; else
        ``differs`` with ``reason`` (or the tolerance missed).  ``id`` names the claim
        (default :func:`claim_id`); ``kind="input"`` marks a paper's input read back
        (:meth:`input`), ``kind="check"`` nsfric's own check where the paper has no such
        setting (``paper`` then is nsfric's closed form, shown as such)."""
        tags = {"id": id, "kind": kind}
        formula = callable(paper)
        if formula:  # the paper's formula evaluated with the case's parameters
            ok, paper = self._value(place, quantity, "(formula)", paper, **tags)
            if not ok:
                return
        ok, value = self._value(place, quantity, paper, lambda: float(get()), **tags)
        if not ok:
            return
        good, diff, how = _compare(value, paper, tol, rtol)
        self._add(place, quantity, paper, value, diff, "match" if good else "differs",
                  (note or how) if good else (reason or f"outside the {how}"),
                  paper_kind=("nsfric closed form" if kind == "check" else "formula") if formula else "stated", **tags)

    def input(self, place, quantity, paper, get, tol=None, rtol=1e-12, note=""):
        """A paper's input that the case takes and reads back from its outputs (a
        parameter, a geometry): listed as ``kind="input"``, never counted as a match."""
        self.number(place, quantity, paper, get, tol=tol, rtol=rtol, note=note or "input taken from the paper",
                    kind="input")

    def claim(self, place, quantity, paper, get, holds, reason="", note="", id=None):
        """A qualitative claim: ``paper`` is its text, ``get()`` the measured value(s) and
        ``holds(value)`` decides; ``differs`` carries ``reason``."""
        ok, value = self._value(place, quantity, paper, get, id=id)
        if not ok:
            return
        try:
            good = bool(holds(value))
        except _MISSING as e:
            self._add(place, quantity, paper, _plain(value), None, "not reproduced",
                      f"cannot evaluate: {type(e).__name__}: {e}", id=id)
            return
        self._add(place, quantity, paper, _plain(value), None, "match" if good else "differs",
                  note if good else (reason or "the claim does not hold for nsfric's values"), id=id)

    def readings(self, place, quantity, paper, readings, id=None, note=""):
        """One claim tried under each plausible reading of what the paper leaves open.

        ``readings``: a sequence of :class:`Reading`; each is evaluated on the outputs
        (``get()``, then ``holds(value)``).  The claim's status is ``match`` when it holds
        under every reading, ``differs`` under none, ``depends on reading`` otherwise
        (``holds_under`` names the readings under which it holds); readings whose output is
        missing are ``not reproduced`` and do not decide.  ``nsfric`` is the value under the
        first reading (nsfric's default), each reading's value is in ``readings``; ``note``
        is added after the summary of the readings."""
        done = [r.evaluate() for r in readings]
        if not done:  # pragma: no cover - programming error
            raise ValueError("readings must name at least one reading")
        status = combine([r["status"] for r in done])
        holds_under = [r["name"] for r in done if r["status"] == "match"]
        auto = _readings_note(status, done)
        self._add(place, quantity, paper, done[0]["value"], None, status,
                  f"{auto}; {note}" if note else auto, id=id, readings=done, holds_under=holds_under)

    def missing(self, place, quantity, paper, why, id=None):
        """A published quantity nsfric does not compute (yet)."""
        self._add(place, quantity, paper, None, None, "not reproduced", why, id=id)


class Reading:
    """One plausible reading of an implementation choice a paper leaves open.

    Parameters
    ----------
    name : str
        Short name (e.g. ``"stick-entry: crossing"``).
    meaning : str
        What the reading means, in a sentence.
    get : callable
        ``get() -> value``: the measured value(s) under this reading, from the outputs.
    holds : callable
        ``holds(value) -> bool``: whether the claim holds under this reading.
    reason : str
        Why it does not hold, when it does not (a note).
    """

    def __init__(self, name: str, meaning: str, get, holds, reason: str = ""):
        self.name, self.meaning, self.get, self.holds, self.reason = name, meaning, get, holds, reason

    def evaluate(self) -> dict:
        """``{name, meaning, value, status, note}`` of this reading."""
        try:
            value = _plain(self.get())
            good = bool(self.holds(value))
        except _MISSING as e:
            return {"name": self.name, "meaning": self.meaning, "value": None, "status": "not reproduced",
                    "note": f"output missing or unreadable: {type(e).__name__}: {e}"}
        return {"name": self.name, "meaning": self.meaning, "value": value,
                "status": "match" if good else "differs", "note": "" if good else self.reason}


def combine(statuses) -> str:
    """The status of a claim from the statuses of its readings (or of its cases)."""
    decided = [s for s in statuses if s != "not reproduced"]
    if not decided:
        return "not reproduced"
    if all(s == "match" for s in decided):
        return "match"
    if all(s == "differs" for s in decided):
        return "differs"
    return "depends on reading"


def _readings_note(status, done) -> str:
    held = [r["name"] for r in done if r["status"] == "match"]
    failed = [r["name"] for r in done if r["status"] == "differs"]
    if status == "match":
        return f"holds under every reading ({', '.join(held)})"
    if status == "differs":
        return f"holds under no reading ({', '.join(failed)})"
    if status == "depends on reading":
        return f"holds under {', '.join(held)}; not under {', '.join(failed)}"
    return "no reading could be evaluated"


def _compare(value, paper, tol, rtol):
    diff = value - float(paper)
    bound = tol if tol is not None else rtol * abs(float(paper))
    good = math.isfinite(diff) and abs(diff) <= bound
    how = f"tolerance {'abs' if tol is not None else 'rel'} {tol if tol is not None else rtol:g}"
    return good, diff, how


def claim_id(place: str, quantity: str) -> str:
    """The default id of a claim: its place and quantity, lower case, runs of other
    characters as one ``-`` (the quantity cut at 60 characters)."""
    slug = lambda t: re.sub(r"[^a-z0-9]+", "-", str(t).lower()).strip("-")  # noqa: E731
    return f"{slug(place)}/{slug(quantity)[:60].rstrip('-')}"


def claims(verdicts) -> list:
    """The verdicts proper (``kind == "claim"``), inputs left out."""
    return [v for v in verdicts if v.get("kind", "claim") == "claim"]


def inputs(verdicts) -> list:
    """The paper's inputs read back and nsfric's own checks (``kind`` ``"input"`` or
    ``"check"``): a table, not verdicts."""
    return [v for v in verdicts if v.get("kind") in ("input", "check")]


def merge_claims(verdicts) -> list:
    """One verdict per claim: verdicts of one paper sharing an ``id`` (the same claim
    evaluated in several cases, e.g. a translating and a rotating model of one block) become
    one verdict listing its ``cases``; each case's result becomes a reading named by the case
    (its own readings, if any, prefixed with the case), and the status is :func:`combine`'d.
    The order is that of the first occurrence; a verdict alone is returned unchanged."""
    groups: dict = {}
    for v in verdicts:
        key = v.get("id") or claim_id(v["place"], v["quantity"])
        groups.setdefault((v["source"], v.get("kind", "claim"), key), []).append(v)
    out = []
    for parts in groups.values():
        if len(parts) == 1:
            out.append(parts[0])
            continue
        readings = []
        for p in parts:
            if p.get("readings"):
                readings += [{**r, "name": f"{p['case']}: {r['name']}"} for r in p["readings"]]
            else:
                readings.append({"name": p["case"], "meaning": p["quantity"], "value": p["nsfric"],
                                 "status": p["status"], "note": p["note"]})
        status = combine([r["status"] for r in readings])
        first = parts[0]
        out.append({**first, "cases": list(dict.fromkeys(p["case"] for p in parts)), "status": status,
                    "readings": readings, "holds_under": [r["name"] for r in readings if r["status"] == "match"],
                    "note": _readings_note(status, readings)})
    return out


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
