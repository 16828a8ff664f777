"""Coupling: a kinematics object and its laws -> one :class:`~nsfric.symbolic.model.HybridModel`.

:func:`couple` substitutes each law's argument symbols by the expressions the kinematics
supplies (overlap and its rate for the normal law; the relative tangential velocity, the
overlap ``delta_n`` where the law depends on it, and the normal law's repulsive force
``F_N = -F`` for the tangential law, or, without a
normal law, an expression ``normal_force`` such as ``m g cos(alpha)``), forms the product
of their modes and lets the kinematics turn the forces into state rates.  The tangential
law acts only in the normal law's contact modes; in its ``free`` modes there is no
tangential force and the tangential history is frozen.
"""
from __future__ import annotations

import sympy as sp

from .kinematics import Kinematics, _tuple
from .laws import NormalLaw, TangentialLaw
from .model import HybridModel, Region, Sliding

ZERO = sp.Integer(0)


def _x(e, sub):
    """``e`` (expression or tuple) with the symbols of ``sub`` replaced."""
    if isinstance(e, tuple):
        return tuple(_x(c, sub) for c in e)
    e = sp.sympify(e)
    return e.xreplace(sub) if sub else e


def _force_outputs(F):
    if isinstance(F, tuple):
        return {f"F_{i + 1}": c for i, c in enumerate(F)}
    return {"F": F}


def _args(kin, normal, tangential):
    """The argument substitutions of the normal and of the tangential law."""
    sub_n, sub_t = {}, {}
    if normal is not None:
        if not isinstance(normal, NormalLaw):
            raise ValueError(f"normal must be a NormalLaw, got {type(normal).__name__}")
        if kin.overlap is None:
            raise ValueError(f"{type(kin).__name__} has no overlap: it cannot carry the normal law {normal.name!r}")
        sub_n = {normal.overlap: kin.overlap, normal.rate: kin.overlap_rate}
    if tangential is not None:
        if not isinstance(tangential, TangentialLaw):
            raise ValueError(f"tangential must be a TangentialLaw, got {type(tangential).__name__}")
        vt = kin.tangential_velocity
        if vt is None or len(_tuple(vt)) != tangential.dim:
            raise ValueError(f"tangential law {tangential.name!r} takes a velocity of dimension "
                             f"{tangential.dim}; {type(kin).__name__} supplies {vt!r}")
        sub_t = dict(zip(_tuple(tangential.velocity), _tuple(vt)))
        on_overlap = [s for s in (tangential.normal_overlap, tangential.normal_overlap_rate) if tangential.uses(s)]
        if on_overlap:  # a stiffness depending on the normal state
            if kin.overlap is None or normal is None:
                raise ValueError(f"tangential law {tangential.name!r} depends on the normal overlap "
                                 f"{', '.join(map(str, on_overlap))}: couple it with a normal law on a kinematics "
                                 f"with an overlap ({type(kin).__name__} has "
                                 f"{'none' if kin.overlap is None else 'no normal law'})")
            sub_t[tangential.normal_overlap] = kin.overlap
            sub_t[tangential.normal_overlap_rate] = kin.overlap_rate
    return ({a: b for a, b in sub_n.items() if a != b}, {a: b for a, b in sub_t.items() if a != b})


def _contact_force(normal, sub_n, tangential):
    """The repulsive normal force in the tangential switching functions."""
    contact = [b for n, b in normal.branches.items() if n not in normal.free]
    uses = any(e.has(tangential.normal_force) for e in tangential.switching.values())
    if uses and len(contact) != 1:
        raise ValueError(f"tangential law {tangential.name!r} switches on F_N, but normal law "
                         f"{normal.name!r} has {len(contact)} contact branches")
    return -_x(contact[0].F, sub_n)


def _bind_normal_force(expr, kin, normal, tangential, params):
    """``{F_N: expr}``: the tangential law's normal force bound to an expression of the
    states and parameters (no normal law); ValueError naming what is wrong."""
    if normal is not None:
        raise ValueError("normal_force binds F_N where no normal law acts; with a normal law "
                         f"{normal.name!r} its repulsive force is F_N")
    if tangential is None:
        raise ValueError("normal_force is the normal force of a tangential law; couple has none")
    try:
        expr = sp.sympify(expr)
    except (sp.SympifyError, TypeError):
        raise ValueError(f"normal_force must be a SymPy expression, got {expr!r}") from None
    known = set(kin.states) | set(tangential.states) | {q.symbol for q in tuple(tangential.params) + tuple(kin.params)
                                                        + tuple(params)}
    unknown = sorted(str(s) for s in expr.free_symbols - known)
    if unknown:
        raise ValueError(f"normal_force {expr} holds undeclared symbol(s) {unknown}: declare them as parameters "
                         "(of the kinematics or params=) or states")
    if expr.is_negative:
        raise ValueError(f"normal_force {expr} is negative: a normal force presses the surfaces together (>= 0)")
    return {tangential.normal_force: expr}


def couple(kinematics: Kinematics, normal: NormalLaw | None = None, tangential: TangentialLaw | None = None,
           name: str = "", params=(), outputs=None, reference: str = "", normal_force=None) -> HybridModel:
    """Couple ``kinematics`` with a normal and/or a tangential law into a HybridModel.

    Parameters
    ----------
    kinematics : Kinematics
        States, parameters, relative velocities and how forces move the states.
    normal : NormalLaw, optional
        Its modes multiply the tangential law's; its repulsive force replaces the
        tangential law's ``F_N`` (whose parameter is then dropped).
    tangential : TangentialLaw, optional
    name : str
        The model name.
    params : tuple of Param
        Further parameters (initial states, system constants), after the laws' and
        the kinematics' own.
    outputs : dict, optional
        Mode-independent derived quantities (energies...).
    reference : str
        Paper and equations (default: the laws' references).
    normal_force : sympy expression, optional
        Binds the tangential law's ``F_N`` to an expression of the states and the
        parameters where no normal law acts (the weight ``m g cos(alpha)`` of a body on
        a slope); its parameter is then dropped.  Not with ``normal``.

    Returns
    -------
    HybridModel
        States: the tangential, then the normal law's history states, then the
        kinematics'.  Outputs: the tangential force ``F`` (``F_1, F_2`` in the plane),
        the normal law's ``F_n = -F_normal`` and its own outputs; with a normal law
        alone ``F`` is its force; the tangential law's outputs (:func:`~nsfric.symbolic.laws.with_outputs`),
        zero in the normal law's free modes.  Modes: the laws' mode names, ``"<normal>/<tangential>"``
        where both have several.
    """
    kin = kinematics
    bound = {} if normal_force is None else _bind_normal_force(normal_force, kin, normal, tangential, params)
    if normal is None and tangential is None:
        raise ValueError("couple needs a normal law, a tangential law or both")
    sub_n, sub_t = _args(kin, normal, tangential)
    sub_t.update(bound)
    persistent = normal is not None and len(normal.branches) == 1 and not normal.switching
    n_branches = normal.branches if normal is not None else {"": None}
    t_states = tangential.states if tangential is not None else ()
    n_states = normal.states if normal is not None else ()
    states = tuple(dict.fromkeys(t_states + n_states + tuple(kin.states)))
    switching, sign_proof = {}, {}
    # a normal switching function named like a tangential one gets the suffix "_n"
    t_names = set(tangential.switching) if tangential is not None else set()
    ren = {k: f"{k}_n" if k in t_names else k for k in (normal.switching if normal is not None else ())}
    if normal is not None:
        switching.update({ren[k]: _x(e, sub_n) for k, e in normal.switching.items()})
    if tangential is not None:
        sub_sw = dict(sub_t)
        if normal is not None:
            sub_sw[tangential.normal_force] = _contact_force(normal, sub_n, tangential)
        for k, e in tangential.switching.items():
            if k in switching:
                raise ValueError(f"switching function {k!r} declared by both laws")
            switching[k] = _x(e, sub_sw)
            if normal is not None:
                sign_proof[k] = _x(e, sub_t)
    regions, slidings, common = [], [], {}
    # the tangential law's own outputs (a spring's force and energy): zero where the
    # contact is open (its history is frozen there and acts on nothing); without a normal
    # law, where every mode declares the same, mode-independent, after the rest
    t_modes = () if tangential is None else (*tangential.branches.values(), *tangential.slidings.values())
    t_free = {k: ZERO for m in t_modes for k in m.outputs}
    t_common = normal is None and bool(t_free) and all(m.outputs == t_modes[0].outputs for m in t_modes)

    def t_outputs(m, sub):
        return {} if t_common else {k: _x(e, sub) for k, e in m.outputs.items()}
    for nname, nb in n_branches.items():
        Fn = ZERO if nb is None else _x(nb.F, sub_n)
        n_signs = {} if nb is None else {ren[k]: sgn for k, sgn in nb.signs.items()}
        n_rates = {} if nb is None else {s: _x(e, sub_n) for s, e in nb.rates.items()}
        n_out = {} if nb is None else {"F_n": -Fn, **{k: _x(e, sub_n) for k, e in nb.outputs.items()}}
        if persistent:
            common.update(n_out)
            n_out = {}
        if tangential is None:
            regions.append(Region(nname, dict(n_signs), {**n_rates, **kin.rates(ZERO, Fn)}, {"F": Fn, **n_out}, nb.kind))
            continue
        if normal is not None and nname in normal.free:
            zero_F = tuple(ZERO for _ in range(tangential.dim)) if tangential.dim > 1 else ZERO
            rhs = {**{s: ZERO for s in t_states}, **n_rates, **kin.rates(ZERO, Fn)}
            regions.append(Region(nname, dict(n_signs), rhs, {**_force_outputs(zero_F), **n_out, **t_free}, nb.kind))
            continue
        sub = dict(sub_t)
        if normal is not None:
            sub[tangential.normal_force] = -Fn
        prefix = f"{nname}/" if (normal is not None and not persistent) else ""
        for tname, tb in tangential.branches.items():
            F = _x(tb.F, sub)
            rhs = {**{s: _x(e, sub) for s, e in tb.rates.items()}, **n_rates, **kin.rates(F, Fn)}
            regions.append(Region(prefix + tname, {**n_signs, **tb.signs}, rhs,
                                  {**_force_outputs(F), **n_out, **t_outputs(tb, sub)},
                                  tb.kind,
                                  {s: _x(e, sub) for s, e in tb.reset.items()}))
        for sname, sl in tangential.slidings.items():
            algebraic = _x(sl.algebraic, sub)
            if algebraic not in states:  # the velocity is an expression: the kinematics names a state
                algebraic = getattr(kin, "sliding_state", None)
                if algebraic is None:
                    raise ValueError(f"sliding mode {sname!r} of {tangential.name!r} needs an algebraic state; "
                                     f"{type(kin).__name__} names none")
            rhs, outs = {}, {}
            if sl.kind == "constrained":
                F = _x(sl.F, sub)
                rhs = {**{s: _x(e, sub) for s, e in sl.rates.items()}, **n_rates}
                rhs.update({s: e for s, e in kin.rates(F, Fn).items() if s != algebraic})
                outs = {**_force_outputs(F), **n_out, **t_outputs(sl, sub)}
            slidings.append(Sliding(prefix + sname, sl.surface, sl.kind, algebraic,
                                    None if sl.plus is None else prefix + sl.plus,
                                    None if sl.minus is None else prefix + sl.minus,
                                    rhs, outs, sl.entry_kind, sl.exits))
    common.update(outputs or {})
    if t_common:
        common.update({k: _x(e, sub_t) for k, e in t_modes[0].outputs.items()})
    all_params = []
    if tangential is not None:
        drop = {tangential.normal_force} if (normal is not None or normal_force is not None) else set()
        all_params += [p for p in tangential.params if p.symbol not in drop]
    if normal is not None:
        all_params += list(normal.params)
    all_params += list(kin.params) + list(params)
    names = [p.name for p in all_params]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"parameter(s) {twice} declared twice (by the laws, the kinematics or params)")
    refs = "; ".join(law.reference for law in (normal, tangential) if law is not None)
    default_name = "/".join([type(kin).__name__] + [law.name for law in (normal, tangential) if law is not None])
    return HybridModel(name=name or default_name, states=states, params=tuple(all_params), switching=switching,
                       regions=tuple(regions), slidings=tuple(slidings), common_outputs=common,
                       reference=reference or refs, sign_proof=sign_proof)
