"""Per-contact forces of a multi-contact model as a time-stepping (DEM) code evaluates
them (Krengel & Matuttis §5, eqs 9, 13, 19-22): the rates the discrete schemes of
:mod:`nsfric.schemes.corners` integrate on the per-corner rotating block.

:class:`CornerForces` evaluates, at one state of a
:class:`~nsfric.symbolic.contacts.ContactModel`, from the compiled contact quantities
(:func:`~nsfric.symbolic.contacts.contact_quantities`: overlaps, repulsive forces,
``v_t``, ``c_t``, ``J_n``, ``J_t``), eq 21's reduced tangential mass of each contact
(:meth:`~nsfric.symbolic.contacts.ContactModel.effective_mass`) and the laws' generated
expressions -- no force law is written here:

* **normal, unilateral per contact**: a contact carries its force while its overlap is
  non-negative *and* its repulsive force positive (the dashpot never pulls), decided at
  every evaluation (as the heap's contact list, :mod:`nsfric.schemes.km_heap`);
* **exact static friction per contact** (:meth:`CornerForces.exact`): a contact flagged
  stuck (or with ``v_t = 0``) carries eq 9's convex combination of the two slip forces
  with eq 13's ``lam`` from eq 22's external force ``f_ext = m_eff,tan (J_t M^-1 f +
  c_t)`` (the relative tangential acceleration under every other force, ``m_eff,tan``
  of eq 21): in the band it cancels that acceleration (eq 14).  The stuck contacts are
  equilibrated one after the other (Gauss-Seidel, :data:`SWEEPS` passes from zero, no
  matrix: K-M §5), the largest normal force first: where their rows of ``J_t`` nearly
  coincide (the block's two corners) the first takes the whole force, so the one with the
  largest Coulomb bound ``mu F_n`` holds it (uphill first, the lighter corner would be
  driven to its bound and flicker between stick and slip); the others carry ``-+mu F_n`` (:func:`~nsfric.symbolic.km_heap.coulomb_expressions`).
  For one contact, eqs 15-17's ``lam`` is exactly eq 13's (:mod:`nsfric.schemes.delta`);
* **Cundall-Strack per contact** (:meth:`CornerForces.springs`): each closed contact's
  spring law (:func:`~nsfric.symbolic.km_heap.spring_slider_expressions` of the model's
  ``spring_exprs``) gives the stick force and the spring's rate, or, beyond
  ``mu F_n``, the slip force and the spring projected onto the bound; an open contact's
  spring is reset to 0 (lift-off).
"""
from __future__ import annotations

import numpy as np

from .codegen import generate
from .contacts import OPEN, SLIP_MINUS, SLIP_PLUS, STICK, contact_quantities, external_force, mass_vector
from .km_heap import coulomb_expressions

#: Gauss-Seidel passes over the stuck contacts per evaluation
SWEEPS = 2


class CornerForces:
    """The per-contact forces of ``model`` at parameter ``values`` (see the module).

    Attributes
    ----------
    n, K : int
        Coordinates per state half (``len(q)``) and contacts.
    Minv, gravity : ndarray
        ``M^-1`` (diagonal) and ``f_ext``.
    sweeps : int
        Gauss-Seidel passes over the stuck contacts per evaluation (default
        :data:`SWEEPS`).
    strongest_first : bool
        Whether the stuck contacts are balanced in order of decreasing normal force
        (default True, see the module) or increasing (the weakest bound first).  These
        two are switched only to measure their effect
        (:mod:`nsfric.cases.slope_block_corners_mechanism`).
    """

    sweeps = SWEEPS
    strongest_first = True

    def __init__(self, model, values: dict):
        self.model = model
        self.values = dict(values)
        self.p = model.param_vector(self.values)
        self.n, self.K = model.n, model.K
        self.Minv = 1.0 / mass_vector(model, self.values)
        self.gravity = external_force(model, self.values)
        self.mu = float(self.values["mu"])
        args = (model.states, [p.symbol for p in model.params])
        self._meff = generate([model.effective_mass(k) for k in range(self.K)], args, "math")
        exprs, cargs = coulomb_expressions()
        self._coulomb = generate(exprs, [cargs], "math")
        spring = getattr(model, "spring_exprs", None)
        self._spring = generate(spring, args, "math") if spring else None

    def normal(self, u):
        """``(c, closed, F_n, f)``: the contact quantities, the closed contacts, their
        repulsive forces (0 where open) and the generalized force of gravity and of them."""
        c = contact_quantities(self.model, u, self.p)
        closed = (c["xi"] >= 0) & (c["F_n"] > 0)
        F_n = np.where(closed, c["F_n"], 0.0)
        return c, closed, F_n, self.gravity - c["J_n"].T @ F_n

    def coulomb(self, f_ext, F_n):
        """``(F_I, F_II, lam)``: the slip forces of ``v_t > 0`` and ``v_t < 0`` and eq 13."""
        F_I, F_II, lam = self._coulomb([f_ext, F_n, self.mu])
        return float(F_I), float(F_II), float(lam)

    def _constrain(self, f, c, k, F_old, F_n, meff, apply=True):
        """Contact ``k``'s eq 9 force against eq 22's ``f_ext`` under ``f`` less its own
        force ``F_old``: ``(f, F_t, lam)``."""
        J = c["J_t"][k]
        f0 = f - J * F_old
        f_ext = meff * (J @ (self.Minv * f0) + c["c_t"][k])  # eq 22
        F_I, F_II, lam = self.coulomb(f_ext, F_n)
        if not apply:
            return f, F_old, lam
        F = (1 - lam) * F_I + lam * F_II if 0 <= lam <= 1 else (F_I if lam < 0 else F_II)
        return f0 + J * F, F, lam

    def exact(self, u, stuck):
        """Exact static friction per contact under the stuck flags ``stuck`` (K,):
        ``(rates, info)`` with ``info`` = ``closed, v_t, lam, F_n, F_t`` and ``brake``
        (``mu F_n/m_eff,tan``: the deceleration the contact's dynamic friction alone
        gives it) (K,) each."""
        n, K = self.n, self.K
        c, closed, F_n, f = self.normal(u)
        v_t = c["v_t"]
        on = closed & (np.asarray(stuck, dtype=bool) | (v_t == 0))
        F_t, lam = np.zeros(K), np.full(K, np.nan)
        for k in np.nonzero(closed & ~on)[0]:
            F_I, F_II, _ = self.coulomb(0.0, F_n[k])
            F_t[k] = F_I if v_t[k] > 0 else F_II
            f = f + c["J_t"][k] * F_t[k]
        meff = self._meff(u, self.p)
        sign = -1.0 if self.strongest_first else 1.0
        order = sorted(np.nonzero(on)[0], key=lambda k: sign * F_n[k])  # the strongest bound first
        for _ in range(self.sweeps if order else 0):
            for k in order:
                f, F_t[k], lam[k] = self._constrain(f, c, k, F_t[k], F_n[k], meff[k])
        brake = np.zeros(K)
        for k in np.nonzero(closed)[0]:  # whether a sliding contact may enter sticking
            brake[k] = abs(self.coulomb(0.0, F_n[k])[0]) / meff[k]
            if not on[k]:
                lam[k] = self._constrain(f, c, k, F_t[k], F_n[k], meff[k], apply=False)[2]
        rates = np.concatenate([u[n:2 * n], self.Minv * f])
        return rates, {"closed": closed, "v_t": v_t, "lam": lam, "F_n": F_n, "F_t": F_t, "brake": brake}

    def springs(self, u):
        """A spring law per contact (the model's ``spring_exprs``; springs ``u[2n:]``):
        ``(rates, proj, info)`` -- ``proj`` (K,) the spring values set by the law (NaN
        where integrated), ``info`` = ``closed, v_t, F_n, F_t, mode`` (mode characters)."""
        n, K = self.n, self.K
        c, closed, F_n, f = self.normal(u)
        e = np.asarray(self._spring(u, self.p), dtype=float).reshape(K, 8)
        F_t, rate, proj, mode = np.zeros(K), np.zeros(K), np.full(K, np.nan), []
        for k in range(K):
            F_S, xi_rate, h_plus, h_minus, F_plus, F_minus, xi_plus, xi_minus = e[k]
            if not closed[k]:
                proj[k], ch = 0.0, OPEN  # lift-off: the spring relaxes
            elif h_plus > 0:
                F_t[k], proj[k], ch = F_plus, xi_plus, SLIP_PLUS
            elif h_minus < 0:
                F_t[k], proj[k], ch = F_minus, xi_minus, SLIP_MINUS
            else:
                F_t[k], rate[k], ch = F_S, xi_rate, STICK
            mode.append(ch)
            f = f + c["J_t"][k] * F_t[k]
        rates = np.concatenate([u[n:2 * n], self.Minv * f, rate])
        return rates, proj, {"closed": closed, "v_t": c["v_t"], "F_n": F_n, "F_t": F_t, "mode": "".join(mode)}


class SpringOutputs:
    """``outputs(mode) -> (names, f(Y, p))`` of a spring model: the columns of
    :class:`~nsfric.symbolic.contacts.ContactModel`'s outputs (kinetic energy, centre of
    mass, per contact ``F_n, F_t, |F_t|/(mu F_n), v_t, xi`` and the further outputs) with
    the spring law's forces."""

    def __init__(self, model):
        self.model = model

    def outputs(self, mode: str):
        from .contacts import compiled_outputs

        model = self.model

        def out(Y, p):
            forces = CornerForces(model, dict(zip(model.param_names, p)))
            extra = compiled_outputs(model)
            Y = np.asarray(Y, dtype=float)
            cols = []
            for y in (Y.T if Y.ndim == 2 else [Y]):
                _, _, i = forces.springs(y)
                c = contact_quantities(model, y, forces.p)
                F_n = i["F_n"]
                ratio = np.where(F_n > 0, np.abs(i["F_t"]) / (forces.mu * np.where(F_n > 0, F_n, 1.0)), 0.0)
                e = extra(y, forces.p)
                cols.append(np.concatenate([e[:3], F_n, i["F_t"], ratio, c["v_t"], c["xi"], e[3:]]))
            arr = np.array(cols).T
            return arr if Y.ndim == 2 else arr[:, 0]
        return list(model.output_names), out
