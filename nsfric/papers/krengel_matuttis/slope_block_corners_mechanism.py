"""Why, with one frictional contact per corner (law ``coulomb-corners``), delta-BDF2 and
delta-BDF5 drift *less* than delta-Heun at the paper's step 5e-6 s but not at 2e-5 s
(:mod:`nsfric.papers.krengel_matuttis.slope_block_corners`): the ingredients switched one at a time.

The block is released touching the slope at rest; it lands, and both corners stick
~40 us later, while the normal force is still building up.  Once both corners are
stuck their ``v_t`` stays what the last steps left (eq 14: no tangential acceleration),
so the drift over the window ``W`` is ``W v_held``: :func:`corner_phase_runs` runs
``T_END`` (1 ms) per grid phase, which holds the whole transient, and splits
``|v_held| W`` into the residual velocity of the step in which both corners became stuck,
``|v_stick| W``, and what the steps after it add while stuck, ``(|v_held| - |v_stick|) W``.
Three ingredients set the BDF/Heun ratio:

* **the stick-entry rule** (:mod:`nsfric.schemes.stick_rules`): under ``brake``, the
  default, a corner sticks once ``|v_t| <= h mu F_n/m_eff,tan``, i.e. *before* ``v_t``
  crosses 0, so the residual has the sign of the approach; under ``crossing`` (the
  variant ``early-stick rule off``) it sticks after the crossing, with a residual of the
  opposite sign;
* **the BDF history**: stuck, the corrector's slope is zero and BDF continues its
  history (``v_{n+1} = sum_j a_j v_{n-j}``), i.e. the deceleration before sticking: this
  carries a residual of the approach's sign *towards* 0 (per corner) and one of the
  opposite sign *away* from 0 (shared surface, :mod:`nsfric.papers.krengel_matuttis.slope_block_mechanism`);
  Heun keeps ``v_stick``;
* **the BDF start**: BDF-k takes its first k steps with RK4 (no history); at 2e-5 s the
  corners stick in step 1-2, inside that start, so there is no history to continue and
  the ratio is RK4's residual over Heun's.

:func:`mechanism_rows` measures each variant over ``n_phases`` grid phases (mean, spread,
and the range of the ratio over the interleaved 4-phase subsets, the resolution of
fig4-drift-dt-rotating-corners.csv); ``nsfric run slope-block-rotating`` writes them as
``drift-mechanism-corners.csv``.
"""
from __future__ import annotations

import numpy as np

from nsfric.schemes.base import get_scheme
from nsfric.schemes.corners import integrate_exact
from nsfric.schemes.gear import BDFPredictorCorrector
from nsfric.symbolic.contacts import contact_quantities
from nsfric.symbolic.corner_forces import CornerForces
from nsfric.papers.krengel_matuttis import slope_block_study as S
from nsfric.papers.krengel_matuttis.slope_block_corners import LAW, SCHEMES, corner_phase_starts
from nsfric.papers.krengel_matuttis.slope_block_mechanism import RestartOnStick

#: the variants, each one ingredient changed against ``plain`` (the schemes of Fig 4)
VARIANTS = ("plain", "early-stick rule off", "history restarted on sticking", "BDF started by Heun",
            "1 Gauss-Seidel pass", "weakest corner first", "no normal damping", "rotation frozen")
DTS = (5e-6, 1e-5, 2e-5)
N_PHASES = 32
#: run length per phase [s]: both corners stuck and their v_t settled (sticking at ~40 us)
T_END = 1e-3
COLUMNS = ("dt", "variant", "scheme", "n_phases", "stick_step", "start_steps", "mean_abs", "sd_abs",
           "stick_part", "stuck_part", "ratio_to_heun", "ratio4_min", "ratio4_max", "both_stuck")


class RestartOnCornerStick(RestartOnStick):
    """:class:`~nsfric.papers.krengel_matuttis.slope_block_mechanism.RestartOnStick` on the per-corner field,
    whose stuck flags are per corner (first axis): a member's history is restarted when
    any of its corners has entered the stuck state at the last step."""

    @staticmethod
    def entered(new):
        return np.any(new, axis=0)


class HeunStarted(BDFPredictorCorrector):
    """BDF-k predictor-corrector started by ``k`` Heun steps instead of RK4."""

    def __init__(self, k: int):
        super().__init__(k)
        self.name = f"bdf{k}-pc-heun-start"

    def step(self, field, t, u, h, hist, record=None):
        prev = hist if hist is not None else []
        if len(prev) < self.k:
            u1, _ = get_scheme("heun").step(field, t, u, h, None, record)
            return u1, [u] + prev
        return super().step(field, t, u, h, hist, record)


def _integrator(scheme: str, variant: str):
    base = get_scheme(scheme).base
    if scheme == "delta-heun":
        return base
    k = base.k
    return {"history restarted on sticking": RestartOnCornerStick,
            "BDF started by Heun": HeunStarted}.get(variant, lambda k: base)(k)


def _freeze_rotation(forces: CornerForces, itheta: int):
    """``theta`` held (``M^-1`` of it 0); returns ``meff(u)``: eq 21's ``m_eff,tan`` of the
    frozen block at ``u`` (``1/(J_t M^-1 J_t^T)``, constant while ``theta`` is held), so
    that eq 22 balances the translating corners (set as ``forces.meff_fixed`` per run)."""
    forces.Minv_b = np.array(forces.Minv_b, copy=True)
    forces.Minv_b[itheta] = 0.0
    forces.Minv = forces.Minv_b[:, 0]

    def meff(u):
        J = contact_quantities(forces.model, u, forces.p)["J_t"]
        return 1.0 / np.einsum("ki,i,ki->k", J, forces.Minv, J)
    return meff


def corner_phase_runs(case, scheme: str, dt: float, variant: str = "plain", n_phases: int = N_PHASES,
                      t_end: float = T_END, alpha: float = 15.0) -> dict:
    """Per grid phase (arrays): ``stick_step`` (first step with both corners stuck),
    ``v_stick`` (the corners' mean ``v_t`` there), ``v_held`` (at ``t_end``) and
    ``both_stuck`` (both stuck from ``stick_step`` to ``t_end``)."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    params = {"alpha": alpha, **({"D": 0.0} if variant == "no normal damping" else {})}
    values = case.bind(LAW, params=params)
    model = case.model(LAW)
    _, U = corner_phase_starts(case, values, dt, n_phases)
    forces = CornerForces(model, values)
    forces.sweeps = 1 if variant == "1 Gauss-Seidel pass" else forces.sweeps
    forces.strongest_first = variant != "weakest corner first"
    if variant == "rotation frozen":
        frozen_meff = _freeze_rotation(forces, model.state_names.index("theta"))
        U = np.array(U, copy=True)
        U[model.state_names.index("omega")] = 0.0
    n = int(round(t_end / dt))
    out = {k: [] for k in ("stick_step", "v_stick", "v_held", "both_stuck")}
    for j in range(U.shape[1]):
        if variant == "rotation frozen":
            forces.meff_fixed = frozen_meff(U[:, j])
        _, Y, info = integrate_exact(forces, _integrator(scheme, variant), 0.0, U[:, j], dt, n,
                                     stick_rule="crossing" if variant == "early-stick rule off" else None)
        modes = info["modes"]
        js = next((i for i, m in enumerate(modes) if m == "ss"), None)

        def v_t(i):
            return float(np.mean(forces.exact(Y[:, i], np.array([c == "s" for c in modes[i]]))[1]["v_t"]))
        out["stick_step"].append(-1 if js is None else js)
        out["v_stick"].append(np.nan if js is None else v_t(js))
        out["v_held"].append(v_t(n) if np.all(np.isfinite(Y[:, n])) else np.nan)
        out["both_stuck"].append(js is not None and all(m == "ss" for m in modes[js:]))
    return {k: np.array(v) for k, v in out.items()}


def _ratio4(d, heun):
    """BDF/Heun mean-|drift| ratios of the interleaved 4-phase subsets (phases ``j, j + n/4,
    j + n/2, j + 3n/4``: the grid of a 4-phase run shifted by ``j dt/n``)."""
    n = len(d)
    if n % 4:
        return np.array([np.mean(d) / np.mean(heun)])
    idx = np.arange(0, n, n // 4)
    return np.array([np.mean(d[idx + j]) / np.mean(heun[idx + j]) for j in range(n // 4)])


def mechanism_rows(case, dts=DTS, variants=VARIANTS, n_phases: int = N_PHASES, window=S.WINDOW_1CM,
                   t_end: float = T_END, schemes=SCHEMES, progress=None) -> list:
    """Rows ``{dt, variant, scheme, n_phases, stick_step (median), start_steps (k RK4 steps of
    BDF-k, 0 for Heun), mean_abs (mean |v_held| W), sd_abs, stick_part (mean |v_stick| W),
    stuck_part (mean (|v_held| - |v_stick|) W), ratio_to_heun (mean_abs over delta-heun's of
    the same variant and dt), ratio4_min, ratio4_max, both_stuck}``; ``W`` the window's
    length (the drift of Fig 4's window, the corners stuck throughout)."""
    W = window[1] - window[0]
    rows = []
    for dt in dts:
        for variant in variants:
            heun = None
            for scheme in schemes:
                if progress:
                    progress(f"per-corner drift mechanism: dt={dt:g}, {variant}, {scheme}")
                r = corner_phase_runs(case, scheme, dt, variant, n_phases, t_end)
                held, stick = np.abs(r["v_held"]) * W, np.abs(r["v_stick"]) * W
                heun = held if scheme == "delta-heun" else heun
                k = getattr(get_scheme(scheme).base, "k", 0)
                ratios = _ratio4(held, heun)
                rows.append({"dt": dt, "variant": variant, "scheme": scheme, "n_phases": n_phases,
                             "stick_step": float(np.median(r["stick_step"])), "start_steps": k,
                             "mean_abs": float(np.mean(held)), "sd_abs": float(np.std(held)),
                             "stick_part": float(np.mean(stick)), "stuck_part": float(np.mean(held - stick)),
                             "ratio_to_heun": float(np.mean(held) / np.mean(heun)),
                             "ratio4_min": float(ratios.min()), "ratio4_max": float(ratios.max()),
                             "both_stuck": bool(np.all(r["both_stuck"]))})
    return rows


def write_rows(case, out_dir: str, meta: dict, window=S.WINDOW_1CM, progress=None, **options) -> tuple:
    """:func:`mechanism_rows` (``options``) written as ``drift-mechanism-corners.csv`` with
    its sidecar: ``(rows, path)``."""
    import os

    from nsfric.io import write_csv_with_sidecar

    rows = mechanism_rows(case, window=window, progress=progress, **options)
    cols = {c: (np.array([r[c] for r in rows], dtype=object) if isinstance(rows[0][c], str)
                else np.array([float(r[c]) for r in rows])) for c in COLUMNS}
    path = os.path.join(out_dir, "drift-mechanism-corners.csv")
    write_csv_with_sidecar(path, cols, dict(meta, law=LAW, alpha=15.0, l=0.01, window=list(window),
                                            t_end=options.get("t_end", T_END),
                                            options={k: list(v) if isinstance(v, tuple) else v
                                                     for k, v in options.items()}))
    return rows, path
