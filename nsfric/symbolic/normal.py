"""Normal contact laws ``F(xi, dxi/dt; history)`` of Schäfer, Dippel & Wolf (1996), each a
:class:`~nsfric.symbolic.laws.NormalLaw`.

``xi`` is the overlap (positive in contact), ``v = dxi/dt`` its rate, and ``F`` the force
on the overlap coordinate (``m_eff dv/dt = F``), so the paper's repulsive forces appear
with a minus sign.  Linear spring-dashpot (eq 2), Hertz (eq 6), Hertz with linear
damping (eq 8), Kuwabara-Kono/Brilliantov viscoelastic Hertz (eq 9), Walton-Braun
hysteretic spring (eq 10).  Every law but the persistent variant of the linear
spring-dashpot has the modes ``contact`` (``h > 0``) and ``free`` (no force).
"""
from __future__ import annotations

from dataclasses import replace

import sympy as sp

from .laws import Branch, NormalLaw, P, gamma_n, k_n, register_law, v, xi

SCHAFER = "Schäfer, Dippel & Wolf (1996)"
k_n_tilde = sp.Symbol("k_n_tilde", positive=True)  # Hertz stiffness, eq 6
gamma_n_tilde = sp.Symbol("gamma_n_tilde", positive=True)  # Kuwabara-Kono damping, eq 9
k_1, k_2 = sp.symbols("k_1 k_2", positive=True)    # Walton-Braun loading/unloading, eq 10
s_wb = sp.Symbol("s", positive=True)               # Walton-Braun k_2 = k_1 + s F_n^max
xi_max = sp.Symbol("xi_max", nonnegative=True)     # Walton-Braun history: largest overlap


class step_sign(sp.sign):
    """``sign`` with derivative zero (almost everywhere); printed as ``numpy.sign``."""

    def fdiff(self, argindex=1):
        return sp.Integer(0)

    def _eval_derivative(self, s):
        return sp.Integer(0)

    def _numpycode(self, printer):
        return f"{printer._module_format('numpy.sign')}({printer._print(self.args[0])})"


class real_abs(sp.Abs):
    """``Abs`` of a real argument with derivative :class:`step_sign` (no ``DiracDelta`` in
    second derivatives); printed as ``numpy.abs``."""

    def _eval_derivative(self, s):
        return sp.diff(self.args[0], s) * step_sign(self.args[0])

    def _numpycode(self, printer):
        return f"{printer._module_format('numpy.abs')}({printer._print(self.args[0])})"


#: ``xi^(3/2)`` and ``xi^(1/2)`` written so that they stay real (and C1) for ``xi < 0``:
#: the event-driven solvers evaluate the contact field a little beyond ``xi = 0``
XI_3_2 = xi * sp.sqrt(real_abs(xi))
XI_1_2 = sp.sqrt(real_abs(xi))
HERTZ_STIFFNESS = P(k_n_tilde, 9.0e7, 0, lo_open=True, doc="Hertz stiffness", unit="N m^-3/2")


def _contact_law(name, F, params, eqs, doc, energy=None, h=xi):
    """Modes ``contact`` (``h > 0``, force ``F``) and ``free`` (``h < 0``, no force);
    ``energy``, if given, is the elastic energy output ``E_el`` (zero when free)."""
    out, zero = ({}, {}) if energy is None else ({"E_el": energy}, {"E_el": sp.Integer(0)})
    branches = {"contact": Branch({"h": 1}, F, {}, "contact-begin", out),
                "free": Branch({"h": -1}, sp.Integer(0), {}, "contact-end", zero)}
    return NormalLaw(name, f"{SCHAFER} {eqs}", (), params, {"h": h}, branches, doc=doc, free=("free",))


def _end_name(name: str, end: str) -> str:
    """``name`` (contact ends at zero overlap) or ``name-force-end`` (at zero repulsive force)."""
    if end not in ("overlap", "force"):
        raise ValueError(f"end must be 'overlap' or 'force', got {end!r}")
    return name if end == "overlap" else f"{name}-force-end"


def linear_spring_dashpot(end: str = "overlap", k=k_n, gamma=gamma_n, params=None,
                          persistent: bool = False) -> NormalLaw:
    """Linear spring-dashpot normal force ``F = -k_n xi - gamma_n dxi/dt``, Schäfer et al. eq 2.

    Parameters
    ----------
    end : {"overlap", "force"}
        The contact ends at zero overlap (``h = xi``; eqs 3-4 hold) or where the
        repulsive force ``k_n xi + gamma_n v`` vanishes (``h = -F``).
    k, gamma : sympy expressions
        Stiffness and damping (default: the parameters ``k_n``, ``gamma_n``).
    params : tuple of Param, optional
        Default: ``k_n`` (7.32e6 N/m) and ``gamma_n`` (2.06 kg/s), cellulose acetate.
    persistent : bool
        One mode ``contact`` and no switching function: a penalty contact that never
        opens (the block on a slope, Krengel & Matuttis eq 18).
    """
    name = _end_name("linear-dashpot", end)
    F = -k * xi - gamma * v
    if params is None:
        params = (P(k_n, 7.32e6, 0, lo_open=True, doc="normal stiffness", unit="N/m"),
                  P(gamma_n, 2.06, 0, doc="normal damping", unit="kg/s"))
    if persistent:
        return NormalLaw(name, f"{SCHAFER} eq 2", (), params, {}, {"contact": ({}, F, {}, "contact")},
                         doc=linear_spring_dashpot.__doc__)
    return _contact_law(name, F, params, "eqs 2-5", linear_spring_dashpot.__doc__,
                        energy=k * xi ** 2 / 2, h=xi if end == "overlap" else -F)


def linear_spring_dashpot_force_end() -> NormalLaw:
    """:func:`linear_spring_dashpot` ending at zero repulsive force."""
    return linear_spring_dashpot(end="force")


def hertz() -> NormalLaw:
    """Hertz elastic contact ``F = -k_n_tilde xi^(3/2)``, Schäfer et al. eq 6.

    ``k_n_tilde = 4/3 sqrt(R_eff) E_eff``; for cellulose acetate ``9.0e7 N m^-3/2``.
    """
    return _contact_law("hertz", -k_n_tilde * XI_3_2, (HERTZ_STIFFNESS,), "eq 6",
                        hertz.__doc__, energy=sp.Rational(2, 5) * k_n_tilde * xi * XI_3_2)


def hertz_damped(end: str = "overlap") -> NormalLaw:
    """Hertz with ad-hoc linear damping ``F = -k_n_tilde xi^(3/2) - gamma_n v``, eq 8.

    Schäfer et al. use ``gamma_n = 0.35 kg/s`` (``e_n ~ 0.87`` at 0.3-1.2 m/s).  The
    contact ends at zero overlap (``end="overlap"``, ``h = xi``) or where the repulsive
    force ``k_n_tilde xi^(3/2) + gamma_n v`` vanishes (``end="force"``, ``h = -F``,
    law ``hertz-damped-force-end``).
    """
    name = _end_name("hertz-damped", end)
    F = -k_n_tilde * XI_3_2 - gamma_n * v
    params = (HERTZ_STIFFNESS, P(gamma_n, 0.35, 0, doc="linear damping", unit="kg/s"))
    return _contact_law(name, F, params, "eq 8", hertz_damped.__doc__, h=xi if end == "overlap" else -F)


def hertz_damped_force_end() -> NormalLaw:
    """:func:`hertz_damped` ending at zero repulsive force."""
    return hertz_damped(end="force")


def kuwabara_kono(end: str = "overlap") -> NormalLaw:
    """Viscoelastic Hertz (Kuwabara-Kono, Brilliantov et al.), Schäfer et al. eq 9.

    ``F = -k_n_tilde xi^(3/2) - gamma_n_tilde xi^(1/2) v`` with
    ``gamma_n_tilde = 190 kg m^-1/2 s^-1`` for cellulose acetate.  The contact ends at
    zero overlap (``h = xi``) or, with ``end="force"`` (law ``kuwabara-kono-force-end``),
    where the repulsive force ``xi^(1/2) (k_n_tilde xi + gamma_n_tilde v)`` vanishes
    inside the contact, i.e. at ``h = k_n_tilde xi + gamma_n_tilde v = 0`` (the factor
    ``xi^(1/2)`` only vanishes at zero overlap).
    """
    name = _end_name("kuwabara-kono", end)
    F = -k_n_tilde * XI_3_2 - gamma_n_tilde * XI_1_2 * v
    params = (HERTZ_STIFFNESS, P(gamma_n_tilde, 190.0, 0, doc="viscoelastic damping", unit="kg m^-1/2 s^-1"))
    h = xi if end == "overlap" else k_n_tilde * xi + gamma_n_tilde * v
    return _contact_law(name, F, params, "eq 9", kuwabara_kono.__doc__, h=h)


def kuwabara_kono_force_end() -> NormalLaw:
    """:func:`kuwabara_kono` ending at zero repulsive force."""
    return kuwabara_kono(end="force")


#: ``xi^(1/4)``, real for ``xi < 0`` (as :data:`XI_1_2`)
XI_1_4 = sp.sqrt(XI_1_2)
gamma_n_tsuji = sp.Symbol("gamma_n_tsuji", nonnegative=True)  # Hertz damping ~ xi^(1/4)
TSUJI = "Tsuji, Tanaka & Ishida (1992), Powder Technol. 71:239"


def hertz_tsuji(end: str = "overlap") -> NormalLaw:
    """Hertz with the damping of Tsuji et al. (1992): ``F = -k_n_tilde xi^(3/2) -
    gamma_n_tsuji xi^(1/4) v``; the contact ends at zero overlap (``h = xi``) or, with
    ``end="force"`` (law ``hertz-tsuji-force-end``), where the repulsive force vanishes
    inside the contact: ``h = k_n_tilde xi^(5/4) + gamma_n_tsuji v = 0`` (the force over
    ``xi^(1/4)``, which only vanishes at zero overlap), with the elastic energy ``E_el``.

    The damping coefficient grows as ``sqrt(k_n(xi) m_eff)`` with the Hertz stiffness, so
    ``e_n`` does not depend on the impact speed.  It is the form of LIGGGHTS's ``model
    hertz`` (``gamma_n = -2 sqrt(5/6) beta sqrt(2 E* sqrt(R* xi) m*)``, ``beta = ln e/
    sqrt(ln^2 e + pi^2)``: LIGGGHTS-PUBLIC ``src/normal_model_hertz.h``), of LAMMPS's
    ``pair granular ... damping tsuji`` and of YADE's ``Law2_ScGeom_MindlinPhys_Mindlin``
    with ``betan`` (``cn = 2 betan sqrt(m 3/2 kno uN^(1/2))``, the total set to zero where
    it pulls: the force end), each with its own map from ``e`` to the coefficient.
    """
    F = -k_n_tilde * XI_3_2 - gamma_n_tsuji * XI_1_4 * v
    params = (HERTZ_STIFFNESS, P(gamma_n_tsuji, 0.0, 0, doc="damping coefficient of xi^(1/4) dxi/dt",
                                 unit="kg m^-1/4 s^-1"))
    name = _end_name("hertz-tsuji", end)
    if end == "force":
        law = _contact_law(name, F, params, "", hertz_tsuji.__doc__, energy=sp.Rational(2, 5) * k_n_tilde * xi * XI_3_2,
                           h=k_n_tilde * xi * XI_1_4 + gamma_n_tsuji * v)
        return replace(law, reference=TSUJI)
    return NormalLaw(name, TSUJI, (), params, {"h": xi},
                     {"contact": Branch({"h": 1}, F, {}, "contact-begin"),
                      "free": Branch({"h": -1}, sp.Integer(0), {}, "contact-end")},
                     doc=hertz_tsuji.__doc__, free=("free",))


def hertz_tsuji_force_end() -> NormalLaw:
    """:func:`hertz_tsuji` ending at zero repulsive force (YADE's clamped normal force)."""
    return hertz_tsuji(end="force")


def walton_braun(k2=None) -> NormalLaw:
    """Walton-Braun hysteretic spring, Schäfer et al. eq 10.

    Loading (``v >= 0``): ``F = -k_1 xi``; unloading (``v < 0``):
    ``F = -k_2 (xi - xi_0)``, where the unloading line meets the abscissa at
    ``xi_0 = xi_max (1 - k_1/k_2)`` (it starts at the largest force ``k_1 xi_max``).
    The internal state ``xi_max`` follows the overlap while loading and is frozen while
    unloading.  By default ``k_2 = k_1 + s F_n^max`` with ``F_n^max = k_1 xi_max``
    (velocity-dependent ``e_n``); pass ``k2`` (e.g. the symbol ``k_2``) for a constant
    unloading stiffness.  The contact ends where the unloading force vanishes,
    ``h = xi - xi_0 = 0`` (during loading ``h = xi k_1/k_2``, i.e. the overlap).
    """
    K2 = k_1 + s_wb * k_1 * xi_max if k2 is None else sp.sympify(k2)
    xi0 = xi_max * (1 - k_1 / K2)
    params = [P(k_1, 7.32e6, 0, lo_open=True, doc="loading stiffness", unit="N/m")]
    if k2 is None:
        params.append(P(s_wb, 2e5, 0, doc="k_2 = k_1 + s F_n^max", unit="1/m"))
    else:
        params += [P(sym, 7.32e6, 0, lo_open=True, doc="unloading stiffness", unit="N/m")
                   for sym in sorted(sp.sympify(k2).free_symbols, key=str)]
    branches = {
        "loading": ({"h": 1, "g": 1}, -k_1 * xi, {xi_max: v}, "contact-begin"),
        "unloading": ({"h": 1, "g": -1}, -K2 * (xi - xi0), {xi_max: sp.Integer(0)}, "unloading"),
        "free": ({"h": -1}, sp.Integer(0), {xi_max: sp.Integer(0)}, "contact-end"),
    }
    return NormalLaw("walton-braun", f"{SCHAFER} eq 10", (xi_max,), tuple(params),
                     {"h": xi - xi0, "g": v}, branches, doc=walton_braun.__doc__, free=("free",))


def with_turning_point(law: NormalLaw) -> NormalLaw:
    """``law`` with its mode ``contact`` split where the overlap rate ``v`` changes sign:
    ``compression`` (``v > 0``) and ``restitution`` (``v < 0``), the same force in both.

    The event ``max-overlap`` between them locates the largest overlap ``xi_max`` as
    exactly as any other switch (the normal impact's observable).  A law without a mode
    ``contact`` (Walton-Braun: its loading and unloading already split at ``v = 0``) is
    returned unchanged.
    """
    if "contact" not in law.branches:
        return law
    if "g" in law.switching:
        raise ValueError(f"law {law.name!r} already has a switching function 'g'")
    b = law.branches["contact"]
    branches = {"compression": Branch({**b.signs, "g": 1}, b.F, b.rates, b.kind, b.outputs),
                "restitution": Branch({**b.signs, "g": -1}, b.F, b.rates, "max-overlap", b.outputs)}
    branches.update({n: br for n, br in law.branches.items() if n != "contact"})
    return replace(law, switching={**law.switching, "g": law.rate}, branches=branches)


# the registry, filled explicitly (plug-ins: entry points, see nsfric.symbolic.laws)
for _law in (linear_spring_dashpot, linear_spring_dashpot_force_end, hertz, hertz_damped, hertz_damped_force_end,
             kuwabara_kono, kuwabara_kono_force_end, walton_braun, hertz_tsuji, hertz_tsuji_force_end):
    register_law(_law)
