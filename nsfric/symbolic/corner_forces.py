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
  every evaluation (as the heap's contact list, :mod:`nsfric.papers.krengel_matuttis.heap_run`);
* **exact static friction per contact** (:meth:`CornerForces.exact`): a contact flagged
  stuck (or with ``v_t = 0``) carries eq 9's convex combination of the two slip forces
  with eq 13's ``lam`` from eq 22's external force ``f_ext = m_eff,tan (J_t M^-1 f +
  c_t)`` (the relative tangential acceleration under every other force, ``m_eff,tan``
  of eq 21): in the band it cancels that acceleration (eq 14).  The stuck contacts are
  equilibrated one after the other (Gauss-Seidel, :data:`SWEEPS` passes from zero, no
  matrix: K-M §5), the largest normal force first: where their rows of ``J_t`` nearly
  coincide (the block's two corners) the first takes the whole force, so the one with the
  largest Coulomb bound ``mu F_n`` holds it (uphill first, the lighter corner would be
  driven to its bound and flicker between stick and slip); the others carry ``-+mu F_n`` (:func:`~nsfric.symbolic.contact_expressions.coulomb_expressions`).
  For one contact, eqs 15-17's ``lam`` is exactly eq 13's (:mod:`nsfric.schemes.delta`);
* **Cundall-Strack per contact** (:meth:`CornerForces.springs`): each closed contact's
  spring law (:func:`~nsfric.symbolic.contact_expressions.spring_slider_expressions` of the model's
  ``spring_exprs``) gives the stick force and the spring's rate, or, beyond
  ``mu F_n``, the slip force and the spring projected onto the bound; an open contact's
  spring is reset to 0 (lift-off).
"""
from __future__ import annotations

import numpy as np

from .codegen import generate
from .contacts import OPEN, SLIP_MINUS, SLIP_PLUS, STICK, contact_quantities, external_force, mass_vector

#: Gauss-Seidel passes over the stuck contacts per evaluation
SWEEPS = 2


class CornerForces:
    """The per-contact forces of ``model`` at parameter ``values`` (see the module): one
    dict, or a sequence of dicts for a batch of members (:meth:`exact` then takes states
    with the members along the last axis).

    Attributes
    ----------
    n, K, B : int
        Coordinates per state half (``len(q)``), contacts and members.
    Minv, gravity : ndarray
        ``M^-1`` (diagonal) and ``f_ext`` of the first member; ``P``, ``Minv_b``,
        ``gravity_b``, ``mu_b``: the parameter vectors, ``M^-1``, ``f_ext`` and ``mu``
        of every member (last axis B).
    sweeps : int
        Gauss-Seidel passes over the stuck contacts per evaluation (default
        :data:`SWEEPS`).
    strongest_first : bool
        Whether the stuck contacts are balanced in order of decreasing normal force
        (default True, see the module) or increasing (the weakest bound first).
    meff_fixed : ndarray or None
        ``m_eff,tan`` per contact (K,) used instead of eq 21's where given (default None).
        These three are switched only to measure their effect
        (:mod:`nsfric.papers.krengel_matuttis.slope_block_corners_mechanism`).
    """

    sweeps = SWEEPS
    strongest_first = True
    meff_fixed = None

    def __init__(self, model, values):
        members = [dict(values)] if isinstance(values, dict) else [dict(v) for v in values]
        if not members:
            raise ValueError("values must hold at least one member's parameters, got none")
        self.model = model
        self.values = members[0]
        self.n, self.K, self.B = model.n, model.K, len(members)
        self.P = np.stack([model.param_vector(v) for v in members], axis=1)
        self.Minv_b = np.stack([1.0 / mass_vector(model, v) for v in members], axis=1)
        self.gravity_b = np.stack([external_force(model, v) for v in members], axis=1)
        self.mu_b = np.array([float(v["mu"]) for v in members])
        self.p, self.Minv, self.gravity, self.mu = self.P[:, 0], self.Minv_b[:, 0], self.gravity_b[:, 0], self.mu_b[0]
        args = (model.states, [p.symbol for p in model.params])
        self._kernel = None
        spring = getattr(model, "spring_exprs", None)
        self._spring = generate(spring, args, "math") if spring else None

    def normal(self, u):
        """``(c, closed, F_n, f)``: the contact quantities, the closed contacts, their
        repulsive forces (0 where open) and the generalized force of gravity and of them
        (``u`` one state of the first member)."""
        c = contact_quantities(self.model, u, self.p)
        closed = (c["xi"] >= 0) & (c["F_n"] > 0)
        F_n = np.where(closed, c["F_n"], 0.0)
        return c, closed, F_n, self.gravity - c["J_n"].T @ F_n

    def exact(self, u, stuck):
        """Exact static friction per contact under the stuck flags ``stuck`` (K,) or (K, B)
        for the state ``u`` (2n,) or the batch's states (2n, B): ``(rates, info)`` with
        ``info`` = ``closed, v_t, lam, F_n, F_t`` and ``brake`` (``mu F_n/m_eff,tan``: the
        deceleration the contact's dynamic friction alone gives it), (K,) or (K, B) each.
        Compiled (:mod:`nsfric.symbolic.corner_kernel`), member by member: a member's
        numbers do not depend on the others in the batch; the Gauss-Seidel order is each
        member's own."""
        single = np.ndim(u) == 1
        U = np.asarray(u, dtype=float).reshape(len(u), -1)
        stuck = np.asarray(stuck, dtype=bool).reshape(self.K, -1)
        B, K = U.shape[1], self.K
        if self._kernel is None:
            from .corner_kernel import kernel

            self._kernel = kernel(self.model).exact_batch
        rates = np.empty_like(U)
        closed = np.empty((K, B), dtype=bool)
        v_t, lam, F_n, F_t, brake = (np.empty((K, B)) for _ in range(5))
        fixed = np.full((K, B), np.nan) if self.meff_fixed is None else \
            np.repeat(np.asarray(self.meff_fixed, dtype=float).reshape(K, 1), B, axis=1)
        self._kernel(U, stuck, self.P, self.Minv_b, self.gravity_b, self.mu_b, int(self.sweeps),
                     bool(self.strongest_first), fixed, rates, closed, v_t, lam, F_n, F_t, brake)
        info = {"closed": closed, "v_t": v_t, "lam": lam, "F_n": F_n, "F_t": F_t, "brake": brake}
        return (rates[:, 0], {k: v[:, 0] for k, v in info.items()}) if single else (rates, info)

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
