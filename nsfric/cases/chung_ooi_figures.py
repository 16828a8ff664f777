"""The figures and tables of ``nsfric run chung-ooi`` (:mod:`nsfric.cases.chung_ooi`).

* ``normal.csv``, ``normal.png``: T1 and T2, the normal force against time and against
  the overlap (exact trajectories, ``mindlin/hertz`` -- no tangential motion), with one
  row per test in ``normal.csv``: contact duration, largest overlap and force, exact and
  closed form (:func:`~nsfric.cases.chung_ooi.hertz_impact`), and the difference of the
  two solvers.  ``T1-glass.csv`` ... the trajectories (``t``, ``xi``, ``F_n``).
* ``T3.csv``, ``T3.png``: the restitution coefficient of LIGGGHTS's Hertz damping
  (:func:`~nsfric.cases.chung_ooi.liggghts_damping`) against the one put in, exact.
* ``Thornton.csv``, ``Thornton.png``: Thornton, Cummins & Cleary's oblique elastic impact
  (LIGGGHTS-PFM ``thornton``) in the same way.
* ``T4.csv``, ``T4.png`` (tangential restitution of the centre, spin, rebound angle of the
  contact point against the incidence angle), ``T5.csv``/``T5.png`` and
  ``T6.csv``/``T6.png`` (the benchmark's normalised rebound angle and spin): every point
  exact with ``mindlin/hertz`` and ``mindlin-force/hertz``, solved by ``filippov`` and by
  ``ida`` (the largest difference of the two per point in the column ``solver_diff``,
  :func:`solver_difference`; the sidecar's ``cross_check`` counts the points over its
  tolerance, 1e-8 (:data:`FAMILY_CROSS_CHECK` where a family's references agree less
  well), and those one solver did not finish within its budget),
  with the rigid-body closed form of an impact that slides throughout
  (:func:`~nsfric.cases.chung_ooi.gross_sliding`) beside; ``sticks`` is 1 where the exact
  solution sticks (there the closed form does not hold).
* ``T4-damped.csv``/``.png`` and ``T6-damped.csv``/``.png``: the same with LIGGGHTS's
  damping for the tests' restitution (``e = 0.98``, ``0.5``), law
  ``mindlin-elastic-test/hertz-tsuji`` (tangential damping ``~ xi^(1/4)``, the Coulomb
  test on the elastic part), the closed form at the ``e`` put in -- with the tangential
  impulse ``mu (1 + e) m v_n``, which LIGGGHTS's damping exceeds where it pulls at the end
  of the contact (``F_n < 0``, the bound ``mu |F_n|``): the damped T6's exact rebound at
  large spin lies below that line (7 % at ``R omega_i/v_n = 7``, nylon).  The damped T6
  is cross-checked to 1e-6 only (:data:`FAMILY_CROSS_CHECK`).
* ``T7.csv``/``.png``, ``T7-damped.csv``/``.png``: Chung & Ooi's two equal spheres spinning at
  ``omega`` and ``-omega`` (case ``chung-ooi-spheres``, :mod:`nsfric.cases.chung_ooi_spheres`):
  sphere 1's tangential centre velocity and rebound spin against the initial spin, with the
  closed form of no slip (:func:`~nsfric.cases.chung_ooi_spheres.t7_closed_form`: 0 and
  ``omega_i``); ``T8.csv``/``.png``, ``T8-damped.csv``/``.png``: the sphere on a sphere of five
  times its radius, ``v_t^f/v_t^i`` and ``v_t^f/(mu v_n^f)`` of the contact points (signed as
  the slip at the start, T6's convention) against ``R_1 omega_i/v_n``, beside the impact
  sliding throughout (:func:`~nsfric.cases.chung_ooi_spheres.gross_sliding`).  ``nsfric run
  chung-ooi-spheres`` writes these alone (:func:`write_spheres`).

The points are sweeps (:func:`nsfric.study.sweep.sweep`) of the picklable
:class:`TestPoint`, cached by content in ``cache_dir``.
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.cases import chung_ooi as C
from nsfric.cases import chung_ooi_spheres as S
from nsfric.io import write_csv_with_sidecar
from nsfric.plotting import figure, save
from nsfric.study.cache import content_key, model_hash
from nsfric.study.sweep import sweep

NORMAL_TESTS = ("T1-glass", "T1-limestone", "T2-al-alloy", "T2-mg-alloy")
LAWS = ("mindlin/hertz", "mindlin-force/hertz")
#: LIGGGHTS's damped Hertz-Mindlin (tangential damping ~ xi^(1/4), elastic Coulomb test)
DAMPED = ("mindlin-elastic-test/hertz-tsuji",)
#: per figure: its tests and the laws each runs
FAMILIES = {"T3": (("T3-al-oxide", "T3-cast-iron"), ("mindlin/hertz-tsuji",)),
            "T4": (("T4-elastic-al-oxide", "T4-elastic-al-alloy"), LAWS),
            "T4-damped": (("T4-damped-al-oxide", "T4-damped-al-alloy"), DAMPED),
            "T5": (("T5-steel", "T5-polyethylene"), LAWS),
            "T6": (("T6-elastic-al-alloy", "T6-elastic-nylon"), LAWS),
            "T6-damped": (("T6-damped-al-alloy", "T6-damped-nylon"), DAMPED),
            "Thornton": (("Thornton",), LAWS),
            "T7": (("T7-elastic-al-alloy", "T7-elastic-copper"), LAWS),
            "T7-damped": (("T7-damped-al-alloy", "T7-damped-copper"), DAMPED),
            "T8": (("T8-elastic-al-alloy", "T8-elastic-nylon"), LAWS),
            "T8-damped": (("T8-damped-al-alloy", "T8-damped-nylon"), DAMPED)}
#: the families of two spheres (case ``chung-ooi-spheres``, :mod:`nsfric.cases.chung_ooi_spheres`)
SPHERE_FAMILIES = ("T7", "T7-damped", "T8", "T8-damped")
#: every test by name, T1-T6 and Thornton of ``chung-ooi``, T7 and T8 of ``chung-ooi-spheres``
ALL_TESTS = {**C.TESTS, **S.TESTS}
SWEPT = tuple(t for tests, _ in FAMILIES.values() for t in tests)
SOLVERS = ("filippov", "ida")
KEYS = ("psi_f", "e_n", "e_t", "e_t_com", "omega_f", "rebound_angle", "t_n", "sticks")
#: the observables of a two-sphere point: sphere 1's spin and centre velocity, sphere 2's spin
SPHERE_KEYS = ("psi_f", "e_n", "e_t", "omega_f", "omega_2f", "vx_1f", "rebound_angle", "t_n", "sticks")


def keys_of(test: str) -> tuple:
    """The observables a point of ``test`` gives (:data:`KEYS` or :data:`SPHERE_KEYS`)."""
    return SPHERE_KEYS if test in S.TESTS else KEYS


def case_of(test: str, case):
    """The case that solves ``test``: ``chung-ooi-spheres`` for T7 and T8, else ``case``."""
    from nsfric.cases import get_case

    return get_case(S.ChungOoiSpheres.name) if test in S.TESTS else case


def run_options(params: dict) -> dict:
    """``params`` of ``nsfric run chung-ooi`` checked: ``stride``, an integer from 1 to 100
    (every ``stride``-th point of each sweep)."""
    unknown = sorted(set(params) - {"stride"})
    if unknown:
        raise ValueError(f"nsfric run chung-ooi takes --param stride=N only, not {', '.join(unknown)}")
    stride = params.get("stride", 1)
    if not (float(stride).is_integer() and 1 <= stride <= 100):
        raise ValueError(f"stride must be an integer from 1 to 100, got {stride!r}")
    return {"stride": int(stride)}


#: CPU budget of one solve [s], and the options a solver retries with where the case's
#: own stall: ``atol`` scaled by Hertz's largest overlap ``xi_max`` of the point (IDA
#: stalls at some sticks of ``mindlin`` with ``atol = 1e-15`` -- Thornton at 5 and 10
#: degrees, ``xi_max = 2e-4 m``, passes with 1e-12 --, while T5's spheres of 10 um, ``xi_max
#: = 7e-8 m``, need ``atol`` below 1e-14: an absolute 1e-12 gave nonsense there)
MAX_SECONDS = 10.0
#: the largest difference of the two solvers (:func:`solver_difference`) of a point the
#: figures draw; the CSV holds every point with its difference
CROSS_CHECK = 1e-8
#: where the two solvers agree less well: the damped T6 (nylon and Al alloy spheres of 0.1
#: m, e = 0.5) agrees to about 1e-7 (``e_t``; 5e-9 in ``psi_f``), the size by which each
#: solver's own value moves with its tolerances (filippov: 9e-10 in ``psi_f`` from
#: ``atol`` 1e-15 to 1e-18 and against Radau): the overlap is the difference of the centre's
#: height (0.1 m, resolved to ``rtol |y|`` = 1e-13 m) and the radius, 1e-8 of itself, and
#: LIGGGHTS's damping ``~ xi^(1/4)`` reads it; the damped T8 (spheres of 0.1 and 0.5 m) in the same
#: way: 3.8e-8 at ``R_1 omega_i/v_n = 0.0875`` (Al alloy)
FAMILY_CROSS_CHECK = {"T6-damped": 1e-6, "T8-damped": 1e-6}
RETRIES = ({}, {"atol_per_xi_max": 1e-8}, {"atol_per_xi_max": 1e-10, "rtol": 1e-11})
#: (law, solver) pairs that start from another retry: IDA on LIGGGHTS's damped law takes
#: 127,000 steps (16 s) at T4-damped's 5 degrees with the case's options and stalls with
#: ``atol`` 1e-8 xi_max, while the last retry solves it in 3 s (0.2 s on the Al alloy,
#: which the others do not finish in 60 s), 6e-11 from filippov in ``psi_f``
LAW_RETRIES = {(law, "ida"): (RETRIES[2], RETRIES[0], RETRIES[1]) for law in DAMPED}


def retry_options(opts: dict, values: dict) -> dict:
    """The solver options of the retry ``opts`` (an entry of :data:`RETRIES`) at the
    point with bound parameters ``values``."""
    out = {k: v for k, v in opts.items() if k != "atol_per_xi_max"}
    if "atol_per_xi_max" in opts:
        one_body = S.effective(values) if "m_1" in values else values  # two spheres: m*, R*
        out["atol"] = opts["atol_per_xi_max"] * C.hertz_impact(one_body)["xi_max"]
    return out


class TestPoint:
    """The point ``{"i": k}`` of the test ``test``'s sweep solved with ``law`` by
    ``solver``: the observables :data:`KEYS` (``sticks``: 1 if the solution sticks) and
    ``how``, the options that gave them (the case's, else the first of :data:`RETRIES`
    that finishes within :data:`MAX_SECONDS` of CPU).  Picklable (the case travels by name)."""

    def __init__(self, case, test: str, law: str, solver: str):
        self.case, self.test, self.law, self.solver = case, test, law, solver

    @property
    def cache_token(self) -> str:
        """Changes with the model's content, the test's points and the solver's options."""
        return content_key({"case": self.case.name, "law": self.law, "model": model_hash(self.case.model(self.law)),
                            "points": C.points(ALL_TESTS[self.test]), "solver": self.solver,
                            "options": self.case.solver_options(self.law, self.solver),
                            "retries": LAW_RETRIES.get((self.law, self.solver), RETRIES),
                            "max_seconds": MAX_SECONDS})

    def __call__(self, point: dict) -> dict:
        from nsfric.errors import BudgetError, SolverFailure, ZenoError

        p = C.points(ALL_TESTS[self.test])[int(point["i"])]
        errors = []
        for retry in LAW_RETRIES.get((self.law, self.solver), RETRIES):
            opts = retry_options(retry, self.case.bind(self.law, p))
            try:
                sol = self.case.reference_solution(self.law, solver=self.solver, params=p, max_seconds=MAX_SECONDS,
                                                   **opts)
            except (BudgetError, SolverFailure, ZenoError) as e:
                errors.append(f"{opts or 'defaults'}: {type(e).__name__}")
                continue
            if not sol.summary:
                raise RuntimeError(self.case.why_no_observables(self.law, sol))
            out = {k: float(sol.summary.get(k, np.nan)) for k in keys_of(self.test) if k != "sticks"}
            return {**out, "sticks": float(any(e.kind == "stick" for e in sol.events)),
                    "how": f"{self.solver} {opts or 'defaults'}"}
        raise SolverFailure(f"{self.solver}: {'; '.join(errors)}")


def _sweep_test(case, test: str, law: str, solver: str, idx, jobs, cache_dir) -> tuple:
    """The observables of the points ``idx`` (NaN where every option failed) and, per
    point, how they were solved or why not."""
    keys = keys_of(test)
    ds = sweep(TestPoint(case_of(test, case), test, law, solver), grid={"i": [int(i) for i in idx]},
               observables=list(keys), jobs=jobs, cache_dir=cache_dir, estimate=False, chunksize=1,
               on_failure="record")
    how = [str(h) for h in ds["how"].values] if "how" in ds else [""] * len(idx)
    if "failure" in ds:
        how = [f if f else h for h, f in zip(how, (str(x) for x in ds["failure"].values))]
    return {k: np.asarray(ds[k].values, dtype=float) for k in keys}, how


def solver_difference(a: dict, b: dict) -> np.ndarray:
    """Per point, the largest difference of two solvers' observables (those of ``a``), each
    over ``max(1, |a|)`` (``t_n`` over ``|a|``: seconds; the rebound angle in radians)."""
    scale = {"t_n": np.abs(a["t_n"]), "rebound_angle": 1 / C.DEG}  # seconds; degrees as radians
    rows = [np.abs(a[q] - b[q]) / scale.get(q, np.maximum(1.0, np.abs(a[q]))) for q in a if q != "sticks"]
    return np.nanmax(rows, axis=0)


def _normalised(test: C.Test, pts: list, obs: dict) -> dict:
    """The benchmark's plotted quantities of the points ``pts`` with observables ``obs``."""
    if test.name in S.TESTS:  # two spheres: relative v_n; slip signed as its start (T6's convention)
        vn = np.array([p["v_1"] + p["v_2"] for p in pts])
        sign = np.array([np.sign(S.initial_slip(p)) or 1.0 for p in pts])
        mu = test.params["mu"]
        vt_f, vn_f = sign * obs["psi_f"] * vn, obs["e_n"] * vn
        return {"e_n": obs["e_n"], "omega_f": obs["omega_f"], "vx_1f": obs["vx_1f"], "e_t": obs["e_t"],
                "norm_rebound_angle": vt_f / (mu * vn_f), "rebound_angle": obs["rebound_angle"]}
    vn = np.array([p["v_n"] for p in pts])
    mu, R = test.params.get("mu", np.nan), test.params["R"]  # T3: no tangential motion, no mu
    vt_f, vn_f = obs["psi_f"] * vn, obs["e_n"] * vn
    return {"e_n": obs["e_n"], "e_t_com": obs["e_t_com"], "omega_f": obs["omega_f"],
            "rebound_angle": obs["rebound_angle"],
            "norm_rebound_angle": vt_f / (mu * vn_f), "norm_omega_f": R * obs["omega_f"] / (mu * vn),
            "e_t": obs["e_t"], "psi_f_over_mu": obs["psi_f"] / mu}


#: per test family: the panels (column, y label)
PANELS = {"T3": (("e_n", "restitution coefficient e_n"),),
          "T4": (("e_t_com", "tangential restitution v_x^f/v_x^i"), ("omega_f", "rebound spin omega_f [1/s]"),
                 ("rebound_angle", "rebound angle of the contact point [deg]")),
          "T5": (("norm_rebound_angle", "v_t^f/(mu v_n^f)"), ("norm_omega_f", "R omega_f/(mu v_n)")),
          "T6": (("e_t", "v_t^f/v_t^i (contact point)"), ("norm_rebound_angle", "v_t^f/(mu v_n^f)")),
          "T7": (("vx_1f", "sphere 1: tangential velocity v_x^f [m/s]"), ("omega_f", "sphere 1: rebound spin [1/s]")),
          "T8": (("e_t", "v_t^f/v_t^i (contact points)"),
                 ("norm_rebound_angle", "v_t^f/(mu v_n^f), slip as at the start")),
          "Thornton": (("psi_f_over_mu", "v_t^f/(mu v_n^i)"), ("norm_omega_f", "R omega_f/(mu v_n)"),
                       ("e_t_com", "tangential restitution v_x^f/v_x^i"))}


def _closed(test: C.Test, pts: list, e_n: float = 1.0) -> dict:
    """:func:`~nsfric.cases.chung_ooi.gross_sliding` with the restitution ``e_n`` at the
    points, as :func:`_normalised` reads them; T7: :func:`~nsfric.cases.chung_ooi_spheres.
    t7_closed_form`; T8: :func:`~nsfric.cases.chung_ooi_spheres.gross_sliding`."""
    if test.name in S.TESTS:
        return _closed_spheres(test, pts, e_n)
    gs = [C.gross_sliding({**p, "omega_i": p.get("omega_i", 0.0)}, e_n) for p in pts]
    vx_i = np.array([p["psi_i"] * p["v_n"] - p["R"] * p.get("omega_i", 0.0) for p in pts])
    obs = {"psi_f": np.array([g["psi_f"] for g in gs]), "e_n": np.full(len(pts), e_n),
           "e_t_com": np.array([g["vx_f"] for g in gs]) / np.where(vx_i == 0, np.nan, vx_i),
           "omega_f": np.array([g["omega_f"] for g in gs]), "rebound_angle": np.array([g["rebound_angle"] for g in gs])}
    obs["e_t"] = obs["psi_f"] / np.array([p["psi_i"] for p in pts])
    return _normalised(test, pts, obs)


def _closed_spheres(test: C.Test, pts: list, e_n: float) -> dict:
    """The closed forms of T7 (no slip, by symmetry) and T8 (sliding throughout)."""
    nan = np.full(len(pts), np.nan)
    if test.name.startswith("T7"):
        cf = [S.t7_closed_form(p) for p in pts]
        obs = {"psi_f": np.zeros(len(pts)), "e_n": np.full(len(pts), e_n), "e_t": nan,
               "omega_f": np.array([c["omega_f"] for c in cf]), "vx_1f": np.array([c["vx_1f"] for c in cf]),
               "rebound_angle": np.zeros(len(pts))}
    else:
        gs = [S.gross_sliding(p, e_n) for p in pts]
        psi_i = np.array([S.initial_slip(p) / (p["v_1"] + p["v_2"]) for p in pts])
        obs = {q: np.array([g[q] for g in gs]) for q in ("psi_f", "omega_f", "vx_1f", "rebound_angle")}
        e_t = obs["psi_f"] / psi_i  # below 0 the slip would reverse: the contact sticks, no closed form
        obs.update({"e_n": np.full(len(pts), e_n), "e_t": np.where(e_t >= 0, e_t, np.nan)})
    return _normalised(test, pts, obs)


def write_swept(case, family: str, out_dir: str, stride: int, progress, jobs, cache_dir) -> list:
    """``FAMILY.csv`` (+ sidecar) and ``FAMILY.png`` of the tests of ``family`` (T4, T5, T6)."""
    tests, laws = FAMILIES[family]
    cols, meta = {}, {"case": case.name, "reference": C.REFERENCE, "tests": {}, "skipped": C.SKIPPED,
                      "solvers": list(SOLVERS), "laws": list(laws)}
    panels = PANELS[family.split("-")[0]]
    tol = FAMILY_CROSS_CHECK.get(family, CROSS_CHECK)
    fig, axes = figure(len(panels), 1, sharex=True, figsize=(6.4, 2.4 * len(panels) + 0.9))
    for j, name in enumerate(tests):
        test = ALL_TESTS[name]
        idx = np.arange(0, len(C.points(test)), stride)
        pts = [C.points(test)[i] for i in idx]
        x = np.asarray(test.x[1])[idx]
        meta["tests"][name] = {"title": test.title, "source": test.source, "material": vars(test.material),
                               "params": test.params, "x": test.x[0]}
        cols[f"{name}:x"] = x
        closed = _closed(test, pts, test.e) if family != "T3" else {"e_n": x}  # T3: the e put in
        for q, _ in panels:
            closed_tag = "put_in" if family == "T3" else "no_slip" if family.startswith("T7") else "gross_sliding"
            cols[f"{name}:{closed_tag}:{q}"] = closed[q]
        for k, law in enumerate(laws):
            if progress:
                progress(f"chung-ooi: {name} {law} ({len(idx)} points, {' and '.join(SOLVERS)})")
            runs = {s: _sweep_test(case, name, law, s, idx, jobs, cache_dir) for s in SOLVERS}
            res = {s: r[0] for s, r in runs.items()}
            meta.setdefault("how", {}).update({f"{name}:{law}:{s}": r[1] for s, r in runs.items()})
            diff = solver_difference(res["filippov"], res["ida"])
            norm = _normalised(test, pts, res["filippov"])
            tag = f"{name}:{law.split('/')[0]}"
            for q, _ in panels:
                cols[f"{tag}:{q}"] = norm[q]
            cols[f"{tag}:sticks"] = res["filippov"]["sticks"]
            cols[f"{tag}:solver_diff"] = diff
            meta.setdefault("cross_check", {})[tag] = {
                "largest": float(np.nanmax(diff)) if np.isfinite(diff).any() else None,
                "tolerance": tol, "points_over_tolerance": int(np.sum(diff > tol)),
                "points_unchecked": int(np.sum(~np.isfinite(diff)))}
            checked = diff <= tol  # the figure draws the cross-checked points only
            cols[f"{tag}:cross_checked"] = checked.astype(float)
            for ax, (q, _) in zip(axes[:, 0], panels):
                ax.plot(x, np.where(checked, norm[q], np.nan), color=f"C{2 * j + k}", marker="o", ms=3, lw=1.1,
                        label=f"{name}, {law}")
        for ax, (q, _) in zip(axes[:, 0], panels):
            ax.plot(x, closed[q], color=f"C{2 * j}", ls=":", lw=1.2,
                    label=f"{name}, " + ("e put in" if family == "T3" else "no slip (symmetry)"
                                         if family.startswith("T7") else "sliding throughout" if test.e == 1
                                         else f"sliding throughout with the e put in, {test.e:g} (approximate)"))
    for ax, (_, label) in zip(axes[:, 0], panels):
        ax.set_ylabel(label, fontsize=8)
    axes[-1, 0].set_xlabel(ALL_TESTS[tests[0]].x[0])
    axes[-1, 0].legend(loc="upper center", bbox_to_anchor=(0.5, -0.35), ncol=2, fontsize=7, frameon=False)
    source = "Chung & Ooi " if family != "Thornton" else ""
    axes[0, 0].set_title(f"{source}{family}: exact Hertz-Mindlin references (nsfric run chung-ooi)", fontsize=9)
    path = os.path.join(out_dir, f"{family}.csv")
    side = write_csv_with_sidecar(path, cols, meta, finite=None)
    return [path, side, save(fig, os.path.join(out_dir, f"{family}.png"))]


def write_normal(case, out_dir: str, progress) -> list:
    """``normal.csv``/``normal.png`` and the trajectories of T1 and T2 (module docstring)."""
    from nsfric.cases.reference import reference_meta

    written, rows = [], {k: [] for k in ("test", "t_n", "t_n_closed", "xi_max", "xi_max_closed", "F_n_max",
                                         "F_n_max_closed", "solver_diff")}
    fig, axes = figure(2, 2, figsize=(8.0, 6.4), constrained_layout=True)
    law = "mindlin/hertz"
    for name in NORMAL_TESTS:
        if progress:
            progress(f"chung-ooi: {name}")
        test = C.TESTS[name]
        p = C.points(test)[0]
        sol = case.reference_solution(law, params=p, samples=801)
        other = case.reference_solution(law, solver="ida", params=p).summary
        closed = C.hertz_impact(case.bind(law, p))
        rows["test"].append(name)
        for q in ("t_n", "xi_max", "F_n_max"):
            rows[q].append(sol.summary[q])
            rows[f"{q}_closed"].append(closed[q])
        rows["solver_diff"].append(max(abs(sol.summary[q] - other[q]) / abs(sol.summary[q])
                                       for q in ("t_n", "xi_max", "e_n")))
        xi = p["R"] - sol["y"]
        F = np.where(xi > 0, sol["F_n"], 0.0)
        path = os.path.join(out_dir, f"{name}.csv")
        written += [path, write_csv_with_sidecar(path, {"t": sol.t, "xi": xi, "F_n": F},
                                                 {**reference_meta(case, law, sol), "test": test.title,
                                                  "source": test.source, "closed_form": closed})]
        row = 0 if name.startswith("T1") else 1
        inside = xi > 0
        axes[row, 0].plot(sol.t * 1e6, F / 1e3, lw=1.3, label=test.material.name)
        axes[row, 1].plot(xi[inside] * 1e6, F[inside] / 1e3, lw=1.3, label=test.material.name)
        axes[row, 0].plot([closed["t_n"] / 2 * 1e6], [closed["F_n_max"] / 1e3], "kx", ms=6)
    for row in (0, 1):
        axes[row, 0].set_ylabel("normal force [kN]")
        axes[row, 0].set_xlabel("t [us]")
        axes[row, 1].set_xlabel("overlap [um]")
        axes[row, 1].legend(loc="upper left", fontsize=8, frameon=False, title_fontsize=8,
                            title=("T1: two equal spheres", "T2: sphere on a plane")[row])
    axes[0, 0].set_title("T1, T2: exact Hertz impacts (x: closed-form peak)", fontsize=9)
    path = os.path.join(out_dir, "normal.csv")
    written += [path, write_csv_with_sidecar(path, rows, {"case": case.name, "reference": C.REFERENCE,
                                                          "solvers": ["filippov", "ida"]}),
                save(fig, os.path.join(out_dir, "normal.png"))]
    return written


def write_all(case, out_dir: str, params: dict, progress=None, jobs=1, cache_dir=None) -> list:
    """Everything ``nsfric run chung-ooi`` writes (module docstring)."""
    stride = run_options(params)["stride"]
    written = write_normal(case, out_dir, progress)
    for family in FAMILIES:
        written += write_swept(case, family, out_dir, stride, progress, jobs, cache_dir)
    return written


def write_spheres(out_dir: str, params: dict, progress=None, jobs=1, cache_dir=None) -> list:
    """What ``nsfric run chung-ooi-spheres`` writes: the families T7 and T8 alone (:data:`SPHERE_FAMILIES`)."""
    from nsfric.cases import get_case

    stride = run_options(params)["stride"]
    case = get_case(S.ChungOoiSpheres.name)
    written = []
    for family in SPHERE_FAMILIES:
        written += write_swept(case, family, out_dir, stride, progress, jobs, cache_dir)
    return written
