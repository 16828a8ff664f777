"""Exact static friction per contact for a batch of members: template of a generated module.

This file is not imported to run: :func:`nsfric.symbolic.corner_kernel.kernel` takes the
text after the marker line below, prepends the model's contact quantities, eq 21's
reduced tangential masses and the Coulomb law printed from their SymPy expressions
(``quantities(u, p)``, ``meff(u, p)``, ``coulomb_law(f_ext, F_n, mu)``), ``njit``
(numba's, or the identity without numba) and ``fma`` (``a b + c`` rounded once, as NumPy's
products of vectors round), and imports the result from the kernel cache
(:func:`nsfric.symbolic.kernel.load_source`).  Only the assembly is written here, member
by member, in the order of operations of
:meth:`nsfric.symbolic.corner_forces.CornerForces.exact` (which documents the method):
the unilateral normal forces, the dynamic friction of the sliding contacts, the
Gauss-Seidel passes over the stuck contacts (largest normal force first), eq 9 with
eq 13's ``lam`` from eq 22's ``f_ext``, the brake and ``lam`` of the sliding contacts.

Layout: ``U`` (2n, B) states, ``stuck`` (K, B), ``P`` (n_params, B), ``Minv``,
``grav`` (n, B), ``mu`` (B,), ``sweeps`` (Gauss-Seidel passes), ``strongest`` (the
largest normal force first, else the smallest), ``meff_fixed`` (K, B: a fixed
``m_eff,tan`` where not NaN); outputs ``rates`` (2n, B) and ``closed``, ``v_t``,
``lam``, ``F_n``, ``F_t``, ``brake`` (K, B).  ``quantities`` returns ``xi, F_n, v_t,
c_t`` (K each), then ``J_n`` and ``J_t`` row by row (K x n each).
"""
# ---- loop ----
import numpy as _np


@njit(cache=True, error_model="numpy")
def _constrain(f, q, k, F_old, F_n, meff, Minv, mu, K, n, out):
    """Contact ``k``'s eq 9 force against eq 22's ``f_ext`` under ``f`` less its own
    force ``F_old``: ``f0`` (the force without it) into ``out``; returns ``(F, lam)``."""
    jt = 4 * K + K * n + k * n
    for i in range(n):
        out[i] = f[i] - q[jt + i] * F_old
    dot = q[jt] * (Minv[0] * out[0])
    for i in range(1, n):  # J_t M^-1 f0 as NumPy's dot rounds it
        dot = fma(q[jt + i], Minv[i] * out[i], dot)
    F_I, F_II, lam = coulomb_law(meff * (dot + q[3 * K + k]), F_n, mu)
    if 0 <= lam <= 1:
        F = (1 - lam) * F_I + lam * F_II
    else:
        F = F_I if lam < 0 else F_II
    return F, lam


@njit(cache=True, error_model="numpy")
def exact_batch(U, stuck, P, Minv, grav, mu, sweeps, strongest, meff_fixed, rates, closed, v_t, lam, F_n, F_t, brake):
    N, B = U.shape
    n = N // 2
    K = stuck.shape[0]
    f = _np.empty(n)
    f0 = _np.empty(n)
    on = _np.zeros(K, dtype=_np.bool_)
    order = _np.empty(K, dtype=_np.int64)
    me = _np.empty(K)
    for b in range(B):
        u = U[:, b]
        q = quantities(u, P[:, b])
        me21 = meff(u, P[:, b])
        for k in range(K):  # a fixed m_eff,tan (an ingredient switch), else eq 21's
            me[k] = me21[k] if _np.isnan(meff_fixed[k, b]) else meff_fixed[k, b]
        for k in range(K):
            closed[k, b] = q[k] >= 0 and q[K + k] > 0
            F_n[k, b] = q[K + k] if closed[k, b] else 0.0
            v_t[k, b] = q[2 * K + k]
            F_t[k, b] = 0.0
            lam[k, b] = _np.nan
            brake[k, b] = 0.0
        for i in range(n):
            load = q[4 * K + i] * F_n[0, b]
            for k in range(1, K):  # J_n^T F_n as NumPy's matrix-vector product rounds it
                load = fma(q[4 * K + k * n + i], F_n[k, b], load)
            f[i] = grav[i, b] - load
        m = 0
        for k in range(K):
            on[k] = closed[k, b] and (stuck[k, b] or v_t[k, b] == 0)
            if closed[k, b] and not on[k]:
                F_I, F_II, _ = coulomb_law(0.0, F_n[k, b], mu[b])
                F_t[k, b] = F_I if v_t[k, b] > 0 else F_II
                for i in range(n):
                    f[i] = f[i] + q[4 * K + K * n + k * n + i] * F_t[k, b]
            if on[k]:  # stable insertion: the strongest bound first (or the weakest)
                j = m
                while j > 0 and ((F_n[order[j - 1], b] < F_n[k, b]) if strongest
                                 else (F_n[order[j - 1], b] > F_n[k, b])):
                    order[j] = order[j - 1]
                    j -= 1
                order[j] = k
                m += 1
        for _s in range(sweeps if m else 0):
            for j in range(m):
                k = order[j]
                F, lk = _constrain(f, q, k, F_t[k, b], F_n[k, b], me[k], Minv[:, b], mu[b], K, n, f0)
                for i in range(n):
                    f[i] = f0[i] + q[4 * K + K * n + k * n + i] * F
                F_t[k, b] = F
                lam[k, b] = lk
        for k in range(K):  # whether a sliding contact may enter sticking
            if closed[k, b]:
                brake[k, b] = abs(coulomb_law(0.0, F_n[k, b], mu[b])[0]) / me[k]
                if not on[k]:
                    lam[k, b] = _constrain(f, q, k, F_t[k, b], F_n[k, b], me[k], Minv[:, b], mu[b], K, n, f0)[1]
        for i in range(n):
            rates[i, b] = U[n + i, b]
            rates[n + i, b] = Minv[i, b] * f[i]
