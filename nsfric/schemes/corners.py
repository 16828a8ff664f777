"""Discrete (DEM) schemes on a multi-contact model with one frictional contact per
corner: the rotating block of law ``coulomb-corners`` and its spring variants
(``cundall-strack-corners``, ``cundall-strack-viscous-corners``) of case
``slope-block-rotating`` (Krengel & Matuttis §§4-5, eqs 9, 13, 19-22).

:func:`simulate_contacts` is where :func:`nsfric.schemes.simulate` sends a
:class:`~nsfric.symbolic.contacts.ContactModel`; the forces at a state are
:class:`~nsfric.symbolic.corner_forces.CornerForces` (generated from the symbolic model).

* **exact static friction per corner** (``coulomb-corners``) runs the delta schemes
  ``delta-heun``, ``delta-bdf2``, ``delta-bdf5``: the registered integrator (Heun's
  predictor-corrector, K-M ref [7]; BDF2/BDF5 in Gear's predictor-corrector form) on
  :class:`CornerDeltaField`, which holds every corner's stuck flag through the step
  (eq 9 per corner with its own ``m_eff,tan`` and eq 22's ``f_ext`` while stuck; the
  dynamic friction of its side otherwise).  After every step, as
  :mod:`nsfric.schemes.delta` decides for one contact: a closed corner *enters*
  sticking when the stick-entry rule says it stopped (:mod:`nsfric.schemes.stick_rules`;
  default ``brake``: its ``v_t`` reached or crossed 0 within the step, at the end or at a
  stage, or lies within what its dynamic friction alone removes in one step,
  ``|v_t| <= h mu F_n/m_eff,tan`` -- under ``crossing`` a corner whose ``v_t`` a stuck
  neighbour holds at that neighbour's residual velocity slides at it for ever: the two
  corners' ``v_t`` differ only by ``omega l sin theta``) and its ``lam`` (eq 13) lies in
  [0, 1]; it *leaves* when ``lam`` leaves
  [0, 1]; an open corner is not stuck (lift-off).  The residual velocity of the step
  that crossed 0 is kept: the drift of Figs 4-5;
* **a Cundall-Strack spring per corner** runs any explicit registered scheme (e.g.
  ``heun``) on :class:`CornerSpringField`: the springs are states, integrated while
  their corner sticks; the law's projection onto ``|F_S| = mu F_n`` (slip) and the reset
  to 0 (open corner) are the assignment's adjustment (Führer et al. eq 3, as
  :class:`~nsfric.schemes.field.DiscreteField` adjusts the shared-surface law).

:func:`integrate_batch` steps a batch of members (states and parameters along a last
axis: sizes, grid phases, angles) at once: the scheme's own step on arrays, the forces
compiled member by member (:mod:`nsfric.symbolic.corner_kernel`), every stick/slip flag
and decision per member, so each member equals its run alone bit for bit (tested);
:func:`integrate_exact` is a batch of one.

Every row's mode has one character per corner (``o`` open, ``s`` stuck, ``+``/``-``
sliding), the modes of :class:`~nsfric.symbolic.contacts.ContactModel`.
"""
from __future__ import annotations

import time

import numpy as np

from ..solution import Solution
from ..symbolic.contacts import OPEN, SLIP_MINUS, SLIP_PLUS, STICK
from ..symbolic.corner_forces import CornerForces
from .base import register_stepper
from .field import Eval, RateField
from .stick_rules import enters_stick, stick_rule as rule_named


class CornerDeltaField(RateField):
    """Exact static friction per corner with stuck flags held through a step (see the
    module): the field interface (``f``; ``stagewise = False``, the adjustment is in the
    rates) any explicit scheme steps.  ``stage_g`` keeps every corner's ``v_t`` at the
    evaluations inside a step; :meth:`prime` hands back the end-of-step state."""

    stagewise = False
    frozen_mode = None

    def __init__(self, forces: CornerForces, stuck):
        self.forces = forces
        self.stuck = np.asarray(stuck, dtype=bool)
        self.stage_g = []
        self.n_rhs = 0
        self._u = self._ev = None

    def evaluate(self, u):
        self.n_rhs += 1
        return self.forces.exact(u, self.stuck)

    def prime(self, u, ev):
        """``ev`` (an :meth:`evaluate` result under the current flags) at ``u``, the state
        the next step starts from."""
        self._u, self._ev = u, ev
        self.stage_g = []

    def f(self, u) -> Eval:
        if u is self._u:
            return Eval(self._ev[0], None, None)
        rates, info = self.evaluate(u)
        self.stage_g.append(info["v_t"])
        return Eval(rates, None, None)


class CornerSpringField(RateField):
    """A spring law per corner (see the module): ``f(u)`` gives the rates and, as the
    evaluation's projection, the springs the law sets (slipping or open corners);
    :meth:`apply` puts them into the assigned state."""

    stagewise = True
    frozen_mode = None

    def __init__(self, forces: CornerForces):
        self.forces = forces
        self.n_rhs = 0
        self._last = (None, None)

    def f(self, u) -> Eval:
        if u is self._last[0]:
            return self._last[1]
        self.n_rhs += 1
        rates, proj, info = self.forces.springs(u)
        ev = Eval(rates, info["mode"], proj)
        self._last = (u, ev)
        return ev

    def apply(self, base, hc, ev, comps=None):
        u_new, _ = RateField.apply(self, base, hc, ev, comps)
        s = 2 * self.forces.n + np.nonzero(np.isfinite(ev.proj))[0]
        if comps is not None:
            s = [i for i in s if i in comps]
        u_new[s] = ev.proj[s - 2 * self.forces.n]
        return u_new, len(s) > 0


#: mode codes of a batch run (``integrate_batch``'s ``codes``) and their characters
CODE_CHARS = (OPEN, STICK, SLIP_PLUS, SLIP_MINUS)


def _codes(closed, stuck, v_t):
    """Mode codes (K, B): 0 open, 1 stuck, 2 sliding ``+`` (``v_t >= 0``), 3 sliding ``-``."""
    return np.where(~closed, 0, np.where(stuck, 1, np.where(v_t >= 0, 2, 3))).astype(np.int8)


def _mode(codes) -> str:
    return "".join(CODE_CHARS[c] for c in codes)


def _events(t, old: str, new: str) -> list:
    kinds = {STICK: "stick", OPEN: "lift-off"}
    out = []
    for a, b in zip(old, new):
        if a != b:
            kind = kinds.get(b, "slip" if a == STICK else "touch" if a == OPEN else "reversal")
            out.append({"t": t, "kind": kind, "from": old, "to": new})
    return out


def integrate_batch(forces: CornerForces, integrator, t0, U0, h, n_steps, stick_rule=None):
    """``integrator`` plus per-corner exact friction (see the module) for a batch of
    members (``U0`` (2n, B), parameters ``forces``' members), all stepped at once:
    ``(t, Y, info)`` with ``Y`` (2n, B, n_steps + 1) and ``info`` = ``codes`` (K, B,
    n_steps + 1; :data:`CODE_CHARS`, -1 after a member diverged), ``events`` and
    ``termination`` (per member), ``steps`` (per member), ``nfev`` (batch evaluations).
    Every decision is taken member by member, so a member's rows equal its run alone
    (:func:`integrate_exact`), bit for bit.

    ``stick_rule``: when a sliding corner enters sticking, a name of
    :data:`~nsfric.schemes.stick_rules.STICK_RULES` (default
    :data:`~nsfric.schemes.stick_rules.DEFAULT_STICK_RULE`, ``brake``: also when
    ``|v_t| <= h mu F_n/m_eff,tan``; ``crossing``: only when its ``v_t`` reached or crossed
    0 within the step)."""
    rule = rule_named(stick_rule).code
    U = np.array(U0, dtype=float)
    B = U.shape[1]
    fld = CornerDeltaField(forces, np.zeros((forces.K, B), dtype=bool))
    rates, info = fld.evaluate(U)
    lam = info["lam"]
    fld.stuck = info["closed"] & (info["v_t"] == 0) & (lam >= 0) & (lam <= 1)
    ev = fld.evaluate(U) if fld.stuck.any() else (rates, info)
    fld.prime(U, ev)
    Y = np.full(U.shape + (n_steps + 1,), np.nan)
    Y[:, :, 0] = U
    codes = np.full((forces.K, B, n_steps + 1), -1, dtype=np.int8)
    codes[:, :, 0] = _codes(info["closed"], fld.stuck, info["v_t"])
    events, termination = [[] for _ in range(B)], ["reached t_end"] * B
    steps, alive = np.full(B, n_steps), np.ones(B, dtype=bool)
    hist = integrator.start(fld, t0, U, h)
    with np.errstate(all="ignore"):
        for i in range(n_steps):
            g0 = fld._ev[1]["v_t"]
            U1, hist = integrator.step(fld, t0 + i * h, U, h, hist)
            dead = alive & ~np.all(np.isfinite(U1), axis=0)
            if dead.any():
                for b in np.nonzero(dead)[0]:
                    termination[b], steps[b] = f"diverged at t = {t0 + (i + 1) * h:.6g}", i + 1
                alive &= ~dead
                if not alive.any():
                    break
            ev = fld.evaluate(U1)
            info = ev[1]
            staged = np.zeros_like(fld.stuck)
            for gs in fld.stage_g:
                staged |= g0 * gs <= 0
            stopped = enters_stick(rule, g0 * info["v_t"] <= 0, staged, info["v_t"], info["brake"], info["lam"], h)
            inband = (info["lam"] >= 0) & (info["lam"] <= 1)
            stuck = info["closed"] & ((fld.stuck & inband) | (~fld.stuck & stopped & inband))
            if np.any(stuck != fld.stuck):
                fld.stuck = stuck
                ev = fld.evaluate(U1)
            fld.prime(U1, ev)
            U = U1
            Y[:, alive, i + 1] = U[:, alive]
            codes[:, alive, i + 1] = _codes(ev[1]["closed"], stuck, ev[1]["v_t"])[:, alive]
            changed = alive & np.any(codes[:, :, i + 1] != codes[:, :, i], axis=0)
            for b in np.nonzero(changed)[0]:
                events[b] += _events(t0 + (i + 1) * h, _mode(codes[:, b, i]), _mode(codes[:, b, i + 1]))
    return t0 + h * np.arange(n_steps + 1), Y, {"codes": codes, "events": events, "termination": termination,
                                                "steps": steps, "nfev": fld.n_rhs}


def integrate_exact(forces: CornerForces, integrator, t0, u0, h, n_steps, stick_rule=None):
    """One member (``u0`` (2n,), ``forces``' first member) of :func:`integrate_batch`:
    ``(t, Y, info)`` with ``info["modes"]`` the rows' mode strings (None after a
    divergence)."""
    t, Y, info = integrate_batch(forces, integrator, t0, np.asarray(u0, dtype=float)[:, None], h, n_steps,
                                 stick_rule)
    codes = info["codes"][:, 0]
    modes = [_mode(codes[:, j]) if codes[0, j] >= 0 else None for j in range(codes.shape[1])]
    return t, Y[:, 0], {"events": info["events"][0], "termination": info["termination"][0],
                        "steps": int(info["steps"][0]), "modes": modes, "nfev": info["nfev"]}


def integrate_springs(forces: CornerForces, scheme, t0, u0, h, n_steps):
    """``scheme`` on :class:`CornerSpringField`: ``(t, Y, info)``."""
    fld = CornerSpringField(forces)
    t, Y, info = scheme.integrate(fld, t0, np.asarray(u0, dtype=float), h, n_steps)
    modes = [fld.f(Y[:, j]).mode if np.all(np.isfinite(Y[:, j])) else None for j in range(Y.shape[1])]
    events = []
    for j in range(1, len(modes)):
        if modes[j] is not None and modes[j - 1] is not None and modes[j] != modes[j - 1]:
            events += _events(float(t[j]), modes[j - 1], modes[j])
    return t, Y, {**info, "events": events, "modes": modes, "nfev": fld.n_rhs}


def simulate_contacts(model, params: dict, scheme, t0, u0, h, n_steps):
    """Run ``scheme`` on the multi-contact ``model``: a delta scheme (``delta-heun``,
    ``delta-bdf2``, ``delta-bdf5``) on exact per-corner friction, a plain explicit scheme
    on a spring model.  Returns ``(t, Y, info)`` (``info["modes"]`` the rows' modes)."""
    from .delta import DeltaScheme

    forces = CornerForces(model, params)
    springs = getattr(model, "spring_exprs", None) is not None
    if springs:
        if isinstance(scheme, DeltaScheme) or scheme.implicit:
            raise ValueError(f"scheme must be an explicit plain scheme (e.g. 'heun') for the spring model "
                             f"{model.name!r}, got {scheme.name!r}")
        return integrate_springs(forces, scheme, t0, u0, h, n_steps)
    if not isinstance(scheme, DeltaScheme) or scheme.projection:
        raise ValueError(f"scheme must be a delta scheme without projection ('delta-heun', 'delta-bdf2', "
                         f"'delta-bdf5') for the exact per-contact model {model.name!r}, got {scheme.name!r}")
    return integrate_exact(forces, scheme.base, t0, u0, h, n_steps)


@register_stepper("contacts")
def simulate_contact_model(prob, scheme, dt, t0, t1, n_steps, stages):
    """:func:`~nsfric.schemes.simulate` on a multi-contact model (capability ``contacts``):
    :func:`simulate_contacts`, as a :class:`~nsfric.solution.Solution`."""
    if stages:
        raise ValueError(f"stages are not recorded on the multi-contact model {prob.model.name!r}")
    tic = time.perf_counter()
    t, Y, info = simulate_contacts(prob.model, prob.params, scheme, t0, np.asarray(prob.y0, dtype=float), dt,
                                   n_steps)
    return Solution.from_steps(
        prob.model, prob.params, t, Y, info["modes"], scheme=scheme.name, dt=dt, t_span=(t0, t1),
        events=info["events"], termination=info["termination"],
        stats={"nfev": info["nfev"], "njev": 0, "seconds": time.perf_counter() - tic},
        case=prob.name or prob.model.name, law=prob.law)
