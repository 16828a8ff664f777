"""Figures and tables of ``kuhn-contact``: Kuhn, Suzuki & Daouadji's 3D linear-frictional contact along
prescribed movements -- Fig 4 of the paper, the convergence of the paper's algorithm
and of add-and-project against the exact reference, and a single-contact rigid rotation
(the objectivity of eqs 22-23).

The contact has no :class:`~nsfric.symbolic.model.HybridModel`: its movement is
prescribed (:class:`nsfric.papers.kuhn.incremental.Movement`), the schemes and the reference live
in :mod:`nsfric.papers.kuhn.incremental`.
"""
from __future__ import annotations

import os
from functools import partial

import numpy as np

from nsfric.papers.kuhn.incremental import (
    FRAMES,
    KuhnContact,
    Movement,
    reference,
    run_conventional,
    run_kuhn,
)
from nsfric.study.fit import fit_order
from nsfric.papers.kuhn import contact_law as K


def increment_order(Ns, errors) -> float:
    """Observed order in the increment size ``1/N`` over exactly these ``Ns`` (the
    study's least-squares fit: NaN, "no order", for too few points or a poor fit)."""
    h = 1.0 / np.asarray(Ns, dtype=float)
    return float(fit_order(h, errors, fit_range=(h.min(), h.max())).order)


#: unit contact (k_n = k_t = 1, mu = 0.5, f_n = 1 at the start)
CONTACT = KuhnContact(k_n=1.0, k_t=1.0, mu=0.5)
#: movement magnitudes k_t |Delta xi| / (mu f_n) of Fig 4
RATIOS = np.geomspace(0.01, 5.0, 25)
#: normal-force change over the step, k_n Delta zeta / f_n (c_2 of eq 18), per Fig 4 variant
FIG4_VARIANTS = {"": 0.0, "-growing": 0.3, "-shrinking": -0.3}
NS = (4, 8, 16, 32, 64, 128, 256, 512)


def fig4_movement(ratio, c2=0.0, c=CONTACT):
    """Force at the limit along ``-e2``, movement along ``e1`` (``theta^t = -90 deg``)."""
    fn0 = 1.0
    return Movement.straight([ratio * c.mu * fn0 / c.k_t, 0.0], zeta0=fn0 / c.k_n, dzeta=c2 * fn0 / c.k_n,
                             f_t0=(0.0, -c.mu * fn0))


def final_angle_deg(sol):
    """Angle of the final tangential force from the movement direction ``e1`` (degrees)."""
    return float(np.degrees(np.arctan2(sol["f_t_body2"][-1], sol["f_t_body1"][-1])))


def fig4_table(c2=0.0, ratios=RATIOS, c=CONTACT):
    """Fig 4 columns: exact angle (eq 18 closed form for ``c_2 = 0``, else the event-driven
    reference), one step of the paper's algorithm (as stated, and with the corrected
    rules), add-and-project; the reference angle is kept for ``c_2 = 0`` as a cross-check."""
    _, th0 = K.theta_end_numeric()
    cols = {k: [] for k in ("ratio", "theta_exact_deg", "theta_algorithm_deg", "theta_project_deg",
                            "theta_algorithm_corrected_deg", "theta_reference_deg")}
    for r in ratios:
        mv = fig4_movement(r, c2, c)
        ref = final_angle_deg(reference(mv, c, s_eval=[0.0, 1.0]))
        exact = -np.degrees(th0(np.pi / 2, 1.0 / r)) if c2 == 0 else ref
        for k, v in (("ratio", r), ("theta_exact_deg", exact),
                     ("theta_algorithm_deg", final_angle_deg(run_kuhn(mv, c, 1))),
                     ("theta_project_deg", final_angle_deg(run_conventional(mv, c, 1))),
                     ("theta_algorithm_corrected_deg", final_angle_deg(run_kuhn(mv, c, 1, rules="corrected"))),
                     ("theta_reference_deg", ref)):
            cols[k].append(v)
    return {k: np.array(v) for k, v in cols.items()}


def circle_movement(c2=0.3, rotation=0.0):
    """One turn of a circle of radius 1 (``k_t r = 2 mu f_n``) with ``f_n`` changing by
    ``c2 f_n`` and the pair rotating by ``rotation`` about ``(1, 1, 1)/sqrt 3``."""
    return Movement.circle(1.0, zeta0=1.0, dzeta=c2, f_t0=(0.1, 0.2), axis=np.ones(3) / np.sqrt(3),
                           angle=rotation)


def convergence_table(movement, Ns=NS, c=CONTACT, frame="projection+twirl", rotate=False):
    """Errors at ``s = 1`` of the force (body frame) and of the tangential work ``W_t``
    against :func:`~nsfric.papers.kuhn.incremental.reference`, and the observed orders (fit over
    the last four ``N``); with ``rotate`` also the paper's algorithm with the exact
    incremental rotation instead of eqs 22-23 (``paper_rotate``)."""
    ref = reference(movement, c, s_eval=[0.0, 1.0])
    f_ref = np.array([ref["f_t_body1"][-1], ref["f_t_body2"][-1]])
    cols = {"N": np.array(Ns)}
    runs = {"paper": lambda N: run_kuhn(movement, c, N, frame=frame),
            "conventional": lambda N: run_conventional(movement, c, N, frame=frame)}
    if rotate:
        runs["paper_rotate"] = lambda N: run_kuhn(movement, c, N, frame="rotate")
    orders = {}
    for name, run in runs.items():
        ef, ew = [], []
        for N in Ns:
            sol = run(N)
            ef.append(np.hypot(sol["f_t_body1"][-1] - f_ref[0], sol["f_t_body2"][-1] - f_ref[1]))
            ew.append(abs(sol["W_t"][-1] - ref["W_t"][-1]))
        cols[f"force_error_{name}"], cols[f"work_error_{name}"] = np.array(ef), np.array(ew)
        for q, e in (("force", ef), ("work", ew)):
            orders[f"{q}_{name}"] = increment_order(Ns[-4:], e[-4:])
    return cols, orders


#: the paper's algorithm with refinements switched off (options of ``kuhn_step``)
VARIANTS = {"all refinements": {}, "no onset (eqs 7-8)": {"onset": False},
            "no partial slip (eqs 9-15)": {"partial_slip": False},
            "no direction change (eqs 16-21)": {"direction": "project"},
            "none (add and project)": {"onset": False, "partial_slip": False, "direction": "project"}}


def refinements_table(n_states=60, Ns=(64, 128, 256, 512), c=CONTACT, seed=3):
    """Each variant of :data:`VARIANTS`: observed orders (force, ``W_t``) and force error at
    the smallest ``N`` along the circle (f_n +30 %), and the largest one-step error
    (relative to ``mu f_n``) over ``n_states`` random straight increments from a fresh
    contact or from a force inside or on the circle, f_n changing by up to +-40 %."""
    g = np.random.default_rng(seed)
    states = []
    for _ in range(n_states):
        fn0 = g.uniform(0.5, 2)
        r, phi = c.mu * fn0 * (1.0 if g.random() < 0.3 else g.uniform(0, 1)), g.uniform(0, 2 * np.pi)
        fresh = g.random() < 0.2
        states.append((fn0, (0.0, 0.0) if fresh else (r * np.cos(phi), r * np.sin(phi)),
                       g.normal(size=2) * g.uniform(0.1, 3), g.uniform(-0.4, 0.4) * fn0, fresh))
    refs = []
    for fn0, f0, dxi, dz, fresh in states:
        z0 = fn0 / c.k_n
        mv = Movement.straight(dxi, zeta0=z0, dzeta=dz, f_t0=f0)
        if fresh:  # touches at alpha_o = 1/2: the reference starts there with half the movement
            mv0 = Movement.straight(dxi / 2, zeta0=1e-13, dzeta=z0 + dz)
            mv = Movement.straight(dxi, zeta0=-(z0 + dz), dzeta=2 * (z0 + dz))
            refs.append((mv, reference(mv0, c, s_eval=[0.0, 1.0]), fn0))
        else:
            refs.append((mv, reference(mv, c, s_eval=[0.0, 1.0]), fn0))
    circle = circle_movement(0.3, 0.0)
    ref = reference(circle, c, s_eval=[0.0, 1.0])
    body = lambda sol: np.array([sol["f_t_body1"][-1], sol["f_t_body2"][-1]])
    cols = {k: [] for k in ("variant", "force_order", "work_order", "force_error_N64", "straight_max_error")}
    for name, opts in VARIANTS.items():
        ef, ew = [], []
        for N in Ns:
            sol = run_kuhn(circle, c, N, **opts)
            ef.append(np.linalg.norm(body(sol) - body(ref)))
            ew.append(abs(sol["W_t"][-1] - ref["W_t"][-1]))
        straight = max(np.linalg.norm(body(run_kuhn(mv, c, 1, rules="corrected", **opts)) - body(r)) / (c.mu * fn0)
                       for mv, r, fn0 in refs)
        for k, v in (("variant", name), ("force_order", increment_order(Ns, ef)),
                     ("work_order", increment_order(Ns, ew)),
                     ("force_error_N64", ef[0]), ("straight_max_error", straight)):
            cols[k].append(v)
    return cols


def rotation_table(N=1000, c=CONTACT):
    """A rigid 90 deg rotation about x1 in ``N`` increments of one contact (normal not
    along x1: the pair rolls and twirls), no relative movement: relative error of the
    final force for each frame adjustment."""
    from scipy.spatial.transform import Rotation

    body = Rotation.from_rotvec([0.3, 0.5, 0.7]).as_matrix()
    mv = Movement.straight([0.0, 0.0], zeta0=1.0, f_t0=(0.3, 0.2), axis=(1, 0, 0), angle=np.pi / 2, body=body)
    exact = mv.R(1.0) @ np.array([0.3, 0.2, 0.0])
    errs = []
    for frame in FRAMES:
        sol = run_kuhn(mv, c, N, frame=frame)
        f = np.array([sol[f"f_t{i}"][-1] for i in (1, 2, 3)])
        errs.append(np.linalg.norm(f - exact) / np.linalg.norm(exact))
    return {"frame": np.array(FRAMES), "force_error": np.array(errs)}



def run(case, out_dir: str, progress=None, jobs=1) -> dict:
    """Write Fig 4 (three normal-force variants), the convergence study, the refinements
    and the rigid rotation table (CSV + JSON each), their figures and the studies of
    :data:`PARTS` into ``out_dir``; the parts are independent and run on ``jobs`` local
    processes (the same files as one process)."""
    from nsfric.study.execute import map_tasks

    meta = {"case": case.name, "reference": case.reference, "contact": vars(CONTACT)}
    done = (lambda k, n: progress(f"{case.name}: {k}/{n} parts")) if progress else None
    got = map_tasks(partial(_write_part, out_dir, meta), list(PARTS), jobs=jobs, progress=done)
    return {"written": [path for paths in got for path in paths]}


def _write_part(out_dir: str, meta: dict, name: str) -> list:
    """Write the part ``name`` of :data:`PARTS` (one task of :func:`run`'s pool); the paths."""
    return PARTS[name](out_dir, meta)


def _write_fig4(out_dir: str, meta: dict) -> list:
    """Fig 4 for the three normal-force variants: CSV + JSON each and ``fig4.png``."""
    from nsfric.io import write_csv_with_sidecar
    from nsfric.plotting import figure, save

    written = []
    fig, axes = figure(1, 3, figsize=(13, 3.8), sharey=True)
    for ax, (suffix, c2) in zip(axes[0], FIG4_VARIANTS.items()):
        cols = fig4_table(c2)
        path = os.path.join(out_dir, f"fig4{suffix}.csv")
        written += [path, write_csv_with_sidecar(path, cols, {**meta, "c_2": c2, "theta_t_deg": -90.0})]
        ax.semilogx(cols["ratio"], cols["theta_exact_deg"], "k-", lw=2,
                    label="exact (eq 18)" if c2 == 0 else "exact (event-driven reference)")
        ax.semilogx(cols["ratio"], cols["theta_algorithm_deg"], "o", color="C0", mfc="none",
                    label="paper's algorithm (Fig 1 as stated)")
        if c2 != 0:
            ax.semilogx(cols["ratio"], cols["theta_algorithm_corrected_deg"], "+", color="C2", ms=8,
                        label="paper's algorithm, corrected rules")
        ax.semilogx(cols["ratio"], cols["theta_project_deg"], "s--", color="C1", ms=3, label="add and project")
        ax.legend(fontsize=7)
        ax.set_xlabel(r"$k_t|\Delta\xi|/(\mu f_n)$")
        ax.set_title(f"f_n {'constant' if c2 == 0 else ('+' if c2 > 0 else '') + f'{c2:.0%} over the step'}",
                     fontsize=9)
        ax.grid(alpha=0.3)
    axes[0, 0].set_ylabel(r"final angle $\theta^{t+\Delta t}$ [deg]")
    fig.suptitle("Kuhn et al. Fig 4: movement orthogonal to the force at the limit, one step", fontsize=10)
    written.append(save(fig, os.path.join(out_dir, "fig4.png")))
    return written


def _write_convergence(out_dir: str, meta: dict) -> list:
    """The convergence study on a circle, without and with a rotating pair: CSV + JSON
    each and ``convergence.png``."""
    from nsfric.io import write_csv_with_sidecar
    from nsfric.plotting import figure, save

    written = []
    fig, axes = figure(1, 2, figsize=(11, 4))
    for ax, (label, rot) in zip(axes[0], (("no rotation", 0.0), ("pair rotating 90 deg", np.pi / 2))):
        cols, orders = convergence_table(circle_movement(0.3, rot), rotate=rot != 0)
        tag = "convergence" if rot == 0 else "convergence-rotating"
        path = os.path.join(out_dir, f"{tag}.csv")
        written += [path, write_csv_with_sidecar(path, cols, {**meta, "movement": f"circle, {label}",
                                                              "observed_orders": orders})]
        for key, style in (("force_error_paper", "o-"), ("force_error_conventional", "s-"),
                           ("work_error_paper", "o:"), ("work_error_conventional", "s:"),
                           ("force_error_paper_rotate", "^-")):
            if key not in cols:
                continue
            q, _, name = key.partition("_error_")
            ax.loglog(cols["N"], cols[key], style, mfc="none",
                      label=f"{name} {q} (order {orders[f'{q}_{name}']:.2f})")
        ax.set_xlabel("N increments")
        ax.set_title(f"circle in the tangent plane, f_n +30 %, {label}\n(frame: eqs 22-23; "
                     f"paper_rotate: exact incremental rotation)" if rot else
                     f"circle in the tangent plane, f_n +30 %, {label}", fontsize=9)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7)
    axes[0, 0].set_ylabel("error at the end (force |.|, work W_t)")
    written.append(save(fig, os.path.join(out_dir, "convergence.png")))
    return written


def _write_refinements(out_dir: str, meta: dict) -> list:
    """``refinements.csv`` (+ JSON): the paper's refinements one at a time."""
    from nsfric.io import write_csv_with_sidecar

    path = os.path.join(out_dir, "refinements.csv")
    return [path, write_csv_with_sidecar(path, refinements_table(), {**meta, "circle": "f_n +30 %",
                                                                    "straight_rules": "corrected"})]


def _write_rotation(out_dir: str, meta: dict) -> list:
    """``rotation.csv`` (+ JSON): the rigid rotation of the pair."""
    from nsfric.io import write_csv_with_sidecar

    path = os.path.join(out_dir, "rotation.csv")
    return [path, write_csv_with_sidecar(path, rotation_table(), {**meta, "N": 1000, "rotation": "90 deg about x1"})]


def _write_objectivity(out_dir: str, meta: dict) -> list:
    from nsfric.papers.kuhn.kuhn_contact_objectivity import write

    return write(out_dir, meta, None)


def _write_orders(out_dir: str, meta: dict) -> list:
    from nsfric.papers.kuhn.kuhn_contact_orders import write

    return write(out_dir, meta, None)


def _write_csds(out_dir: str, meta: dict) -> list:
    from nsfric.papers.kuhn.kuhn_contact_csds import write

    return write(out_dir, meta, CONTACT, None)


def _write_table(out_dir: str, meta: dict) -> list:
    from nsfric.papers.kuhn.kuhn_contact_table import write

    return write(out_dir, meta, None)


#: the independent parts of :func:`run`, in the order of its files: name -> writer
#: ``(out_dir, meta) -> paths``
PARTS = {"fig4": _write_fig4, "convergence": _write_convergence, "refinements": _write_refinements,
         "rotation": _write_rotation, "objectivity": _write_objectivity, "orders": _write_orders,
         "csds": _write_csds, "table": _write_table}
