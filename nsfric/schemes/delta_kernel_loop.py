"""The delta schemes' compiled batch loop with the scheme as data: template of a generated module.

This file is not imported to run: :mod:`nsfric.schemes.delta_generic` takes the text
after the marker line below and prepends the model's part -- ``evaluate(u, p, w, fp,
fm) -> (g, lam, brake)`` (the pieces of :class:`~nsfric.schemes.delta.DeltaField` at
the state ``u``), ``prepare(p, w)`` (the parameters' subexpressions) and
``reset_state(u, p)`` (the sliding mode's reset map, in place), wrappers of the model's
compiled field module of :mod:`nsfric.schemes.delta_kernel` -- with ``njit`` and the
pure decisions of :mod:`nsfric.schemes.delta_rules` and
:mod:`nsfric.schemes.stick_rules`.  One compiled loop per model serves every scheme of
the two families, read at run time (:class:`~nsfric.schemes.delta_generic.DeltaPlan`):

* explicit Runge-Kutta in tableau form
  (:meth:`~nsfric.schemes.rk.ExplicitRK.tableau_step`): per stage ``i`` the stage
  state ``y = u + (a_ij h) k_j`` accumulated over the nonzero ``a_ij`` in row order
  (CSR ``a_ptr``, ``a_col``, ``a_val``; an empty row is ``u`` itself, whose rate the
  step's start already holds), then ``u + (h/D) acc`` with ``acc`` the sum of the
  nonzero ``(D b_j) k_j`` in stage order;
* BDF-k in predictor-corrector form
  (:meth:`~nsfric.schemes.gear.BDFPredictorCorrector.step`, ``k > 0``): ``k`` steps
  of the tableau (RK4's) fill the history (newest first), then the predictor
  ``0 + sum_j c_j y_{n-j}``, the base ``0 + sum_j a_j y_{n-j}`` and ``corrections``
  times ``base + (beta h) f(y)``.

Every operation is the NumPy loop's (:mod:`nsfric.schemes.delta_loop`) in the same
order and association, member by member, so the members equal the NumPy runs bit for
bit (tested, and equal to the traced loop of the same scheme).
"""
# ---- loop ----
import numpy as _np


@njit(cache=True)
def _rates(stuck, g, lam, fp, fm, k):
    """The rate of :meth:`~nsfric.schemes.delta.DeltaField.rates` into ``k``: ``f_I``,
    ``f_II`` or eq 9's combination, as :func:`delta_choice` decides."""
    c = delta_choice(stuck, g, lam)
    for j in range(k.shape[0]):
        k[j] = fp[j] if c == 1 else (fm[j] if c == -1 else (1.0 - lam) * fp[j] + lam * fm[j])


@njit(cache=True)
def run(u_init, p_all, h, t0, n_steps, rows, y_out, m_out, ev_step, ev_kind, ev_from, ev_to, n_ev, nfev,
        projection, rule, b0, b1, a_ptr, a_col, a_val, nb, den, k, c, a, beta, corrections, projected, n_pre):
    n, n_params = u_init.shape[0], p_all.shape[0]
    room = ev_step.shape[1]
    u, un, y, acc, base = _np.empty(n), _np.empty(n), _np.empty(n), _np.empty(n), _np.empty(n)
    FP, FM, QP, QM = _np.empty(n), _np.empty(n), _np.empty(n), _np.empty(n)
    fp, fm, kk = _np.empty(n), _np.empty(n), _np.empty(n)
    ks = _np.empty((nb.shape[0], n))
    hist = _np.empty((max(k, 1), n))
    p = _np.empty(n_params)
    w = _np.empty(n_pre)
    for b in range(b0, b1):
        for i in range(n_params):
            p[i] = p_all[i, b]
        for j in range(n):
            u[j] = u_init[j, b]
        prepare(p, w)
        G, LAM, B = evaluate(u, p, w, FP, FM)
        nf = 1
        ST = G == 0 and LAM >= 0 and LAM <= 1
        SD = delta_side(ST, G, LAM)
        for j in range(n):
            y_out[j, b, 0] = u[j]
        m_out[b, 0] = SD
        r = 1
        ne = 0
        nh = 0  # history length (BDF: grows to k in the RK4 start)
        for i in range(n_steps):
            cs = False  # g reached or crossed 0 at an evaluation inside the step
            if k > 0 and nh == k:  # BDF-k: predictor, base, corrections (BDFPredictorCorrector.step's order)
                for j in range(n):
                    x = 0.0 + c[0] * u[j]
                    for m in range(k):
                        x = x + c[m + 1] * hist[m, j]
                    y[j] = x
                    x = 0.0 + a[0] * u[j]
                    for m in range(k - 1):
                        x = x + a[m + 1] * hist[m, j]
                    base[j] = x
                bh = beta * h
                for _corr in range(corrections):
                    g, lam, _brake = evaluate(y, p, w, fp, fm)
                    nf += 1
                    cs = cs or G * g <= 0.0
                    _rates(ST, g, lam, fp, fm, kk)
                    for j in range(n):
                        un[j] = base[j] + bh * kk[j]
                        y[j] = un[j]
            else:  # the tableau (of the scheme, or of BDF's RK4 start)
                for stage in range(nb.shape[0]):
                    if a_ptr[stage] == a_ptr[stage + 1]:  # the stage state is u: the start's pieces
                        _rates(ST, G, LAM, FP, FM, ks[stage])
                        continue
                    for j in range(n):
                        y[j] = u[j]
                    for q in range(a_ptr[stage], a_ptr[stage + 1]):
                        ah = a_val[q] * h
                        for j in range(n):
                            y[j] = y[j] + ah * ks[a_col[q], j]
                    g, lam, _brake = evaluate(y, p, w, fp, fm)
                    nf += 1
                    cs = cs or G * g <= 0.0
                    _rates(ST, g, lam, fp, fm, ks[stage])
                first = True
                for stage in range(nb.shape[0]):
                    if nb[stage] != 0.0:
                        for j in range(n):
                            acc[j] = nb[stage] * ks[stage, j] if first else acc[j] + nb[stage] * ks[stage, j]
                        first = False
                hd = h / den
                for j in range(n):
                    un[j] = u[j] + hd * acc[j]
            if k > 0:  # the new history: [u] + the old one, at most k states
                top = nh if nh < k else k - 1
                for m in range(top, 0, -1):
                    for j in range(n):
                        hist[m, j] = hist[m - 1, j]
                for j in range(n):
                    hist[0, j] = u[j]
                nh = top + 1
            G1, L1, B1 = evaluate(un, p, w, QP, QM)
            nf += 1
            EV, TO = delta_event(ST, enters_stick(rule, G * G1 <= 0.0, cs, G1, B1, L1, h), G, G1, L1)
            if EV != 0:
                if ne < room:
                    ev_step[b, ne] = i + 1
                    ev_kind[b, ne] = EV
                    ev_from[b, ne] = SD
                    ev_to[b, ne] = TO
                ne += 1
            ST = (ST or EV == STICK) and not EV == SLIP
            SD = delta_side(ST, G1, L1)
            if projection and EV == STICK:
                reset_state(un, p)
                for m in range(nh):  # the multistep history projected: held states from the new one
                    for s in projected:
                        hist[m, s] = un[s]
                G1, L1, B1 = evaluate(un, p, w, QP, QM)
                nf += 1
            for j in range(n):
                u[j] = un[j]
                FP[j] = QP[j]
                FM[j] = QM[j]
            G = G1
            LAM = L1
            if rows[r] == i + 1:
                for j in range(n):
                    y_out[j, b, r] = u[j]
                m_out[b, r] = SD
                r += 1
            finite = False
            for j in range(n):
                finite = finite or math.isfinite(u[j])
            if not finite:
                for j in range(n):
                    for q in range(r, y_out.shape[2]):
                        y_out[j, b, q] = math.nan
                break
        n_ev[b] = ne
        nfev[b] = nf
