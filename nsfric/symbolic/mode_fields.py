"""Rounding-safe and mode-smooth forms of derived expressions (used by
:mod:`nsfric.symbolic.derive`).

* :func:`cancel_held` -- ``sp.cancel`` with the contact's gaps held whole: ``cancel``
  expands the numerator into a polynomial of its generators, so a factor ``(R - y)^3`` of
  an overlap became ``R^3 - 3 R^2 y + 3 R y^2 - y^3``, whose terms cancel to ``delta^3``
  with the rounding error ``eps R^3`` -- relative ``eps (R/delta)^3``, 2e-4 at ``delta =
  1.9e-7 m`` on ``R = 2.5 mm``.  The held elastic force of a Hertz-Mindlin cap was that
  noisy, and the event-driven solver's error control cut its steps to nothing.
* :func:`with_mode_signs` -- a mode's field with the signs its own region fixes: where
  the argument ``u`` of a ``|u|`` or ``sign(u)`` is a switching function ``h`` of the
  mode times a factor of one sign (``u = q h``, ``q >= 0`` or ``q <= 0`` provably), the
  mode's sign of ``h`` fixes the sign of ``u`` throughout the mode, and ``|u| = +-u``,
  ``sign(u) = +-1`` there.  The field is then smooth up to and across the mode's own
  boundary ``h = 0``: the friction limit ``mu |F_n|`` of a contact ending at zero normal
  force (``F_n = -delta^(1/4) h`` for Hertz with Tsuji's damping) held the kink of
  ``|F_n|`` on the contact end itself, so no step of an explicit integrator could cross
  it to locate the event: the steps shrank below the time the states' rounding resolves
  (the stall of the capped force at the force end).
"""
from __future__ import annotations

import sympy as sp

from .normal import real_abs, step_sign

#: expressions with more operations than this are not put over a common denominator:
#: ``cancel`` expands them, which for the square roots of a contact geometry (two discs)
#: takes minutes; the largest expression of the papers' 1D and slope models has 126
CANCEL_LIMIT = 400


def cancel_held(e, states=()):
    """``sp.cancel(e)`` for expressions up to :data:`CANCEL_LIMIT` operations, else ``e``;
    the gaps of ``states`` held whole (:func:`held_gaps`, module docstring): the result
    is a polynomial in the gap and rounds as the overlap itself does."""
    if sp.count_ops(e) > CANCEL_LIMIT:
        return e
    hold, back = held_gaps(e, states)
    return sp.cancel(e.xreplace(hold)).xreplace(back) if hold else sp.cancel(e)


def held_gaps(e, states):
    """``(hold, back)``: substitutions that write ``e`` in its gaps and back.

    A gap is the argument of a ``real_abs`` or ``step_sign`` of ``e`` (the law's
    ``|delta|``, ``sign(delta)``) that is a sum linear in exactly one of ``states`` with a
    numeric coefficient, e.g. ``R - y`` of a sphere on a wall: ``hold`` puts that state
    as the gap's solution (``y -> R - g``, ``g`` a symbol for the gap), so every
    occurrence of the state, inside the kinks and out, becomes the gap; ``back`` puts
    ``g -> R - y`` again.  Each state is held once, in the gaps' canonical order, so the
    result (and a cache key of it) does not depend on the process."""
    hold, back = {}, {}
    for a in sorted(e.atoms(real_abs, step_sign), key=sp.default_sort_key):
        arg = a.args[0]
        if not isinstance(arg, sp.Add):
            continue
        own = [s for s in states if arg.has(s)]
        if len(own) != 1 or own[0] in hold:
            continue
        s = own[0]
        c = sp.diff(arg, s)
        if not (c.is_Number and c != 0) or (arg - c * s).has(s):
            continue
        g = sp.Dummy(f"gap_{s}")
        hold[s] = (g - (arg - c * s)) / c
        back[g] = arg
    return hold, back


def implied_sign(u, signs: dict, switching: dict, states=()):
    """+1 or -1 where the mode's ``signs`` (switching function name -> its sign in the
    mode) fix the sign of ``u`` (``u = q h`` with ``q`` of one sign, proved by SymPy's
    assumptions on ``cancel(u/h)``), else None."""
    for name, sign in signs.items():
        q = _ratio(u, switching[name], states)
        if q.has(sp.zoo, sp.nan) or not q.free_symbols:
            if q.is_number and q.is_nonzero and q.is_real:
                return sign if q.is_positive else -sign
            continue
        if q.is_nonnegative:
            return sign
        if q.is_nonpositive:
            return -sign
    return None


def _ratio(u, h, states):
    """``cancel(u/h)`` with the gaps held (:func:`held_gaps`) and each ``|g|`` raised to
    fractional powers written as ``w^d`` (``w >= 0``, ``d`` the powers' common
    denominator), so that ``|g|^(1/4)`` and ``sqrt(|g|)`` cancel as ``w`` and ``w^2``;
    ``u/h`` itself where it is too large to cancel (:data:`CANCEL_LIMIT`)."""
    e = u / h
    if sp.count_ops(e) > CANCEL_LIMIT:
        return e
    hold, back = held_gaps(e, states)
    e = e.xreplace(hold)
    roots = {}
    for a in sorted(e.atoms(real_abs), key=sp.default_sort_key):
        dens = [p.exp.q for p in e.atoms(sp.Pow) if p.base == a and p.exp.is_Rational]
        if dens:
            roots[a] = sp.Dummy("w", nonnegative=True) ** int(sp.ilcm(1, *dens))
    return sp.cancel(e.xreplace(roots))


def with_mode_signs(exprs, signs: dict, switching: dict, states=(), memo=None):
    """``exprs`` with each ``|u|`` and ``sign(u)`` whose sign the mode fixes
    (:func:`implied_sign`) written as ``s u`` and ``s``; a ``|u|`` under a fractional
    power is kept (``sqrt(s u)`` would not be real beyond the mode's boundary, where an
    integrator's step evaluates the field).  ``memo``: a dict of decisions to reuse."""
    memo = {} if memo is None else memo
    args = []
    for e in exprs:
        for a in sorted(sp.sympify(e).atoms(real_abs, step_sign), key=sp.default_sort_key):
            if not a.args[0].is_number and a.args[0] not in args:
                args.append(a.args[0])
    known = {}
    for u in args:
        key = (u, tuple(sorted(signs.items())))
        if key not in memo:
            memo[key] = implied_sign(u, signs, switching, states)
        if memo[key] is not None:
            known[u] = memo[key]
    if not known:
        return list(exprs)
    out = []
    for e in exprs:
        e = sp.sympify(e)
        kept = {p: sp.Dummy("kept") for p in e.atoms(sp.Pow)
                if isinstance(p.base, real_abs) and p.base.args[0] in known and not p.exp.is_integer}
        e = e.xreplace(kept)
        sub = {}
        for a in e.atoms(real_abs, step_sign):
            s = known.get(a.args[0])
            if s is not None:
                sub[a] = sp.Integer(s) if isinstance(a, step_sign) else s * a.args[0]
        out.append(e.xreplace(sub).xreplace({d: p for p, d in kept.items()}))
    return out
