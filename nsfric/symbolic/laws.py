"""Contact laws, declared once in SymPy, with explicit arguments.

A law is data: its parameters (with allowed ranges), its internal (history) states, its
switching functions and, per mode, the force and the rates of its internal states.  Two
kinds compose (:func:`nsfric.symbolic.coupling.couple`):

* a :class:`NormalLaw` is a function of the overlap ``xi`` and its rate ``v`` (its
  argument symbols :attr:`NormalLaw.overlap`, :attr:`NormalLaw.rate`); its force ``F``
  acts on the overlap coordinate (``F < 0`` is repulsive, ``m_eff dv/dt = F``);
* a :class:`TangentialLaw` is a function of the relative tangential velocity
  (:attr:`TangentialLaw.velocity`: a symbol, or a tuple of symbols in the tangential
  plane), the normal force :attr:`TangentialLaw.normal_force` (``F_N``), the normal
  overlap :attr:`TangentialLaw.normal_overlap` (``delta_n``: a stiffness that depends
  on the normal state, as Hertz-Mindlin's ``k_t a`` with the contact radius ``a =
  sqrt(R_eff delta_n)``) and its own history states; its force ``F`` opposes the relative
  tangential motion.

``couple`` substitutes the argument symbols by the expressions a kinematics object
(:mod:`nsfric.symbolic.kinematics`) supplies.  Symbols carry the papers' names:
``xi`` (spring displacement / overlap), ``v`` (relative velocity), ``k``, ``gamma``,
``F_max``, ``mu``, ``F_N``, ``m``.  The laws themselves live in
:mod:`nsfric.symbolic.tangential` and :mod:`nsfric.symbolic.normal`; they are listed by
name in :data:`TANGENTIAL_LAWS` and :data:`NORMAL_LAWS`, filled explicitly
(:func:`register_law`) and through the entry-point group ``nsfric.laws``
(:func:`load_entry_points`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import sympy as sp

from ..plugins import LazyRegistry
from .model import Param

# ---------------------------------------------------------------------------
# symbols, shared by every law and system (same names everywhere)
xi, v, x = sp.symbols("xi v x", real=True)
k, gamma, F_max, m = sp.symbols("k gamma F_max m", positive=True)
mu, F_N = sp.symbols("mu F_N", nonnegative=True)
k_n, gamma_n = sp.symbols("k_n gamma_n", positive=True)
lam = sp.Symbol("lam", real=True)
xi_1, xi_2, v_1, v_2 = sp.symbols("xi_1 xi_2 v_1 v_2", real=True)
#: the normal overlap as an argument of a tangential law (``couple`` substitutes the
#: kinematics' overlap)
delta_n = sp.Symbol("delta_n", real=True)  # not nonnegative: |delta_n| stays (steps pass the end)
#: its rate (``couple`` substitutes the kinematics' overlap rate)
delta_n_dot = sp.Symbol("delta_n_dot", real=True)


def P(symbol, default, lo=-sp.oo, hi=sp.oo, lo_open=False, hi_open=False, doc="", unit=""):
    """Shorthand for :class:`~nsfric.symbolic.model.Param`."""
    return Param(symbol, float(default), float(lo), float(hi), lo_open, hi_open, doc, unit)


def test_force(xi_, v_, k_=k, gamma_=gamma):
    """Spring-dashpot test force ``F_S = -k xi - gamma v`` (Führer et al. eq 1)."""
    return -k_ * xi_ - gamma_ * v_


@dataclass(frozen=True)
class Branch:
    """One smooth mode of a law: sign pattern, force ``F``, internal-state rates, the
    kind of event logged on entering it, extra named outputs (e.g. ``E_el``) and a reset
    map ``{state: expression}`` applied on entering it (Walton-Braun's ``F* <- F_s``)."""

    signs: dict
    F: sp.Expr
    rates: dict = field(default_factory=dict)
    kind: str = ""
    outputs: dict = field(default_factory=dict)
    reset: dict = field(default_factory=dict)


@dataclass(frozen=True)
class LawSliding:
    """A law mode on a switching surface (see :class:`~nsfric.symbolic.model.Sliding`)."""

    surface: str
    kind: str
    algebraic: sp.Symbol
    plus: str | None
    minus: str | None
    F: sp.Expr | None = None
    rates: dict = field(default_factory=dict)
    entry_kind: str = "stick"
    exits: bool = True
    outputs: dict = field(default_factory=dict)


def _branch(name, b):
    """A :class:`Branch` from a Branch or a tuple ``(signs, F[, rates[, kind]])``."""
    if isinstance(b, Branch):
        return b
    signs, F, *rest = b
    rates = rest[0] if rest else {}
    kind = rest[1] if len(rest) > 1 else name
    return Branch(dict(signs), F, dict(rates), kind)


@dataclass(frozen=True)
class Law:
    """A contact law declared symbolically (the common data of both kinds).

    ``branches`` and ``slidings`` are keyed by mode name; a branch may be given as a
    tuple ``(signs, F[, rates[, kind]])``.  ``reference`` cites the paper and equations.
    """

    name: str
    reference: str
    states: tuple
    params: tuple
    switching: dict
    branches: dict
    slidings: dict = field(default_factory=dict)
    doc: str = ""

    def __post_init__(self):
        object.__setattr__(self, "branches", {n: _branch(n, b) for n, b in self.branches.items()})
        object.__setattr__(self, "states", tuple(self.states))
        object.__setattr__(self, "params", tuple(self.params))
        for n, b in self.branches.items():
            bad = [s for s in b.signs if s not in self.switching]
            if bad:
                raise ValueError(f"law {self.name!r}: branch {n!r} uses unknown switching function(s) {bad}")


@dataclass(frozen=True)
class TangentialLaw(Law):
    """A tangential law ``F(v_t, F_N; history)``.

    ``velocity`` is the argument symbol of the relative tangential velocity (a tuple of
    symbols for a vector in the tangential plane; then ``F`` of every branch is a tuple
    of the same length), ``normal_force`` that of the normal force ``F_N`` (replaced by
    the normal law's repulsive force when one is coupled), ``normal_overlap`` that of
    the normal overlap ``delta_n`` and ``normal_overlap_rate`` that of its rate
    ``delta_n_dot`` (replaced by the kinematics' overlap and its rate; a law using them
    needs a normal law on a kinematics with an overlap).
    """

    velocity: object = v
    normal_force: sp.Symbol = F_N
    normal_overlap: sp.Symbol = delta_n
    normal_overlap_rate: sp.Symbol = delta_n_dot

    def uses(self, symbol) -> bool:
        """Whether any switching function, force, rate or reset of the law holds ``symbol``."""
        exprs = list(self.switching.values())
        for b in self.branches.values():
            exprs += list(b.F) if isinstance(b.F, tuple) else [b.F]
            exprs += list(b.rates.values()) + list(b.reset.values())
        for sl in self.slidings.values():
            exprs += ([] if sl.F is None else (list(sl.F) if isinstance(sl.F, tuple) else [sl.F]))
            exprs += list(sl.rates.values())
        return any(sp.sympify(e).has(symbol) for e in exprs)

    @property
    def dim(self) -> int:
        return len(self.velocity) if isinstance(self.velocity, tuple) else 1


@dataclass(frozen=True)
class NormalLaw(Law):
    """A normal law ``F(xi, dxi/dt; history)`` on the overlap coordinate (``F < 0`` repulsive).

    ``overlap`` and ``rate`` are its argument symbols; ``free`` names the branches out
    of contact (no force; a coupled tangential law is inactive there).
    """

    overlap: sp.Symbol = xi
    rate: sp.Symbol = v
    free: tuple = ()


# ---------------------------------------------------------------------------
# registries
ENTRY_POINT_GROUP = "nsfric.laws"
_plugins = {"loaded": False}


def _load_once() -> list:
    """Load the ``nsfric.laws`` plug-ins once, into whichever registry fits each law."""
    if _plugins["loaded"]:
        return []
    _plugins["loaded"] = True
    from . import normal, slip_rule_laws, tangential  # noqa: F401  (the built-in laws register on import)
    return load_entry_points()


#: name -> factory returning a :class:`TangentialLaw` (called without arguments)
TANGENTIAL_LAWS: dict = LazyRegistry(ENTRY_POINT_GROUP, loader=_load_once)
#: name -> factory returning a :class:`NormalLaw`
NORMAL_LAWS: dict = LazyRegistry(ENTRY_POINT_GROUP, loader=_load_once)


#: the outputs a tangential law with a spring declares in every mode (:func:`with_outputs`):
#: the spring's (elastic) part of the force and the energy stored in the spring
SPRING_OUTPUTS = ("F_t_el", "E_t")


def spring_outputs(stiffness=k, history=xi) -> dict:
    """:data:`SPRING_OUTPUTS` of a linear spring on the displacement history ``xi``: the
    elastic force ``-k xi`` and the stored energy ``k xi^2/2``; ``stiffness=0`` for a
    law without a spring (no elastic part, nothing stored)."""
    return {"F_t_el": -stiffness * history, "E_t": stiffness * history ** 2 / 2}


def with_outputs(law: Law, outputs: dict) -> Law:
    """``law`` with the named ``outputs`` (expressions in the law's symbols, the same in
    every mode) added to every branch and sliding mode, e.g. a spring's elastic force and
    energy (:data:`SPRING_OUTPUTS`); :func:`~nsfric.symbolic.coupling.couple` carries them
    into the model (zero in the normal law's free modes, where the contact is open)."""
    return replace(law, branches={n: replace(b, outputs={**b.outputs, **outputs}) for n, b in law.branches.items()},
                   slidings={n: replace(sl, outputs={**sl.outputs, **outputs}) for n, sl in law.slidings.items()})


def register_law(factory=None, name: str | None = None):
    """Register a law factory (a function returning a law; usable as a decorator).

    The kind (normal or tangential) and, unless given, the name come from the law the
    factory returns.
    """
    def deco(fn):
        law = fn()
        if isinstance(law, NormalLaw):
            registry = NORMAL_LAWS
        elif isinstance(law, TangentialLaw):
            registry = TANGENTIAL_LAWS
        else:
            raise ValueError(f"law factory {fn!r} must return a NormalLaw or TangentialLaw, got {type(law).__name__}")
        registry[name or law.name] = fn
        return fn
    return deco if factory is None else deco(factory)


def load_entry_points(group: str = ENTRY_POINT_GROUP) -> list:
    """Register the laws of installed plug-ins (entry points of ``group``).

    Each entry point names a law factory (or a law object).  A plug-in that fails to
    load is skipped with a warning.  Returns the names registered.
    """
    from ..plugins import load_entry_points as load

    def add(name, obj, registry):
        register_law((lambda law=obj: law) if isinstance(obj, Law) else obj, name)

    return load(group, {**TANGENTIAL_LAWS, **NORMAL_LAWS}, add)


def registered_laws() -> dict:
    """``{"tangential": {name: factory}, "normal": {name: factory}}`` of every known law
    (the built-in ones and the plug-ins')."""
    return {"tangential": dict(TANGENTIAL_LAWS), "normal": dict(NORMAL_LAWS)}


def get_law(name: str, kind: str = "tangential"):
    """The law ``name`` of ``kind`` (``"tangential"`` or ``"normal"``), freshly built."""
    reg = {"tangential": TANGENTIAL_LAWS, "normal": NORMAL_LAWS}.get(kind)
    if reg is None:
        raise ValueError(f"law kind must be 'tangential' or 'normal', got {kind!r}")
    if name not in reg:
        raise ValueError(f"unknown {kind} law {name!r}; choose one of {sorted(reg)}")
    return reg[name]()
