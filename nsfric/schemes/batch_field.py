"""The discrete field of :class:`~nsfric.schemes.field.DiscreteField` on a batch of
states, for the NumPy path of :mod:`nsfric.schemes.batch`: the same generated functions
evaluated on arrays, the modes as integer codes, and the same per-step adjustment.
"""
from __future__ import annotations

import numpy as np

from .field import Diverged, DiscreteField, Eval, _compiled


class BatchField:
    """:class:`~nsfric.schemes.field.DiscreteField` on states ``U`` (n, B), one
    parameter vector per member (``P`` (n_params, B)): the same generated functions,
    modes as integer codes (index in ``model.mode_names``), and the same adjustment.
    A member whose state is in no region nor forbidden side is decided by its own
    DiscreteField (a surface decision, or its error); ``diverged`` marks the members
    whose evaluation found a non-finite state (a per-member run's ``Diverged``)."""

    stagewise = True
    frozen_mode = None

    def __init__(self, model, P):
        self.model = model
        self.c = _compiled(model)
        self.P = P
        self.modes = list(model.mode_names)
        self.diverged = np.zeros(P.shape[1], dtype=bool)
        self.n_rhs = 0
        self._members = {}

    @property
    def split(self):
        return self.c.split

    def _member(self, b):
        if b not in self._members:
            vals = dict(zip(self.model.param_names, self.P[:, b].tolist()))
            self._members[b] = DiscreteField(self.model, vals)
        return self._members[b]

    def codes(self, U, P=None, members=None):
        """Mode index of each column of ``U`` (-1: non-finite, DiscreteField's
        ``Diverged``); ``members[j]`` is the member of column ``j``."""
        c = self.c
        P = self.P if P is None else P
        hv = c.h(U, P)
        out = np.full(U.shape[1], -2)
        for name, pattern in c.regions:
            sel = out == -2
            for i, sg in pattern:
                sel &= sg * hv[i] > 0
            out[sel] = self.modes.index(name)
        for name, i, side in c.forbidden:
            out[(out == -2) & (side * hv[i] > 0)] = self.modes.index(name)
        rest = np.nonzero(out == -2)[0]
        if rest.size:
            zero = np.any(hv[:, rest] == 0, axis=0)
            finite = np.all(np.isfinite(U[:, rest]), axis=0)
            out[rest[~zero & ~finite]] = -1
            for j in rest[zero | finite]:
                b = j if members is None else members[j]
                try:
                    out[j] = self.modes.index(self._member(int(b)).mode(U[:, j]))
                except Diverged:
                    out[j] = -1
        return out

    def f(self, U) -> Eval:
        """Rates by mode (projected first on a constrained sliding mode)."""
        c, P = self.c, self.P
        codes = self.codes(U)
        self.n_rhs += U.shape[1]
        K = np.full(U.shape, np.nan)
        proj = np.full(U.shape, np.nan)
        for m in np.unique(codes):
            if m < 0:
                continue
            sel = codes == m
            name = self.modes[m]
            u, p = U[:, sel], P[:, sel]
            if name in c.constrained:
                u = c.reset[name](u, p)
                proj[:, sel] = u
            K[:, sel] = c.rhs[name](u, p)
        self.diverged |= codes == -1
        return Eval(K, codes, proj)

    def apply(self, base, hc, ev: Eval, comps=None):
        """:meth:`DiscreteField.apply`, member by member."""
        if comps is None:
            u_new = base + hc * ev.k
        else:
            u_new = np.array(base, dtype=float)
            u_new[comps] += hc * ev.k[comps]
        adjusted = False
        for name in self.c.constrained:
            a = self.c.alg[name]
            sel = ev.mode == self.modes.index(name)
            if (comps is None or a in comps) and sel.any():
                u_new[a, sel] = ev.proj[a, sel]
                adjusted = True
        return u_new, adjusted

    def assign(self, base, hc, u_eval, comps=None):
        ev = self.f(u_eval)
        u_new, adj = self.apply(base, hc, ev, comps)
        return u_new, ev, adj


def mode_codes(model, Y, P, chunk=256):
    """``(codes (B, N), mode names)`` of the rows ``Y`` (n, B, N) of a batched run, as the
    per-member run finds them (-1 for a non-finite row)."""
    fld = BatchField(model, P)
    n, B, N = Y.shape
    codes = np.empty((B, N), dtype=np.int16)
    with np.errstate(all="ignore"):
        for b0 in range(0, B, chunk):
            b1 = min(B, b0 + chunk)
            members = np.repeat(np.arange(b0, b1), N)
            U = Y[:, b0:b1, :].reshape(n, -1)
            finite = np.all(np.isfinite(U), axis=0)
            out = np.full(U.shape[1], -1)
            if finite.any():
                out[finite] = fld.codes(U[:, finite], P[:, members[finite]], members[finite])
            codes[b0:b1] = out.reshape(b1 - b0, N)
    return codes, tuple(model.mode_names)
