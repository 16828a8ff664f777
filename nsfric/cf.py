"""The CF conventions (CF-1.10) of the netCDF files nsfric writes.

``nsfric export --format netcdf`` (:mod:`nsfric.report.export`) and a sweep's
``sweep.nc`` (:mod:`nsfric.study.results`) follow them: the global attributes
``Conventions``, ``title``, ``source``, ``history`` and ``institution``-free
provenance; every variable has ``units`` and ``long_name``; the time of a trajectory
is a coordinate variable ``t`` (its dimension has its name); coordinate variables have
no ``_FillValue``.

A variable without one unit (an absolute tolerance over states of different units,
the worst error over them, an observable of a user's point function) has no ``units``
and says why in its ``comment`` (:data:`MIXED_UNITS`).  Labels (law, scheme, event
kind) are strings with a ``long_name`` only.

Units are UDUNITS strings as the case declares them (``m``, ``m/s``, ``s``...), with
one translation: a case in *normalised units* (``n.u.``, e.g. the sliding plates with
m = k = F_max = 1) is dimensionless, so its quantities carry ``units = "1"`` and a
``comment`` saying so (:data:`NORMALISED_COMMENT`); a reader recovers ``n.u.`` with
:func:`nsfric_unit`.  The time of a run is an elapsed time (``s``, or ``1``), not a
date ``since`` an epoch: it has ``long_name = "time"`` and a ``comment`` saying so, and
neither ``standard_name = "time"`` nor ``axis = "T"``, which CF reserves for dates
(section 4.4; the IOOS compliance-checker flags ``t`` in ``s`` with them), so that
CF decoding (``xarray.decode_cf``) keeps ``t`` a float.

A ground-floor helper: it imports no layer and no netCDF library.
"""
from __future__ import annotations

import datetime

CONVENTIONS = "CF-1.10"
#: the unit name of a case in normalised units
NORMALISED = "n.u."
#: the comment of a variable without one unit (no ``units`` attribute then)
MIXED_UNITS = "no single unit: in the units of each state, or unknown (a point function)"
NORMALISED_COMMENT = ("normalised units (n.u.): the case is posed in units where its reference "
                      "quantities are 1, so this quantity is dimensionless")


def cf_units(unit: str | None) -> dict:
    """The CF attributes of a quantity in nsfric's ``unit``: ``{"units": ...}``, plus a
    ``comment`` for normalised units; ``{}`` for an unknown unit (None or empty).

    Examples
    --------
    >>> cf_units("m/s")
    {'units': 'm/s'}
    >>> cf_units("n.u.")["units"]
    '1'
    """
    if not unit:
        return {}
    if unit == NORMALISED:
        return {"units": "1", "comment": NORMALISED_COMMENT}
    return {"units": unit}


def nsfric_unit(attrs) -> str:
    """The nsfric unit of a variable from its CF attributes (inverse of :func:`cf_units`)."""
    units = str(attrs.get("units", ""))
    if units == "1" and NORMALISED_COMMENT in str(attrs.get("comment", "")):
        return NORMALISED
    return units


#: the comment of an elapsed-time coordinate
ELAPSED_TIME = ("elapsed time from the start of the run, no calendar date: CF's standard_name "
                "'time' and axis 'T' are for times since a reference date (CF-1.10 section 4.4), "
                "so they are not set")


def time_attrs(unit: str | None, long_name: str = "time") -> dict:
    """Attributes of the time coordinate of a run in ``unit``: an elapsed time, not a
    date, hence no ``standard_name = "time"`` nor ``axis = "T"`` (which CF-1.10 section
    4.4 reserves for ``<unit> since <date>``); the ``comment`` says so."""
    attrs = {"long_name": long_name, **cf_units(unit)}
    attrs["comment"] = " ".join(filter(None, [attrs.get("comment"), ELAPSED_TIME]))
    return attrs


def global_attrs(title: str, source: str, what: str) -> dict:
    """``Conventions``, ``title``, ``source`` and ``history`` (one line: when and by
    which nsfric command or function the file was written)."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"Conventions": CONVENTIONS, "title": title, "source": source,
            "history": f"{now}: written by {what}"}
