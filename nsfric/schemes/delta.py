"""The delta-approximated "DAE" static friction of Krengel & Matuttis, as a DEM code runs it.

For a law with exact static friction (a Filippov sliding mode on ``g = v = 0``, e.g.
``coulomb``) a time-stepping DEM code evaluates, at every force evaluation:

* the forces of the two regions, ``f_I`` (``g > 0``) and ``f_II`` (``g < 0``), eqs 5-6,
  here the rates of the neighbouring regions with ``sigma_I = grad g . f_I`` (``f_I/m``
  in 1D);
* the indicators by the finite differences of eqs 15-16,
  ``a_I = (g + delta_I sigma_I)/delta_I``, ``a_II = -(g + delta_II sigma_II)/delta_II``,
  with ``delta_{I,II} = -0.9 g/sigma_{I,II}`` (eq 17, ``-0.9 m xdot/f``); where
  ``delta`` is 0 or undefined (``g = 0`` exactly) the exact eqs 7-8;
* the multiplier ``lam = a_I/(a_I + a_II)`` (eq 12) and, while the contact is stuck,
  the convex combination ``f = (1 - lam) f_I + lam f_II`` (eq 9), which makes the
  tangential acceleration vanish (eq 14); otherwise the dynamic friction force of the
  side the velocity is on.

Note: with eq 17 exactly as printed, ``a_I = -sigma_I/9`` and ``a_II = sigma_II/9``:
both indicators change sign against eqs 7-8 but their ratio, ``lam``, is *exactly*
eq 13 (tested).  The classification therefore uses ``lam in [0, 1]`` (equivalent to
"both fields push into the surface", scenario 2, for any friction that opposes the
motion), never the signs of the approximated ``a``.

The contact *enters* sticking when the stick-entry rule says it stopped
(:mod:`nsfric.schemes.stick_rules`; default ``brake``: dynamic friction alone would stop
it within the next step, ``|g| <= h mu F_n/m``, or ``g`` reached or crossed 0 within the
step; ``crossing``: only the latter) and ``lam`` at the new state lies in [0, 1]; it
*leaves* when ``lam`` leaves [0, 1] (then the side is the one ``lam`` points to).  The
flag is kept between steps, as a DEM contact list keeps it.  Nothing resets the
velocity: the residual velocity of the entry step is kept while the force balance
(eq 14) holds it constant -- the index-reduced DAE drifts, linearly in time, by an
amount that shrinks with the step (Figs 4-5).  The ``-proj`` variants apply the velocity projection
the paper suggests (Hairer & Wanner II p 471): on entering the stuck state the
velocity is set to zero (the reset map of the sliding mode) and the history of a
multistep integrator is projected too (positions held, velocities zero).

The delta approximation is a per-step law adjustment, applied to any explicit
fixed-step scheme through the field interface (:class:`DeltaAdjustment`): it replaces
the rates the scheme evaluates (eq 9 while stuck) and, after every step, decides the
stuck flag, logs the transitions and (``-proj``) projects the state and the multistep
history.  ``delta-NAME`` is the registered scheme ``NAME`` plus this adjustment,
nothing else: ``delta-heun`` is ``heun`` (Heun's predictor-corrector, order 2, two
evaluations per step, Matuttis & Chen p 80), ``delta-bdf2-pc``/``delta-bdf5-pc`` are
``bdf2-pc``/``bdf5-pc`` (BDF in Gear's predictor-corrector form, started by RK4;
:class:`~nsfric.schemes.gear.BDFPredictorCorrector`).  K-M's own labels ``delta-bdf2``
and ``delta-bdf5`` are aliases of those (the fully implicit ``bdf2`` is another
method).  The adjustment acts on rates only, so Runge-Kutta schemes run in their
tableau form (``u + h/2 (k1 + k2)``; :mod:`nsfric.schemes.rk`).
Everything numeric comes from the derived model (rates of the two regions, the
switching function and the indicators, generated together in one function); a run is
a batch of parameter sets and initial states (:func:`run_batch`): compiled
(:mod:`~nsfric.schemes.delta_kernel`), else NumPy (:mod:`~nsfric.schemes.delta_loop`).
"""
from __future__ import annotations

import math
import os

import numpy as np

from ..memo import Identity, Memo
from .base import Scheme, get_scheme, register_alias, register_scheme
from .delta_rules import (DELTA_FACTOR, REVERSAL, SLIP, STICK, delta_choice, delta_event,  # noqa: F401
                          delta_lambda_scalar, delta_side, ieee_div)
from .codecache import is_index_list, store
from .field import Eval, RateField
from . import stick_rules

#: Krengel & Matuttis's names of the integrators -> the registered schemes
KM_INTEGRATORS = {"heun": "heun", "bdf2": "bdf2-pc", "bdf5": "bdf5-pc"}


def delta_indicators(g, s_plus, s_minus, factor=DELTA_FACTOR):
    """``(a_I, a_II)`` by eqs 15-17 (exact eqs 7-8 where ``delta`` is 0 or undefined).

    Call inside ``np.errstate(all="ignore")`` (0/0 is expected where ``g = 0``).
    """
    d1 = -factor * g / s_plus
    d2 = -factor * g / s_minus
    a1 = (g + d1 * s_plus) / d1
    a2 = -(g + d2 * s_minus) / d2
    bad1 = ~np.isfinite(a1) | (d1 == 0)
    bad2 = ~np.isfinite(a2) | (d2 == 0)
    if bad1.any():
        a1 = np.where(bad1, s_plus, a1)
    if bad2.any():
        a2 = np.where(bad2, -s_minus, a2)
    return a1, a2


class DeltaField:
    """Rates of the delta-approximated exact friction for a batch of parameter sets.

    Parameters
    ----------
    model : HybridModel with exactly one Filippov sliding mode
    P : array (n_params,) or (n_params, B), parameter vectors in ``model.params`` order

    One generated function gives the rates of both neighbouring regions, ``g`` and the
    exact indicators ``sigma = grad g . f``; a batch of one runs on the scalar (``math``)
    backend, larger batches on NumPy.
    """

    def __init__(self, model, P):
        self.model = model
        self.sliding = filippov_sliding(model)
        names = list(model.state_names)
        self.n, self.alg = len(names), names.index(str(self.sliding.algebraic))
        P = np.asarray(P, dtype=float)
        self.P = P[:, None] if P.ndim == 1 else P
        self._scalar = self.P.shape[1] == 1
        self._plist = self.P[:, 0].tolist()
        self.n_eval = 0

    def __getattr__(self, name):  # generated on first use (the compiled loop needs none)
        if name not in ("_fun", "_fun_math", "reset", "held"):
            raise AttributeError(name)
        c = _compiled(self.model)
        self._fun, self._fun_math, self.reset, self.held = c[2], c[3], c[4], c[6]
        return getattr(self, name)

    def pieces(self, U):
        """``(f_I, f_II, g, lam, brake)`` at the states ``U`` (n, B); ``brake`` =
        ``(sigma_II - sigma_I)/2``, the deceleration of dynamic friction alone (``mu
        F_n/m``), for the stick-entry rule ``step``."""
        self.n_eval += 1
        n = self.n
        if self._scalar and U.shape[1] == 1:
            out = self._fun_math(U[:, 0].tolist(), self._plist)
            g, s_plus, s_minus = float(out[2 * n]), float(out[2 * n + 1]), float(out[2 * n + 2])
            lam = delta_lambda_scalar(g, s_plus, s_minus)
            return (out[:n, None], out[n:2 * n, None], out[2 * n: 2 * n + 1], np.array([lam]),
                    np.array([0.5 * (s_minus - s_plus)]))
        out = self._fun(U, self.P)
        fp, fm = out[:n], out[n:2 * n]
        g, s_plus, s_minus = out[2 * n], out[2 * n + 1], out[2 * n + 2]
        a1, a2 = delta_indicators(g, s_plus, s_minus)
        return fp, fm, g, a1 / (a1 + a2), 0.5 * (s_minus - s_plus)  # eq 12

    @staticmethod
    def rates(pieces, stuck):
        """Eq 9 while stuck with ``lam`` in [0, 1]; else the side of ``g`` (or of ``lam``)."""
        fp, fm, g, lam = pieces[:4]
        if len(g) == 1:  # scalar fast path, the same decisions
            c = delta_choice(stuck[0], g[0], lam[0])
            if c == 0:
                return (1 - lam[0]) * fp + lam[0] * fm
            return fp if c > 0 else fm
        on = stuck | (g == 0)
        if not on.any():
            return np.where(g > 0, fp, fm)
        inband = (lam >= 0) & (lam <= 1)
        side_plus = np.where(on, lam < 0, g > 0)
        out = np.where(side_plus, fp, fm)
        conv = on & inband
        if conv.any():
            out = np.where(conv, (1 - lam) * fp + lam * fm, out)
        return out


_COMPILED = Memo(32, "nsfric.schemes.delta.compiled")
_PIECES = Memo(32, "nsfric.schemes.delta.pieces")


def _compiled(model):
    """The generated functions and indices of ``model``'s Filippov surface (once per model;
    from the disk cache where it holds them, :mod:`nsfric.schemes.codecache`)."""
    return _COMPILED.get(Identity(model), lambda: _build_compiled(model))


def _build_compiled(model):
    s, st = filippov_sliding(model), store(model)
    names = list(model.state_names)
    fns = [st.function(("delta-pieces", backend), lambda d, b=backend: _pieces_function(model, b))
           for backend in ("numpy", "math")]
    held = st.value(("delta-held",), lambda d: held_states(model), lambda v: is_index_list(v, len(names)))
    return (s, len(names), *fns, model.derived().reset(s.name), names.index(str(s.algebraic)), held)


def _pieces_function(model, backend):
    from ..symbolic.codegen import generate

    _, d, exprs = pieces_exprs(model)
    return generate(exprs, (d.y, d.p), backend)


def filippov_sliding(model):
    """``model``'s one Filippov sliding mode; ValueError when it has none or several."""
    sl = [s for s in model.slidings if s.kind == "filippov"]
    if len(sl) != 1:
        raise ValueError(f"delta schemes need a law with one Filippov sliding mode (exact static "
                         f"friction, e.g. 'coulomb'); model {model.name!r} has {len(sl)}")
    return sl[0]


def pieces_exprs(model):
    """``(sliding, derived model, expressions)``: the expressions of
    :meth:`DeltaField.pieces` -- the rates of the two regions, the switching function
    and its indicators ``sigma_{I,II}`` -- for ``model``'s one Filippov sliding mode
    (a model restored from the disk cache: its symbolic model's)."""
    return _PIECES.get(Identity(model), lambda: _build_pieces(model))


def _build_pieces(model):
    from ..symbolic.derive import derive

    filippov_sliding(model)  # the ValueError before any derivation
    d = derive(model)
    s = filippov_sliding(d.model)
    exprs = (list(d.modes[s.plus].rhs) + list(d.modes[s.minus].rhs)
             + [d.model.switching[s.surface], d.sigma_expr(s.surface, s.plus),
                d.sigma_expr(s.surface, s.minus)])
    return s, d, exprs


def held_states(model) -> list:
    """Indices of the states whose rate in the sliding mode's ``plus`` region is the
    algebraic state (``x' = v``): held by the projection of a multistep history."""
    s, d, _ = pieces_exprs(model)
    plus = d.model.mode(s.plus)
    return [i for i, y in enumerate(d.y) if sp_equal(plus.rhs[y], s.algebraic)]


def sp_equal(a, b) -> bool:
    """Whether the expressions ``a`` and ``b`` are equal (``simplify(a - b) == 0``).

    Decided without ``simplify`` (seconds for a coupled model's rate, about a minute for
    the rotating block's trigonometric rates) where it is plain: equal expressions; a
    symbol ``b`` that ``a`` does not contain (``a - b`` then changes with ``b`` at unit
    rate, so it is not identically zero); or a sample point where ``a - b != 0``
    (distinct positive rationals for its symbols, 30 digits)."""
    import sympy as sp

    a = sp.sympify(a)
    if a == b:
        return True
    if isinstance(b, sp.Symbol) and not a.has(b):
        return False
    d = a - b
    point = {s: sp.Rational(3 + 2 * k, 7 + k) for k, s in enumerate(sorted(d.free_symbols, key=str))}
    v = d.evalf(30, subs=point)
    if v.is_Number and v.is_finite and abs(v) > 1e-12:
        return False
    return sp.simplify(d) == 0


class DeltaAdjustment(RateField):
    """The delta approximation as a per-step adjustment any explicit scheme applies.

    The field interface of :class:`~nsfric.schemes.field.DiscreteField` (``f``, and
    ``apply``, ``assign`` of :class:`~nsfric.schemes.field.RateField`) on a batch of
    states (n, B): ``f(U)`` gives the rates of
    :meth:`DeltaField.rates` under the current stuck flags (eq 9 while stuck, else the
    side's dynamic friction); assignments are not adjusted (``stagewise = False``: the
    adjustment acts on rates only).  The switching function of every evaluation made
    inside the step is kept (``stage_g``) for the end-of-step decision of
    :func:`run_batch`.  The evaluation at the end of a step is handed back with
    :meth:`prime` and reused as the next step's first slope (not counted twice).
    """

    stagewise = False
    frozen_mode = None

    def __init__(self, field: DeltaField, stuck):
        self.field = field
        self.stuck = stuck
        self.stage_g = []
        self._U = self._P = None

    def prime(self, U, P):
        """The pieces ``P`` at ``U``, the state the next step starts from."""
        self._U, self._P = U, P
        self.stage_g = []

    def f(self, U) -> Eval:
        if U is self._U:
            P = self._P
        else:
            P = self.field.pieces(U)
            self.stage_g.append(P[2])
        return Eval(self.field.rates(P, self.stuck), None, None)



def integrator_scheme(integrator, corrections=1):
    """The registered scheme ``integrator`` (a name, K-M's label ``heun``/``bdf2``/``bdf5``
    or a Scheme) that carries the delta adjustment; it must be explicit."""
    scheme = get_scheme(KM_INTEGRATORS.get(integrator, integrator)
                        if isinstance(integrator, str) else integrator)
    if scheme.implicit or isinstance(scheme, DeltaScheme):
        raise ValueError(f"integrator must be an explicit plain scheme (e.g. {sorted(KM_INTEGRATORS)}), "
                         f"got {scheme.name!r}")
    if corrections != 1:
        if not hasattr(scheme, "corrections"):
            raise ValueError(f"corrections apply to predictor-corrector BDF only, not {scheme.name!r}")
        scheme = type(scheme)(scheme.k, corrections)
    return scheme


def run_batch(field: DeltaField, U0, h, n_steps, integrator="heun", projection=False,
              corrections=1, t0=0.0, keep=1, progress=None, backend=None, stick_rule=None):
    """Integrate ``n_steps`` fixed steps of ``integrator`` plus the delta adjustment for a
    batch of initial states ``U0`` (n, B).

    Returns ``(t, Y, events, modes)``: times of the kept rows (every ``keep``-th step
    and the last), ``Y`` (n, B, rows), per batch member a list of events
    ``{"t", "kind", "from", "to"}`` (``stick``/``slip``/``reversal``), and ``modes``
    (B, rows): +1 / -1 for the dynamic side, 0 while stuck.  The rows of a member after
    the step at which its state became entirely non-finite are NaN (and its mode 0).

    ``backend`` (default ``$NSFRIC_BATCH_BACKEND``, else ``"auto"``: the first that
    applies): ``"numba"`` (:mod:`~nsfric.schemes.delta_kernel`) or ``"numpy"``
    (:mod:`~nsfric.schemes.delta_loop`), the same numbers; ``field.backend`` says which ran.
    ``stick_rule``: when a sliding member enters sticking, a name of
    :data:`~nsfric.schemes.stick_rules.STICK_RULES` (default
    :data:`~nsfric.schemes.stick_rules.DEFAULT_STICK_RULE`).
    """
    rule = stick_rules.stick_rule(stick_rule).code
    scheme = integrator_scheme(integrator, corrections)
    backend = backend or os.environ.get("NSFRIC_BATCH_BACKEND") or "auto"
    if backend == "loop":
        backend = "auto"  # a delta run is one loop over its members either way
    if backend not in ("auto", "numba", "numpy"):
        raise ValueError(f"backend must be one of ('auto', 'numba', 'numpy', 'loop'), got {backend!r}")
    U0 = np.array(U0, dtype=float)
    if U0.ndim == 1:
        U0 = U0[:, None]
    if backend != "numpy":
        from .trace import Untraceable
        from .delta_kernel import run_kernel

        try:
            out = run_kernel(field, scheme, U0, h, n_steps, projection, t0, keep, progress, rule)
        except (ImportError, Untraceable):
            if backend == "numba":
                raise
        else:
            field.backend = "numba"
            return out
    from .delta_loop import run_numpy

    field.backend = "numpy"
    with np.errstate(all="ignore"):
        return run_numpy(field, U0, h, n_steps, scheme, projection, t0, keep, progress, rule)


def side_name(field, side):
    """The mode name of a side code (+1 ``f_I``, -1 ``f_II``, 0 stuck)."""
    if side > 0:
        return field.sliding.plus
    if side < 0:
        return field.sliding.minus
    return "stick"


class DeltaScheme(Scheme):
    """``delta-NAME``: the explicit scheme NAME plus the delta-approximated exact static
    friction (K-M eqs 9, 12, 15-17) as its per-step adjustment; see the module
    docstring.  ``order`` is the scheme's order on smooth problems; across a stick
    transition the scheme is first order."""

    implicit = False
    symplectic = False
    reference = "Krengel & Matuttis eqs 9, 12, 15-17 and §4 (Heun, BDF2, BDF5)"

    def __init__(self, base: Scheme, projection: bool = False):
        self.base = integrator_scheme(base)
        self.projection = projection
        self.name = f"delta-{self.base.name}" + ("-proj" if projection else "")
        self.order = self.base.order
        self.multistep = self.base.multistep
        self.__doc__ = (f"{self.base.name} plus the delta-approximated exact friction (K-M eqs "
                        "15-17)" + (", velocity projected on sticking" if projection else "")
                        + f": order {self.order} on smooth parts, 1 across stick transitions.")

    def step(self, field, t, u, h, hist, record=None):  # pragma: no cover - integrate only
        raise NotImplementedError("delta schemes run through integrate()")

    def run_batch(self, model, U0, P, h, t0, n_steps, Y, steps, backend):
        """The delta schemes' own batch loop (:func:`run_batch`, compiled where numba is
        installed): ``(path, nfev)``."""
        df = DeltaField(model, P)
        t, Yd, events, M = run_batch(df, U0, h, n_steps, self.base, self.projection, t0=t0, backend=backend)
        Y[...] = Yd
        ok = np.all(np.isfinite(Yd), axis=0)
        steps[~ok.all(axis=1)] = np.argmin(ok, axis=1)[~ok.all(axis=1)]
        return df.backend, df.n_eval

    def integrate(self, field, t0, u0, h, n_steps, record=None):
        df = DeltaField(field.model, field.model.param_vector(field.params))
        t, Y, events, M = run_batch(df, np.asarray(u0, dtype=float)[:, None], h, n_steps,
                                    self.base, self.projection, t0=t0)
        field.n_rhs += df.n_eval
        Y = Y[:, 0, :]
        ok = np.all(np.isfinite(Y), axis=0)
        termination = "reached t_end" if ok.all() else \
            f"diverged at t = {t[int(np.argmin(ok))]:.6g}"
        names = {1: df.sliding.plus, -1: df.sliding.minus, 0: df.sliding.name}
        return t, Y, {"events": events[0], "termination": termination, "steps": n_steps,
                      "modes": [names[int(c)] for c in M[0]]}


for _proj in (False, True):
    for _base in ("heun", "bdf2-pc", "bdf5-pc"):
        register_scheme(DeltaScheme(get_scheme(_base), projection=_proj))
for _km in ("bdf2", "bdf5"):  # K-M's labels: aliases, not other methods
    register_alias(f"delta-{_km}", f"delta-{_km}-pc")
    register_alias(f"delta-{_km}-proj", f"delta-{_km}-pc-proj")
