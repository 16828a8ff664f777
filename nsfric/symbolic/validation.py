"""Validation of a declared :class:`~nsfric.symbolic.model.HybridModel`, run when it is built.

* every expression uses only states, parameters and the multiplier ``lam``;
* every region gives a rate for every state (and only for states) and its sign pattern
  names known switching functions;
* the regions cover the state space: each feasible sign combination of the switching
  functions lies in exactly one region -- no gap (unless a constrained sliding mode
  declares that side forbidden, i.e. projected onto its surface) and no overlap;
* a ``graze`` sliding mode lies inside a constrained mode on the same surface, with
  the same algebraic state, towards one of that mode's neighbouring regions.

A sign combination is infeasible when SymPy proves a switching function, or a sum of
two signed ones, non-positive there (``h_plus - h_minus = -2 F_max`` for a clipped
force); the model's ``sign_proof`` functions, if given, replace the switching functions
for this proof (a tangential law's with its argument ``F_N >= 0``).  Problems raise ValueError naming the model, the
mode and the symbols or sign pattern.
"""
from __future__ import annotations

import itertools

import sympy as sp

LAM = sp.Symbol("lam", real=True)


def _expressions(model):
    yield "switching", model.switching.items()
    yield "common outputs", model.common_outputs.items()
    for r in model.regions:
        yield f"region {r.name!r}", [*((f"d{s}/dt", e) for s, e in r.rhs.items()), *r.outputs.items()]
    for s in model.slidings:
        yield f"sliding mode {s.name!r}", [*((f"d{y}/dt", e) for y, e in s.rhs.items()), *s.outputs.items()]


def check_symbols(model):
    known = set(model.states) | {p.symbol for p in model.params} | {LAM}
    for where, items in _expressions(model):
        for key, e in items:
            unknown = sp.sympify(e).free_symbols - known
            if unknown:
                raise ValueError(f"model {model.name!r}: {where}, {key}: unknown symbol(s) "
                                 f"{sorted(map(str, unknown))} (not a state or parameter)")


def check_rates(model):
    for r in model.regions:
        missing = [s.name for s in model.states if s not in r.rhs]
        extra = [str(s) for s in r.rhs if s not in model.states]
        if missing or extra:
            raise ValueError(f"model {model.name!r}: region {r.name!r} "
                             + (f"lacks rates for {missing}" if missing else f"gives rates for non-states {extra}"))
        bad = [h for h in r.signs if h not in model.switching]
        if bad or any(s not in (1, -1) for s in r.signs.values()):
            raise ValueError(f"model {model.name!r}: region {r.name!r} has a bad sign pattern {r.signs} "
                             f"(switching functions: {list(model.switching)}, signs +1/-1)")


def _infeasible(signed):
    """True if SymPy proves the sign combination impossible (see the module docstring)."""
    for a in signed:
        if sp.expand(a).is_nonpositive:
            return True
    for a, b in itertools.combinations(signed, 2):
        if sp.expand(a + b).is_nonpositive:
            return True
    return False


def check_cover(model):
    names = [h for h in model.switching if any(h in r.signs for r in model.regions)]
    if not model.regions:
        return
    proof = {**model.switching, **model.sign_proof}
    exprs = {h: sp.sympify(proof[h]) for h in names}
    for combo in itertools.product((1, -1), repeat=len(names)):
        signs = dict(zip(names, combo))
        inside = [r.name for r in model.regions if all(signs[h] == s for h, s in r.signs.items())]
        if len(inside) == 1:
            continue
        forbidden = [s.name for s in model.slidings if s.kind == "constrained" and s.surface in signs
                     and ((signs[s.surface] == 1 and s.plus is None) or (signs[s.surface] == -1 and s.minus is None))]
        if not inside and forbidden:
            continue
        if _infeasible([signs[h] * exprs[h] for h in names]):
            continue
        pattern = ", ".join(f"{h} {'>' if s > 0 else '<'} 0" for h, s in signs.items())
        if not inside:
            raise ValueError(f"model {model.name!r}: no mode covers {pattern} "
                             "(and no sliding mode declares that side forbidden)")
        raise ValueError(f"model {model.name!r}: modes {inside} overlap where {pattern}")


def check_graze(model):
    names = {s.name: s for s in model.slidings}
    for s in model.slidings:
        if s.kind != "graze":
            continue
        cap = names.get(s.plus)
        if cap is None or cap.kind != "constrained" or cap.surface != s.surface or cap.algebraic != s.algebraic:
            raise ValueError(f"model {model.name!r}: graze mode {s.name!r} must lie inside a constrained mode on "
                             f"{s.surface!r} with the algebraic state {s.algebraic} (its plus), got {s.plus!r}")
        if s.minus is None or s.minus not in (cap.plus, cap.minus):
            raise ValueError(f"model {model.name!r}: graze mode {s.name!r} must lead to a neighbouring region of "
                             f"{cap.name!r} ({[r for r in (cap.plus, cap.minus) if r is not None]}), got {s.minus!r}")


def validate(model):
    """Raise ValueError if ``model`` is ill-formed (see the module docstring)."""
    check_rates(model)
    check_graze(model)
    check_symbols(model)
    check_cover(model)
