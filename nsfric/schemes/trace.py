"""Tracing a registered scheme into straight-line code for the compiled step loops of
:mod:`nsfric.schemes.batch_kernel` and :mod:`nsfric.schemes.delta_kernel`.

The scheme's own ``start``/``step`` run once on a :class:`Tracer` field whose states are
symbolic scalars (:class:`Sym`); every assignment and linear combination the scheme
performs is recorded, in order, as a line of code, so the compiled step is the scheme's
step with the same operations in the same order as the per-member run.  A scheme that
does more (implicit, multistep, event-aware) raises :class:`Untraceable`.
"""
from __future__ import annotations

import numpy as np

from .field import Eval


class Untraceable(TypeError):
    """The scheme's step is not a sequence of assignments and linear combinations."""


class Sym:
    """A scalar of the traced step: the code of its value (a variable or an expression)."""

    __slots__ = ("c",)

    def __init__(self, c):
        self.c = c

    @staticmethod
    def code(x):
        if isinstance(x, Sym):
            return x.c
        if isinstance(x, (int, float, np.floating, np.integer)) and not isinstance(x, bool):
            return repr(float(x))
        raise Untraceable(f"cannot trace an operation on {type(x).__name__}")

    def _op(self, o, fmt):
        if isinstance(o, np.ndarray):  # a vector: elementwise, by the array's own operator
            return NotImplemented
        return Sym(fmt.format(a=self.c, b=Sym.code(o)))

    def __add__(self, o): return self._op(o, "({a} + {b})")
    def __radd__(self, o): return self._op(o, "({b} + {a})")
    def __sub__(self, o): return self._op(o, "({a} - {b})")
    def __rsub__(self, o): return self._op(o, "({b} - {a})")
    def __mul__(self, o): return self._op(o, "({a} * {b})")
    def __rmul__(self, o): return self._op(o, "({b} * {a})")
    def __truediv__(self, o): return self._op(o, "({a} / {b})")
    def __rtruediv__(self, o): return self._op(o, "({b} / {a})")
    def __neg__(self): return Sym(f"(-{self.c})")

    def __bool__(self):
        raise Untraceable("the scheme branches on a state value")

    def __float__(self):
        raise Untraceable("the scheme converts a state to a number")


class Recorder:
    """Lines of code recorded in order, fresh variable names, symbolic vectors."""

    def var(self, prefix="T"):
        self._k += 1
        return f"{prefix}{self._k}"

    def vector(self, names):
        return np.array([Sym(c) for c in names], dtype=object)

    def emit(self, line):
        self.lines.append(line)


class Tracer(Recorder):
    """The :class:`DiscreteField` interface recording code (see module docstring)."""

    stagewise = True
    frozen_mode = None

    def __init__(self, c, n_params):
        self.c = c
        self.n = c.n
        self.model = c.model
        self.params = ", ".join(f"P{i}" for i in range(n_params))
        self.modes = list(c.model.mode_names)
        self.lines = []
        self.n_eval = 0
        self._k = 0

    @property
    def split(self):
        return self.c.split

    def f(self, u) -> Eval:
        self.n_eval += 1
        m = self.var("M")
        k = [self.var("K") for _ in range(self.n)]
        q = [self.var("Q") for _ in range(self.n)]
        args = ", ".join(Sym.code(x) for x in u)
        self.emit(f"{m}, {', '.join(k + q)} = evaluate({args}, {self.params})")
        # counted as DiscreteField.f counts: not the evaluation that finds a non-finite
        # state (Diverged), nor any after it in the same step
        self.emit(f"if {m} == -1:")
        self.emit("    dv = True")
        self.emit("elif not dv:")
        self.emit("    nf += 1")
        self.emit(f"if {m} < -1 and st == 0:")
        self.emit(f"    st = {m}")
        return Eval(self.vector(k), Sym(m), self.vector(q))

    def apply(self, base, hc, ev: Eval, comps=None):
        if ev.mode is None:
            raise Untraceable("a rate without a mode")
        comps = range(self.n) if comps is None else [int(j) for j in comps]
        out = []
        for j in range(self.n):
            if j in comps:
                v = self.var()
                self.emit(f"{v} = {Sym.code(base[j] + hc * ev.k[j])}")
                out.append(v)
            else:
                out.append(Sym.code(base[j]))
        adjusted = False
        for name in sorted(self.c.constrained):
            a = self.c.alg[name]
            if a in comps:
                self.emit(f"if {ev.mode.c} == {self.modes.index(name)}:")
                self.emit(f"    {out[a]} = {ev.proj[a].c}")
                adjusted = True
        return self.vector(out), adjusted

    def assign(self, base, hc, u_eval, comps=None):
        ev = self.f(u_eval)
        u_new, adj = self.apply(base, hc, ev, comps)
        return u_new, ev, adj

    def __getattr__(self, name):
        raise Untraceable(f"the scheme uses field.{name}, which the compiled kernel lacks")


def trace_scheme(scheme, c, n_params):
    """``(start_lines, step_lines, hist_names, n_eval)`` of ``scheme`` on the compiled
    model pieces ``c``; raises :class:`Untraceable`."""
    if scheme.implicit or scheme.multistep or type(scheme).integrate is not _base_integrate():
        raise Untraceable(f"scheme {scheme.name!r} is implicit, multistep or integrates itself")
    tr = Tracer(c, n_params)
    u = tr.vector([f"U{j}" for j in range(c.n)])
    hist = scheme.start(tr, Sym("t_"), u, Sym("h"))
    start = tr.lines
    hist_names = []
    if hist is not None:
        if not isinstance(hist, Eval):
            raise Untraceable("the scheme keeps a history other than one evaluation")
        hist_names = [f"H{j}" for j in range(1 + 2 * c.n)]
        start = start + _assign(hist_names, _flat(hist))
        hist = Eval(tr.vector(hist_names[1:1 + c.n]), Sym(hist_names[0]), tr.vector(hist_names[1 + c.n:]))
    tr.lines = []
    tr.n_eval = 0
    u_new, hist_new = scheme.step(tr, Sym("t_"), u, Sym("h"), hist)
    body = tr.lines
    if hist_names:
        body = body + _assign(hist_names, _flat(hist_new))
    new = [f"N{j}" for j in range(c.n)]
    body = body + _assign(new, list(u_new))
    return start, body, hist_names, tr.n_eval


def _base_integrate():
    from .base import Scheme

    return Scheme.integrate


def _flat(ev):
    return [ev.mode] + list(ev.k) + list(ev.proj)


def _assign(names, values):
    return [f"{n} = {Sym.code(v)}" for n, v in zip(names, values)]


# -- the generated module ---------------------------------------------------------------------
