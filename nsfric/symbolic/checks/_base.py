"""The check contract: a named, documented proof of one published identity.

A :class:`Check` is data -- name, source (paper and equation), statement, method
(``"exact"`` or ``"partial: ..."``, saying exactly what was shown) -- plus a function
that takes the symbolic law/statement objects as keyword arguments *with defaults*
(so a test can pass a mutated law and watch the check fail) and returns a
:class:`Proof`.  :meth:`Check.run` times it and returns a :class:`CheckResult`.

:class:`Proof` collects the steps of one derivation.  Zero tests reduce residuals
with cheap, targeted SymPy operations (``expand``, ``cancel``, optional ``trigsimp``
or a caller-supplied simplifier); a full ``simplify`` is only tried on small
residuals.  A failing step records the reduced residual expression or the numeric
counterexample.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import sympy as sp

#: every registered check, by name, in registration order
CHECKS: dict = {}

_MAX_DETAIL = 400


def _short(obj, limit=_MAX_DETAIL) -> str:
    text = sp.sstr(obj) if isinstance(obj, sp.Basic) else str(obj)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def reduce_expr(expr, simplifier=None, simplify_ops=300):
    """Reduce ``expr`` towards zero with targeted SymPy steps; return the result.

    Order: ``expand`` -> ``cancel(together(.))`` -> ``simplifier`` (if given) ->
    ``simplify`` (only if the residual has at most ``simplify_ops`` operations).
    """
    e = sp.sympify(expr)
    if e == 0:
        return e
    e = sp.expand(e)
    if e == 0:
        return e
    e = sp.cancel(sp.together(e))
    if e == 0:
        return e
    if simplifier is not None:
        e = simplifier(e)
        if e == 0:
            return sp.S.Zero
        e = sp.cancel(sp.together(sp.expand(e)))
        if e == 0:
            return e
    if sp.count_ops(e) <= simplify_ops:
        e = sp.simplify(e)
    return e


@dataclass
class Proof:
    """The steps of one check; each step is ``(ok, text)``."""

    steps: list = field(default_factory=list)

    def _add(self, ok: bool, text: str) -> bool:
        self.steps.append((bool(ok), text))
        return bool(ok)

    def zero(self, expr, what: str, simplifier=None) -> bool:
        """Step: ``expr`` is identically zero."""
        r = reduce_expr(expr, simplifier)
        ok = r == 0
        return self._add(ok, what if ok else f"{what}: residual {_short(r)}")

    def equal(self, lhs, rhs, what: str, simplifier=None) -> bool:
        """Step: ``lhs - rhs`` is identically zero (matrices compared entry-wise)."""
        if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
            diff = sp.Matrix(lhs) - sp.Matrix(rhs)
            bad = [(i, reduce_expr(d, simplifier)) for i, d in enumerate(diff)]
            bad = [(i, r) for i, r in bad if r != 0]
            ok = not bad
            return self._add(ok, what if ok else f"{what}: residual component(s) "
                             + ", ".join(f"[{i}] {_short(r, 150)}" for i, r in bad))
        return self.zero(sp.sympify(lhs) - sp.sympify(rhs), what, simplifier)

    def holds(self, ok, what: str, detail: str = "") -> bool:
        """Step: a boolean established by the caller (``detail`` says why it failed)."""
        ok = (ok is sp.true) if isinstance(ok, sp.Basic) else bool(ok)
        return self._add(ok, what if ok else f"{what}: {detail or 'does not hold'}")

    def close(self, value, target, rtol: float, what: str) -> bool:
        """Step: a number agrees with a published value to relative tolerance ``rtol``."""
        try:
            value, target = float(value), float(target)
        except (TypeError, ValueError):
            return self._add(False, f"{what}: not a number: {_short(value, 200)}")
        err = abs(value - target) / abs(target)
        text = f"{what} ({value:.6g} vs {target:.6g}, rel. diff {err:.2g} <= {rtol:g})"
        return self._add(err <= rtol, text if err <= rtol else
                         f"{what}: got {value:.6g}, paper {target:.6g}, rel. diff {err:.2g} > {rtol:g}")

    def sweep(self, predicate: Callable, samples, what: str) -> bool:
        """Step: ``predicate(sample)`` is true for every sample (numeric sweep).

        Records the first counterexample on failure.
        """
        n = 0
        for sample in samples:
            n += 1
            if not predicate(sample):
                return self._add(False, f"{what}: counterexample {_short(sample, 300)}")
        return self._add(True, f"{what} ({n} samples)")

    @property
    def passed(self) -> bool:
        return bool(self.steps) and all(ok for ok, _ in self.steps)

    def detail(self) -> str:
        bad = [t for ok, t in self.steps if not ok]
        if bad:
            return "FAILED: " + " | ".join(bad)
        return f"{len(self.steps)} step(s): " + "; ".join(t for _, t in self.steps)


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check (what ``nsfric check`` prints and ``--json`` writes)."""

    name: str
    source: str
    statement: str
    passed: bool
    detail: str
    seconds: float
    method: str

    def as_dict(self) -> dict:
        return {"name": self.name, "source": self.source, "statement": self.statement,
                "passed": self.passed, "detail": self.detail, "seconds": self.seconds,
                "method": self.method}


@dataclass(frozen=True)
class Check:
    """A named derivation check.

    Parameters
    ----------
    name : str
        Short kebab-case identifier (``nsfric check --only NAME``).
    source : str
        Paper and equation, e.g. ``"F eq 11"`` (F = Führer et al., KM = Krengel &
        Matuttis, S = Schäfer et al., K = Kuhn et al.).
    statement : str
        The identity in words/formulae.
    method : str
        ``"exact"`` or ``"partial: exact on ... + numeric sweep of ..."``.
    func : callable
        ``func(**laws) -> Proof``; its keyword arguments (law and statement objects)
        all have defaults.  Its docstring says how the statement is proved.
    defaults : dict
        For keyword arguments defaulting to ``None``: what is used instead (text).
    """

    name: str
    source: str
    statement: str
    method: str
    func: Callable
    defaults: dict = field(default_factory=dict)

    @property
    def proof_text(self) -> str:
        import inspect
        return inspect.cleandoc(self.func.__doc__ or "")

    def run(self, **overrides) -> CheckResult:
        """Run the check (with optional mutated law/statement objects) and time it."""
        t0 = time.perf_counter()
        try:
            proof = self.func(**overrides)
            passed, detail = proof.passed, proof.detail()
        except Exception as exc:  # a broken law must fail its check, not crash the run
            tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
            passed, detail = False, f"FAILED: error during derivation: {_short(tb)}"
        return CheckResult(self.name, self.source, self.statement, passed, detail,
                           time.perf_counter() - t0, self.method)

    def __call__(self, **overrides) -> CheckResult:
        return self.run(**overrides)


def check(name: str, source: str, statement: str, method: str = "exact", defaults=None):
    """Decorator: register ``func`` as a :class:`Check` in :data:`CHECKS`."""

    def deco(func):
        if name in CHECKS:
            raise ValueError(f"duplicate check name {name!r}")
        CHECKS[name] = Check(name, source, statement, method, func, dict(defaults or {}))
        return func

    return deco


# -- small shared helpers -------------------------------------------------------------
def vec(name: str, n: int = 2, **assumptions) -> sp.Matrix:
    """Column vector of symbols ``name_1 .. name_n``."""
    return sp.Matrix(sp.symbols(f"{name}_1:{n + 1}", **assumptions))


def dot(a, b):
    return (sp.Matrix(a).T * sp.Matrix(b))[0, 0]


def norm2(a):
    return dot(a, a)


def unit_circle(t):
    """Rational unit vector ``((1 - t^2), 2 t)/(1 + t^2)`` (no square roots)."""
    return sp.Matrix([(1 - t ** 2) / (1 + t ** 2), 2 * t / (1 + t ** 2)])


def clean_roots(expr):
    """Factor the radicands of square roots so ``sqrt(x**2)`` collapses for ``x > 0``."""
    def is_half_power(e):
        return e.is_Pow and e.exp.is_Rational and e.exp.q == 2

    return expr.replace(is_half_power,
                        lambda e: sp.factor(sp.cancel(e.base)) ** e.exp)


def rng(seed: int = 20240410):
    """The seeded generator every numeric sweep uses (reproducible counterexamples)."""
    return np.random.default_rng(seed)
