"""The batch axis of :class:`~nsfric.solution.Solution`: ``B`` discrete runs in one object.

A batched run (:meth:`BatchMixin.from_batch`) of one scheme on one model, with
parameters (and initial states) that differ per member, keeps ``sol.y`` of shape
``(n, B, N)`` and array-valued ``params`` of shape ``(B,)``; ``sol["v"]`` has shape
``(B, N)``.  The modes of the rows are found when first asked for (by the function the
run hands over); :meth:`BatchMixin.member` gives member ``i`` as an ordinary discrete
Solution.  Ground floor: imports no layer.
"""
from __future__ import annotations

import numpy as np


class BatchMixin:
    """Batch methods of :class:`~nsfric.solution.Solution` (see module docstring)."""

    @classmethod
    def from_batch(cls, model, params, t, Y, mode_codes, *, scheme, dt, t_span, stats=None,
                   termination="reached t_end", steps=None, case=None, law=None, n_steps=None) -> "Solution":
        """A batched discrete run: rows ``t`` (N,), states ``Y`` (n, B, N) of ``B`` members,
        ``params`` by name (an array (B,) where a value differs per member).
        ``mode_codes(Y, P) -> (codes, names)`` gives the mode of every row of every member
        as an index into ``names`` (-1 for a non-finite row), ``P`` the parameter vectors
        (n_params, B); it is called when the modes are first needed.  ``steps`` (B,): the
        steps each member completed, of ``n_steps`` (default: one per row; more when the
        run kept fewer rows, ``store``)."""
        Y = np.asarray(Y, dtype=float)
        if Y.ndim != 3:
            raise ValueError(f"a batched run has states of shape (n, B, N), got {Y.shape}")
        B = Y.shape[1]
        params = {k: (np.broadcast_to(np.asarray(v, dtype=float), (B,)) if np.ndim(v) else v)
                  for k, v in params.items()}
        n_steps = len(t) - 1 if n_steps is None else int(n_steps)
        stats = dict(stats or {})
        stats.setdefault("nsteps", n_steps)
        info = {"steps": np.asarray(steps if steps is not None else np.full(B, n_steps)), "n_steps": n_steps}
        return cls(model, params, scheme, [], [], stats, {"dt": dt}, tuple(map(float, t_span)),
                   termination, np.asarray(t, dtype=float), None, Y, info=info, case=case, law=law,
                   scheme=scheme, dt=dt, batch=B, _mode_codes=mode_codes)

    def param_matrix(self) -> np.ndarray:
        """Parameter vectors of a batched run, ``(n_params, B)`` in ``model.params`` order."""
        return np.array([np.broadcast_to(np.asarray(self.params[q.name], dtype=float), (self.batch,))
                         for q in self.model.params])

    def member_params(self, i: int) -> dict:
        """The parameter values of member ``i`` of a batched run (floats)."""
        self._check_member(i)
        return {k: (float(v[i]) if np.ndim(v) else v) for k, v in self.params.items()}

    def _check_member(self, i):
        if self.batch is None:
            raise ValueError("member() needs a batched solution (simulate with array-valued params)")
        if not (isinstance(i, (int, np.integer)) and -self.batch <= i < self.batch):
            raise ValueError(f"member index must be an integer in [{-self.batch}, {self.batch}), got {i!r}")

    def member(self, i: int) -> "Solution":
        """Member ``i`` of a batched run as an ordinary discrete Solution (its rows, modes,
        segments and derived quantities)."""
        self._check_member(i)
        i = int(i) % self.batch
        Y = np.ascontiguousarray(self._y[:, i, :])
        steps = int(self.info["steps"][i])
        term = "reached t_end" if steps == self.info.get("n_steps", len(self.t) - 1) else \
            f"diverged at t = {self.t_span[0] + (steps - 1) * self.dt + self.dt:.6g}"  # as Scheme.integrate
        stats = {k: v for k, v in self.stats.items() if k in ("nfev", "njev")}
        if "nfev" in stats:
            stats["nfev"] = int(stats["nfev"] // self.batch)
        return type(self).from_steps(self.model, self.member_params(i), self.t, Y, self._member_modes(i),
                                   scheme=self.scheme, dt=self.dt, t_span=self.t_span, stats=stats,
                                   termination=term, case=self.case, law=self.law)

    def _codes(self):
        """``(codes (B, N), names)`` of a batched run, computed once."""
        if self.sample_modes is None:
            self.sample_modes = self._mode_codes(self._y, self.param_matrix())
        return self.sample_modes

    def _member_modes(self, i):
        codes, names = self._codes()
        return [names[c] if c >= 0 else None for c in codes[i].tolist()]

    def _batch_outputs(self, names) -> np.ndarray:
        """Derived quantities ``names`` at every row of every member, (len(names), B, N)."""
        codes, modes = self._codes()
        d = self.model.derived()
        P = self.param_matrix()
        out = np.full((len(names),) + codes.shape, np.nan)
        for c in np.unique(codes):
            if c < 0:
                continue
            sel = codes == c
            onames, f = d.outputs(modes[c])
            vals = f(self._y[:, sel], P[:, np.nonzero(sel)[0]])
            for k, n in enumerate(names):
                out[k][sel] = vals[onames.index(n)]
        return out

    def _not_batched(self, what):
        if self.batch is not None:
            raise ValueError(f"{what} is not defined on a batched solution; take sol.member(i)")
