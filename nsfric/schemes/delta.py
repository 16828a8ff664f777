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

The contact *enters* sticking when the tangential velocity changes sign within a step
(or is zero) and ``lam`` at the new state lies in [0, 1]; it *leaves* when ``lam``
leaves [0, 1] (then the side is the one ``lam`` points to).  The flag is kept between
steps, as a DEM contact list keeps it.  Nothing resets the velocity: the residual
velocity of the step that crossed ``g = 0`` is kept while the force balance (eq 14)
holds it constant -- the index-reduced DAE drifts, linearly in time, by an amount that
shrinks with the step (Figs 4-5).  The ``-proj`` variants apply the velocity projection
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
switching function and the indicators, generated together in one function); the run
is vectorised over a batch of parameter sets (:func:`run_batch`), which the
particle-size study of Fig 5 uses.
"""
from __future__ import annotations

import math

import numpy as np

from ..symbolic.codegen import generate
from ..symbolic.derive import derive, param_vector
from .base import Scheme, get_scheme, register_alias, register_scheme
from .field import Eval, RateField

#: Krengel & Matuttis's names of the integrators -> the registered schemes
KM_INTEGRATORS = {"heun": "heun", "bdf2": "bdf2-pc", "bdf5": "bdf5-pc"}
DELTA_FACTOR = 0.9  #: eq 17


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


def delta_lambda_scalar(g: float, s_plus: float, s_minus: float, factor=DELTA_FACTOR) -> float:
    """Eq 12 with the indicators of eqs 15-17, in Python floats (the single-run path of
    :class:`DeltaField`; same arithmetic as :func:`delta_indicators`, tested equal)."""
    try:
        d1 = -factor * g / s_plus
        a1 = (g + d1 * s_plus) / d1
    except ZeroDivisionError:
        a1 = s_plus
    try:
        d2 = -factor * g / s_minus
        a2 = -(g + d2 * s_minus) / d2
    except ZeroDivisionError:
        a2 = -s_minus
    if not math.isfinite(a1):
        a1 = s_plus
    if not math.isfinite(a2):
        a2 = -s_minus
    try:
        return a1 / (a1 + a2)
    except ZeroDivisionError:
        return math.nan


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
        c = _compiled(model)
        self.model = model
        self.sliding, self.n, self._fun, self._fun_math, self.reset, self.alg, self.held = c
        P = np.asarray(P, dtype=float)
        self.P = P[:, None] if P.ndim == 1 else P
        self._scalar = self.P.shape[1] == 1
        self._plist = self.P[:, 0].tolist()
        self.n_eval = 0

    def pieces(self, U):
        """``(f_I, f_II, g, lam)`` at the states ``U`` (n, B)."""
        self.n_eval += 1
        n = self.n
        if self._scalar and U.shape[1] == 1:
            out = self._fun_math(U[:, 0].tolist(), self._plist)
            lam = delta_lambda_scalar(float(out[2 * n]), float(out[2 * n + 1]), float(out[2 * n + 2]))
            return out[:n, None], out[n:2 * n, None], out[2 * n: 2 * n + 1], np.array([lam])
        out = self._fun(U, self.P)
        fp, fm = out[:n], out[n:2 * n]
        g, s_plus, s_minus = out[2 * n], out[2 * n + 1], out[2 * n + 2]
        a1, a2 = delta_indicators(g, s_plus, s_minus)
        return fp, fm, g, a1 / (a1 + a2)  # eq 12

    @staticmethod
    def rates(pieces, stuck):
        """Eq 9 while stuck with ``lam`` in [0, 1]; else the side of ``g`` (or of ``lam``)."""
        fp, fm, g, lam = pieces
        if len(g) == 1:  # scalar fast path, the same decisions
            g0, l0 = g[0], lam[0]
            if stuck[0] or g0 == 0:
                if 0 <= l0 <= 1:
                    return (1 - l0) * fp + l0 * fm
                return fp if l0 < 0 else fm
            return fp if g0 > 0 else fm
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


_COMPILED: dict = {}


def _compiled(model):
    """The generated functions and indices of ``model``'s Filippov surface (once per model)."""
    hit = _COMPILED.get(id(model))
    if hit is not None and hit[0] is model:
        return hit[1]
    sl = [s for s in model.slidings if s.kind == "filippov"]
    if len(sl) != 1:
        raise ValueError(f"delta schemes need a law with one Filippov sliding mode (exact static "
                         f"friction, e.g. 'coulomb'); model {model.name!r} has {len(sl)}")
    s = sl[0]
    d = derive(model)
    exprs = (list(d.modes[s.plus].rhs) + list(d.modes[s.minus].rhs)
             + [model.switching[s.surface], d.sigma_expr(s.surface, s.plus),
                d.sigma_expr(s.surface, s.minus)])
    plus = model.mode(s.plus)
    held = [i for i, y in enumerate(d.y) if sp_equal(plus.rhs[y], s.algebraic)]  # x' = v
    out = (s, d.n, generate(exprs, (d.y, d.p)), generate(exprs, (d.y, d.p), "math"),
           d.reset(s.name), d.y.index(s.algebraic), held)
    _COMPILED[id(model)] = (model, out)
    return out


def sp_equal(a, b) -> bool:
    import sympy as sp

    return sp.simplify(sp.sympify(a) - b) == 0


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
              corrections=1, t0=0.0, keep=1, progress=None):
    """Integrate ``n_steps`` fixed steps of ``integrator`` plus the delta adjustment for a
    batch of initial states ``U0`` (n, B).

    Returns ``(t, Y, events, modes)``: times of the kept rows (every ``keep``-th step
    and the last), ``Y`` (n, B, rows), per batch member a list of events
    ``{"t", "kind", "from", "to"}`` (``stick``/``slip``/``reversal``), and ``modes``
    (B, rows): +1 / -1 for the dynamic side, 0 while stuck.
    """
    scheme = integrator_scheme(integrator, corrections)
    with np.errstate(all="ignore"):
        return _run(field, U0, h, n_steps, scheme, projection, t0, keep, progress)


def _run(field, U0, h, n_steps, scheme, projection, t0, keep, progress):
    U = np.array(U0, dtype=float)
    if U.ndim == 1:
        U = U[:, None]
    n, B = U.shape
    P = field.pieces(U)
    _, _, g, lam = P
    stuck = (g == 0) & (lam >= 0) & (lam <= 1)
    side = _side(stuck, g, lam)
    adj = DeltaAdjustment(field, stuck)
    adj.prime(U, P)
    events = [[] for _ in range(B)]
    rows = list(range(0, n_steps + 1, keep))
    if rows[-1] != n_steps:
        rows.append(n_steps)
    Y = np.empty((n, B, len(rows)))
    Y[:, :, 0] = U
    M = np.zeros((B, len(rows)), dtype=np.int8)
    M[:, 0] = side
    r = 1
    hist = scheme.start(adj, t0, U, h)
    for i in range(n_steps):
        U1, hist = scheme.step(adj, t0 + i * h, U, h, hist)
        P1 = field.pieces(U1)
        _, _, g1, lam1 = P1
        crossed = g * g1 <= 0  # g reached or crossed 0 within the step (at a stage or its end)
        for gs in adj.stage_g:
            crossed |= g * gs <= 0
        inband = (lam1 >= 0) & (lam1 <= 1)
        enter = ~stuck & crossed & inband              # g reached or crossed 0, fields push in
        leave = stuck & ~inband                        # lam left [0, 1]
        reverse = ~stuck & (g * g1 < 0) & ~inband      # crossing (dynamic friction)
        t1 = t0 + (i + 1) * h
        if np.any(enter | leave | reverse):
            for b in np.nonzero(enter)[0]:
                events[b].append({"t": t1, "kind": "stick", "from": _name(field, side[b]), "to": "stick"})
            for b in np.nonzero(leave)[0]:
                to = field.sliding.plus if lam1[b] < 0 else field.sliding.minus
                events[b].append({"t": t1, "kind": "slip", "from": "stick", "to": to})
            for b in np.nonzero(reverse)[0]:
                to = field.sliding.plus if g1[b] > 0 else field.sliding.minus
                events[b].append({"t": t1, "kind": "reversal", "from": _name(field, side[b]), "to": to})
        stuck = (stuck | enter) & ~leave
        side = _side(stuck, g1, lam1)
        if projection and np.any(enter):
            U1, hist = _project(field, scheme, U1, hist, enter, B)
            P1 = field.pieces(U1)
            g1 = P1[2]
        U, P, g = U1, P1, g1
        adj.stuck = stuck
        adj.prime(U, P)
        if rows[r] == i + 1:
            Y[:, :, r] = U
            M[:, r] = side
            r += 1
            if progress and r % 50 == 0:
                progress(r / len(rows))
        if not np.all(np.isfinite(U)):  # a diverged member stays NaN; the others go on
            if not np.any(np.isfinite(U)):
                Y[:, :, r:] = np.nan
                break
    t = t0 + h * np.array(rows, dtype=float)
    return t, Y, events, M


def _project(field, scheme, U1, hist, enter, B):
    """Velocity projection on entering the stuck state (Hairer & Wanner II p 471): the
    reset map of the sliding mode; a multistep history is projected too (positions
    held, at rest)."""
    U1 = U1.copy()
    U1[:, enter] = field.reset(U1[:, enter], field.P[:, enter] if field.P.shape[1] == B else field.P)

    def held(y):
        y = y.copy()
        y[field.alg, enter] = U1[field.alg, enter]
        for s in field.held:
            y[s, enter] = U1[s, enter]
        return y

    return U1, scheme.map_history(hist, held)


def _side(stuck, g, lam):
    """The field a member uses next: 0 stuck, else the side of ``g`` (of ``lam`` at g = 0),
    as :meth:`DeltaField.rates` decides it."""
    return np.where(stuck, 0, np.where(g != 0, np.sign(g), np.where(lam < 0, 1, -1))).astype(np.int8)


def _name(field, side):
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

    def integrate(self, field, t0, u0, h, n_steps, record=None):
        df = DeltaField(field.model, param_vector(field.model, field.params))
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
