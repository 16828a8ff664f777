"""The exact guard search of one DOP853 step in numba: the compiled stepper's locator.

:func:`locate` is :func:`nsfric.solvers.guard_search.first_crossing` on the dense output
of one step of the compiled stepper (:mod:`~nsfric.solvers.dop853_core`), operation by
operation, so that it gives the same event time and guard index bit for bit: the same
samples (``numpy.linspace``'s times), the same excursion and curvature bounds, the same
search windows and ``at_start`` rules, and SciPy's two scalar searches ported as they
are written -- the bounded Brent minimiser (``_minimize_scalar_bounded`` of
``scipy/optimize/_optimize.py``: golden section with parabolic steps, Brent 1973 ch. 5)
and ``brentq`` (``scipy/optimize/Zeros/brentq.c``: Brent's root finder with inverse
quadratic extrapolation, Brent 1973 ch. 4) -- with the Python search's options
(``xatol``, ``xtol``, ``rtol``, ``maxiter``).  The dense output at one time is
:func:`dense_at` (``Dop853DenseOutput``'s sum, as ``StepDense`` evaluates it).

The guards are the mode's compiled ones, whose arithmetic is NumPy's array arithmetic
(the Python search's samples): the compiled search is the Python search bit for bit
where that search's scalar evaluations agree with its samples.  They may not where a
guard holds ``x ** 2``, ``x ** -1.0`` or ``x ** 0.5``: on a NumPy scalar these call the
C library's ``pow``, not correctly rounded in about 0.1 % of cases, where arrays (and
numba) square, divide and take the root; the two searches then end a few ulps apart
(oblique impact, D-SDS: the contact end 1.3e-19 s apart at 1e-5 s; 32 of 33 case/law
references are identical).  The compiled search is the self-consistent one: its root
is that of the function its samples bracket.

Where the Python search would raise or would need its diagnostics (a guard that is not
finite: :class:`~nsfric.solvers.watch.GuardWatch`, the ``NonFiniteField`` handling of
``first_crossing``; a root bracket without a sign change; a root search that does not
converge), :func:`locate` returns :data:`FALLBACK` and the caller decides the step with
the Python search: rare cases stay in Python.  A guard rate that is not finite (a rate
with a pole where a contact starts) is no such case: it makes that guard's bounds NaN,
as NumPy's maximum does in the Python search, and no window of it is searched.

numba's disk cache keys :func:`~nsfric.solvers.dop853_core.run`, which calls this
module, on the core's file alone: :data:`nsfric.solvers.dop853_core.SEARCH_DIGEST`
holds this file's SHA-256 (a test checks it), so that a change here changes the core's
file too; where the two disagree the core is compiled without its disk cache.
"""
import math

import numpy as np
from numba import njit

#: :func:`locate`'s outcomes
NO_CROSSING, CROSSING, FALLBACK = 0, 1, 2
#: :data:`nsfric.solvers.guard_search.SAFETY`
SAFETY = 4.0
#: ``_minimize_scalar_bounded``'s constants (as that function computes them)
SQRT_EPS = math.sqrt(2.2e-16)
GOLDEN_MEAN = 0.5 * (3.0 - math.sqrt(5.0))
#: ``first_crossing``'s maximiser (``maxiter`` of ``minimize_scalar(method="bounded")``)
#: and root finder options (``_root``)
MAX_FUN = 500
MAX_ITER = 200
XTOL_FACTOR = 4e-16
RTOL = 4 * np.finfo(float).eps


@njit(cache=True, error_model="numpy")
def dense_at(t_old, h, y_old, F, t, out):
    """``Dop853DenseOutput._call_impl`` at one time ``t`` into ``out``."""
    x = (t - t_old) / h
    m = F.shape[0]
    for i in range(y_old.size):
        v = 0.0
        for j in range(m):
            v += F[m - 1 - j, i]
            if j % 2 == 0:
                v *= x
            else:
                v *= 1 - x
        out[i] = v + y_old[i]


@njit(cache=True, error_model="numpy")
def guard_at(guards, t_old, h, y_old, F, p, s, i, y, g):
    """Guard ``i`` at time ``s`` of the step's dense output (``y``, ``g``: scratch)."""
    dense_at(t_old, h, y_old, F, s, y)
    guards(y, p, g)
    return g[i]


@njit(cache=True, error_model="numpy")
def _sign(v):
    """``np.sign`` of a finite number."""
    return 1.0 if v > 0 else (-1.0 if v < 0 else 0.0)


@njit(cache=True, error_model="numpy")
def bounded_minimum(guards, t_old, h, y_old, F, p, i, sign, x1, x2, xatol, y, g):
    """SciPy's ``_minimize_scalar_bounded`` of ``sign * guard_i`` on ``[x1, x2]``
    (``maxiter`` :data:`MAX_FUN`): ``(ok, x, fun)``, ``ok`` False where a value is not
    finite."""
    if not (math.isfinite(x1) and math.isfinite(x2)) or x1 > x2:
        return False, 0.0, 0.0
    a, b = x1, x2
    fulc = a + GOLDEN_MEAN * (b - a)
    nfc, xf = fulc, fulc
    rat = e = 0.0
    x = xf
    fx = sign * guard_at(guards, t_old, h, y_old, F, p, x, i, y, g)
    if not math.isfinite(fx):
        return False, 0.0, 0.0
    num = 1
    ffulc = fnfc = fx
    xm = 0.5 * (a + b)
    tol1 = SQRT_EPS * abs(xf) + xatol / 3.0
    tol2 = 2.0 * tol1
    while abs(xf - xm) > (tol2 - 0.5 * (b - a)):
        golden = True
        if abs(e) > tol1:  # a parabolic fit
            golden = False
            r = (xf - nfc) * (fx - ffulc)
            q = (xf - fulc) * (fx - fnfc)
            pp = (xf - fulc) * q - (xf - nfc) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                pp = -pp
            q = abs(q)
            r = e
            e = rat
            if abs(pp) < abs(0.5 * q * r) and pp > q * (a - xf) and pp < q * (b - xf):
                rat = (pp + 0.0) / q
                x = xf + rat
                if (x - a) < tol2 or (b - x) < tol2:
                    si = _sign(xm - xf) + (1.0 if xm - xf == 0 else 0.0)
                    rat = tol1 * si
            else:
                golden = True
        if golden:  # a golden-section step
            if xf >= xm:
                e = a - xf
            else:
                e = b - xf
            rat = GOLDEN_MEAN * e
        si = _sign(rat) + (1.0 if rat == 0 else 0.0)
        x = xf + si * max(abs(rat), tol1)
        fu = sign * guard_at(guards, t_old, h, y_old, F, p, x, i, y, g)
        if not math.isfinite(fu):
            return False, 0.0, 0.0
        num += 1
        if fu <= fx:
            if x >= xf:
                a = xf
            else:
                b = xf
            fulc, ffulc = nfc, fnfc
            nfc, fnfc = xf, fx
            xf, fx = x, fu
        else:
            if x < xf:
                a = x
            else:
                b = x
            if fu <= fnfc or nfc == xf:
                fulc, ffulc = nfc, fnfc
                nfc, fnfc = x, fu
            elif fu <= ffulc or fulc == xf or fulc == nfc:
                fulc, ffulc = x, fu
        xm = 0.5 * (a + b)
        tol1 = SQRT_EPS * abs(xf) + xatol / 3.0
        tol2 = 2.0 * tol1
        if num >= MAX_FUN:
            break
    return True, xf, fx


@njit(cache=True, error_model="numpy")
def _signbit(v):
    return math.copysign(1.0, v) < 0


@njit(cache=True, error_model="numpy")
def brentq(guards, t_old, h, y_old, F, p, i, xa, xb, xtol, rtol, maxiter, y, g):
    """SciPy's ``brentq`` (its C source) on guard ``i`` over ``[xa, xb]``: ``(ok,
    root)``, ``ok`` False where SciPy would raise (no sign change, no convergence in
    ``maxiter`` iterations) or a value is not finite."""
    xpre, xcur = xa, xb
    xblk = fblk = spre = scur = 0.0
    fpre = guard_at(guards, t_old, h, y_old, F, p, xpre, i, y, g)
    fcur = guard_at(guards, t_old, h, y_old, F, p, xcur, i, y, g)
    if not (math.isfinite(fpre) and math.isfinite(fcur)):
        return False, 0.0
    if fpre == 0:
        return True, xpre
    if fcur == 0:
        return True, xcur
    if _signbit(fpre) == _signbit(fcur):
        return False, 0.0
    for _ in range(maxiter):
        if fpre != 0 and fcur != 0 and _signbit(fpre) != _signbit(fcur):
            xblk = xpre
            fblk = fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre = xcur
            xcur = xblk
            xblk = xpre
            fpre = fcur
            fcur = fblk
            fblk = fpre
        delta = (xtol + rtol * abs(xcur)) / 2
        sbis = (xblk - xcur) / 2
        if fcur == 0 or abs(sbis) < delta:
            return True, xcur
        if abs(spre) > delta and abs(fcur) < abs(fpre):
            if xpre == xblk:  # interpolate
                stry = -fcur * (xcur - xpre) / (fcur - fpre)
            else:  # extrapolate
                dpre = (fpre - fcur) / (xpre - xcur)
                dblk = (fblk - fcur) / (xblk - xcur)
                stry = -fcur * (fblk * dblk - fpre * dpre) / (dblk * dpre * (fblk - fpre))
            lim = 3 * abs(sbis) - delta
            if 2 * abs(stry) < (abs(spre) if abs(spre) < lim else lim):  # a good short step
                spre = scur
                scur = stry
            else:
                spre = sbis
                scur = sbis
        else:  # bisect
            spre = sbis
            scur = sbis
        xpre = xcur
        fpre = fcur
        if abs(scur) > delta:
            xcur += scur
        else:
            xcur += delta if sbis > 0 else -delta
        fcur = guard_at(guards, t_old, h, y_old, F, p, xcur, i, y, g)
        if not math.isfinite(fcur):
            return False, 0.0
    return False, xcur


@njit(cache=True, error_model="numpy")
def root(guards, t_old, h, y_old, F, p, i, a, b, y, g):
    """``guard_search._root``: the zero of guard ``i`` on ``[a, b]`` (``(ok, root)``)."""
    gb = guard_at(guards, t_old, h, y_old, F, p, b, i, y, g)
    if not math.isfinite(gb):
        return False, 0.0
    if gb == 0.0:
        return True, b
    scale = max(abs(a), abs(b))
    if scale == 0.0:
        scale = b - a
    xtol = XTOL_FACTOR * scale
    if not xtol > 0:
        return False, 0.0
    return brentq(guards, t_old, h, y_old, F, p, i, a, b, xtol, RTOL, MAX_ITER, y, g)


@njit(cache=True, error_model="numpy")
def _nan_max(a, b):
    """``np.maximum``: NaN where either is."""
    return a + b if math.isnan(a) or math.isnan(b) else max(a, b)


@njit(cache=True, error_model="numpy")
def bounds(tt, G, R, UB):
    """``guard_search._bounds`` on the samples: the excursion bound of every guard on
    every interval into ``UB`` (``(n_points - 1, n_guards)``), NaN where a rate is (as
    NumPy's maximum propagates it: no window of that guard is searched)."""
    n_pts, n_guards = G.shape[0], UB.shape[1]
    for i in range(n_guards):
        curv = 0.0
        for k in range(n_pts - 1):
            curv = _nan_max(curv, abs(R[k + 1, i] - R[k, i]) / (tt[k + 1] - tt[k]))
        curv = SAFETY * curv
        for k in range(n_pts - 1):
            hk = tt[k + 1] - tt[k]
            Rk = _nan_max(abs(R[k, i]), abs(R[k + 1, i])) + 0.5 * curv * hk
            UB[k, i] = 0.5 * (G[k, i] + G[k + 1, i] + Rk * hk)


@njit(cache=True, error_model="numpy")
def locate(guards, t_old, t_new, h, y_old, F, p, n_check, n_guards, at_start, G, R, y, g, hit):
    """``first_crossing`` on one step (see module docstring) from the guards ``G`` and
    rates ``R`` sampled at ``numpy.linspace(t_old, t_new, n_check + 2)``
    (:func:`~nsfric.solvers.dop853_core.sample`): :data:`NO_CROSSING`,
    :data:`CROSSING` (``hit = [time, guard index]``) or :data:`FALLBACK`."""
    n_pts = n_check + 2
    step = (t_new - t_old) / (n_pts - 1)
    if not step > 0:
        return FALLBACK
    tt = np.empty(n_pts)
    for k in range(n_pts):
        tt[k] = k * step + t_old
    tt[n_pts - 1] = t_new
    for k in range(n_pts):
        for i in range(n_guards):
            if not math.isfinite(G[k, i]):
                return FALLBACK
    UB = np.empty((n_pts - 1, n_guards))
    have_bounds = False
    xatol = 1e-14 * max(1.0, abs(t_new))
    best_t, best_i = 0.0, -1
    for i in range(n_guards):
        if at_start and G[0, i] >= 0 and G[1, i] > G[0, i]:
            if not have_bounds:
                bounds(tt, G, R, UB)
                have_bounds = True
            if R[0, i] < 0:  # a dip below the surface inside the first interval?
                ok, mx, mfun = bounded_minimum(guards, t_old, h, y_old, F, p, i, 1.0, tt[0], tt[1], xatol, y, g)
                if not ok:
                    return FALLBACK
                if mfun < 0:
                    ok, r = root(guards, t_old, h, y_old, F, p, i, mx, tt[1], y, g)
                    if not ok:
                        return FALLBACK
                    if best_i < 0 or r < best_t:
                        best_t, best_i = r, i
                    continue
            hit[0], hit[1] = t_old, i
            return CROSSING
        # a crossing: a strictly negative sample followed by a non-negative one
        found = False
        lo_t = hi_t = 0.0
        last = n_pts - 1
        for k in range(n_pts - 1):
            if G[k, i] < 0 and not G[k + 1, i] < 0:
                found = True
                lo_t, hi_t = tt[k], tt[k + 1]
                last = k
                break
        # hidden excursions before it, where the rates do not exclude one (_windows)
        if last > 0:
            if not have_bounds:
                bounds(tt, G, R, UB)
                have_bounds = True
            k = 0
            while k < last:
                j = k + 1
                lo = hi = -1
                if j < last and G[j, i] < 0 and G[j, i] >= G[j - 1, i] and G[j, i] >= G[j + 1, i]:
                    if UB[k, i] >= 0 or UB[j, i] >= 0:
                        lo, hi = k, j + 1
                    k += 2
                else:
                    if UB[k, i] >= 0 and G[k, i] < 0 and G[j, i] < 0 and not (at_start and k == 0):
                        lo, hi = k, j
                    k += 1
                if lo < 0:
                    continue
                ok, mx, mfun = bounded_minimum(guards, t_old, h, y_old, F, p, i, -1.0, tt[lo], tt[hi], xatol, y, g)
                if not ok:
                    return FALLBACK
                if -mfun >= 0:
                    found = True
                    lo_t, hi_t = tt[lo], mx
                    break
        if not found:
            continue
        ok, r = root(guards, t_old, h, y_old, F, p, i, lo_t, hi_t, y, g)
        if not ok:
            return FALLBACK
        if best_i < 0 or r < best_t:
            best_t, best_i = r, i
    if best_i < 0:
        return NO_CROSSING
    hit[0], hit[1] = best_t, best_i
    return CROSSING
