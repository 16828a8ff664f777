"""Compiled (numba) step loops over a batch, generated from the model and the scheme.

Two things are generated, nothing is restated by hand:

* the **field** of :class:`~nsfric.schemes.field.DiscreteField` as scalar code: the
  switching functions, the mode of a state (region sign patterns, then the forbidden
  sides of constrained sliding modes), the rates of each mode and, on a constrained
  mode, the reset map (the law's per-step adjustment, Führer et al. eq 3) -- every
  expression printed from the derived model by
  :func:`~nsfric.symbolic.kernel.function_source`;
* the **step** by *tracing* the registered scheme: its own ``start``/``step`` run once
  on a tracer field (:mod:`nsfric.schemes.trace`) whose states are symbolic scalars; every
  assignment and linear combination the scheme performs is recorded, in order, as a
  line of code.  So the compiled step is the scheme's step, with the same operations
  in the same order as the per-member run.

A state exactly on a switching surface needs the mode logic's decision
(:class:`~nsfric.solvers.switching.ModeLogic`), and a finite state in no mode is an
error of the per-member run: the kernel reports such a member (status < 0) and the
caller reruns it with the per-member path.  Schemes that do more than assignments and
linear combinations (implicit, multistep, event-aware, delta) cannot be traced
(:class:`~nsfric.schemes.trace.Untraceable`) and are run member by member.
"""
from __future__ import annotations

import numpy as np

from ..memo import Identity, Memo
from ..symbolic.generated import remembered_once
from ..symbolic.kernel import block_lines, identifier, load_source, source_key
from .codecache import store
from .field import _compiled
from .trace import Untraceable, trace_scheme

#: kernel status of a member: the per-member path must run it
NEEDS_DECISION, NO_MODE = -2, -3


def _symbolic(model):
    """The symbolic derived model (imports SymPy: only to generate a kernel's source)."""
    from ..symbolic.derive import derive

    return derive(model)


class _Blocks:
    """Paste derived expressions into a generated function: the states and parameters
    bound under their own names from the function's locals, then the expressions."""

    def __init__(self, model):
        self.d = _symbolic(model)
        self.args = list(self.d.y) + list(self.d.p)
        self.n = self.d.n
        self.a = [f"_a{j}" for j in range(self.n)]
        self.p = [f"_p{j}" for j in range(len(self.d.p))]
        self.sig = ", ".join(self.a + self.p)

    def lines(self, exprs, outs, indent, at=None):
        """``outs = exprs`` evaluated at the states ``at`` (default the arguments)."""
        return block_lines(exprs, self.args, (at or self.a) + self.p, outs, indent)


def _evaluate_source(c, model) -> list:
    """``evaluate(states, params) -> (mode, k..., q...)``: :meth:`DiscreteField.mode`
    and :meth:`DiscreteField.f` (rates at the projected state on a constrained mode)."""
    bl = _Blocks(model)
    n, modes, nh = c.n, list(model.mode_names), len(c.h_names)
    k, q = [f"_k{j}" for j in range(n)], [f"_q{j}" for j in range(n)]
    g = [f"_g{i}" for i in range(nh)]
    lines = ["@njit(cache=True)", f"def evaluate({bl.sig}):"]
    lines += bl.lines(bl.d.h[1].exprs, g, "    ") if nh else []
    conds = []
    for name, pattern in c.regions:  # DiscreteField.mode: regions, forbidden sides, surfaces
        conds.append((" and ".join(f"{g[i]} > 0" if sg > 0 else f"{g[i]} < 0" for i, sg in pattern) or "True",
                      modes.index(name)))
    for name, i, side in c.forbidden:
        conds.append((f"{g[i]} > 0" if side > 0 else f"{g[i]} < 0", modes.index(name)))
    conds += [(f"{g[i]} == 0", f"decide_{i}({bl.sig})") for i in range(nh)]
    fin = " and ".join(f"math.isfinite({x})" for x in bl.a)
    conds.append((f"not ({fin})", -1))
    for j, (cond, code) in enumerate(conds):
        lines += [f"    {'if' if j == 0 else 'elif'} {cond}:", f"        _code = {code}"]
    lines += ["    else:", f"        _code = {NO_MODE}", f"    {', '.join(q)} = {', '.join(bl.a)}"]
    for i, m in enumerate(modes):
        lines.append(f"    {'if' if i == 0 else 'elif'} _code == {i}:")
        at = None
        if m in c.constrained:
            lines += bl.lines(bl.d.reset_expr(m), q, "        ")
            at = q
        lines += bl.lines(bl.d.modes[m].rhs, k, "        ", at)
    lines += ["    else:", f"        {', '.join(k)} = {', '.join(['math.nan'] * n)}",
              f"    return _code, {', '.join(k)}, {', '.join(q)}"]
    out = ["\n".join(lines) + "\n"]
    for i in range(nh):
        out.append(_decide_source(c, model, bl, i))
    return out


def _decide_source(c, model, bl, i) -> str:
    """``decide_i``: :meth:`ModeLogic.decide` at a state exactly on surface ``i`` (the
    neighbouring regions, their indicators and, at a tangency, the second-order test;
    the decision itself is :func:`~nsfric.solvers.switching.choose_side`).  A corner
    where no region borders the surface returns NEEDS_DECISION (per-member rerun)."""
    d = bl.d
    surface = c.h_names[i]
    modes = list(model.mode_names)
    g = [f"_g{j}" for j in range(len(c.h_names))]
    lines = ["@njit(cache=True)", f"def decide_{i}({bl.sig}):"] + bl.lines(d.h[1].exprs, g, "    ")
    for side, var in ((1, "_rp"), (-1, "_rm")):  # DerivedModel.region_at with h_i's sign forced
        lines.append(f"    {var} = -1")
        first = True
        for name, pattern in c.regions:
            if any(j == i and sg != side for j, sg in pattern):
                continue
            cond = " and ".join(f"{g[j]} > 0" if sg > 0 else f"{g[j]} < 0" for j, sg in pattern if j != i)
            lines += [f"    {'if' if first else 'elif'} {cond or 'True'}:", f"        {var} = {modes.index(name)}"]
            first = False
    lines += ["    if _rp < 0 and _rm < 0:", f"        return {NEEDS_DECISION}",
              "    _sp, _sm, _s2p, _s2m = 0.0, 0.0, 0.0, 0.0"]
    for var, out in (("_rp", "_sp"), ("_rm", "_sm")):
        for name, _ in c.regions:
            lines.append(f"    if {var} == {modes.index(name)}:")
            lines += bl.lines([d.sigma_expr(surface, name)], [out], "        ")
    lines += ["    _tol = indicator_tol(_rp >= 0, _rm >= 0, _sp, _sm)",
              "    _da = sign_beyond(_sp, _tol) if _rp >= 0 else 0",
              "    _db = sign_beyond(_sm, _tol) if _rm >= 0 else 0",
              "    _ta = _rp >= 0 and _da == 0",
              "    _tb = _rm >= 0 and _db == 0"]
    for var, t, out in (("_rp", "_ta", "_s2p"), ("_rm", "_tb", "_s2m")):
        for name, _ in c.regions:
            lines.append(f"    if {t} and {var} == {modes.index(name)}:")
            lines += bl.lines([d.sigma2_expr(surface, name)], [out], "        ")
    slide = model.sliding_on(surface)
    lines += ["    if _ta or _tb:",
              "        _tol2 = tangent_tol(_ta, _tb, _s2p, _s2m)",
              "        if _ta:", "            _da = sign_beyond(_s2p, _tol2)",
              "        if _tb:", "            _db = sign_beyond(_s2m, _tol2)",
              f"    _side = choose_side(_rp >= 0, _rm >= 0, {slide is not None}, _da, _db, _sp + _sm, 0)",
              "    if _side == 1:", "        return _rp",
              "    if _side == -1:", "        return _rm",
              "    if _side == 0:", f"        return {modes.index(slide.name) if slide is not None else NO_MODE}",
              f"    return {NO_MODE}"]
    return "\n".join(lines) + "\n"


def _run_source(n, n_params, start, body) -> str:
    U = [f"U{j}" for j in range(n)]
    ind = " " * 12
    lines = ["@njit(cache=True)", "def run(u_init, p_all, h, t0, n_steps, y_out, status, steps, nfev, b0, b1):",
             "    for b in range(b0, b1):"]
    lines += [f"        P{i} = p_all[{i}, b]" for i in range(n_params)]
    lines += [f"        U{j} = u_init[{j}, b]" for j in range(n)]
    lines += [f"        y_out[{j}, b, 0] = U{j}" for j in range(n)]
    lines += ["        st = 0", "        dv = False", "        nf = 0", "        t_ = t0"]
    lines += ["        " + s for s in start]
    lines += ["        if st != 0:", "            status[b] = st", "            steps[b] = 0", "            continue",
              "        steps[b] = n_steps", "        for i in range(n_steps):",
              f"{ind}t_ = t0 + i * h", f"{ind}dv = False"]
    lines += [ind + s for s in body]
    lines += [f"{ind}if st != 0:", f"{ind}    status[b] = st", f"{ind}    steps[b] = i", f"{ind}    break",
              f"{ind}nfev[b] = nf",
              f"{ind}if dv:"] + [f"{ind}    N{j} = math.nan" for j in range(n)]
    lines += [f"{ind}{u} = N{j}" for j, u in enumerate(U)]
    lines += [f"{ind}y_out[{j}, b, i + 1] = U{j}" for j in range(n)]
    fin = " and ".join(f"math.isfinite({u})" for u in U)
    lines += [f"{ind}if not ({fin}):", f"{ind}    steps[b] = i + 1",
              f"{ind}    y_out[:, b, i + 2:] = math.nan", f"{ind}    break"]
    return "\n".join(lines) + "\n"


def _helpers() -> str:
    """The shared pure functions of the mode logic, compiled in the kernel module; their
    source text is part of the module (so a change recompiles)."""
    import inspect

    from ..solvers import switching

    names = ("sign_beyond", "indicator_tol", "tangent_tol", "choose_side")
    text = "\n".join(f"{n} = njit(cache=True)(_sw.{n})" for n in names)
    digest = source_key(*(inspect.getsource(getattr(switching, n)) for n in names))
    return f"# mode logic: nsfric.solvers.switching ({digest})\n{text}\n"


_HELPERS = _helpers()
_KERNELS = Memo(64, "nsfric.schemes.batch_kernel.kernels")
_FIELDS = Memo(32, "nsfric.schemes.batch_kernel.fields")


def _field_module(model, c):
    """The generated module of ``model``'s field (``evaluate``), shared by its schemes;
    the source from the disk cache where it holds it (:mod:`nsfric.schemes.codecache`)."""
    return _FIELDS.get(Identity(model), lambda: _build_field_module(model, c))


def _build_field_module(model, c):
    src = store(model).value(("field-module",), lambda d: _field_source(model, c), lambda v: isinstance(
        v.get("untraceable", v.get("source")), str))
    if "untraceable" in src:
        raise Untraceable(src["untraceable"])
    return load_source(src["source"], "f" + source_key(model.name)[:8])


def _field_source(model, c) -> dict:
    """``{source}`` of :func:`_field_module` (SymPy), or ``{untraceable}`` where numba
    would not round as the per-step run does (:func:`check_powers`)."""
    d = _symbolic(model)
    exprs = [e for m in model.mode_names for e in d.modes[m].rhs] + [e for m in c.constrained for e in d.reset_expr(m)]
    try:
        check_powers(model, list(d.h[1].exprs) + exprs)
    except Untraceable as e:
        return {"untraceable": str(e)}
    for s in list(d.y) + list(d.p):
        identifier(s)
    parts = ["import math", "import numpy", "from numba import njit",
             "from nsfric.solvers import switching as _sw", _HELPERS]
    parts += _evaluate_source(c, model)
    return {"source": "\n\n".join(parts)}


def _compile_now(run, n, n_params):
    """Compile ``run`` for the argument types of every call (an empty batch)."""
    i64 = np.zeros(0, dtype=np.int64)
    run(np.zeros((n, 0)), np.zeros((n_params, 0)), 1.0, 0.0, 1, np.zeros((n, 0, 2)), i64, i64.copy(),
        i64.copy(), 0, 0)


def kernel(model, scheme):
    """``(run, n_eval)``: the compiled batch loop of ``scheme`` on ``model`` (generated,
    written to the cache directory and compiled once per process; numba's own cache
    makes later processes fast).  Raises :class:`Untraceable` or ImportError (no numba).

    ``run(U0, P, h, t0, n_steps, Y, status, steps, nfev, b0, b1)`` steps members
    ``b0..b1-1`` of ``U0`` (n, B) with parameter vectors ``P`` (n_params, B) into ``Y``
    (n, B, N); ``status[b] < 0`` marks a member to rerun per member (``steps[b]``
    the steps done before, ``nfev[b]`` their evaluations), else ``steps[b]`` is the
    steps done and ``nfev[b]`` the field evaluations (as the per-member run counts them).
    """
    import numba  # noqa: F401  (ImportError: the caller uses the NumPy path)

    return remembered(_KERNELS, scheme.name, model, lambda: _build(model, scheme))


def remembered(memo, key, model, build):
    """``build()`` once per ``key`` of the live ``model`` in ``memo`` (its Untraceable
    too: tried once)."""
    return remembered_once(memo, key, model, build, Untraceable)


def check_powers(model, exprs):
    """Raise :class:`Untraceable` for integer powers ``x**k`` in ``exprs`` that the
    generated code still prints as powers (:func:`~nsfric.symbolic.printing.pow_exponents`):
    numba would multiply them out where the per-step run calls ``pow`` (last bits differ)."""
    from ..symbolic.printing import pow_exponents  # SymPy: only while generating a kernel

    powers = sorted(pow_exponents(exprs))
    if powers:
        raise Untraceable(f"{model.name!r}: integer powers {powers} would not round as the per-step run does")


def _build(model, scheme):
    c = _compiled(model)
    n_params = len(model.params)
    start, body, _, n_eval = trace_scheme(scheme, c, n_params)
    try:
        field_mod = _field_module(model, c)  # Untraceable: integer powers numba would round otherwise
        parts = ["import math", "from numba import njit", f"from {field_mod.__name__} import evaluate", "",
                 _run_source(c.n, n_params, start, body)]
        mod = load_source("\n".join(parts), "k" + source_key(model.name, scheme.name)[:8])
        _compile_now(mod.run, c.n, n_params)
    except Untraceable:
        raise
    except Exception as e:  # code numba cannot compile (e.g. a function it lacks): no kernel
        raise Untraceable(f"no compiled kernel for {model.name!r}/{scheme.name!r}: {type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else ''}") from e
    return mod.run, n_eval
