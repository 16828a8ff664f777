"""``kuhn-contact``: Führer et al.'s C-SDS in 3D as the fifth history rule (d), its spring
elongation carried with the pair (rotation with twist, :mod:`nsfric.papers.kuhn.csds`).

Two dampings, each measured against the law it discretises:

* ``gamma_t = 0`` -- the limit of the C-SDS in which the sliding branch (eq 9) relaxes at
  once: the rate-independent elastic-frictional law of Kuhn et al. is its continuous
  limit, so it is measured against the same event-driven reference as the other rules
  (the increment is then the D-SDS reset, i.e. add-and-project on the elongation).
* ``gamma_t = GAMMA_T > 0`` -- the C-SDS proper (rate-dependent: it slides where
  ``|k_t xi + gamma_t v| > mu f_n``), measured against the continuous 3D C-SDS
  (:func:`~nsfric.papers.kuhn.csds.csds_reference`) along the same movements; ``gamma_t
  / k_t = 0.05`` of the movement's clock, so damping and spring forces are comparable
  (``gamma_t |v| = 0.31`` against ``mu f_n = 0.5`` on the circle) and the relaxation is
  resolved from ``N = 16`` on.

``csds-straight.csv``: straight movements (the errors against ``N``), the movement
aligned with the force (f_n constant or growing) or orthogonal to it at the limit (Fig 4's
movement, ratio 1).
"""
from __future__ import annotations

import os

import numpy as np

from nsfric.papers.kuhn.incremental import Movement, reference
from nsfric.papers.kuhn.csds import csds_reference, run_csds
from nsfric.study.fit import fit_order

#: the C-SDS's own damping (n.u. of the unit contact, clock s in [0, 1])
GAMMA_T = 0.05
CSDS_ZERO = "(d) C-SDS, gamma_t = 0 (rotation with twist)"
CSDS_DAMPED = f"(d) C-SDS, gamma_t = {GAMMA_T} (rotation with twist; vs continuous C-SDS)"
#: rule -> (runner, options, only with rotation), as ``kuhn_contact_orders.RULES``
RULES = {CSDS_ZERO: (run_csds, {}, False), CSDS_DAMPED: (run_csds, {"gamma_t": GAMMA_T}, False)}
#: rules measured against their own continuous law: rule -> reference(movement, contact)
OWN_REFERENCE = {CSDS_DAMPED: lambda mv, c: csds_reference(mv, c, GAMMA_T, s_eval=[0.0, 1.0])}
STRAIGHT_NS = (1, 2, 4, 8, 16, 32, 64)


def straight_movements(c):
    """Straight movements: name -> Movement.  Aligned: ``k_t |Delta xi| = 10 mu f_n`` along
    a force at 60 % of the limit (with ``GAMMA_T`` it slides from the start, the spring
    loading towards the limit: the elongation is not trivial); orthogonal: Fig 4's movement
    at ratio 1 (``k_t |Delta xi| = mu f_n`` orthogonal to a force at the limit)."""
    fn0, d = 1.0, c.mu / c.k_t
    aligned = dict(dxi=[10 * d, 0.0], zeta0=fn0 / c.k_n, f_t0=(0.6 * c.mu * fn0, 0.0))
    return {"aligned, f_n constant": Movement.straight(**aligned),
            "aligned, f_n +30 %": Movement.straight(**aligned, dzeta=0.3 / c.k_n),
            "orthogonal (Fig 4, ratio 1), f_n constant": Movement.straight([d, 0.0], zeta0=fn0 / c.k_n,
                                                                           f_t0=(0.0, -c.mu * fn0))}


def straight_table(c, Ns=STRAIGHT_NS):
    """Errors at the end of the C-SDS along :func:`straight_movements`, for ``gamma_t = 0``
    (against the elastic-frictional reference) and ``GAMMA_T`` (against the continuous
    C-SDS), per ``N``: the force (body frame) and the spring energy ``W_t_rev`` (which sees
    the elongation where the force sits on the limit); the fitted force order over ``N >= 4``.
    """
    body = lambda sol: np.array([sol["f_t_body1"][-1], sol["f_t_body2"][-1]])  # noqa: E731
    cols = {k: [] for k in ("movement", "gamma_t", "N", "force_error", "spring_energy_error")}
    orders = {}
    for name, mv in straight_movements(c).items():
        for g in (0.0, GAMMA_T):
            ref = reference(mv, c, s_eval=[0.0, 1.0]) if g == 0 else csds_reference(mv, c, g, s_eval=[0.0, 1.0])
            errs = []
            for N in Ns:
                sol = run_csds(mv, c, N, gamma_t=g)
                errs.append(float(np.linalg.norm(body(sol) - body(ref))))
                for k, v in zip(cols, (name, g, N, errs[-1], abs(sol["W_t_rev"][-1] - ref["W_t_rev"][-1]))):
                    cols[k].append(v)
            h = 1.0 / np.asarray(Ns, float)
            fit = fit_order(h[2:], errs[2:], fit_range=(h[2:].min(), h[2:].max()))
            orders[f"{name}, gamma_t = {g}"] = {"order": fit.order, "reason": fit.reason, "max_error": max(errs)}
    return {k: np.array(v) for k, v in cols.items()}, orders


def write(out_dir, meta, contact, progress=None):
    """``csds-straight.csv`` (+ JSON with the fitted orders)."""
    from nsfric.io import write_csv_with_sidecar

    if progress:
        progress("kuhn-contact: C-SDS along straight movements")
    cols, orders = straight_table(contact)
    path = os.path.join(out_dir, "csds-straight.csv")
    return [path, write_csv_with_sidecar(path, cols, {**meta, "gamma_t": GAMMA_T, "frame": "rotate",
                                                      "observed_orders": orders})]
