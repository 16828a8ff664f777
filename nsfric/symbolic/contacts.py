"""Rigid bodies with several unilateral contacts, each with exact static friction
(Krengel & Matuttis §3 for several contacts, eqs 21-22): the interface the multi-contact
references (:mod:`nsfric.solvers.contacts`, :mod:`nsfric.solvers.contacts_dae`) solve.

A :class:`ContactModel` declares

* its **bodies** (:class:`Body`): planar rigid bodies with coordinates ``(x, y, theta)``
  (``q``) and velocities ``(vx, vy, omega)`` (``v = dq/dt``), mass ``m`` and moment of
  inertia ``I`` (the mass matrix ``M`` is diagonal, ``m, m, I`` per body) and the centre
  of mass as an expression in ``q``;
* its **contacts** (:class:`Contact`): a name, a kind, the overlap ``xi(q)`` and the
  relative tangential velocity ``v_t(q, v)`` of the material points at the contact point
  (linear in ``v``);
* one normal law (a :class:`~nsfric.symbolic.laws.NormalLaw` whose contact ends where
  its repulsive force vanishes) carried by every contact on ``(xi, dxi/dt)``;
* the external generalized force ``f_ext`` (gravity) and the friction coefficient ``mu``
  (the parameter of that name).

From these it derives symbolically: ``J_n = dxi/dq`` (``dxi/dt = J_n v``; the normal
force ``F_n`` acts as ``-J_n^T F_n``), ``J_t = dv_t/dv`` (a tangential force ``F_t`` acts
as ``J_t^T F_t``, power ``F_t v_t``), ``c_t = (dJ_t/dt) v`` (``dv_t/dt = J_t dv/dt +
c_t``) and the reduced tangential mass of each contact, eq 21:
``1/m_eff,tan = J_t M^-1 J_t^T`` (for one rigid body ``1/m + r_perp^2/I``); the relative
acceleration a tangential force must cancel, eq 22, is ``J_t M^-1 f + c_t``.

:func:`compiled` turns them into one generated function of ``(y, p)``; :func:`field`
assembles the field of a mode (one character per contact: ``o`` open, ``s`` stuck,
``+``/``-`` sliding), the stuck contacts' forces from one linear system.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp

from ..memo import Memo
from .codegen import generate
from .model import HybridModel

#: mode characters of one contact
OPEN, STICK, SLIP_PLUS, SLIP_MINUS = "o", "s", "+", "-"
SLIP_SIGN = {SLIP_PLUS: 1.0, SLIP_MINUS: -1.0}


@dataclass(frozen=True)
class Body:
    """A planar rigid body: ``q = (x, y, theta)``, ``v = (vx, vy, omega)``, mass ``m``,
    moment of inertia ``I`` and its centre of mass ``(x_c, y_c)`` as expressions in ``q``
    (``(x, y)`` unless the coordinates locate another material point)."""

    q: tuple
    v: tuple
    mass: object
    inertia: object
    centre: tuple = None

    @property
    def com(self):
        return self.q[:2] if self.centre is None else self.centre


@dataclass(frozen=True)
class Contact:
    """One contact: ``name``, ``kind`` (e.g. ``plane``, ``disc``, ``corner``), the overlap
    ``xi`` (positive when pressed) and the relative tangential velocity ``v_t``."""

    name: str
    kind: str
    xi: object
    v_t: object


class ContactModel:
    """Rigid bodies with unilateral frictional contacts (see the module docstring).

    Subclasses call :meth:`setup`.  Attributes after it: ``states`` (``q`` then ``v``),
    ``n`` (``len(q)``), ``K`` (contacts), ``contacts`` (names), ``kinds``, ``overlaps``,
    ``rates``, ``forces`` (repulsive ``F_n``), ``tangential_velocities``, ``J_n``,
    ``J_t``, ``c_t`` (tuples of expressions, one per contact), ``mass`` (the diagonal of
    ``M``), ``external`` (``f_ext``), ``output_names``.

    ``starts_open`` -- the model must start with every contact open (else a contact
    touching with a non-negative force starts closed, its stick/slip mode decided as at
    an event).
    """

    starts_open = False
    #: what the model offers the solvers and schemes (``nsfric.solvers.base.capabilities``):
    #: the multi-contact solvers and step loop take it
    supports = frozenset({"contacts"})
    #: the registered solver that solves the model when a generic one is asked for
    SOLVERS = {"filippov": "pile-events", "ida": "pile-ida"}

    def solver_for(self, name: str) -> str:
        """The registered solver that solves this model when solver ``name`` is asked for
        (:data:`SOLVERS`: the event-driven ``filippov`` is ``pile-events``, ``ida`` is
        ``pile-ida``); ValueError for any other name."""
        if name not in self.SOLVERS:
            raise ValueError(f"solver {name!r} does not solve the multi-contact model {self.name!r}; "
                             f"choose one of {sorted(self.SOLVERS)}")
        return self.SOLVERS[name]

    def setup(self, *, name, reference, params, bodies, contacts, law, external, accel_scale,
              outputs=None):
        """Derive the contact quantities.

        Parameters
        ----------
        name, reference : str
        params : tuple of Param (one named ``mu``: every contact's friction coefficient)
        bodies : tuple of Body
        contacts : tuple of Contact
        law : NormalLaw
            The normal law of every contact; its branch ``contact`` gives the force ``F``
            on ``(xi, dxi/dt)`` (repulsive force ``F_n = -F``).
        external : tuple of expressions, the generalized external force ``f_ext`` (n,)
        accel_scale : expression, a typical acceleration (e.g. ``g``): the scale of the
            consistency tests' margins
        outputs : dict, optional
            Further outputs ``{name: expression in (q, v)}``.
        """
        self.name, self.reference, self.params, self.law = name, reference, tuple(params), law
        self.bodies = tuple(bodies)
        self.q = tuple(s for b in self.bodies for s in b.q)
        self.v = tuple(s for b in self.bodies for s in b.v)
        self.states = self.q + self.v
        self.n = len(self.q)
        self.contacts = tuple(c.name for c in contacts)
        self.kinds = tuple(c.kind for c in contacts)
        self.K = len(contacts)
        rate = dict(zip(self.q, self.v))
        self.overlaps = tuple(c.xi for c in contacts)
        self.J_n = tuple(tuple(sp.diff(xi, s) for s in self.q) for xi in self.overlaps)
        self.rates = tuple(sum(J * w for J, w in zip(row, self.v)) for row in self.J_n)
        self.tangential_velocities = tuple(c.v_t for c in contacts)
        self.J_t = tuple(tuple(sp.diff(vt, w) for w in self.v) for vt in self.tangential_velocities)
        self.c_t = tuple(sum(sp.diff(vt, s) * rate[s] for s in self.q) for vt in self.tangential_velocities)
        F = law.branches["contact"].F
        self.forces = tuple(-F.xreplace({law.overlap: xi, law.rate: r})
                            for xi, r in zip(self.overlaps, self.rates))
        self.mass = tuple(e for b in self.bodies for e in (b.mass, b.mass, b.inertia))
        self.external = tuple(external)
        self.accel_scale = accel_scale
        total = sum(b.mass for b in self.bodies)
        self.extra_outputs = {"E_kin": sum(M * w ** 2 for M, w in zip(self.mass, self.v)) / 2,
                              "x_com": sum(b.mass * b.com[0] for b in self.bodies) / total,
                              "y_com": sum(b.mass * b.com[1] for b in self.bodies) / total}
        self.output_names = (tuple(self.extra_outputs) + tuple(f"{k}_{c}" for k in ("F_n", "F_t", "ratio", "v_t", "xi")
                                                               for c in self.contacts))
        self.add_outputs(outputs or {})

    def add_outputs(self, outputs: dict):
        """Further outputs ``{name: expression in (q, v) and the parameters}``, after the
        per-contact ones (before the model is first compiled)."""
        self.extra_outputs.update(outputs)
        self.output_names += tuple(outputs)

    # -- the HybridModel interface Solution and the cases use (the same code, borrowed) --------
    state_names = HybridModel.state_names
    param_names = HybridModel.param_names
    param = HybridModel.param
    bind = HybridModel.bind
    param_vector = HybridModel.param_vector

    def effective_mass(self, k: int):
        """Reduced tangential mass of contact ``k``, eq 21: ``(J_t M^-1 J_t^T)^-1``."""
        return 1 / sum(J ** 2 / M for J, M in zip(self.J_t[k], self.mass))

    def derived(self):
        """The output evaluator :class:`~nsfric.solution.Solution` asks for."""
        return _ContactOutputs(self)


@lru_cache(maxsize=32)
def compiled(model: ContactModel):
    """One generated function ``(y, p) -> [xi, F_n, v_t, c_t, J_n (K x n), J_t (K x n)]``."""
    flat = (list(model.overlaps) + list(model.forces) + list(model.tangential_velocities) + list(model.c_t)
            + [e for row in model.J_n for e in row] + [e for row in model.J_t for e in row])
    return generate(flat, (model.states, [p.symbol for p in model.params]), backend="math")


@lru_cache(maxsize=32)
def compiled_outputs(model: ContactModel):
    """The generated function ``(y, p) -> model.extra_outputs`` (in their order)."""
    return generate(list(model.extra_outputs.values()), (model.states, [p.symbol for p in model.params]),
                    backend="math")


def contact_quantities(model: ContactModel, y, p) -> dict:
    """The compiled contact quantities at ``y``: ``xi, F_n, v_t, c_t`` (K,), ``J_n, J_t`` (K, n)."""
    K, n = model.K, model.n
    out = compiled(model)(y, p)
    return {"xi": out[:K], "F_n": out[K:2 * K], "v_t": out[2 * K:3 * K], "c_t": out[3 * K:4 * K],
            "J_n": out[4 * K:4 * K + K * n].reshape(K, n), "J_t": out[4 * K + K * n:].reshape(K, n)}


#: (expressions, parameter symbols, their values) -> the expressions' values
_VALUES = Memo(512, "nsfric.symbolic.contacts.values")


def _evaluate(exprs, model: ContactModel, values: dict) -> np.ndarray:
    """``exprs`` (expressions of the model's parameters: masses, gravity) at parameter
    ``values``, each correctly rounded (SymPy's exact substitution), substituted once per
    expression list and parameter values and then remembered: no SymPy per call."""
    symbols = tuple(p.symbol for p in model.params)
    at = tuple(float(values[p.name]) for p in model.params)
    exprs = tuple(sp.sympify(e) for e in exprs)

    def substitute():  # each expression given only its own symbols: the same result
        sub = dict(zip(symbols, at))  # without a pass over its tree per unrelated parameter

        def value(e):
            own = e.free_symbols
            return float(e.subs({s: x for s, x in sub.items() if s in own}))
        out = np.array([value(e) for e in exprs])
        out.setflags(write=False)
        return out
    return _VALUES.get((exprs, symbols, at), substitute).copy()


def mass_vector(model: ContactModel, values: dict) -> np.ndarray:
    """The diagonal of the mass matrix ``M`` (``m, m, I`` per body)."""
    return _evaluate(model.mass, model, values)


def external_force(model: ContactModel, values: dict) -> np.ndarray:
    """The generalized external force ``f_ext`` (gravity) at parameter ``values``: the
    model's own numeric evaluation where it has one (``model.external_force(values)``,
    equal to the symbolic ``f_ext`` up to rounding), else ``f_ext`` evaluated."""
    own = getattr(model, "external_force", None)
    return np.asarray(own(values), dtype=float) if own else _evaluate(model.external, model, values)


def acceleration_scale(model: ContactModel, values: dict) -> float:
    """The model's typical acceleration (the scale of the consistency margins)."""
    return float(_evaluate([model.accel_scale], model, values)[0])


@lru_cache(maxsize=4096)
def mode_arrays(mode: str):
    """``(closed, slip, S)`` of ``mode``: 1.0 where a contact is closed, the sliding sign
    ``s`` (0 where not sliding) and the indices of the stuck contacts."""
    closed = np.array([ch != OPEN for ch in mode], dtype=float)
    slip = np.array([SLIP_SIGN.get(ch, 0.0) for ch in mode])
    return closed, slip, [i for i, ch in enumerate(mode) if ch == STICK]


def free_force(c: dict, mode: str, gravity, mu_value: float):
    """``(f, F_t)``: the generalized force of gravity, of the closed contacts' normal forces
    and of the sliding contacts' Coulomb forces ``F_t = -mu F_n s`` (stuck contacts'
    ``F_t`` zero here), from the contact quantities ``c``."""
    closed, slip, _ = mode_arrays(mode)
    F_n = closed * c["F_n"]
    F_t = -mu_value * F_n * slip
    return gravity - c["J_n"].T @ F_n + c["J_t"].T @ F_t, F_t


def field(model: ContactModel, y, p, Minv, gravity, mode: str, mu_value: float, dependent: bool = False):
    """The field of ``mode`` at ``y``: ``(dy/dt, lam, F_t, c)``.

    ``mode`` has one character per contact: ``o`` open, ``s`` stuck, ``+``/``-`` sliding
    with ``v_t`` of that sign (``F_t = -mu F_n sign(v_t)``).  The stuck contacts' forces
    ``lam`` (``F_t`` there) come from one linear system, ``(J_S M^-1 J_S^T) lam =
    -(J_S M^-1 f + c_S)`` (``dv_t/dt = 0`` on every stuck contact, Krengel & Matuttis
    eq 9 for several contacts; eq 22's relative acceleration on the right); with
    ``dependent`` (the stuck contacts' rows of ``J_t`` are linearly dependent,
    :func:`dependent_contacts`) the minimum-norm least-squares solution.  ``c`` are the
    contact quantities.
    """
    n = model.n
    c = contact_quantities(model, y, p)
    f, F_t = free_force(c, mode, gravity, mu_value)
    S = mode_arrays(mode)[2]
    lam = np.zeros(model.K)
    if S:
        J = c["J_t"][S]
        A = (J * Minv) @ J.T
        rhs = -(J @ (Minv * f) + c["c_t"][S])
        lam_S = np.linalg.lstsq(A, rhs, rcond=1e-12)[0] if dependent else np.linalg.solve(A, rhs)
        lam[S] = lam_S
        F_t[S] = lam_S
        f = f + J.T @ lam_S
    dy = np.concatenate([y[n:], Minv * f])
    return dy, lam, F_t, c


def dependent_contacts(model: ContactModel, y, p, Minv, S) -> list:
    """The stuck contacts ``S`` whose rows of ``J_t`` depend on the others at ``y`` (empty
    when ``J_S M^-1 J_S^T`` is regular): the minimum-norm solution shares their force."""
    if not S:
        return []
    J = contact_quantities(model, y, p)["J_t"][list(S)]
    A = (J * Minv) @ J.T
    if np.linalg.cond(A) < 1e10:
        return []
    s, V = np.linalg.eigh(A)
    null = V[:, s < 1e-10 * s.max()]
    return [S[k] for k in range(len(S)) if np.any(np.abs(null[k]) > 1e-8)]


def stuck_mechanisms(model: ContactModel, y, p, contacts) -> int:
    """Dimension of the rigid motions of the bodies with ``contacts`` (indices) stuck and
    their overlaps kept: the null space of ``[J_n; J_t]`` over those contacts at ``y``."""
    c = contact_quantities(model, y, p)
    A = np.vstack([c["J_n"][list(contacts)], c["J_t"][list(contacts)]])
    s = np.linalg.svd(A, compute_uv=False)
    return model.n - int(np.sum(s > 1e-10 * s.max()))


class _ContactOutputs:
    """``outputs(mode) -> (names, f(Y, p))``: kinetic energy, centre of mass, per contact
    ``F_n, F_t, |F_t|/(mu F_n), v_t, xi`` (forces zero where the contact is open) and the
    model's further outputs."""

    def __init__(self, model: ContactModel):
        self.model = model

    def outputs(self, mode: str):
        model = self.model
        names = list(model.output_names)
        closed = np.array([ch != OPEN for ch in mode])

        def out(Y, p):
            values = dict(zip(model.param_names, p))
            Minv, grav = 1.0 / mass_vector(model, values), external_force(model, values)
            extra = compiled_outputs(model)
            Y = np.asarray(Y, dtype=float)
            cols = []
            for y in (Y.T if Y.ndim == 2 else [Y]):
                dep = bool(dependent_contacts(model, y, p, Minv, mode_arrays(mode)[2]))
                _, _, F_t, c = field(model, y, p, Minv, grav, mode, values["mu"], dep)
                F_n = np.where(closed, c["F_n"], 0.0)
                ratio = np.where(F_n > 0, np.abs(F_t) / (values["mu"] * np.where(F_n > 0, F_n, 1.0)), 0.0)
                e = extra(y, p)
                cols.append(np.concatenate([e[:3], F_n, F_t, ratio, c["v_t"], c["xi"], e[3:]]))
            arr = np.array(cols).T
            return arr if Y.ndim == 2 else arr[:, 0]
        return names, out
