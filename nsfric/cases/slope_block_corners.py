"""Fig 4 on the per-corner rotating block: the drift of the delta schemes (Heun, BDF2,
BDF5) against the time step at 15 deg, with one frictional contact per corner (law
``coulomb-corners``; :mod:`nsfric.schemes.corners`).

As for the shared-surface block (:mod:`nsfric.cases.slope_block_study`), the drift is
``x(t1) - x(t0)`` over the window in which the exact block is stuck, averaged over grid
phases: run ``j`` starts from the exact per-corner state at ``tau_j = j dt/n_phases``
(the event-driven reference), so the residual velocity of the step that sticks samples
its phase uniformly.  ``nsfric run slope-block-rotating`` writes the rows as
``fig4-drift-dt-corners.csv``.
"""
from __future__ import annotations

import numpy as np

from ..schemes.base import get_scheme
from ..schemes.corners import simulate_contacts
from . import slope_block_study as S

LAW = "coulomb-corners"
SCHEMES = ("delta-heun", "delta-bdf2", "delta-bdf5")
DTS = (5e-6, 2e-5, 5e-5)
N_PHASES = 4
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


def corner_drifts(case, scheme: str, dt: float, window, n_phases: int = N_PHASES, params=None):
    """``(drifts, both_stuck)``: per grid phase the drift over ``window`` and whether both
    corners are stuck throughout it."""
    values = case.bind(LAW, params=dict(params or {"alpha": 15.0}))
    model = case.model(LAW)
    taus, U = corner_phase_starts(case, values, dt, n_phases)
    ix = model.state_names.index("x")
    n_steps = int(round(window[1] / dt))
    drifts, stuck = [], []
    for j, tau in enumerate(taus):
        t, Y, info = simulate_contacts(model, values, get_scheme(scheme), 0.0, U[:, j], dt, n_steps)
        drifts.append(S.drift_of(t + tau, Y[ix], window))
        inside = (t + tau >= window[0]) & (t + tau <= window[1])
        stuck.append(all(m == "ss" for m, k in zip(info["modes"], inside) if k))
    return np.array(drifts), bool(all(stuck))


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
