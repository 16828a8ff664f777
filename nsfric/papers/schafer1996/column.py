"""A one-dimensional column of grains hitting a wall, Schäfer, Dippel & Wolf (1996) §4 (after
Luding et al. 1994): ``N`` equal grains on a line, each contact -- grain 1 with the wall and
every neighbouring pair -- carrying its own copy of a normal law.

The contacts open and close independently, so the column has ``2^N`` smooth modes (a
closed/open pattern); writing them out as the regions of a
:class:`~nsfric.symbolic.model.HybridModel` is impractical beyond a few grains.  A
:class:`ColumnModel` therefore keeps the *product* structure: the states, the
parameters, and per contact its overlap, overlap rate and the law's force on it, all
SymPy; the field of a mode is the free flight plus the contributions of its closed
contacts.  The event-driven solver (:mod:`nsfric.solvers.contact_network`) takes the
numeric matrices of this declaration (:meth:`ColumnModel.linear_system`); no formula is
restated.

Coordinates: the wall is at ``x = 0``, grain 1 nearest to it, ``x_i`` the centre of grain
``i`` (radius ``R``, mass ``m``), ``v_i`` its velocity.  Overlaps (positive in contact):
``xi_wall = R - x_1`` and ``xi_(i,i+1) = 2 R - (x_(i+1) - x_i)``.  The law's force ``F``
acts on the overlap coordinate (``F < 0`` repulsive, as in
:mod:`nsfric.symbolic.normal`); its generalized force on ``x_i`` is ``F dxi/dx_i``
(virtual work), so the wall pushes grain 1 outwards with ``F_n = -F``.

A mode is named by its closed/open pattern, one character per contact in the order
``wall, 1-2, 2-3, ...``, :data:`CLOSED` or :data:`OPEN`: ``"c---"`` has only the wall
contact closed (:func:`mode_name`, :func:`closed_mask`).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp

from nsfric.symbolic.codegen import generate
from nsfric.symbolic.laws import P, get_law
from nsfric.symbolic.model import HybridModel
from nsfric.solvers.contact_network import CLOSED, OPEN, closed_mask, mode_name  # noqa: F401  (re-exported)

m_grain, R = sp.symbols("m R", positive=True)
s_0, v_0 = sp.symbols("s_0 v_0", nonnegative=True)

#: the largest column the case offers (the solver itself has no limit)
N_MAX = 20
COLUMN_REFERENCE = "Schäfer, Dippel & Wolf (1996) §4 (column detachment, after Luding et al. 1994)"


def check_grains(N, lo: int = 1, hi: int = N_MAX) -> int:
    """``N`` as an int, or ValueError naming the parameter ``N`` and its range."""
    ok = isinstance(N, (int, np.integer)) or (isinstance(N, float) and float(N).is_integer())
    if isinstance(N, bool) or not ok or not (lo <= N <= hi):
        raise ValueError(f"parameter 'N' (number of grains) must be an integer in [{lo}, {hi}], got {N!r}")
    return int(N)


class ColumnModel:
    """``N`` grains in a line with (optionally) a wall, one normal law per contact.

    Parameters
    ----------
    N : int
        Number of grains, >= 1.
    law : str
        A registered normal law (default the linear spring-dashpot, eq 2); its parameters
        (``k_n``, ``gamma_n``) are shared by every contact.
    wall : bool
        Grain 1 meets a wall at ``x = 0`` (contact ``wall``); without it the column is
        free (contacts between grains only).

    Attributes
    ----------
    states : tuple of Symbol, ``x_1..x_N, v_1..v_N``
    params : tuple of Param, the law's, then ``m``, ``R``, ``s_0``, ``v_0``
    contacts : tuple of str, the contact names (``wall``, ``1-2``, ...)
    overlaps, overlap_rates : tuple of expressions, one per contact
    forces : tuple of expressions, the law's force ``F`` on each overlap (``F_n = -F``)
    """

    #: what the model offers (``nsfric.solvers.base.capabilities``): a network of independent
    #: contacts, solved by :class:`~nsfric.solvers.contact_network.ContactNetworkSolver`
    supports = frozenset({"network"})

    def __init__(self, N: int, law: str = "linear-dashpot", wall: bool = True):
        self.N = check_grains(N, 1, 10 ** 6)
        self.law = get_law(law, "normal")
        if self.law.states or "contact" not in self.law.branches:
            raise ValueError(f"normal law {law!r}: the column takes a law with one contact branch and "
                             "no history state")
        self.wall = bool(wall)
        xs = sp.symbols(f"x_1:{self.N + 1}", real=True)
        vs = sp.symbols(f"v_1:{self.N + 1}", real=True)
        self.states = tuple(xs) + tuple(vs)
        self.x, self.v = xs, vs
        self.params = tuple(self.law.params) + (
            P(m_grain, 1.48e-4, 0, lo_open=True, doc="grain mass", unit="kg"),
            P(R, 3e-3, 0, lo_open=True, doc="grain radius", unit="m"),
            P(s_0, 1e-5, 0, doc="gap between neighbouring grains at the start", unit="m"),
            P(v_0, 1.0, 0, lo_open=True, doc="initial speed towards the wall", unit="m/s"))
        names, ovl = [], []
        if self.wall:
            names.append("wall")
            ovl.append(R - xs[0])
        for i in range(self.N - 1):
            names.append(f"{i + 1}-{i + 2}")
            ovl.append(2 * R - (xs[i + 1] - xs[i]))
        self.contacts = tuple(names)
        self.overlaps = tuple(ovl)
        rate = {x: v for x, v in zip(xs, vs)}
        self.overlap_rates = tuple(sum(sp.diff(o, x) * rate[x] for x in xs) for o in ovl)
        F = self.law.branches["contact"].F
        self.forces = tuple(F.xreplace({self.law.overlap: o, self.law.rate: r})
                            for o, r in zip(self.overlaps, self.overlap_rates))
        self.name = f"column-{self.N}{'' if self.wall else '-free'}/{self.law.name}"
        self.reference = f"{COLUMN_REFERENCE}; {self.law.reference}"
        self.output_names = ("E_kin",) + tuple(f"F_n_{c}" for c in self.contacts)

    # -- the HybridModel interface Solution and the cases use (the same code, borrowed) --------
    state_names = HybridModel.state_names
    param_names = HybridModel.param_names
    param = HybridModel.param
    bind = HybridModel.bind
    param_vector = HybridModel.param_vector

    def derived(self):
        """The output evaluator :class:`Solution` asks for (``outputs(mode)``)."""
        return _ColumnOutputs(self)

    @property
    def regions(self):
        """Not enumerated: ValueError for the HybridModel solvers and schemes."""
        raise ValueError(f"{self.name}: the column's 2^N contact modes are not enumerated as HybridModel "
                         "regions; solve it with the solver 'contacts' (nsfric run column-detachment, "
                         "ColumnDetachment.reference_solution)")

    # -- initial state ------------------------------------------------------------------------
    def initial_state(self, values: dict) -> np.ndarray:
        """Grain 1 touching the wall (``x_1 = R``), the others ``s_0`` apart (gap between
        surfaces), all moving towards the wall at ``v_0``."""
        r, s, v = values["R"], values["s_0"], values["v_0"]
        x = r + np.arange(self.N) * (2 * r + s)
        return np.concatenate([x, np.full(self.N, -v)])

    # -- numerics derived from the declaration -------------------------------------------------
    def linear_system(self, values: dict) -> dict:
        """The affine pieces of the field and of the guards at these parameter values.

        Returns ``A0, b0`` (free flight, ``y' = A0 y + b0``), ``A, b`` (stacked per contact:
        the rates a closed contact adds), ``C, c`` (overlaps ``C y + c``) and ``D, d``
        (overlap rates).

        Raises
        ------
        ValueError
            If the law's force is not affine in the states (no matrix form).
        """
        return _linear_system(self, tuple(sorted((k, float(v)) for k, v in values.items())))


class _ColumnOutputs:
    """``outputs(mode) -> (names, f(Y, p))``: kinetic energy and the repulsive force of
    every contact (zero where the mode has it open)."""

    def __init__(self, model: ColumnModel):
        self.model = model

    def outputs(self, mode: str):
        mask = closed_mask(mode).astype(float)
        names, f = _output_function(self.model)

        def out(Y, p):
            vals = np.array(np.broadcast_to(f(Y, p), (len(names),) + np.shape(Y)[1:]), dtype=float)
            vals[1:] *= mask.reshape((-1,) + (1,) * (vals.ndim - 1))
            return vals
        return names, out


@lru_cache(maxsize=32)
def _output_function(model: ColumnModel):
    E = sum(m_grain * v ** 2 / 2 for v in model.v)
    exprs = [E] + [-F for F in model.forces]
    return list(model.output_names), generate(exprs, (model.states, [p.symbol for p in model.params]))


@lru_cache(maxsize=64)
def _linear_system(model: ColumnModel, items) -> dict:
    values = dict(items)
    sub = {p.symbol: sp.Float(values[p.name], 17) for p in model.params}
    y = sp.Matrix(model.states)
    zero = {s: 0 for s in model.states}

    def affine(exprs, what):
        e = sp.Matrix([sp.sympify(x).xreplace(sub) for x in exprs])
        J = e.jacobian(y)
        if any(a.free_symbols for a in J):
            raise ValueError(f"{what} of law {model.law.name!r} is not affine in the states: the column "
                             "solver needs a linear law (the linear spring-dashpot, eq 2)")
        return np.array(J, dtype=float), np.array(e.xreplace(zero), dtype=float).ravel()

    n = model.N
    free = [*model.v] + [0] * n
    A0, b0 = affine(free, "free flight")
    A, b = [], []
    for F, o in zip(model.forces, model.overlaps):
        rates = [0] * n + [F * sp.diff(o, x) / m_grain for x in model.x]
        Aj, bj = affine(rates, "the contact force")
        A.append(Aj)
        b.append(bj)
    C, c = affine(model.overlaps, "the overlap")
    D, d = affine(model.overlap_rates, "the overlap rate")
    return {"A0": A0, "b0": b0, "A": np.array(A), "b": np.array(b), "C": C, "c": c, "D": D, "d": d}
