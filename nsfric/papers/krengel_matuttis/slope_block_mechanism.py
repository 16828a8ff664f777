"""Why the delta-BDF schemes drift more than delta-Heun on the slope (Krengel & Matuttis
Fig 4 says the opposite): the ingredients switched one at a time.

While a delta scheme holds the contact stuck, the force balance (eq 14) makes the
tangential acceleration vanish, so the velocity keeps what the step that crossed
``v_t = 0`` left.  Heun keeps it as it is (``v_{n+1} = v_n`` when the slope is zero);
a BDF-k corrector with zero slope continues its *history*,
``v_{n+1} = sum_j a_j v_{n-j}``, which extrapolates the deceleration of the last k
steps before sticking: BDF2's invariant is ``(3 v_n - v_{n-1})/2 = v_n - a dt/2`` for a
deceleration ``a``.  :func:`mechanism_rows` measures the drift of Heun, BDF2 and BDF5
with each ingredient changed alone:

* ``plain`` -- the schemes of Figs 4-5;
* ``history restarted on sticking`` -- :class:`RestartOnStick`: the BDF history of a
  member that has just entered the stuck state is replaced by its current state (the
  memory of the approach is dropped; the velocity itself is not touched);
* ``3 corrections`` -- PE(CE)^3 instead of PE(CE): closer to the implicit corrector;
* ``no normal damping`` -- ``D = 0`` (the normal contact oscillates; stick-slip), for
  the translating block only (the undamped rotating block's rocking pulls a corner,
  outside its bilateral corner contacts);
* the translating and the rotating block (rotation on/off).
"""
from __future__ import annotations

import numpy as np

from nsfric.schemes.gear import BDFPredictorCorrector
from nsfric.papers.krengel_matuttis import slope_block_study as S


class RestartOnStick(BDFPredictorCorrector):
    """BDF-k predictor-corrector whose history is restarted (every stored state set to
    the current one) for the batch members that entered the stuck state at the last
    step -- the multistep memory of the approach dropped, the state untouched."""

    def __init__(self, k: int, corrections: int = 1):
        super().__init__(k, corrections)
        self.name = f"bdf{k}-pc-restart"
        self._was = None

    def step(self, field, t, u, h, hist, record=None):
        stuck = getattr(field, "stuck", None)
        if stuck is not None and hist:
            was = np.zeros_like(stuck) if self._was is None else self._was
            new = self.entered(stuck & ~was)
            if np.any(new):
                hist = [np.where(new, u, y) for y in hist]
            self._was = np.array(stuck, copy=True)
        return super().step(field, t, u, h, hist, record)

    @staticmethod
    def entered(new):
        """The members to restart from the field's newly stuck flags (one per member)."""
        return new


VARIANTS = ("plain", "history restarted on sticking", "3 corrections", "no normal damping")


def _integrator(integ: str, variant: str):
    k = {"bdf2": 2, "bdf5": 5}.get(integ)
    if k is None or variant in ("plain", "no normal damping"):
        return integ, 1
    if variant == "3 corrections":
        return integ, 3
    return RestartOnStick(k), 1


def mechanism_drift(case, integ, variant, params, dt, window, n_phases, stick_rule=None):
    """Mean |drift| over ``n_phases`` grid phases and the drift of the plain run (t = 0)
    (``stick_rule``: a name of :data:`nsfric.schemes.stick_rules.STICK_RULES`, default the
    default rule)."""
    values = case.bind("coulomb", dict(params, **({"D": 0.0} if variant == "no normal damping" else {})))
    scheme, corr = _integrator(integ, variant)
    d, _ = S.delta_drifts(case, scheme, [values], dt, window, n_phases, corrections=corr, stick_rule=stick_rule)
    return float(np.nanmean(np.abs(d[0]))), float(d[0, 0])


def mechanism_rows(cases, alpha=15.0, dt=S.DT_PAPER, window=S.WINDOW_1CM, n_phases=4,
                   integrators=S.DELTA_SCHEMES, variants=VARIANTS, progress=None) -> list:
    """Rows ``{block, variant, scheme, drift, mean_abs, ratio_to_heun}``: the drift of each
    delta scheme with one ingredient changed, for each case (translating, rotating)."""
    rows = []
    for case in cases:
        block = "rotating" if getattr(case, "rotating", False) else "translating"
        for variant in variants:
            if block == "rotating" and variant == "no normal damping":
                continue
            heun = None
            for integ in integrators:
                if integ == "heun" and variant in ("history restarted on sticking", "3 corrections") \
                        and heun is not None:
                    continue
                if progress:
                    progress(f"drift mechanism: {block}, {variant}, delta-{integ}")
                mean, d0 = mechanism_drift(case, integ, variant, {"alpha": alpha}, dt, window, n_phases)
                heun = mean if integ == "heun" else heun
                rows.append({"block": block, "variant": variant, "scheme": f"delta-{integ}", "drift": d0,
                             "mean_abs": mean, "ratio_to_heun": mean / heun if heun else float("nan")})
    return rows
