"""The readings of Krengel & Matuttis Fig 4 that the paper leaves open: the drift of the
delta schemes under each stick-entry rule, with the BDF history kept or restarted on
sticking, over the grid phases.

The paper gives the indicators of the delta approximation (eqs 15-17), not the test
that turns a sliding contact into a stuck one, nor what a BDF predictor-corrector does
with its history on sticking; "BDF show less drift than the explicit Heun integrator"
holds under some of these readings only.  :func:`reading_rows` measures the translating
block at 15 deg for every rule of :data:`RULES` (:mod:`nsfric.schemes.stick_rules`) and
both histories (:data:`HISTORIES`; the restarted one is
:class:`~nsfric.papers.krengel_matuttis.slope_block_mechanism.RestartOnStick`), each the
mean ``|drift|`` over ``n_phases`` grid phases
(:func:`~nsfric.papers.krengel_matuttis.slope_block_study.delta_drifts`).

"The drift increases with the timestep" is read the same way on the rotating block:
:func:`growth_rows` measures delta-Heun's drift per stick-entry rule over the steps
:data:`GROWTH_DTS` (``fig4-drift-dt-rotating-rules.csv``), and :func:`grows` says
whether it grows beyond the phase noise.
"""
from __future__ import annotations

import numpy as np

from nsfric.papers.krengel_matuttis import slope_block_study as S
from nsfric.papers.krengel_matuttis.slope_block_mechanism import RestartOnStick

#: the stick-entry rules tried (the readings of eq 17 and of "v crossed 0")
RULES = ("end", "crossing", "brake", "step")
#: what a BDF predictor-corrector does with its history on sticking
HISTORIES = ("kept", "restarted")
#: the steps of the readings [s]: the paper's and the next coarser of Fig 4
DTS = (5e-6, 1e-5)
#: the columns of ``fig4-drift-dt-readings.csv``
COLUMNS = ("stick_rule", "history", "scheme", "dt", "n_phases", "mean_abs", "max_abs", "ratio_to_heun")


def reading_rows(case, dts=DTS, rules=RULES, histories=HISTORIES, alpha=15.0, window=S.WINDOW_1CM,
                 n_phases=S.N_PHASES, progress=None) -> list:
    """Rows ``{stick_rule, history, scheme, dt, n_phases, mean_abs, max_abs,
    ratio_to_heun}``: delta-Heun (its history is one step: ``kept`` only, the reference
    of both histories' ratios), delta-BDF2 and delta-BDF5 per rule, history and ``dt``."""
    values = case.bind("coulomb", {"alpha": alpha})
    rows = []
    for dt in dts:
        for rule in rules:
            heun = None
            for history in histories:
                for integ in S.DELTA_SCHEMES:
                    if integ == "heun" and heun is not None:
                        continue
                    if progress:
                        progress(f"Fig 4 readings: dt {dt:g}, stick rule {rule}, history {history}, delta-{integ}")
                    k = {"bdf2": 2, "bdf5": 5}.get(integ)
                    scheme = RestartOnStick(k) if (k and history == "restarted") else integ
                    d, _ = S.delta_drifts(case, scheme, [values], dt, window, n_phases, stick_rule=rule)
                    a = np.abs(d[0])
                    mean = float(np.nanmean(a)) if np.isfinite(a).any() else float("nan")
                    heun = mean if integ == "heun" else heun
                    rows.append({"stick_rule": rule, "history": "kept" if integ == "heun" else history,
                                 "scheme": f"delta-{integ}", "dt": float(dt), "n_phases": int(n_phases),
                                 "mean_abs": mean, "max_abs": float(np.nanmax(a)) if np.isfinite(a).any() else float("nan"),
                                 "ratio_to_heun": mean / heun if heun else float("nan")})
    return rows


def ratios(rows, rule, history, dt) -> dict:
    """``{scheme: BDF/Heun ratio}`` of the BDF schemes under one reading (the rows of
    :func:`reading_rows` or ``fig4-drift-dt-readings.csv``'s records); KeyError if absent."""
    out = {str(r["scheme"]): float(r["ratio_to_heun"]) for r in rows
           if (str(r["stick_rule"]), str(r["history"]), abs(float(r["dt"]) - dt) < 1e-15) == (rule, history, True)
           and r["scheme"] != "delta-heun"}
    if set(out) != {"delta-bdf2", "delta-bdf5"}:
        raise KeyError(f"no BDF2/BDF5 rows for stick rule {rule!r}, history {history!r}, dt {dt:g}")
    return out


#: the steps of the growth readings [s]: Fig 4's of both blocks, to the rotating block's stability limit
GROWTH_DTS = (1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5)
#: the columns of ``fig4-drift-dt-rotating-rules.csv``
GROWTH_COLUMNS = ("stick_rule", "dt", "n_phases", "mean_abs", "sem_abs", "max_abs")


def growth_rows(case, dts=GROWTH_DTS, rules=RULES, alpha=15.0, window=S.WINDOW_1CM, n_phases=S.N_PHASES,
                progress=None) -> list:
    """Rows ``{stick_rule, dt, n_phases, mean_abs, sem_abs, max_abs}``: the delta-Heun drift
    over ``window`` per stick-entry rule and ``dt``, its mean ``|drift|`` over ``n_phases``
    grid phases and the standard error of that mean (whether the drift grows with dt
    beyond the phase noise: :func:`grows`)."""
    values = case.bind("coulomb", {"alpha": alpha})
    rows = []
    for rule in rules:
        for dt in dts:
            if progress:
                progress(f"Fig 4 growth readings: stick rule {rule}, dt {dt:g}")
            d, _ = S.delta_drifts(case, "heun", [values], dt, window, n_phases, stick_rule=rule)
            a = np.abs(d[0])
            a = a[np.isfinite(a)]
            rows.append({"stick_rule": rule, "dt": float(dt), "n_phases": int(len(a)),
                         "mean_abs": float(a.mean()) if len(a) else float("nan"),
                         "sem_abs": float(a.std(ddof=1) / np.sqrt(len(a))) if len(a) > 1 else float("nan"),
                         "max_abs": float(a.max()) if len(a) else float("nan")})
    return rows


def growth(rows, rule, dt_max=np.inf) -> dict:
    """``{dt, mean_abs, sem_abs}`` (lists, dt ascending) of one rule's rows up to ``dt_max``
    (the rows of :func:`growth_rows` or the CSV's records); KeyError if the rule has none."""
    sel = sorted((float(r["dt"]), float(r["mean_abs"]), float(r["sem_abs"])) for r in rows
                 if str(r["stick_rule"]) == rule and float(r["dt"]) <= dt_max * (1 + 1e-12))
    if len(sel) < 2:
        raise KeyError(f"fewer than 2 growth rows for stick rule {rule!r} up to dt = {dt_max:g}")
    return {k: [s[i] for s in sel] for i, k in enumerate(("dt", "mean_abs", "sem_abs"))}


def grows(g: dict, z: float = 2.0) -> bool:
    """Whether the mean drift of :func:`growth`'s ``g`` grows with dt beyond the phase
    noise: no step to a larger dt lowers it by more than ``z`` standard errors of the
    difference, and the largest dt's exceeds the smallest's by more than that."""
    m, se = np.asarray(g["mean_abs"]), np.asarray(g["sem_abs"])
    if not (np.all(np.isfinite(m)) and np.all(np.isfinite(se))):
        return False
    noise = z * np.hypot(se[1:], se[:-1])
    return bool(np.all(np.diff(m) > -noise) and m[-1] - m[0] > z * np.hypot(se[-1], se[0]))
