"""Data of the block-on-a-slope figures (Krengel & Matuttis Figs 2-5): time series,
drift against the time step and against the particle size, the Cundall-Strack amplitude.

*Drift* is the tangential displacement ``x(t1) - x(t0)`` over a window ``[t0, t1]`` in
which the exact solution is stuck (its drift is exactly zero: the Filippov sliding mode
holds ``vx = 0``; it is measured, not assumed).  The discrete schemes are the
delta-approximated "DAE" friction of the paper on Heun, BDF2 and BDF5
(:mod:`nsfric.schemes.delta`) and Cundall-Strack with the scheme's own
per-stage cut-off (:mod:`nsfric.schemes`).  Every function returns plain data
(dicts of arrays); :mod:`nsfric.papers.krengel_matuttis.slope_block_figures` draws and writes them.
"""
from __future__ import annotations

import math

import numpy as np

from nsfric.schemes.base import simulate as _simulate
from nsfric.errors import SolverFailure, ZenoError
from nsfric.schemes.delta import DeltaField, run_batch


def simulate(case, law, scheme, dt, t_end, params):
    """One discrete run by the compiled kernel where it applies (the same numbers as the
    per-step path, :func:`nsfric.schemes.simulate` with ``compiled=True``; the delta
    schemes run their compiled loop, :mod:`nsfric.schemes.delta_kernel`)."""
    return _simulate(case, law, scheme, dt, t_end=t_end, params=params, compiled=True)

#: Table 1
DT_PAPER = 5e-6
#: drift windows [s]: 1 cm block (Fig 4) and the size sweep (Fig 5, all blocks settled)
WINDOW_1CM = (0.01, 0.05)
WINDOW_SIZES = (0.1, 0.3)


def at(t, y, t_query):
    """Value of a sampled series at the sample nearest to ``t_query``."""
    return float(y[int(np.argmin(np.abs(np.asarray(t) - t_query)))])


def drift_of(t, x, window):
    """``x(t1) - x(t0)`` at the samples nearest to the window ends (NaN if non-finite)."""
    d = at(t, x, window[1]) - at(t, x, window[0])
    return d if np.isfinite(d) else float("nan")


def exact(case, law, params, t_end, solver="ida", samples=4001):
    """Exact reference on a uniform grid (events kept)."""
    return case.reference_solution(law, solver=solver, params=params, t_end=t_end, samples=samples)


def exact_drift(case, params, window, solvers=("filippov", "ida")) -> dict:
    """Measured drift of the exact static-friction reference over ``window`` (per solver),
    with the largest excursion ``max |x(t) - x(t0)|`` inside the window."""
    out = {}
    for s in solvers:
        sol = case.reference_solution("coulomb", solver=s, params=params, t_end=window[1],
                                      t_eval=np.linspace(window[0], window[1], 2001))
        x = sol(np.linspace(window[0], window[1], 2001))[sol.state_names.index("x")]
        out[s] = {"drift": float(x[-1] - x[0]), "excursion": float(np.max(np.abs(x - x[0]))),
                  "events": [(e.kind, e.t) for e in sol.events]}
    return out


# -- Figs 2-3 ------------------------------------------------------------------------------
SERIES = (
    # label, law, scheme (None: exact reference)
    ("DAE delta-Heun", "coulomb", "delta-heun"),
    ("CS Heun", "cundall-strack", "heun"),
    ("exact static friction", "coulomb", None),
    ("exact CS law", "cundall-strack", None),
)
#: the rotating block adds Cundall-Strack with the instantaneous damping -gamma_t v
SERIES_ROTATING = SERIES + (("CS viscous Heun", "cundall-strack-viscous", "heun"),)


#: damping variants of Figs 2-3, ``(key, params)``: the translating block's figures keep
#: "with" (1) and "without" (0, normal and tangential off together); the rotating block's
#: switch the tangential damping off alone (without normal damping its rocking drives a
#: corner's normal force below zero, outside the bilateral corner contacts: not shown)
DAMPING_BOTH = ((1.0, {"damping": 1.0}), (0.0, {"damping": 0.0}))
DAMPING_SEPARATE = (("normal+tangential", {}), ("normal only (gt_ratio=0)", {"gt_ratio": 0.0}))


def exact_series(case, law, params, t_end) -> dict:
    """One exact series of Figs 2-3: the Filippov reference on 4001 samples, its events."""
    sol = exact(case, law, params, t_end, solver="filippov", samples=4001)
    return {"t": sol.t, "x_h": sol["x_h"], "x": sol["x"], "events": [(e.kind, e.t) for e in sol.events],
            "law": law, "scheme": f"exact ({sol.solver})"}


def time_series(case, alpha, t_end=0.02, dt=DT_PAPER, series=SERIES, progress=None,
                variants=DAMPING_BOTH, reference=exact_series) -> dict:
    """Horizontal and tangential position against time for each damping variant.

    Returns ``{key: {label: {"t", "x_h", "x", "events", "law", "scheme"}}}`` for the
    ``variants`` ``(key, params)`` (default: damping 1 and 0); a series whose scheme is
    None is ``reference(case, law, params, t_end)`` (default :func:`exact_series`), a
    discrete one keeps the run's ``modes`` too.
    """
    out = {}
    for key, extra in variants:
        params = dict(extra, alpha=alpha)
        cur = {}
        for label, law, scheme in series:
            if progress:
                progress(f"{case.name} {alpha:g} deg, damping {key}: {label}")
            if scheme is None:
                cur[label] = reference(case, law, params, t_end)
            else:
                res = simulate(case, law, scheme, dt, t_end=t_end, params=params)
                stride = max(1, len(res.t) // 4000)
                cur[label] = {"t": res.t[::stride], "x_h": res["x_h"][::stride],
                              "x": res["x"][::stride], "events": [(e["kind"], e["t"]) for e in res.events],
                              "law": law, "scheme": scheme, "modes": list(res.modes)}
        out[key] = cur
    return out


def settle_time(t, x, rel=1e-2):
    """First time after which ``|dx/dt|`` stays below ``rel`` times its maximum (None:
    still moving at the end -- drift or stick-slip)."""
    v = np.abs(np.gradient(np.asarray(x, dtype=float), np.asarray(t, dtype=float)))
    if not np.all(np.isfinite(v)) or v.max() == 0:
        return None
    moving = np.nonzero(v > rel * v.max())[0]
    j = moving[-1] + 1
    return float(t[j]) if j < len(t) - 1 else None


# -- drift of the delta schemes over grid phases -----------------------------------------
N_PHASES = 8


def phase_starts(case, values, dt, n_phases=N_PHASES):
    """Exact states at ``tau_j = j dt / n_phases`` (the grid shifted against the events).

    The residual velocity a delta scheme keeps when it enters the stuck state depends on
    where inside the step ``vx`` crosses zero; starting from the exact state at
    ``tau_j`` samples that phase uniformly (``tau_0 = 0`` is the plain run from t = 0).
    """
    taus = dt * np.arange(n_phases) / n_phases
    if n_phases == 1:
        return taus, case.y0("coulomb", values)[:, None]
    sol = case.reference_solution("coulomb", params=values, t_end=max(taus[-1], 1e-300) * 1.5,
                                  t_eval=np.linspace(0.0, taus[-1], 3))
    U = sol(taus)
    U[:, 0] = case.y0("coulomb", values)
    return taus, U


def delta_drifts(case, integrator, param_sets, dt, window, n_phases=N_PHASES, projection=False, corrections=1,
                 stick_rule=None, from_start=False):
    """Drifts ``x(t1) - x(t0)`` of the delta scheme, shape (len(param_sets), n_phases),
    all members in one batch, and the first stick time of each member (``integrator``:
    a name or a Scheme; ``corrections`` of a predictor-corrector BDF; ``stick_rule`` a
    name of :data:`nsfric.schemes.stick_rules.STICK_RULES`, default the default rule).
    ``from_start``: a third array, the displacement from the start ``x(t1) - x(0)``
    (what the paper's Figs 2-3 plot: the landing slide before sticking included)."""
    model = case.numeric_model("coulomb")  # the delta code from the disk cache where it is
    P, U0, taus = [], [], []
    for values in param_sets:
        tt, U = phase_starts(case, values, dt, n_phases)
        P.append(np.repeat(model.param_vector(values)[:, None], n_phases, axis=1))
        U0.append(U)
        taus.append(tt)
    P, U0, taus = np.hstack(P), np.hstack(U0), np.concatenate(taus)
    n_steps = int(round(window[1] / dt))
    keep = math.gcd(int(round(window[0] / dt)), n_steps) or 1  # rows on both window ends
    t, Y, events, _ = run_batch(DeltaField(model, P), U0, dt, n_steps, integrator, projection,
                                corrections=corrections, keep=keep, stick_rule=stick_rule)
    ix = model.state_names.index("x")
    d = np.array([drift_of(t + taus[b], Y[ix, b], window) for b in range(P.shape[1])])
    stick = np.array([next((e["t"] + taus[b] for e in events[b] if e["kind"] == "stick"), np.nan)
                      for b in range(P.shape[1])])
    shape = (len(param_sets), n_phases)
    if not from_start:
        return d.reshape(shape), stick.reshape(shape)
    x0 = np.concatenate([np.full(n_phases, case.y0("coulomb", v)[ix]) for v in param_sets])
    start = np.array([at(t + taus[b], Y[ix, b], window[1]) - x0[b] for b in range(P.shape[1])])
    return d.reshape(shape), stick.reshape(shape), start.reshape(shape)


def _stats(d):
    a = np.abs(d)
    ok = np.isfinite(a)
    if not ok.any():
        return {"drift": float(d[0]), "mean_abs": float("nan"), "min_abs": float("nan"),
                "max_abs": float("nan"), "diverged": int((~ok).sum())}
    return {"drift": float(d[0]), "mean_abs": float(a[ok].mean()), "min_abs": float(a[ok].min()),
            "max_abs": float(a[ok].max()), "diverged": int((~ok).sum())}


# -- Figs 4-5: the drift sweeps ------------------------------------------------------------
DELTA_SCHEMES = ("heun", "bdf2", "bdf5")
#: plain runs from t = 0 (no grid phases) next to the delta schemes of Fig 4, and their laws
PLAIN_LAWS = {"delta-heun-proj": "coulomb", "heun": "cundall-strack"}
DRIFT_OBSERVABLES = ("drift", "mean_abs", "min_abs", "max_abs", "diverged", "stick_time", "from_start_abs")


class DriftPoint:
    """The point function of the drift sweeps (:func:`nsfric.study.sweep.sweep`): a point
    ``{"scheme", "dt", parameter: value, ...}`` -> :data:`DRIFT_OBSERVABLES` over ``window``.

    ``delta-heun``, ``delta-bdf2``, ``delta-bdf5``: the delta scheme from ``n_phases``
    grid phases, one batch (:func:`delta_drifts`; ``drift`` is the run from t = 0, the
    ``*_abs`` statistics over the phases); the schemes of :data:`PLAIN_LAWS`: one run
    from t = 0 on their law.  ``dt`` defaults to Table 1's.  ``together = (name,
    values)``: the points along that axis run as one batch (computed at the first of
    them, in the process that evaluates it; the NumPy loop pays its per-step cost once).
    """

    def __init__(self, case, window, n_phases, params, together=None):
        self.case, self.window, self.n_phases, self.params = case, tuple(window), n_phases, dict(params)
        self.together, self._batches = together, {}

    def __repr__(self):  # the sweep's cache key of the points (with the package version)
        return f"DriftPoint({self.case.name!r}, {self.window}, {self.n_phases}, {sorted(self.params.items())})"

    def __call__(self, point: dict) -> dict:
        point = dict(point)
        scheme, dt = point.pop("scheme"), point.pop("dt", DT_PAPER)
        params = {**self.params, **point}
        if scheme in PLAIN_LAWS:
            res = simulate(self.case, PLAIN_LAWS[scheme], scheme, dt, t_end=self.window[1], params=params)
            return {**_stats(np.array([drift_of(res.t, res["x"], self.window)])), "stick_time": math.nan,
                    "from_start_abs": abs(at(res.t, res["x"], self.window[1]) - float(res["x"][0]))}
        integ = scheme.removeprefix("delta-")
        if integ not in DELTA_SCHEMES:
            raise ValueError(f"scheme must be one of {[f'delta-{i}' for i in DELTA_SCHEMES] + list(PLAIN_LAWS)}, "
                             f"got {scheme!r}")
        name, values = self.together if self.together and self.together[0] in point else (None, [None])
        key = (integ, dt, tuple(sorted((k, v) for k, v in params.items() if k != name)))
        if key not in self._batches:
            sets = [self.case.bind("coulomb", params if name is None else {**params, name: v}) for v in values]
            d, stick, start = delta_drifts(self.case, integ, sets, dt, self.window, self.n_phases, from_start=True)
            self._batches[key] = dict(zip(values, zip(d, stick, start)))
        d, stick, start = self._batches[key][point.get(name)]
        return {**_stats(d), "stick_time": float(stick[0]), "from_start_abs": float(np.nanmean(np.abs(start)))}


def drift_sweep(case, grid, window, n_phases, params, progress=None, together=None, **options) -> list:
    """The rows of :class:`DriftPoint` over ``grid`` (``scheme`` first; ``together``: an
    axis batched), computed by :func:`nsfric.study.sweep.sweep` (``options``: its
    ``executor``, ``jobs``, ``cache_dir`` ...), one dict per point in the grid's order."""
    from nsfric.study.grid import points
    from nsfric.study.sweep import sweep

    report = None
    if progress:
        def report(done, total):
            progress(f"{case.name} drift sweep ({', '.join(grid)}): {done}/{total} points")
    ds = sweep(DriftPoint(case, window, n_phases, params, together), grid=grid, observables=list(DRIFT_OBSERVABLES),
               estimate=False, progress=report, **options)
    values = {o: ds[o].values.ravel() for o in DRIFT_OBSERVABLES}
    rows = []
    for k, p in enumerate(points(grid)):
        r = {o: float(values[o][k]) for o in DRIFT_OBSERVABLES}
        r["diverged"] = int(r["diverged"])
        rows.append({**p, **r})
    return rows


def drift_vs_dt(case, dts, alpha=15.0, window=WINDOW_1CM, integrators=DELTA_SCHEMES, params=None,
                n_phases=N_PHASES, progress=None, **options) -> list:
    """Rows ``{scheme, law, dt, drift, mean_abs, min_abs, max_abs, rate}`` for a 1 cm block:
    the delta schemes (``drift``: plain run from t = 0; ``*_abs`` over ``n_phases`` grid
    phases), the projected delta-Heun and Cundall-Strack on Heun (plain runs); one sweep
    over scheme x dt (:func:`drift_sweep`)."""
    schemes = [f"delta-{i}" for i in integrators] + list(PLAIN_LAWS)
    span = window[1] - window[0]
    rows = drift_sweep(case, {"scheme": schemes, "dt": [float(dt) for dt in dts]}, window, n_phases,
                       dict(params or {}, alpha=alpha), progress, **options)
    keys = ("drift", "mean_abs", "min_abs", "max_abs", "diverged")
    return [{"scheme": r["scheme"], "law": PLAIN_LAWS.get(r["scheme"], "coulomb"), "dt": r["dt"],
             **{k: r[k] for k in keys}, "rate": r["drift"] / span} for r in rows]


def drift_vs_size(case, sizes, integrators=DELTA_SCHEMES, dt=DT_PAPER, alpha=15.0,
                  window=WINDOW_SIZES, params=None, n_phases=N_PHASES, progress=None,
                  with_exact=True, **options) -> list:
    """Rows ``{integrator, l, drift, mean_abs, min_abs, max_abs, rate, stick_time}``: the
    delta schemes over the grid phases, one sweep over scheme x l (:func:`drift_sweep`;
    all sizes and phases of a scheme in one batch), and the exact reference per size
    (:func:`exact_size_row`)."""
    span = window[1] - window[0]
    grid = {"scheme": [f"delta-{i}" for i in integrators], "l": [float(l) for l in sizes]}
    rows = []
    for r in drift_sweep(case, grid, window, n_phases, dict(params or {}, alpha=alpha), progress,
                         ("l", grid["l"]), **options):
        integ = r["scheme"].removeprefix("delta-")
        rows.append({"integrator": integ, "scheme": r["scheme"], "l": r["l"],
                     **{k: r[k] for k in ("drift", "mean_abs", "min_abs", "max_abs", "diverged")},
                     "rate": r["drift"] / span, "stick_time": r["stick_time"], "from_start_abs": r["from_start_abs"]})
    if with_exact:
        for l in sizes:
            if progress:
                progress(f"slope-block size sweep: exact reference, l = {l:g} m")
            rows.append(exact_size_row(case, {"alpha": alpha, "l": float(l), **(params or {})}, window))
    return rows


#: the exact references of Fig 5, in the order tried.  Filippov first: IDA's linear solver
#: fails on the rotating block at some sizes, and at l = 2 mm IDA needs ~1,350 s of CPU for
#: the window (0.1, 0.3) s (it reached t = 0.045 s in 200 s), beyond the default budget --
#: a cold ``nsfric report`` stopped there -- where Filippov takes ~150 s; at 1 m they agree
#: to 1e-8 relative (1.36213969e-5 m and 1.36213971e-5 m)
SIZE_SOLVERS = ("filippov", "ida")


def first_that_ends(solve, solvers) -> tuple:
    """``(solve(solver), solver, failed)`` for the first of ``solvers`` whose ``solve``
    ends; a solver failure, a Zeno stop or its budget passes to the next, named in
    ``failed`` (``"solver: Error"``); ``(None, None, failed)`` when none ends."""
    from nsfric.errors import BudgetError

    failed = []
    for solver in solvers:
        try:
            return solve(solver), solver, failed
        except (SolverFailure, ZenoError, BudgetError) as exc:
            failed.append(f"{solver}: {type(exc).__name__}")
    return None, None, failed


def exact_size_row(case, params: dict, window, solvers=SIZE_SOLVERS) -> dict:
    """Fig 5's exact row at one size: the drift of the first solver of ``solvers`` that
    ends (:func:`exact_drift`, :func:`first_that_ends`); where every one fails the row is
    NaN (never drawn) and its ``scheme`` names each solver with why it failed."""
    span = window[1] - window[0]
    ex, solver, failed = first_that_ends(lambda s: exact_drift(case, params, window, (s,))[s], solvers)
    if ex is None:
        return {"integrator": "exact", "scheme": f"exact (failed: {', '.join(failed)})", "l": float(params["l"]),
                **_stats(np.array([np.nan])), "rate": float("nan"), "stick_time": float("nan"),
                "from_start_abs": float("nan")}
    return {"integrator": "exact", "scheme": f"exact ({solver})", "l": float(params["l"]),
            **_stats(np.array([ex["drift"]])), "rate": ex["drift"] / span,
            "stick_time": next((tt for k, tt in ex["events"] if k == "stick"), float("nan")),
            "from_start_abs": float("nan")}


def slide_acceleration(case, alpha=35.0, window=(0.03, 0.05)) -> dict:
    """Above the critical angle: the exact references' acceleration along the slope once
    the normal oscillation has died (slope of a line fitted to ``vx`` over ``window``,
    Filippov and IDA) next to ``g (sin alpha - mu cos alpha)`` (``"exact"``) and their
    events."""
    params = {"alpha": alpha}
    t = np.linspace(window[0], window[1], 201)
    out = {"alpha": alpha, "window": list(window),
           "exact": case.numbers(case.bind("coulomb", params))["slide_acceleration"]}
    for solver in ("filippov", "ida"):
        sol = case.reference_solution("coulomb", solver=solver, params=params, t_end=window[1], samples=501)
        vx = sol(t)[sol.state_names.index("vx")]
        out[solver] = {"acceleration": float(np.polyfit(t, vx, 1)[0]),
                       "events": [(e.kind, e.t) for e in sol.events]}
    return out


# -- Cundall-Strack amplitude --------------------------------------------------------------
def cs_amplitude(case, alpha=15.0, params=None, window=(0.02, 0.05), dt=DT_PAPER) -> dict:
    """Oscillation amplitude of the Cundall-Strack block about its equilibrium.

    Half the peak-to-peak of ``x`` over ``window`` (``amplitude_*``), and of ``x`` minus its
    least-squares line (``detrended_*``: removes the slow drift of stick-slip when the
    normal force touches zero), for the exact CS reference (IDA) and the CS Heun scheme,
    next to ``m g sin(alpha)/k_t``.
    """
    params = dict(params or {}, alpha=alpha)
    sol = exact(case, "cundall-strack", params, window[1], samples=20001)
    res = simulate(case, "cundall-strack", "heun", dt, t_end=window[1], params=params)
    nums = case.numbers(case.bind("cundall-strack", params))

    def amp(t, x):
        sel = (t >= window[0]) & (t <= window[1])
        tt, xx = t[sel], x[sel]
        line = np.polyval(np.polyfit(tt, xx, 1), tt)
        return float(np.ptp(xx) / 2), float(np.ptp(xx - line) / 2), float(np.mean(xx))

    a_ref, dt_ref, m_ref = amp(sol.t, sol["x"])
    a_num, dt_num, m_num = amp(res.t, res["x"])
    return {"params": params, "window": list(window), "mg_sin_over_kt": nums["cs_amplitude"],
            "amplitude_exact": a_ref, "amplitude_heun": a_num, "detrended_exact": dt_ref,
            "detrended_heun": dt_num, "mean_exact": m_ref, "mean_heun": m_num,
            "ratio_exact": a_ref / nums["cs_amplitude"],
            "ratio_detrended_exact": dt_ref / nums["cs_amplitude"], "events_exact": len(sol.events)}
