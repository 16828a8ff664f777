"""Declarative hybrid (piecewise-smooth) models in SymPy.

A :class:`HybridModel` is pure data: named states, parameters with their allowed
ranges, switching functions ``h_j(y; p)``, *regions* (smooth modes: a sign pattern of
the switching functions and a vector field), and *sliding modes* living on one
switching surface ``h_j = 0``:

* ``kind="filippov"`` -- the Filippov convex combination
  ``f = (1 - lam) f_plus + lam f_minus`` of the two neighbouring regions, with the
  multiplier ``lam`` chosen to keep the state on the surface (Krengel & Matuttis,
  eqs 9-13).  This is exact static friction.
* ``kind="constrained"`` -- the state is tied to the surface by an algebraic relation
  solved for one *algebraic* state (the D-SDS sliding branch, Führer et al. eq 3:
  ``xi`` follows ``v``), the other states follow the declared rates.  Entering it from
  off the surface is a reset map (the D-SDS sets ``xi`` instantaneously).
* ``kind="graze"`` -- a Filippov sliding *inside* a constrained mode (its ``plus``, the
  "cap") on the zero set of the cap's exit indicator ``G`` towards a region (its
  ``minus``): where the cap's field turns ``G`` negative (the cap would be left) and the
  region's field at once turns it positive again (the region would return onto the
  cap), the state stays on both ``h = 0`` and ``G = 0`` with the field ``(1 - lam)
  f_cap + lam f_region``, ``lam`` keeping ``dG/dt = 0``; left where ``lam`` leaves
  [0, 1].  It exists where the force jumps between the cap and the region (LIGGGHTS's
  and YADE's elastic test, the dashpot on in a fraction ``lam`` of the time).

Everything numeric (right-hand sides, Jacobians, indicators ``grad h . f``, the
sliding fields, resets, guards, DAE residuals) is *derived* from this declaration in
:mod:`nsfric.symbolic.derive`; nothing downstream restates a formula.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .params import ModelLookup, Param  # noqa: F401  (Param re-exported)
from .validation import validate


#: sliding kinds with a multiplier ``lam`` (a convex combination of two fields)
MULTIPLIER_KINDS = ("filippov", "graze")
#: sliding kinds whose algebraic state is held on the surface by the reset map
HELD_KINDS = ("constrained", "graze")


def has_multiplier(model) -> bool:
    """Whether a sliding mode of ``model`` has the multiplier ``lam`` (an output of
    every mode then, zero where no multiplier acts)."""
    return any(s.kind in MULTIPLIER_KINDS for s in model.slidings)


@dataclass(frozen=True)
class Region:
    """A smooth mode: where each listed switching function has the given sign.

    ``rhs`` maps every state symbol to its rate; ``outputs`` are named derived
    quantities valid in this mode (e.g. the contact force ``F``); ``kind`` labels the
    event logged when the trajectory enters the region (``"slip"``, ``"stick"``...);
    ``reset`` maps states to their new values on entering it from another mode (a
    history variable set at a switch, e.g. Walton-Braun's ``F* <- F_s``).
    """

    name: str
    signs: dict
    rhs: dict
    outputs: dict = field(default_factory=dict)
    kind: str = ""
    reset: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Sliding:
    """A mode on the switching surface ``surface = 0``.

    ``plus``/``minus`` name the regions on either side (``None`` where the side is
    not a mode: a forbidden region that is projected onto the surface by solving
    ``h = 0`` for ``algebraic``).  For ``kind="constrained"`` the ``rhs`` gives the
    rates of the non-algebraic states and ``outputs`` the derived quantities; for
    ``kind="filippov"`` both are derived from the neighbours.  ``exits=False``: the
    mode is entered whenever the trajectory reaches the surface from its neighbour and
    left only through the other switching functions (a saturated force that stays at
    its limit until the velocity reverses), not where a neighbour's field points away.
    For ``kind="graze"``: ``surface`` and ``algebraic`` are the cap's, ``plus`` names
    the cap (a constrained mode on ``surface``), ``minus`` the region it exits to.
    """

    name: str
    surface: str
    kind: str  # "filippov" | "constrained" | "graze"
    algebraic: object  # the sympy Symbol of the algebraic state
    plus: str | None
    minus: str | None
    rhs: dict = field(default_factory=dict)
    outputs: dict = field(default_factory=dict)
    entry_kind: str = "stick"
    exits: bool = True


@dataclass
class HybridModel(ModelLookup):
    """A piecewise-smooth system declared once in SymPy (see module docstring).

    Building a model validates it (:func:`~nsfric.symbolic.validation.validate`):
    unknown symbols, missing rates, uncovered or overlapping modes raise ValueError.

    Parameters
    ----------
    name : str
    states : tuple of sympy.Symbol
        The state vector, in order; names are the names used everywhere (CSV columns).
    params : tuple of Param
    switching : dict str -> sympy expression
        Switching functions ``h_j(y; p)``; their zero sets separate the modes.
    regions, slidings : tuple of Region / Sliding
    common_outputs : dict str -> expression
        Derived quantities that are the same expression in every mode (energies...).
    reference : str
        The paper and equations this model implements.
    sign_proof : dict, optional
        Switching functions to prove sign combinations infeasible with, where they differ
        from ``switching`` (a tangential law's, with the normal force kept as the law's
        nonnegative argument ``F_N``: in the modes that use them the contact is closed).
    """

    #: what the model offers the solvers and schemes (``nsfric.solvers.base.capabilities``):
    #: modes, guards and rates, which every registered hybrid solver and scheme reads
    supports = frozenset({"hybrid"})

    name: str
    states: tuple
    params: tuple
    switching: dict
    regions: tuple
    slidings: tuple = ()
    common_outputs: dict = field(default_factory=dict)
    reference: str = ""
    sign_proof: dict = field(default_factory=dict)

    def __post_init__(self):
        names = [r.name for r in self.regions] + [s.name for s in self.slidings]
        if len(set(names)) != len(names):
            raise ValueError(f"model {self.name!r}: duplicate mode names {names}")
        for s in self.slidings:
            if s.surface not in self.switching:
                raise ValueError(f"sliding mode {s.name!r}: unknown surface {s.surface!r}")
        self.mode_names = tuple(names)
        outs = []
        for m in self.regions + self.slidings:
            outs += [k for k in m.outputs if k not in outs]
        outs += [k for k in self.common_outputs if k not in outs]
        if has_multiplier(self):
            outs.append("lam")
        self.output_names = tuple(outs)
        validate(self)

    def derived(self, backend: str = "numpy"):
        """The :class:`~nsfric.symbolic.derive.DerivedModel` of this model (cached)."""
        from .derive import derive

        return derive(self, backend)
