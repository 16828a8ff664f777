"""SciPy's DOP853 step in numba: the core of the compiled stepper.

It replicates :class:`scipy.integrate.DOP853` operation by operation (Hairer, Nørsett &
Wanner, *Solving ODEs I*, Sec. II.4-II.6, as SciPy implements them): the tableau of
``scipy.integrate._ivp.dop853_coefficients``, ``select_initial_step``, the error norm
of ``DOP853._estimate_error_norm``, the step-size controller of
``RungeKutta._step_impl`` (SAFETY, MIN_FACTOR, MAX_FACTOR) and the dense-output
coefficients of ``DOP853._dense_output_impl``.  The matrix-vector products and the
norms are ``np.dot`` as in SciPy (BLAS on both sides: the same sums in the same
order), the elementwise operations loops (exact either way).

The mode's functions come in as compiled function pointers of type :data:`FIELD`
(``f(y, p, out)``: right-hand side, guards, guard rates), so this module is compiled
once per machine (numba's ``cache=True``) and a new mode compiles only its own small
functions (:mod:`~nsfric.solvers.dop853_numba`).

:func:`run` steps one mode until ``t_end`` or a guard crossing.  A step on which the
guards' samples (``n_check`` interior points of the step's dense output, the rule of
:func:`~nsfric.solvers.guard_search.first_crossing`) cannot exclude a crossing is decided
exactly by the same guard search as the SciPy path's, compiled
(:func:`~nsfric.solvers.dop853_search.locate`); the rare step it cannot decide goes back
to the caller's Python search.
"""
import hashlib
import math
import os

import numpy as np
from numba import njit, types
from scipy.integrate._ivp import dop853_coefficients as _dc

from .dop853_search import CROSSING, NO_CROSSING, dense_at, locate

#: SHA-256 of :mod:`~nsfric.solvers.dop853_search`'s file: numba's disk cache keys
#: :func:`run` (which calls that module) on this file alone, so a change there must
#: change this line (tests/test_compiled_guard_search.py checks it); where it does not
#: match, the core is compiled in every process, never loaded stale from the cache
SEARCH_DIGEST = "607cf72af43a3f963832f7c6a08be464492b9dcf9f14e7f55b1f98e16011093b"


def _search_digest() -> str:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "dop853_search.py"), "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


#: numba's ``cache`` flag of :func:`run`
CACHE = _search_digest() == SEARCH_DIGEST

#: as ``scipy.integrate._ivp.rk``
SAFETY = 0.9
MIN_FACTOR = 0.2
MAX_FACTOR = 10.0
N_STAGES = _dc.N_STAGES
ERROR_EXPONENT = -1 / (7 + 1)  # DOP853.error_estimator_order = 7
A = np.ascontiguousarray(_dc.A[:N_STAGES, :N_STAGES])
B = np.ascontiguousarray(_dc.B)
E3 = np.ascontiguousarray(_dc.E3)
E5 = np.ascontiguousarray(_dc.E5)
D = np.ascontiguousarray(_dc.D)
A_EXTRA = np.ascontiguousarray(_dc.A[N_STAGES + 1:])
N_EXTENDED = _dc.N_STAGES_EXTENDED
#: the guard-rate bound's safety factor (:data:`nsfric.solvers.guard_search.SAFETY`)
RATE_SAFETY = 4.0
#: relative margin of the pre-screen: a step whose samples come this close to a
#: crossing is handed to the exact guard search (round-off must never hide one)
MARGIN = 1e-9

_V = types.float64[::1]
#: a mode's function ``f(y, p, out)``: its signature and its type as an argument
FIELD_SIGNATURE = types.void(_V, _V, _V)
FIELD = types.FunctionType(FIELD_SIGNATURE)

#: run's status codes
FINISHED, INSPECT, FULL, EVENT, TOO_SMALL, NONFINITE = 0, 1, 2, 3, -1, -2
#: trials of one step with a non-finite error estimate (a NaN or infinite stage: the
#: field is not finite there) before :func:`run` gives up with NONFINITE (as does a
#: step-size underflow after any such trial); SciPy's loop would shrink the step for
#: ever from a NaN initial step
NONFINITE_TRIALS = 16


@njit(cache=True)
def rms(x):
    """``scipy.integrate._ivp.common.norm``: ``np.linalg.norm(x) / sqrt(size)``."""
    return math.sqrt(np.dot(x, x)) / x.size ** 0.5


@njit(types.float64(FIELD, types.float64, _V, _V, types.float64, types.float64, types.float64, _V), cache=True)
def initial_step(rhs, t0, y0, f0, t_bound, rtol, atol, p):
    """``scipy.integrate._ivp.common.select_initial_step`` (error estimator order 7,
    no maximum step, forward)."""
    interval_length = abs(t_bound - t0)
    if interval_length == 0.0:
        return 0.0
    n = y0.size
    scale, w = np.empty(n), np.empty(n)
    for i in range(n):
        scale[i] = atol + abs(y0[i]) * rtol
    for i in range(n):
        w[i] = y0[i] / scale[i]
    d0 = rms(w)
    for i in range(n):
        w[i] = f0[i] / scale[i]
    d1 = rms(w)
    if d0 < 1e-5 or d1 < 1e-5:
        h0 = 1e-6
    else:
        h0 = 0.01 * d0 / d1
    h0 = min(h0, interval_length)
    y1, f1 = np.empty(n), np.empty(n)
    for i in range(n):
        y1[i] = y0[i] + h0 * f0[i]
    rhs(y1, p, f1)
    for i in range(n):
        w[i] = (f1[i] - f0[i]) / scale[i]
    d2 = rms(w) / h0
    if d1 <= 1e-15 and d2 <= 1e-15:
        h1 = max(1e-6, h0 * 1e-3)
    else:
        h1 = (0.01 / max(d1, d2)) ** (1 / (7 + 1))
    return min(100 * h0, h1, interval_length)


@njit(types.boolean(FIELD, _V, _V, types.float64[:, ::1]), cache=True)
def forward_jacobian(rhs, y0, p, J):
    """The forward-difference Jacobian of ``rhs`` at ``y0`` into ``J``, by the differences
    of :func:`~nsfric.solvers.filippov.stiffness_index` on the compiled right-hand side;
    False (``J`` incomplete) where an entry is not finite."""
    n = y0.size
    f0, f, y = np.empty(n), np.empty(n), np.empty(n)
    rhs(y0, p, f0)
    for j in range(n):
        h = 1.5e-8 * max(1.0, abs(y0[j]))
        for i in range(n):
            y[i] = y0[i]
        y[j] += h
        rhs(y, p, f)
        for i in range(n):
            J[i, j] = (f[i] - f0[i]) / h
            if not math.isfinite(J[i, j]):
                return False
    return True


@njit(types.void(FIELD, _V, _V, types.float64, _V), cache=True)
def state_scales(fun, y, p, step, out):
    """:func:`~nsfric.solvers.switching.state_scales` of the compiled ``fun`` (its
    ``out.size`` outputs) into ``out``: the same relative differences, summed in the same
    order."""
    m, n = out.size, y.size
    f0, f, yp = np.empty(m), np.empty(m), np.empty(n)
    fun(y, p, f0)
    out[:] = 0.0
    for j in range(n):
        yj = y[j]
        if yj == 0.0 or not math.isfinite(yj):
            continue
        for i in range(n):
            yp[i] = y[i]
        yp[j] = yj * (1.0 + step)
        fun(yp, p, f)
        for i in range(m):
            d = abs(f[i] - f0[i]) / step
            if math.isfinite(d):
                out[i] += d


@njit(cache=True)
def stage(rhs, K, a, s, h, y, p, work):
    """``dy = np.dot(K[:s].T, a[:s]) * h; K[s] = fun(t + c * h, y + dy)``."""
    dy = np.dot(K[:s].T, a[:s])
    for i in range(y.size):
        work[i] = y[i] + dy[i] * h
    rhs(work, p, K[s])


@njit(cache=True)
def rk_step(rhs, y, f, h, K, p, work, y_new):
    """``scipy.integrate._ivp.rk.rk_step`` on DOP853's tableau into ``y_new``
    (``K[N_STAGES]`` holds ``f_new``)."""
    K[0] = f
    for s in range(1, N_STAGES):
        stage(rhs, K, A[s], s, h, y, p, work)
    acc = np.dot(K[:N_STAGES].T, B)
    for i in range(y.size):
        y_new[i] = y[i] + h * acc[i]
    rhs(y_new, p, K[N_STAGES])


@njit(cache=True)
def error_norm(K, h, scale):
    """``DOP853._estimate_error_norm`` (``K``: the 13 stages)."""
    err5 = np.dot(K.T, E5)
    err3 = np.dot(K.T, E3)
    for i in range(scale.size):
        err5[i] /= scale[i]
        err3[i] /= scale[i]
    err5_norm_2 = math.sqrt(np.dot(err5, err5)) ** 2
    err3_norm_2 = math.sqrt(np.dot(err3, err3)) ** 2
    if err5_norm_2 == 0 and err3_norm_2 == 0:
        return 0.0
    denom = err5_norm_2 + 0.01 * err3_norm_2
    return abs(h) * err5_norm_2 / math.sqrt(denom * scale.size)


@njit(cache=True)
def dense_coefficients(rhs, h, y_old, y, f, KX, p, F, work):
    """``DOP853._dense_output_impl``: the extra stages into ``KX`` (whose first rows are
    the step's ``K``) and the interpolant's coefficients into ``F`` (7, n)."""
    for j in range(A_EXTRA.shape[0]):
        stage(rhs, KX, A_EXTRA[j], N_STAGES + 1 + j, h, y_old, p, work)
    DK = np.dot(D, KX)
    for i in range(y.size):
        delta_y = y[i] - y_old[i]
        f_old = KX[0, i]
        F[0, i] = delta_y
        F[1, i] = h * f_old - delta_y
        F[2, i] = 2 * delta_y - h * (f[i] + f_old)
        for r in range(D.shape[0]):
            F[3 + r, i] = h * DK[r, i]


@njit(cache=True)
def sample(guards, rates, t_old, t_new, h, y_old, F, p, n_check, Y, G, R):
    """The states ``Y``, guards ``G`` and guard rates ``R`` at the step's ``n_check + 2``
    sample times (``numpy.linspace(t_old, t_new, n_check + 2)``'s)."""
    n_pts = n_check + 2
    dt = (t_new - t_old) / (n_pts - 1)
    for k in range(n_pts):
        tk = t_new if k == n_pts - 1 else k * dt + t_old
        dense_at(t_old, h, y_old, F, tk, Y[k])
        guards(Y[k], p, G[k])
        rates(Y[k], p, R[k])


@njit(cache=True)
def screen(guards, rates, t_old, t_new, h, y_old, F, p, n_check, n_guards, Y, G, R):
    """Whether the guards' samples on the step (:func:`sample`, left in ``Y``, ``G``,
    ``R``) may hide or show a crossing: a sample near or above zero, or an interval whose
    excursion bound (:func:`~nsfric.solvers.guard_search.excursion_bound`) reaches zero.
    Conservative by :data:`MARGIN`: a ``True`` step is decided by the exact guard search."""
    sample(guards, rates, t_old, t_new, h, y_old, F, p, n_check, Y, G, R)
    n_pts = n_check + 2
    dt = (t_new - t_old) / (n_pts - 1)  # numpy.linspace's sample times
    for i in range(n_guards):
        gmax = 0.0
        for k in range(n_pts):
            gmax = max(gmax, abs(G[k, i]))
        for k in range(n_pts):
            if not G[k, i] < -MARGIN * gmax:
                return True
        curv = 0.0
        for k in range(n_pts - 1):
            curv = max(curv, abs(R[k + 1, i] - R[k, i]) / dt)
        curv *= RATE_SAFETY
        for k in range(n_pts - 1):
            Rk = max(abs(R[k, i]), abs(R[k + 1, i])) + 0.5 * curv * dt
            ub = 0.5 * (G[k, i] + G[k + 1, i] + Rk * dt)
            if not ub < -MARGIN * (gmax + Rk * dt):
                return True
    return False


_M = types.float64[:, ::1]


@njit(cache=CACHE)
def step_of(ts, m, t):
    """``numpy.searchsorted(ts, t, side="left") - 1`` clipped to the ``m`` steps ``[0, m -
    1]``: the stored step whose dense output holds ``t`` (the one on the left at a
    breakpoint, as :class:`scipy.integrate.OdeSolution`; NaN after every step, as NumPy
    sorts it)."""
    lo, hi = 0, ts.size
    while lo < hi:
        mid = (lo + hi) // 2
        if ts[mid] < t or (t != t and ts[mid] == ts[mid]):
            lo = mid + 1
        else:
            hi = mid
    return min(max(lo - 1, 0), m - 1)


@njit(types.void(_V, _V, _V, _M, types.float64[:, :, ::1], _V, _M), cache=CACHE)
def dense_values(ts, t_old, h, y_old, F, t, out):
    """The dense output of stored steps (``ts`` their breakpoints, ``t_old``, ``h``,
    ``y_old``, ``F`` as :func:`run` stores them) at the times ``t`` into ``out`` (n,
    len(t)): each time on the step :func:`step_of` picks, by
    :func:`~nsfric.solvers.dop853_search.dense_at` (``Dop853DenseOutput``'s sum, the
    operations of its vectorised NumPy form one by one: the same numbers)."""
    n = y_old.shape[1]
    y = np.empty(n)
    for k in range(t.size):
        s = step_of(ts, t_old.size, t[k])
        dense_at(t_old[s], h[s], y_old[s], F[s], t[k], y)
        for i in range(n):
            out[i, k] = y[i]


@njit(types.int64(FIELD, FIELD, FIELD, _V, _V, _V, types.float64, types.float64, types.float64, _V, types.int64,
                  types.int64, types.boolean, _M, _M, types.float64[:, :, ::1], types.int64[::1], types.int64,
                  types.boolean, _V), cache=CACHE)
def run(rhs, guards, rates, state, y, f, t_end, rtol, atol, p, n_check, n_guards, start, T, YO, FF, counts, stop_at,
        search, hit):
    """Step ``mode`` from ``state = [t, h_abs]`` (``y``, ``f`` its state and rate,
    updated in place) until ``t_end``, a step the guards flag (:func:`screen`; every
    first step of a segment, ``start``), or ``stop_at`` steps stored (full buffers, or
    time for the caller's budget check).  With ``search``, a flagged step is decided
    here by the exact guard search (:func:`~nsfric.solvers.dop853_search.locate`):
    stepping goes on where no guard crosses; a crossing ends the run with
    ``hit = [time, guard index]``.

    Accepted steps go to ``T[k] = (t_old, t_new)``, ``YO[k]`` (y_old) and ``FF[k]``
    (dense coefficients), from ``counts[0]`` on; ``counts = [steps, nfev]`` is updated.
    Returns a status: FINISHED, EVENT (a guard crosses on the last stored step, at
    ``hit``), INSPECT (the last stored step needs the Python guard search: ``search``
    off, or a case :func:`~nsfric.solvers.dop853_search.locate` leaves to it), FULL
    (``stop_at`` reached: call again), TOO_SMALL (step size underflow) or NONFINITE
    (:data:`NONFINITE_TRIALS` trials of a step with a non-finite stage, or an underflow
    after one).
    """
    n = y.size
    t, h_abs = state[0], state[1]
    K = np.empty((N_EXTENDED, n))
    work, y_new, scale = np.empty(n), np.empty(n), np.empty(n)
    n_pts = n_check + 2
    Y, G, R = np.empty((n_pts, n)), np.empty((n_pts, max(n_guards, 1))), np.empty((n_pts, max(n_guards, 1)))
    y_s, g_s = np.empty(n), np.empty(max(n_guards, 1))  # the search's scratch
    cap = min(T.shape[0], stop_at)
    while True:
        k = counts[0]
        if k >= cap:
            status = FULL
            break
        if t == t_end:
            status = FINISHED
            break
        # RungeKutta._step_impl (max_step = inf, direction = +1)
        min_step = 10 * abs(np.nextafter(t, np.inf) - t)
        if h_abs < min_step:
            h_abs = min_step
        step_accepted = False
        step_rejected = False
        failed = False
        bad = 0
        while not step_accepted:
            if h_abs < min_step or bad >= NONFINITE_TRIALS:
                failed = True
                break
            h = h_abs
            t_new = t + h
            if t_new - t_end > 0:
                t_new = t_end
            h = t_new - t
            h_abs = abs(h)
            rk_step(rhs, y, f, h, K, p, work, y_new)
            counts[1] += N_STAGES
            for i in range(n):
                scale[i] = atol + max(abs(y[i]), abs(y_new[i])) * rtol
            err = error_norm(K[:N_STAGES + 1], h, scale)
            if err < 1:
                if err == 0:
                    factor = MAX_FACTOR
                else:
                    factor = min(MAX_FACTOR, SAFETY * err ** ERROR_EXPONENT)
                if step_rejected:
                    factor = min(1, factor)
                h_abs *= factor
                step_accepted = True
            elif not (err < math.inf):  # NaN or infinite: SciPy's max(MIN_FACTOR, nan or 0)
                h_abs *= MIN_FACTOR
                step_rejected = True
                bad += 1
            else:
                h_abs *= max(MIN_FACTOR, SAFETY * err ** ERROR_EXPONENT)
                step_rejected = True
        if failed:  # a step that shrank away from non-finite stages: the field's fault
            status = NONFINITE if bad > 0 else TOO_SMALL
            break
        dense_coefficients(rhs, h, y, y_new, K[N_STAGES], K, p, FF[k], work)
        counts[1] += A_EXTRA.shape[0]
        T[k, 0] = t
        T[k, 1] = t_new
        YO[k] = y
        y[:] = y_new
        f[:] = K[N_STAGES]
        t = t_new
        counts[0] = k + 1
        if n_guards > 0:
            if start:
                sample(guards, rates, T[k, 0], t_new, h, YO[k], FF[k], p, n_check, Y, G, R)
            if start or screen(guards, rates, T[k, 0], t_new, h, YO[k], FF[k], p, n_check, n_guards, Y, G, R):
                found = locate(guards, T[k, 0], t_new, h, YO[k], FF[k], p, n_check, n_guards, k == 0, G, R, y_s,
                               g_s, hit) if search else -1
                if found == CROSSING:
                    status = EVENT
                    break
                if found != NO_CROSSING:
                    status = INSPECT
                    break
        start = False
    state[0], state[1] = t, h_abs
    return status
