"""Per-contact friction expressions of a multi-contact model, as a time-stepping code
evaluates them contact by contact: built from the registered laws, nothing restated.

* :func:`coulomb_expressions`: exact static friction at one contact (Krengel & Matuttis
  eqs 5-6 and 13): the friction forces of the two slip regions and the Filippov
  multiplier ``lam = f_I/(f_I - f_II)``;
* :func:`spring_slider_expressions`: a spring-slider law (Cundall-Strack and its
  variants): stick force, spring rate, switching functions, slip forces and the
  projections of the spring onto the bound.
"""
from __future__ import annotations

import sympy as sp

from . import laws as L
from . import tangential as T

f_ext, F_n = sp.symbols("f_ext F_n", real=True)
mu = sp.Symbol("mu", nonnegative=True)


def coulomb_expressions():
    """``[F_I, F_II, lam]`` in ``(f_ext, F_n, mu)``: the friction forces of the regions
    ``v_t > 0`` and ``v_t < 0`` (K-M eqs 5-6 without ``f_ext``) and eq 13's multiplier."""
    law = T.coulomb_static(params=())
    sub = {L.F_N: F_n, L.mu: mu}
    F_I = law.branches["slip+"].F.xreplace(sub)
    F_II = law.branches["slip-"].F.xreplace(sub)
    f_I, f_II = f_ext + F_I, f_ext + F_II
    return [F_I, F_II, f_I / (f_I - f_II)], (f_ext, F_n, mu)


def spring_slider_expressions(law, sub: dict) -> list:
    """``[F_S, xi_rate, h_plus, h_minus, F_plus, F_minus, xi_plus, xi_minus]`` of a
    spring-slider tangential law (Cundall-Strack, eqs 19-20, or its instantaneous-damping
    variant) with its arguments replaced by ``sub``: the stick force and the spring's
    rate, the switching functions, the slip forces and the projections of the spring
    ``xi`` (``sub[L.xi]``) onto the bound (``h = 0`` solved for ``xi``).  The bound is
    solved in the law's own symbols and then substituted, like every other expression:
    solving after the substitution makes SymPy simplify the contact's whole kinematics
    (seconds per corner of a rotating block, against milliseconds)."""
    stick = law.branches["stick"]
    out = [stick.F.xreplace(sub), sp.sympify(stick.rates[L.xi]).xreplace(sub)]
    out += [law.switching[h].xreplace(sub) for h in ("h_plus", "h_minus")]
    out += [law.slidings[s].F.xreplace(sub) for s in ("slip+", "slip-")]
    for s in ("slip+", "slip-"):
        (sol,) = sp.solve(sp.Eq(law.switching[law.slidings[s].surface], 0), L.xi)
        out.append(sp.sympify(sol).xreplace(sub))
    return out
