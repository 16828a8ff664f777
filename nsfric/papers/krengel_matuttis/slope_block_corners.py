"""Figs 4 and 5 on the per-corner rotating block: the drift of the delta schemes (Heun,
BDF2, BDF5) against the time step and against the block size at 15 deg, with one
frictional contact per corner (law ``coulomb-corners``; :mod:`nsfric.schemes.corners`,
all grid phases -- and for Fig 5 all sizes -- of a scheme in one batch).

As for the shared-surface block (:mod:`nsfric.papers.krengel_matuttis.slope_block_study`), the drift is
``x(t1) - x(t0)`` over the window in which the exact block is stuck, averaged over grid
phases: run ``j`` starts from the exact per-corner state at ``tau_j = j dt/n_phases``
(the event-driven reference), so the residual velocity of the step that sticks samples
its phase uniformly.  ``nsfric run slope-block-rotating`` writes the rows as
``fig4-drift-dt-rotating-corners.csv`` and ``fig5-drift-size-rotating-corners.csv``
(:func:`write_fig5`, with the caption line :func:`fig5_caption_line`).
"""
from __future__ import annotations

import numpy as np

from nsfric.schemes.base import get_scheme
from nsfric.schemes.corners import CODE_CHARS, integrate_batch
from nsfric.symbolic.contacts import STICK
from nsfric.symbolic.corner_forces import CornerForces
from nsfric.papers.krengel_matuttis import slope_block_study as S

LAW = "coulomb-corners"
SCHEMES = ("delta-heun", "delta-bdf2", "delta-bdf5")
DTS = (5e-6, 2e-5, 5e-5)
N_PHASES = 4
STUCK_CODE = CODE_CHARS.index(STICK)
COLUMNS = ("scheme", "dt", "drift", "mean_abs", "min_abs", "max_abs", "rate", "ratio_to_heun", "both_stuck")


def corner_phase_starts(case, values: dict, dt: float, n_phases: int = N_PHASES):
    """``(taus, U)``: the exact per-corner states at ``tau_j = j dt/n_phases`` (columns)."""
    taus = dt * np.arange(n_phases) / n_phases
    y0 = case.y0(LAW, values)
    if n_phases == 1:
        return taus, y0[:, None]
    sol = case.reference_solution(LAW, params=values, t_end=taus[-1] * 1.5,
                                  t_eval=np.linspace(0.0, taus[-1], 3))
    U = sol(taus)
    U[:, 0] = y0
    return taus, U


def corner_batch_drifts(case, scheme: str, dt: float, window, param_sets, n_phases: int = N_PHASES):
    """``(drifts, both_stuck)`` (len(param_sets), n_phases) each: per parameter set and grid
    phase the drift over ``window`` and whether both corners are stuck throughout it, every
    member in one batch (:func:`~nsfric.schemes.corners.integrate_batch`; a member's
    numbers equal its run alone)."""
    model = case.model(LAW)
    values, U0, taus = [], [], []
    for params in param_sets:
        v = case.bind(LAW, params=dict(params))
        tt, U = corner_phase_starts(case, v, dt, n_phases)
        values += [v] * n_phases
        U0.append(U)
        taus.append(tt)
    U0, taus = np.hstack(U0), np.concatenate(taus)
    ix = model.state_names.index("x")
    n_steps = int(round(window[1] / dt))
    base = get_scheme(scheme).base
    t, Y, info = integrate_batch(CornerForces(model, values), base, 0.0, U0, dt, n_steps)
    drifts, stuck = [], []
    for b, tau in enumerate(taus):
        drifts.append(S.drift_of(t + tau, Y[ix, b], window))
        inside = (t + tau >= window[0]) & (t + tau <= window[1])
        stuck.append(bool(np.all(info["codes"][:, b, inside] == STUCK_CODE)))
    shape = (len(param_sets), n_phases)
    return np.array(drifts).reshape(shape), np.array(stuck).reshape(shape)


def corner_drifts(case, scheme: str, dt: float, window, n_phases: int = N_PHASES, params=None):
    """``(drifts, both_stuck)``: per grid phase the drift over ``window`` and whether both
    corners are stuck throughout it (all phases)."""
    d, stuck = corner_batch_drifts(case, scheme, dt, window, [dict(params or {"alpha": 15.0})], n_phases)
    return d[0], bool(stuck.all())


def corner_drift_rows(case, dts=DTS, window=S.WINDOW_1CM, n_phases: int = N_PHASES, schemes=SCHEMES,
                      progress=None) -> list:
    """Rows ``{scheme, dt, drift (phase 0), mean_abs, min_abs, max_abs, rate (mean_abs per
    second of window), ratio_to_heun (mean_abs over delta-heun's at that dt), both_stuck}``."""
    rows = []
    for dt in dts:
        heun = None
        for scheme in schemes:
            if progress:
                progress(f"{case.name}: per-corner drift {scheme} dt={dt:g}")
            d, both = corner_drifts(case, scheme, dt, window, n_phases)
            row = {"scheme": scheme, "dt": dt, **S._stats(d), "both_stuck": both}
            row.pop("diverged", None)
            row["rate"] = row["mean_abs"] / (window[1] - window[0])
            heun = row["mean_abs"] if scheme == "delta-heun" else heun
            row["ratio_to_heun"] = row["mean_abs"] / heun if heun else float("nan")
            rows.append(row)
    return rows


# -- Fig 5: the drift against the block size at the paper's step ----------------------
#: Fig 5's sizes [m] and grid phases with one contact per corner: the rotating run's
#: sizes and 1 mm, where the normal frequency reaches omega_n dt = 0.5 at the paper's step
#: (in the run: all sizes and phases of a scheme in one batch, ~10 s each; the exact
#: references ~80 s, 50 s of them at 1 mm)
SIZES = (1e-3, 2e-3, 1e-2, 0.1, 1.0)
SIZE_PHASES = 8
SIZE_COLUMNS = ("integrator", "scheme", "l", "drift", "mean_abs", "min_abs", "max_abs", "rate", "both_stuck",
                "ratio_to_heun")
#: the exact per-corner references, in the order tried: the event-driven PileSolver, then
#: IDA (measured at 15 deg: IDA fails at l = 2 mm -- too many convergence test failures
#: at the stick of 0.436 ms -- and needs ~270 s CPU for 0.3 s at 0.1 m)
EXACT_SOLVERS = ("filippov", "ida")


def exact_corner_drift(case, params: dict, window, solvers=EXACT_SOLVERS) -> dict:
    """The exact per-corner reference's ``x(t1) - x(t0)`` over ``window`` and whether it is
    stuck (both corners) throughout: ``{"drift", "both_stuck", "solver", "failed"}``
    (``drift`` NaN, never drawn, when every solver fails; ``failed`` names them).  A
    solver stopped by its budget counts as failed too: IDA needs minutes of CPU at some
    sizes, beyond the default budget, and one missing point must
    not stop the case (``nsfric report`` stopped at it twice)."""
    def solve(solver):
        return case.reference_solution(LAW, solver=solver, params=params, t_end=window[1],
                                       t_eval=np.linspace(window[0], window[1], 201))

    sol, solver, failed = S.first_that_ends(solve, solvers)
    if sol is not None:
        x = sol(np.array(window, dtype=float))[sol.state_names.index("x")]
        moving = [e for e in sol.events if window[0] <= e.t <= window[1]]
        return {"drift": float(x[1] - x[0]), "both_stuck": not moving and sol.mode_at(window[0]) == "ss",
                "solver": solver, "failed": failed}
    return {"drift": float("nan"), "both_stuck": False, "solver": None, "failed": failed}


def corner_size_rows(case, sizes=SIZES, dt=S.DT_PAPER, window=S.WINDOW_SIZES, n_phases: int = SIZE_PHASES,
                     schemes=SCHEMES, alpha=15.0, progress=None, with_exact=True) -> list:
    """Fig 5 with one contact per corner: rows ``{integrator, scheme, l, drift (phase 0),
    mean_abs, min_abs, max_abs, rate (mean_abs per second of window), both_stuck,
    ratio_to_heun (mean_abs over delta-heun's at that l)}`` per scheme and size (all sizes
    and phases of a scheme in one batch), then the exact reference per size
    (:func:`exact_corner_drift`; integrator ``exact``, scheme ``exact (<solver>)``)."""
    sets = [{"alpha": alpha, "l": float(l)} for l in sizes]
    span = window[1] - window[0]
    rows, heun = [], {}
    for scheme in schemes:
        if progress:
            progress(f"{case.name}: per-corner drift against l, {scheme}")
        d, stuck = corner_batch_drifts(case, scheme, dt, window, sets, n_phases)
        for l, dl, sl in zip(sizes, d, stuck):
            row = {"integrator": scheme.removeprefix("delta-"), "scheme": scheme, "l": float(l), **S._stats(dl),
                   "both_stuck": bool(sl.all())}
            row.pop("diverged", None)
            row["rate"] = row["mean_abs"] / span
            heun.setdefault(l, row["mean_abs"] if scheme == "delta-heun" else None)
            row["ratio_to_heun"] = row["mean_abs"] / heun[l] if heun[l] else float("nan")
            rows.append(row)
    for l, params in zip(sizes, sets) if with_exact else ():
        if progress:
            progress(f"{case.name}: per-corner exact reference, l = {l:g} m")
        ex = exact_corner_drift(case, params, window)
        scheme = f"exact ({ex['solver']})" if ex["solver"] else f"exact ({'; '.join(ex['failed'])})"
        rows.append({"integrator": "exact", "scheme": scheme, "l": float(l), **S._stats(np.array([ex["drift"]])),
                     "rate": ex["drift"] / span, "both_stuck": ex["both_stuck"], "ratio_to_heun": float("nan")})
        rows[-1].pop("diverged", None)
    return rows


def write_fig5(case, path, meta: dict, sizes=SIZES, window=S.WINDOW_SIZES, progress=None) -> list:
    """Compute :func:`corner_size_rows` and write them to ``path`` (CSV + sidecar); the rows."""
    from nsfric.io import write_csv_with_sidecar

    rows = corner_size_rows(case, sizes, window=window, progress=progress)
    cols = {k: np.array([r[k] for r in rows], dtype=object if k in ("integrator", "scheme") else float)
            for k in SIZE_COLUMNS}
    write_csv_with_sidecar(path, cols, dict(meta, figure=5, law=LAW, alpha=15.0, dt=S.DT_PAPER, window=list(window),
                                            n_phases=SIZE_PHASES, solvers=list(EXACT_SOLVERS)))
    return rows


def fig5_caption_line(rows) -> list:
    """The per-corner line of Fig 5's caption, read from the rows (none without rows): the
    drift in excess of the exact reference's per size and scheme, and the shape against
    the paper's (:func:`~nsfric.papers.krengel_matuttis.verdicts_rotating.corner_size_shape`)."""
    from nsfric.papers.krengel_matuttis.verdicts_rotating import CORNER_SIZE_CSV, corner_size_excess, corner_size_shape

    if not rows:
        return []
    head = f"With one contact per corner (law {LAW}, {CORNER_SIZE_CSV})"
    try:
        excess, shape = corner_size_excess(rows), corner_size_shape(rows)
    except (KeyError, ValueError) as exc:
        return [f"{head}: not reproduced ({type(exc).__name__}: {exc})."]
    sizes = ", ".join(f"{l:g}" for l in excess["delta-heun"][0])
    drifts = "; ".join(f"{k} " + ", ".join(f"{v:.2g}" for v in d) for k, (_, d) in excess.items())
    bdf = all(r[0] > 1.5 and r[1] < 1.5 for k, r in shape.items() if k != "delta-heun")
    small, large = shape["delta-heun"]
    moving = [f"{r['l']:g} m ({abs(r['drift']):.2g} m)" for r in rows
              if r["integrator"] == "exact" and not r["both_stuck"]]
    return [f"{head}, drift in excess of the exact reference's at l = {sizes} m: {drifts} m"
            + (f" (the exact block itself moves at {', '.join(moving)})" if moving else "") + ". "
            + ("BDF rises only above 0.1 m, as in the paper; " if bdf else
               "BDF does not rise only above 0.1 m (the paper: it does); ")
            + (f"Heun {small:.2f}x its least at the smallest size and {large:.2f}x at the largest: "
               + ("U-shaped, as in the paper." if small > 1.5 and large > 1.5 else
                  "not U-shaped (the paper: rises at both ends)."))]
