"""``nsfric run kratos-conformance``: Kratos DEM's linear viscous Coulomb law, run by the
Kratos wheel, measured against nsfric's exact laws on the sphere-wall impact.

The impact of :mod:`nsfric.adapters.kratos` (a Kratos material: ``nu = 1/4`` against a
rigid wall, ``k_t/k_n = 6/7``, one ``DAMPING_GAMMA`` for both dashpots) at each ``psi_i``
of :data:`PSI_I`, on the step ladder ``dt = t_n/N``, ``N`` in :data:`DIVISIONS`, under the
convention ``kratos-linear-viscous-coulomb`` (lever arm ``R - delta``, the normal force
clamped at zero), is measured by :func:`nsfric.study.verify.verify` against two
candidate limits: the D-SDS (:data:`~nsfric.adapters.kratos.LAW`, what a user who takes
Kratos for LAMMPS's model assumes) and ``sds-trim`` (the limit of Kratos's
``CalculateTangentialForceWithNeighbour`` as nsfric transcribed it, the slip-rule zoo).
For every ``psi_i`` and observable (``psi_f``, ``e_n``): the order, the ``dt -> 0``
limit, the offset from each law and which law, if any, the wheel converges to; a kinetic
energy gain is flagged.

Writes ``kratos-conformance.csv`` (one row per ``psi_i``, observable and law, with a
``.json`` sidecar) and the verification's own files (``verify.json``, ``verify.csv``,
``verify.png``).
"""
from __future__ import annotations

import math
import os

from ..studies import Study
from . import kratos
from ._runner import conformance_ladder

#: the impacts' ``psi_i = v_t^i/v_n^i`` (micro-slip, the stick-slip boundary, gross sliding)
PSI_I = (0.5, 1.0, 2.0)
#: the step ladder, ``dt = t_n/N``
DIVISIONS = (50, 100, 200, 400, 800)
#: the candidate limits
LAWS = (kratos.LAW, "sds-trim/linear-dashpot-force-end")
#: a Kratos material (``nu = 1/4`` against a rigid wall): ``k_t/k_n = 2 (1 - nu)/(2 - nu)``,
#: ``gamma_t = gamma_n sqrt(k_t/k_n)``
KS_RATIO = 2 * (1 - 0.25) / (2 - 0.25)
OBSERVABLES = ("psi_f", "e_n")
COLUMNS = ("psi_i", "observable", "law", "exact", "finest", "order", "limit", "limit_uncertainty", "offset",
           "offset_uncertainty", "status", "converges_to", "energy_gain_steps")


def material(values: dict | None = None) -> dict:
    """The case parameters of the impact: the case's defaults with :data:`KS_RATIO` and
    ``gamma_t = gamma_n sqrt(KS_RATIO)`` (``values`` override the defaults first)."""
    from ..cases import get_case

    base = get_case(kratos.CASE).bind(kratos.LAW, dict(values or {}))
    return {"ks_ratio": KS_RATIO, "gamma_t": base["gamma_n"] * math.sqrt(KS_RATIO)}


def conformance(psi_i=PSI_I, divisions=DIVISIONS, progress=None):
    """The :class:`~nsfric.study.verify_result.VerifyResult` of the Kratos wheel at every
    ``psi_i`` over the ladder ``t_n/N`` against :data:`LAWS`, and its table (:data:`COLUMNS`)."""
    from ..cases import get_case
    from ..conventions import get_convention, register_convention
    from ..study.verify import verify

    divisions = sorted({int(n) for n in divisions})
    if len(divisions) < 3 or divisions[0] < 10:
        raise ValueError(f"divisions: give at least 3 different step counts >= 10, got {divisions}")
    try:
        convention = get_convention(kratos.CONVENTION.name)
    except ValueError:  # the entry point not installed (a source checkout): the adapter's own
        convention = register_convention(kratos.CONVENTION)
    case = get_case(kratos.CASE)
    params = material()
    t_n = case.contact_t_end(kratos.LAW, case.bind(kratos.LAW, {**params, **convention.params})) / 2
    res = verify(case, list(LAWS), runner=kratos.runner(), dts=[t_n / n for n in divisions],
                 points=[{"psi_i": float(p)} for p in psi_i], convention=convention, params=params,
                 observables=list(OBSERVABLES), progress=progress)
    rows = []
    for p in res.points:
        for law, d in p.laws.items():
            rows.append({"psi_i": p.params["psi_i"], "observable": p.observable, "law": law, "exact": d["exact"],
                         "finest": p.values[0], "order": d["order"].order if d["order"].ok else math.nan,
                         "limit": p.limit.value, "limit_uncertainty": p.limit.uncertainty, "offset": d["offset"],
                         "offset_uncertainty": d["offset_uncertainty"], "status": d["status"],
                         "converges_to": p.converges_to or "", "energy_gain_steps": len(p.energy_gain)})
    return res, rows


PARAMS = ("max_division", "psi_i")


def run(out_dir: str, progress=None, params=None) -> dict:
    """``nsfric run kratos-conformance``: the table and the verification's files in
    ``out_dir``.  ``params``: ``max_division`` (the finest ``N``, default 800; at least 3
    steps kept) and ``psi_i`` (one impact instead of :data:`PSI_I`)."""
    from ..io import versions, write_csv_with_sidecar

    why = kratos.available()
    if why:
        raise ValueError(why)
    divisions, psi = conformance_ladder(dict(params or {}), DIVISIONS, PSI_I)
    res, rows = conformance(psi, divisions, progress)
    written = res.write(out_dir)
    csv_path = os.path.join(out_dir, "kratos-conformance.csv")
    meta = {"study": "kratos-conformance", "divisions": divisions, "psi_i": list(psi), "laws": list(LAWS),
            "material": material(), "convention": kratos.CONVENTION.name,
            "kratos": "wheels KratosMultiphysics + KratosDEMApplication, in-process (nsfric.adapters.kratos)",
            "versions": versions()}
    write_csv_with_sidecar(csv_path, {c: [r[c] for r in rows] for c in COLUMNS}, meta)
    summary = [f"psi_i={p.params['psi_i']:<4g} {p.label().split()[-1]:6s} {p.verdict()}" for p in res.points]
    return {"written": [csv_path, os.path.splitext(csv_path)[0] + ".json", *written], "summary": summary}


#: the study, registered through the entry-point group ``nsfric.studies``
STUDY = Study("kratos-conformance", "nsfric.adapters.kratos_conformance:run",
              "the Kratos DEM wheel's linear viscous Coulomb law against nsfric's exact laws (d-sds, sds-trim): "
              "order, limit, offset, energy", params=PARAMS)
