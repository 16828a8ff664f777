"""Compiled (numba) batch loop of the delta schemes (Krengel & Matuttis eqs 9, 12, 15-17).

:func:`run_kernel` does what the NumPy loop of :mod:`nsfric.schemes.delta_loop` does,
member by member in compiled code; nothing is restated by hand:

* the **pieces** of :class:`~nsfric.schemes.delta.DeltaField` -- the rates of the two
  regions, the switching function ``g`` and its indicators -- and the sliding mode's
  reset map (``-proj``) are printed from the derived expressions by
  :func:`~nsfric.symbolic.kernel.block_lines` (the printer and CSE of the NumPy path);
* the per-member decisions -- eq 12 with eqs 15-17, the rate taken (eq 9 while stuck),
  the side, the end-of-step stick/slip/reversal decision, the stick-entry rule -- are
  the pure functions of :mod:`nsfric.schemes.delta_rules` and
  :mod:`nsfric.schemes.stick_rules` (the NumPy path's own), whose *source* is compiled
  into the generated module;
* the **step** is the registered scheme's own ``start``/``step`` (and ``map_history``
  for the projection) *traced* on :class:`DeltaTracer`, the field interface of
  :class:`~nsfric.schemes.delta.DeltaAdjustment` recording code (the tracing of
  :mod:`nsfric.schemes.batch_kernel`); a multistep history (BDF-k in predictor-corrector
  form, started by RK4) lives in slots, one traced step per history length.

Tracing gives one loop per model and scheme; a scheme of a known family (explicit
Runge-Kutta in tableau form, BDF-k predictor-corrector) runs instead the model's one
generic loop with the scheme as run-time data (:mod:`nsfric.schemes.delta_generic`):
fewer numba compilations, the same operations.  Tracing stays for the other schemes.

Each member performs the floating-point operations of the NumPy loop in the same order,
so the members equal the NumPy runs (tested).  A scheme that does more than assignments
and linear combinations of states (e.g. one that reads the stuck flags,
:class:`~nsfric.papers.krengel_matuttis.slope_block_mechanism.RestartOnStick`) raises
:class:`~nsfric.schemes.trace.Untraceable`: the NumPy loop runs it.
"""
from __future__ import annotations

import inspect

import numpy as np

from ..memo import Identity, Memo
from ..symbolic.kernel import block_lines, hoisted_block_lines, identifier, load_source, source_key
from . import delta as D
from . import delta_generic as G
from . import stick_rules as R
from .base import get_scheme
from .batch_kernel import check_powers, remembered
from .codecache import is_index_list, store as scheme_store
from .trace import Recorder, Sym, Untraceable
from .field import Eval, RateField

#: events stored per member (more: the batch is rerun with the room it needs)
EVENT_ROOM = 32
#: members per compiled call (between progress reports)
CHUNK = 1024
#: traced step variants (history lengths) a scheme may have
MAX_VARIANTS = 12
_EVENT_KINDS = {D.STICK: "stick", D.SLIP: "slip", D.REVERSAL: "reversal"}


class DeltaTracer(Recorder, RateField):
    """:class:`~nsfric.schemes.delta.DeltaAdjustment`'s interface recording code: ``f(u)``
    emits the pieces at ``u`` (primed at the step's start state ``self.u``), the
    crossing test of the switching function against the step's start and the rate
    :func:`~nsfric.schemes.delta.delta_choice` takes under the stuck flag ``ST``."""

    stagewise = False
    frozen_mode = None

    def __init__(self, n, n_params, n_pre=0):
        self.n = n
        self.params = ", ".join([f"P{i}" for i in range(n_params)] + [f"W{k}" for k in range(n_pre)])
        self.lines = []
        self.u = None
        self._k = 0

    def f(self, u) -> Eval:
        n = self.n
        if u is self.u:  # DeltaAdjustment.prime: the start state's pieces, not counted again
            fp, fm, g, lam = [f"FP{j}" for j in range(n)], [f"FM{j}" for j in range(n)], "G", "LAM"
        else:
            a = [self.var("A") for _ in range(n)]
            for name, x in zip(a, u):
                self.emit(f"{name} = {Sym.code(x)}")
            s = self.var("S")
            fp, fm, g, lam = [f"{s}p{j}" for j in range(n)], [f"{s}m{j}" for j in range(n)], f"{s}g", f"{s}l"
            self.emit(f"{', '.join(fp + fm + [g, lam, s + 'b'])} = pieces({', '.join(a)}, {self.params})")
            self.emit("nf += 1")
            self.emit(f"cs = cs or G * {g} <= 0.0")  # run_batch's stage_g crossing test
        c = self.var("C")
        self.emit(f"{c} = delta_choice(ST, {g}, {lam})")
        k = [self.var("K") for _ in range(n)]
        for j in range(n):  # DeltaField.rates: f_I, f_II or eq 9
            self.emit(f"{k[j]} = {fp[j]} if {c} == 1 else ({fm[j]} if {c} == -1 else "
                      f"(1.0 - {lam}) * {fp[j]} + {lam} * {fm[j]})")
        return Eval(self.vector(k), None, None)

    def __getattr__(self, name):
        raise Untraceable(f"the scheme uses field.{name}, which the compiled delta loop lacks")


def _length(hist) -> int:
    if hist is None:
        return -1
    if isinstance(hist, (list, tuple)) and all(isinstance(y, np.ndarray) for y in hist):
        return len(hist)
    raise Untraceable("the scheme keeps a history other than a list of states")


def _slots(tr, length):
    return None if length < 0 else [tr.vector([f"H{m}_{j}" for j in range(tr.n)]) for m in range(length)]


def _store(hist, n) -> list:
    """Lines storing a traced history in the slots, through temporaries (the new
    history is made of the old one)."""
    if hist is None:
        return []
    out = [f"_h{m}_{j} = {Sym.code(y[j])}" for m, y in enumerate(hist) for j in range(n)]
    return out + [f"H{m}_{j} = _h{m}_{j}" for m in range(len(hist)) for j in range(n)]


def trace_delta(scheme, n, n_params, projected, n_pre=0):
    """``(start, bodies, projections, n_slots)``: the lines of ``scheme.start``, of
    ``scheme.step`` per history length (``{length: lines}``, each ending in the new
    state ``N*`` and length ``nh``) and of ``scheme.map_history`` with the states
    ``projected`` (indices) set from the projected new state, per history length."""
    tr = DeltaTracer(n, n_params, n_pre)
    u = tr.vector([f"U{j}" for j in range(n)])
    tr.u = u
    hist = scheme.start(tr, Sym("t_"), u, Sym("h"))
    first = _length(hist)
    start = tr.lines + _store(hist, n) + [f"nh = {first}"]
    bodies, todo = {}, [first]
    while todo:
        length = todo.pop()
        if length in bodies:
            continue
        if len(bodies) >= MAX_VARIANTS:
            raise Untraceable(f"scheme {scheme.name!r}: more than {MAX_VARIANTS} history lengths")
        tr.lines, tr._k = [], 0  # the same names for the same computation (grouped below)
        u_new, hist_new = scheme.step(tr, Sym("t_"), u, Sym("h"), _slots(tr, length))
        new = _length(hist_new)
        bodies[length] = (tuple(tr.lines + [f"N{j} = {Sym.code(x)}" for j, x in enumerate(u_new)]),
                          _store(hist_new, n) + [f"nh = {new}"])
        todo.append(new)
    state = tr.vector([f"N{j}" for j in range(n)])

    def held(y):
        y = np.array(y, dtype=object)
        for s in projected:
            y[s] = state[s]
        return y

    projections = {}
    for length in sorted(bodies):
        tr.lines = []
        projections[length] = tr.lines + _store(scheme.map_history(_slots(tr, length), held), n)
    groups = {}  # history lengths whose steps compute the same (e.g. BDF's RK4 start steps)
    for length, (compute, store) in sorted(bodies.items()):
        groups.setdefault(compute, {})[length] = store
    return start, groups, projections, max(max(bodies), 0)


# -- the generated modules --------------------------------------------------------------
_PURE = (D.ieee_div, D.delta_lambda_scalar, D.delta_choice, D.delta_side, D.delta_event, R.enters_stick)
_FIELDS = Memo(32, "nsfric.schemes.delta_kernel.fields")
_KERNELS = Memo(64, "nsfric.schemes.delta_kernel.kernels")


def _field_module(model):
    """``pieces``, ``reset`` and the pure decisions of :mod:`~nsfric.schemes.delta` for
    ``model``, compiled (one module per model, shared by the schemes); the source from
    the disk cache where it holds it (:mod:`nsfric.schemes.codecache`)."""
    return _FIELDS.get(Identity(model), lambda: _build_field_module(model))


def _build_field_module(model):
    n = len(model.states)
    src = scheme_store(model).value(("delta-field-module",), lambda d: _field_source(model), lambda v: (
        isinstance(v.get("untraceable"), str) or (isinstance(v["source"], str) and isinstance(v["n_pre"], int)
                                                  and is_index_list(v["projected"], n))))
    if "untraceable" in src:
        raise Untraceable(src["untraceable"])
    mod = load_source(src["source"], "df" + source_key(model.name)[:8])
    return mod, src["projected"], src["n_pre"]


def _field_source(model) -> dict:
    """``{source, projected, n_pre}`` of :func:`_field_module` (SymPy), or ``{untraceable}``."""
    s, d, exprs = D.pieces_exprs(model)
    n = d.n
    try:
        check_powers(model, exprs + list(d.reset_expr(s.name)))  # x*x: pow(x, 2) but for rare last bits
    except Untraceable as e:
        return {"untraceable": str(e)}
    args = list(d.y) + list(d.p)
    for a in args:
        identifier(a)
    a = [f"_a{j}" for j in range(n)] + [f"_p{i}" for i in range(len(d.p))]
    sig = ", ".join(a)
    fp, fm = [f"_fp{j}" for j in range(n)], [f"_fm{j}" for j in range(n)]
    parts = ["import math", "import numpy", "from numba import njit",
             f"DELTA_FACTOR = {D.DELTA_FACTOR!r}",
             f"STICK, SLIP, REVERSAL = {D.STICK}, {D.SLIP}, {D.REVERSAL}",
             f"END, CROSSING, BRAKE, STEP, DISSIPATIVE = {R.END}, {R.CROSSING}, {R.BRAKE}, {R.STEP}, {R.DISSIPATIVE}"]
    parts += ["@njit(cache=True)\n" + inspect.getsource(f) for f in _PURE]
    # the subexpressions of the parameters alone: once per member (``pre``), not per evaluation
    pre, names, body = hoisted_block_lines(exprs, args, None, fp + fm + ["_g", "_sp", "_sm"], set(d.p), "    ")
    bind = [f"    {identifier(y)} = {v}" for y, v in zip(args, a)]
    cs = [f"_c{k}" for k in range(len(names))]
    if names:
        parts.append("\n".join(["@njit(cache=True)", f"def pre({', '.join(a[n:])}):"] + bind[n:] + pre
                               + [f"    return ({', '.join(names)},)"]))
    parts.append("\n".join(["@njit(cache=True)", f"def pieces({', '.join(a + cs)}):"] + bind
                           + [f"    {x} = {c}" for x, c in zip(names, cs)] + body
                           + [f"    return {', '.join(fp + fm)}, _g, delta_lambda_scalar(_g, _sp, _sm), "
                              "0.5 * (_sm - _sp)"]))
    q = [f"_q{j}" for j in range(n)]
    body = block_lines(d.reset_expr(s.name), args, a, q, "    ")
    parts.append("\n".join(["@njit(cache=True)", f"def reset({sig}):"] + body + [f"    return {', '.join(q)}"]))
    return {"source": "\n\n".join(parts) + "\n", "projected": [d.y.index(s.algebraic)] + D.held_states(model),
            "n_pre": len(names)}


def _indent(lines, k):
    return [" " * k + x for x in lines]


def _run_source(field_mod, n, n_params, n_pre, start, bodies, projections, n_slots) -> str:
    U, N = [f"U{j}" for j in range(n)], [f"N{j}" for j in range(n)]
    FP, FM = [f"FP{j}" for j in range(n)], [f"FM{j}" for j in range(n)]
    QP, QM = [f"QP{j}" for j in range(n)], [f"QM{j}" for j in range(n)]
    P = ", ".join(f"P{i}" for i in range(n_params))
    C = [f"W{k}" for k in range(n_pre)]  # the parameters' subexpressions (``pre``)
    PC = ", ".join([P] + C)

    def by_length(table):
        if len(table) == 1:
            return next(iter(table.values()))
        out = []
        for k, (length, lines) in enumerate(sorted(table.items())):
            out.append(f"{'if' if k == 0 else 'elif'} nh == {length}:")
            out += _indent(lines or ["pass"], 4)
        return out

    def grouped(groups):
        if len(groups) == 1:
            compute, stores = next(iter(groups.items()))
            return list(compute) + by_length(stores)
        out = []
        for k, (compute, stores) in enumerate(groups.items()):
            out.append(f"{'if' if k == 0 else 'elif'} {' or '.join(f'nh == {m}' for m in sorted(stores))}:")
            out += _indent(list(compute) + by_length(stores), 4)
        return out

    pieces_n = f"{', '.join(QP + QM)}, G1, L1, B1 = pieces({', '.join(N)}, {PC})"
    step = ["t_ = t0 + i * h", "cs = False"] + grouped(bodies) + [
        pieces_n, "nf += 1",
        "EV, TO = delta_event(ST, enters_stick(rule, G * G1 <= 0.0, cs, G1, B1, L1, h), G, G1, L1)",
        "if EV != 0:",
        "    if ne < room:",
        "        ev_step[b, ne] = i + 1", "        ev_kind[b, ne] = EV",
        "        ev_from[b, ne] = SD", "        ev_to[b, ne] = TO",
        "    ne += 1",
        "ST = (ST or EV == STICK) and not EV == SLIP",
        "SD = delta_side(ST, G1, L1)",
        "if projection and EV == STICK:",
        f"    {', '.join(N)} = reset({', '.join(N)}, {P})"]
    step += _indent(by_length(projections), 4) + ["    " + pieces_n, "    nf += 1"]
    step += [f"{a} = {b}" for a, b in zip(U + FP + FM, N + QP + QM)] + ["G = G1", "LAM = L1"]
    step += ["if rows[r] == i + 1:"] + [f"    y_out[{j}, b, r] = U{j}" for j in range(n)]
    step += ["    m_out[b, r] = SD", "    r += 1",
             f"if not ({' or '.join(f'math.isfinite({u})' for u in U)}):",
             "    y_out[:, b, r:] = math.nan", "    break"]
    body = [f"P{i} = p_all[{i}, b]" for i in range(n_params)] + [f"U{j} = u_init[{j}, b]" for j in range(n)]
    body += [f"H{m}_{j} = 0.0" for m in range(n_slots) for j in range(n)]
    body += [f"{', '.join(C)}, = pre({P})"] if C else []
    body += [f"{', '.join(FP + FM)}, G, LAM, _ = pieces({', '.join(U)}, {PC})", "nf = 1",
             "ST = G == 0 and LAM >= 0 and LAM <= 1", "SD = delta_side(ST, G, LAM)"]
    body += [f"y_out[{j}, b, 0] = U{j}" for j in range(n)]
    body += ["m_out[b, 0] = SD", "r = 1", "ne = 0", "t_ = t0", "cs = False"] + start
    body += ["for i in range(n_steps):"] + _indent(step, 4) + ["n_ev[b] = ne", "nfev[b] = nf"]
    lines = ["import math", "from numba import njit",
             f"from {field_mod.__name__} import {'pre, ' if C else ''}pieces, reset, delta_choice, delta_side, "
             "delta_event, enters_stick, STICK, SLIP",
             "", "", "@njit(cache=True)",
             "def run(u_init, p_all, h, t0, n_steps, rows, y_out, m_out, ev_step, ev_kind, ev_from, ev_to, "
             "n_ev, nfev, projection, rule, b0, b1):",
             "    room = ev_step.shape[1]",
             "    for b in range(b0, b1):"] + _indent(body, 8)
    return "\n".join(lines) + "\n"


def _arrays(n, n_params, B, n_rows, room):
    i8 = np.zeros((B, room), dtype=np.int8)
    return dict(Y=np.empty((n, B, n_rows)), M=np.zeros((B, n_rows), dtype=np.int8),
                ev_step=np.zeros((B, room), dtype=np.int64), ev_kind=i8, ev_from=i8.copy(), ev_to=i8.copy(),
                n_ev=np.zeros(B, dtype=np.int64), nfev=np.zeros(B, dtype=np.int64))


def _call(run, U, P, h, t0, n_steps, rows, a, projection, rule, b0, b1):
    run(U, P, float(h), float(t0), int(n_steps), rows, a["Y"], a["M"], a["ev_step"], a["ev_kind"],
        a["ev_from"], a["ev_to"], a["n_ev"], a["nfev"], bool(projection), int(rule), b0, b1)


def kernel(model, scheme):
    """The compiled loop ``run`` of ``scheme`` (a plain explicit scheme) plus the delta
    adjustment on ``model``: the model's one generic loop with the scheme as data where
    it is of a known family (:mod:`~nsfric.schemes.delta_generic`), else its traced loop;
    raises :class:`Untraceable` or ImportError (no numba)."""
    import numba  # noqa: F401  (ImportError: the NumPy loop runs)

    plan = G.plan(scheme)
    if plan is not None:
        run, tail = remembered(_KERNELS, ("generic",), model, lambda: _build_generic(model))
        data = G.arguments(plan) + tail
        return lambda *args: run(*args, *data)
    key = (type(scheme), scheme.name, getattr(scheme, "corrections", None))
    return remembered(_KERNELS, key, model, lambda: _build(model, scheme))


def _build_generic(model):
    """``(run, tail)``: the generic loop of ``model`` and its model-fixed trailing
    arguments (the projected states, the number of parameter subexpressions), compiled
    now (errors: :class:`Untraceable`)."""
    n, n_params = len(model.states), len(model.params)
    field_mod, projected, n_pre = _field_module(model)
    tail = (np.array(projected, dtype=np.int64), int(n_pre))
    rk = G.plan(get_scheme("euler"))
    try:
        run = G.load(field_mod, model.name, n, n_params, n_pre).run
        a = _arrays(n, n_params, 0, 2, 1)
        _call(lambda *args: run(*args, *G.arguments(rk), *tail), np.zeros((n, 0)), np.zeros((n_params, 0)), 1.0,
              0.0, 1, np.array([0, 1, -1]), a, False, R.CROSSING, 0, 0)
    except Exception as e:  # code numba cannot compile: no kernel
        raise Untraceable(f"no compiled delta loop for {model.name!r}: {type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else ''}") from e
    return run, tail


def _build(model, scheme):
    n, n_params = len(model.states), len(model.params)
    field_mod, projected, n_pre = _field_module(model)
    traced = trace_delta(scheme, n, n_params, projected, n_pre)
    try:
        source = _run_source(field_mod, n, n_params, n_pre, *traced)
        mod = load_source(source, "dk" + source_key(model.name, scheme.name)[:8])
        a = _arrays(n, n_params, 0, 2, 1)
        _call(mod.run, np.zeros((n, 0)), np.zeros((n_params, 0)), 1.0, 0.0, 1, np.array([0, 1, -1]), a,
              False, R.CROSSING, 0, 0)
    except Exception as e:  # code numba cannot compile: no kernel
        raise Untraceable(f"no compiled delta loop for {model.name!r}/{scheme.name!r}: {type(e).__name__}: "
                          f"{str(e).splitlines()[0] if str(e) else ''}") from e
    return mod.run


def run_kernel(field, scheme, U0, h, n_steps, projection, t0, keep, progress, rule):
    """:func:`~nsfric.schemes.delta.run_batch` by the compiled loop (same returns; the
    evaluations are added to ``field.n_eval``, counted member by member); ``rule`` the
    code of the stick-entry rule (:mod:`~nsfric.schemes.stick_rules`)."""
    run = kernel(field.model, scheme)
    n, B = U0.shape
    rows = list(range(0, n_steps + 1, keep))
    if rows[-1] != n_steps:
        rows.append(n_steps)
    rows_ext = np.array(rows + [-1], dtype=np.int64)
    # a writable copy: a read-only array (broadcast_to's view) is another signature, compiled again
    P = np.array(np.broadcast_to(field.P, (field.P.shape[0], B)), dtype=float, order="C")
    U = np.ascontiguousarray(U0, dtype=float)
    room = EVENT_ROOM
    while True:
        a = _arrays(n, P.shape[0], B, len(rows), room)
        for b0 in range(0, B, CHUNK):
            _call(run, U, P, h, t0, n_steps, rows_ext, a, projection, rule, b0, min(B, b0 + CHUNK))
            if progress:
                progress(min(B, b0 + CHUNK) / B)
        if B == 0 or a["n_ev"].max() <= room:
            break
        room = int(a["n_ev"].max())
    events = []
    for b in range(B):
        evs = []
        for e in range(int(a["n_ev"][b])):
            kind = int(a["ev_kind"][b, e])
            frm = "stick" if kind == D.SLIP else D.side_name(field, a["ev_from"][b, e])
            to = "stick" if kind == D.STICK else D.side_name(field, a["ev_to"][b, e])
            evs.append({"t": t0 + int(a["ev_step"][b, e]) * h, "kind": _EVENT_KINDS[kind], "from": frm, "to": to})
        events.append(evs)
    field.n_eval += int(a["nfev"].sum())
    return t0 + h * np.array(rows, dtype=float), a["Y"], events, a["M"]
