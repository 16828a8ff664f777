"""The time loop of the disc heap (Krengel & Matuttis §5): template of a generated module.

This file is not imported to run: :func:`nsfric.papers.krengel_matuttis.heap_run.kernels` takes the text
after the marker line below, prepends the contact laws printed from their SymPy
expressions (``normal_law``, ``coulomb_law``, ``cs_law``; :mod:`nsfric.papers.krengel_matuttis.heap_laws`)
and ``njit`` (numba's, or the identity without numba), and imports the result from the
kernel cache (:func:`nsfric.symbolic.kernel.load_source`), so numba's ``cache=True``
compiles it once per text.  Only kinematics is written here: contact geometry, relative
velocities, the assembly of forces and torques, the per-contact equilibration of the
stuck contacts and Heun's method; every force law comes from the generated functions.
The contacts are found through a neighbour list
(:mod:`nsfric.papers.krengel_matuttis.heap_neighbours`, appended to this text): every loop
over slots visits only the list's candidates, in slot order.

Layout: ``X`` (N, 6) holds ``x, y, theta, vx, vy, omega`` of the discs; a contact slot
``s = i M + j`` (``M = N + n_walls``) is the disc pair ``i < j < N`` or disc ``i`` on
wall ``j - N``.  Slot arrays (length ``N M``): ``xi`` (Cundall-Strack spring), ``stuck`` (exact friction's flag),
``Fs`` (the last tangential force, the warm start of the equilibration), ``gprev`` (the
relative tangential velocity at the start of the step).  ``P`` = ``Y, D, mu, kt_ratio,
gt_ratio, g_x, g_y, sweeps``; ``method`` 0 = exact static friction, 1 = Cundall-Strack,
2 = exact static friction with the velocities of the stuck contacts projected after
every step.
"""
# ---- loop ----
import math as _math

import numpy as _np


@njit(cache=True, error_model="numpy")
def evaluate(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd,
             dX, act, vt, Fn, Ft, lam, xrate, xset, dl, el, geo, defer, cand, nc, vt_only):
    """Rates ``dX`` at ``X`` and the quantities of the candidate slots ``cand[:nc]`` (in
    that order; every slot in contact at ``X`` must be among them); returns the count of
    equilibrated (stuck) contacts.  ``geo`` (slots, 7): n_x, n_y, r_1p, r_2p, m_eff, body 1,
    body 2.  ``vt_only`` (1, else 0): only ``vt`` (and the overlap ``dl``) of the slots, nothing else."""
    N = X.shape[0]
    M = xi.shape[0] // N
    Y, D, mu, kt, gt, gx, gy = P[0], P[1], P[2], P[3], P[4], P[5], P[6]
    F = _np.zeros((N, 3))
    for i in range(N):
        if minv[i] > 0:  # a disc of infinite mass is fixed
            F[i, 0] = gx / minv[i]
            F[i, 1] = gy / minv[i]
    nd_ = 0
    for k in range(nc):
        s = cand[k]
        i = s // M
        j = s - i * M
        if j < N and minv[i] == 0 and minv[j] == 0:  # two fixed discs
            act[s] = 0
            vt[s] = 0.0
            continue
        if j >= N and minv[i] == 0:  # a fixed disc and a wall
            act[s] = 0
            vt[s] = 0.0
            continue
        if j < N:
            dx = X[j, 0] - X[i, 0]
            dy = X[j, 1] - X[i, 1]
            dist = _math.sqrt(dx * dx + dy * dy)
            nx, ny = dx / dist, dy / dist
            d = rad[i] + rad[j] - dist
            b1, b2 = i, j
            m1, I1, r1p, r2p = minv[i], Iinv[i], rad[i] - d / 2, rad[j] - d / 2
            v1x, v1y, w1 = X[i, 3], X[i, 4], X[i, 5]
        else:
            w = j - N
            nx, ny = wall_n[w, 0], wall_n[w, 1]
            d = rad[i] - ((X[i, 0] - wall_p[w, 0]) * nx + (X[i, 1] - wall_p[w, 1]) * ny)
            b1, b2 = -1, i
            m1, I1, r1p, r2p = 0.0, 0.0, 0.0, rad[i] - d / 2
            v1x, v1y, w1 = 0.0, 0.0, 0.0
        tx, ty = -ny, nx
        dvx, dvy = X[b2, 3] - v1x, X[b2, 4] - v1y
        dd = -(dvx * nx + dvy * ny)
        g = dvx * tx + dvy * ty - X[b2, 5] * r2p - w1 * r1p
        vt[s] = g
        dl[s] = d
        if vt_only:
            continue
        h_o, h_f, fn, meff, E = normal_law(d, dd, m1, minv[b2], r1p, r2p, I1, Iinv[b2], Y, D)
        if not (h_o >= 0 and h_f > 0):  # on h_o = 0: a contact if it pushes
            act[s] = 0
            continue
        act[s] = 1
        Fn[s] = fn
        el[s] = E
        geo[s, 0], geo[s, 1], geo[s, 2], geo[s, 3], geo[s, 4] = nx, ny, r1p, r2p, meff
        geo[s, 5], geo[s, 6] = b1, b2
        xrate[s] = 0.0
        xset[s] = _np.nan
        if method == 1:
            FS, xr, hp, hm, Fp, Fm, xp, xm = cs_law(xi[s], g, fn, meff, Y, kt, gt, mu)
            if hp > 0:
                ft = Fp
                xset[s] = xp
            elif hm < 0:
                ft = Fm
                xset[s] = xm
            else:
                ft = FS
                xrate[s] = xr
        elif stuck[s] != 0 or g == 0:
            ft = Fs[s]  # warm start: equilibrated below
            defer[nd_] = s
            nd_ += 1
        else:
            FI, FII, _ = coulomb_law(0.0, fn, mu)
            ft = FI if g > 0 else FII
        Ft[s] = ft
        F[b2, 0] += fn * nx + ft * tx
        F[b2, 1] += fn * ny + ft * ty
        F[b2, 2] -= r2p * ft
        if b1 >= 0:
            F[b1, 0] -= fn * nx + ft * tx
            F[b1, 1] -= fn * ny + ft * ty
            F[b1, 2] -= r1p * ft
    if vt_only:
        return 0
    # the stuck contacts, one after the other (K-M §5: each contact's constraint with its
    # m_eff,tan and eq 22's f_ext from the current accelerations of its two bodies)
    for sweep in range(int(P[7])):
        for k in range(nd_):
            s = defer[k]
            fe = _external(F, geo, s, minv, Iinv) - Ft[s]
            FI, FII, la = coulomb_law(fe, Fn[s], mu)
            lam[s] = la
            if 0 <= la <= 1:
                fnew = (1 - la) * FI + la * FII   # eq 9: the tangential acceleration vanishes (eq 14)
            elif la < 0:
                fnew = FI
            else:
                fnew = FII
            _add_tangential(F, geo, s, fnew - Ft[s])
            Ft[s] = fnew
    nd[0] = nd_
    if method != 1:  # lam of the other contacts: whether they may enter sticking
        for k in range(nc):
            s = cand[k]
            if act[s] != 0 and not (stuck[s] != 0 or vt[s] == 0):
                fe = _external(F, geo, s, minv, Iinv) - Ft[s]
                lam[s] = coulomb_law(fe, Fn[s], mu)[2]
    for i in range(N):
        dX[i, 0], dX[i, 1], dX[i, 2] = X[i, 3], X[i, 4], X[i, 5]
        dX[i, 3] = F[i, 0] * minv[i]
        dX[i, 4] = F[i, 1] * minv[i]
        dX[i, 5] = F[i, 2] * Iinv[i]
    return nd_


@njit(cache=True, error_model="numpy")
def _external(F, geo, s, minv, Iinv):
    """``m_eff,tan`` times the relative tangential acceleration of the contact points
    (eq 22) under the forces ``F`` assembled so far."""
    nx, ny, r1p, r2p, meff = geo[s, 0], geo[s, 1], geo[s, 2], geo[s, 3], geo[s, 4]
    b1, b2 = int(geo[s, 5]), int(geo[s, 6])
    tx, ty = -ny, nx
    a = (F[b2, 0] * tx + F[b2, 1] * ty) * minv[b2] - F[b2, 2] * Iinv[b2] * r2p
    if b1 >= 0:
        a -= (F[b1, 0] * tx + F[b1, 1] * ty) * minv[b1] + F[b1, 2] * Iinv[b1] * r1p
    return meff * a


@njit(cache=True, error_model="numpy")
def _add_tangential(F, geo, s, df):
    nx, ny, r1p, r2p = geo[s, 0], geo[s, 1], geo[s, 2], geo[s, 3]
    b1, b2 = int(geo[s, 5]), int(geo[s, 6])
    F[b2, 0] -= df * ny
    F[b2, 1] += df * nx
    F[b2, 2] -= r2p * df
    if b1 >= 0:
        F[b1, 0] += df * ny
        F[b1, 1] -= df * nx
        F[b1, 2] -= r1p * df


@njit(cache=True, error_model="numpy")
def run(X, xi, stuck, Fs, gprev, P, method, rule, minv, Iinv, rad, wall_p, wall_n, h, n_steps, keep, rows,
        act, vt, Fn, Ft, lam, skin, counts):
    """Heun's method for ``n_steps`` steps of ``h``; every ``keep``-th state (and the
    first) into ``rows`` (n_rows, 9): t/h, centre of mass x, y, kinetic energy, potential
    energy, normal elastic energy, active contacts, stuck contacts, largest overlap/radius.
    Exact friction runs Heun in the tableau form ``u + h/2 (k1 + k2)`` with the stuck flags
    held in the step and decided after it (:mod:`nsfric.schemes.delta`), a contact entering
    sticking by the stick-entry rule ``rule`` (a code of :mod:`nsfric.schemes.stick_rules`,
    decided by its ``enters_stick``); Cundall-Strack in
    the stage form (``(u1 + u2)/2``) with the law's projection of ``xi`` while slipping.

    Every loop over slots visits the candidates of the neighbour list with margin ``skin``
    (``inf``: every slot), in slot order (:mod:`~nsfric.papers.krengel_matuttis.heap_neighbours`):
    a new list at the start of a step whose look-ahead would leave the list's reach, and
    the step done again after a new list where its end state has left it.  The slots new
    in a list get ``vt`` and ``gprev`` at the step's start state; the slots out of the list
    hold the state of a slot out of contact (act, xi, stuck, Fs 0: the given state of an
    unlisted slot is released after the first step, as the all-pairs loop releases it);
    at the end ``vt`` of every slot is computed at the final state and ``gprev = vt``, as
    the all-pairs loop leaves them.  ``counts``: list builds, steps done again, the most
    candidates."""
    N = X.shape[0]
    S = act.shape[0]
    mass = _np.where(minv > 0, 1.0 / minv, 0.0)  # fixed discs: not counted
    dX0 = _np.empty_like(X)
    dX1 = _np.empty_like(X)
    xr0, xs0 = _np.zeros(S), _np.zeros(S)
    xr1, xs1 = _np.zeros(S), _np.zeros(S)
    xi1, xi2 = _np.zeros(S), _np.zeros(S)
    vts, dl, el = _np.zeros(S), _np.zeros(S), _np.zeros(S)
    lam1, vt1, Fn1, Ft1 = _np.zeros(S), _np.zeros(S), _np.zeros(S), _np.zeros(S)
    act1 = _np.zeros(S, _np.int8)
    geo = _np.zeros((S, 7))
    defer = _np.zeros(S, _np.int64)
    nd = _np.zeros(1, _np.int64)
    cand = _np.zeros(S, _np.int64)
    listed = _np.zeros(S, _np.int64)
    Xb = _np.zeros((N, 2))
    reach = _np.zeros(1)
    FULL, VT_ONLY = _np.arange(2)  # evaluate's modes (values, not constants: evaluate compiled once)
    nc = _neighbours(X, 0.0, skin, minv, rad, wall_p, wall_n, cand, listed, Xb, reach, counts)
    evaluate(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd,
             dX0, act, vt, Fn, Ft, lam, xr0, xs0, dl, el, geo, defer, cand, nc, FULL)
    for k in range(nc):
        gprev[cand[k]] = vt[cand[k]]
    r = 0
    for n in range(n_steps + 1):
        if n % keep == 0 or n == n_steps:
            _record(rows, r, n, X, mass, Iinv, P, act, dl, el, stuck, rad, cand, nc)
            r += 1
        if n == n_steps:
            break
        while True:  # the step; again after a new list if its states left the list's reach
            X1 = X + h * dX0
            ahead = 2 * _largest_move(X1, X) if reach[0] < _np.inf else 0.0
            if reach[0] < _np.inf and _largest_move(X, Xb) + ahead >= reach[0]:
                nc = _neighbours(X, ahead, skin, minv, rad, wall_p, wall_n, cand, listed, Xb, reach, counts)
                _velocities(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd, dX1, act, vt, gprev,
                            dl, cand, nc, VT_ONLY)
            _xi_stage(xi1, xi, h, xr0, xs0, act, cand, nc)
            for k in range(nc):
                s = cand[k]
                Fs[s] = Ft[s] if act[s] else 0.0
            evaluate(X1, xi1, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd,
                     dX1, act1, vts, Fn1, Ft1, lam1, xr1, xs1, dl, el, geo, defer, cand, nc, FULL)
            for k in range(nc):
                s = cand[k]
                Fs[s] = Ft1[s] if act1[s] else 0.0
            if method == 1:
                X2 = X + h * dX1
                Xn = 0.5 * X1 + 0.5 * X2
            else:
                Xn = X + (h / 2) * (dX0 + dX1)
            if reach[0] == _np.inf or _largest_move(Xn, Xb) < reach[0]:
                break
            nc = _neighbours(X, max(ahead, _largest_move(Xn, X)), skin, minv, rad, wall_p, wall_n, cand, listed, Xb,
                             reach, counts)
            _velocities(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd, dX1, act, vt, gprev,
                        dl, cand, nc, VT_ONLY)
            counts[1] += 1
        if method == 1:
            _xi_stage(xi2, xi, h, xr1, xs1, act1, cand, nc)
            for k in range(nc):
                s = cand[k]
                xi[s] = 0.5 * xi1[s] + 0.5 * xi2[s]
        X = Xn
        evaluate(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd,
                 dX0, act, vt, Fn, Ft, lam, xr0, xs0, dl, el, geo, defer, cand, nc, FULL)
        changed = False
        for k in range(nc):
            s = cand[k]
            if not act[s]:
                if stuck[s]:
                    changed = True
                stuck[s] = 0
                xi[s] = 0.0
                Fs[s] = 0.0
            elif method != 1:
                g0 = gprev[s]
                brake = abs(coulomb_law(0.0, Fn[s], P[2])[0]) / geo[s, 4]  # mu F_n / m_eff,tan
                stopped = enters_stick(rule, g0 * vt[s] <= 0, g0 * vts[s] <= 0, vt[s], brake, lam[s], h)
                inband = 0 <= lam[s] <= 1
                if not stuck[s] and stopped and inband:
                    stuck[s] = 1
                    changed = True
                elif stuck[s] and not inband:
                    stuck[s] = 0
                    changed = True
            gprev[s] = vt[s]
        if n == 0 and _release_unlisted(stuck, xi, Fs, listed, counts[0]):  # the given state of slots out of contact
            changed = True
        if method == 2 and _project(X, act, stuck, geo, minv, Iinv, cand, nc):
            changed = True
        if changed:  # the next step's first slope with the new flags (and velocities)
            for k in range(nc):
                s = cand[k]
                Fs[s] = Ft[s] if act[s] else 0.0
            evaluate(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd,
                     dX0, act, vt, Fn, Ft, lam, xr0, xs0, dl, el, geo, defer, cand, nc, FULL)
            if method == 2:
                for k in range(nc):
                    gprev[cand[k]] = vt[cand[k]]
        if not _np.all(_np.isfinite(X)):
            rows[r:, :] = _np.nan
            break
    nc = _unlisted(cand, listed, counts[0], N)  # the final vt of every slot, as the all-pairs loop leaves it
    _velocities(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd, dX1, act, vt, gprev, dl, cand, nc,
                VT_ONLY)
    for s in range(S):
        gprev[s] = vt[s]
    return X, xi


@njit(cache=True, error_model="numpy")
def _velocities(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd, dX, act, vt, gprev, dl, cand, nc,
                VT_ONLY):
    """``vt`` of the slots ``cand[:nc]`` at ``X`` (:func:`evaluate`'s, nothing else), and
    ``gprev = vt`` for them: the slots new in a list hold the all-pairs loop's values.
    :func:`evaluate` with ``vt_only`` touches ``vt``, ``dl`` and ``act`` (0 for a pair of
    fixed bodies) only: the other arrays are stand-ins of the right types."""
    evaluate(X, xi, stuck, Fs, P, method, minv, Iinv, rad, wall_p, wall_n, nd, dX, act, vt, vt, vt, vt, vt, vt,
             dl, dl, dX, cand, cand, nc, VT_ONLY)
    for k in range(nc):
        gprev[cand[k]] = vt[cand[k]]


@njit(cache=True, error_model="numpy")
def _project(X, act, stuck, geo, minv, Iinv, cand, nc):
    """Velocity projection of the stuck contacts (K-M §§4, 6, Hairer & Wanner II p 471):
    one after the other, the impulse ``-m_eff,tan v_t`` along the tangent sets the
    contact's relative tangential velocity to zero (eq 21's mass: exactly); each impulse
    removes kinetic energy ``m_eff,tan v_t^2/2``.  Returns the number of projections."""
    k = 0
    for c in range(nc):
        s = cand[c]
        if act[s] == 0 or stuck[s] == 0:
            continue
        nx, ny, r1p, r2p, meff = geo[s, 0], geo[s, 1], geo[s, 2], geo[s, 3], geo[s, 4]
        b1, b2 = int(geo[s, 5]), int(geo[s, 6])
        tx, ty = -ny, nx
        g = X[b2, 3] * tx + X[b2, 4] * ty - X[b2, 5] * r2p
        if b1 >= 0:
            g -= X[b1, 3] * tx + X[b1, 4] * ty + X[b1, 5] * r1p
        J = -meff * g
        X[b2, 3] += J * minv[b2] * tx
        X[b2, 4] += J * minv[b2] * ty
        X[b2, 5] -= r2p * J * Iinv[b2]
        if b1 >= 0:
            X[b1, 3] -= J * minv[b1] * tx
            X[b1, 4] -= J * minv[b1] * ty
            X[b1, 5] -= r1p * J * Iinv[b1]
        k += 1
    return k


@njit(cache=True, error_model="numpy")
def _xi_stage(out, xi, h, rate, xset, act, cand, nc):
    """``out = xi + h rate``, or the law's projection where the contact slips (Führer et al.
    eq 3, the adjustment of :class:`~nsfric.schemes.field.DiscreteField`); 0 out of contact."""
    for k in range(nc):
        s = cand[k]
        if act[s]:
            out[s] = xset[s] if _np.isfinite(xset[s]) else xi[s] + h * rate[s]
        else:
            out[s] = 0.0


@njit(cache=True, error_model="numpy")
def _record(rows, r, n, X, mass, Iinv, P, act, dl, el, stuck, rad, cand, nc):
    N = X.shape[0]
    M = act.shape[0] // N
    mt = 0.0
    cx = cy = ek = ep = 0.0
    for i in range(N):
        mt += mass[i]
        cx += mass[i] * X[i, 0]
        cy += mass[i] * X[i, 1]
        ek += 0.5 * mass[i] * (X[i, 3] ** 2 + X[i, 4] ** 2)
        if Iinv[i] > 0:
            ek += 0.5 * X[i, 5] ** 2 / Iinv[i]
        ep -= mass[i] * (P[5] * X[i, 0] + P[6] * X[i, 1])
    na = ns = 0
    ee = ov = 0.0
    for k in range(nc):
        s = cand[k]
        if act[s]:
            na += 1
            ns += stuck[s]
            ee += el[s]
            ov = max(ov, dl[s] / rad[s // M])
    rows[r, 0] = n
    rows[r, 1], rows[r, 2] = cx / mt, cy / mt
    rows[r, 3], rows[r, 4], rows[r, 5] = ek, ep, ee
    rows[r, 6], rows[r, 7], rows[r, 8] = na, ns, ov
