"""The stick/slip decision of the multi-contact references at an event
(:class:`ModeDecision`, the decision half of :class:`~nsfric.solvers.contacts.PileLogic`).

**Which contacts are decided.**  The contacts whose normal guard fired open or close; a
closing contact slides with the sign of its ``v_t``.  Every closed contact with ``v_t =
0`` is *undecided*: a stuck one, one whose sliding guard fired, one closing at ``v_t =
0``.  A contact whose stick guard fired must slide (``forced``: it has reached the
bound and the trend crosses it).  The other sliding contacts keep their mode.

**What is consistent** (:meth:`ModeDecision.consistent`, one test for every method):
every stuck undecided contact strictly inside the bound (``|lam| < mu F_n`` by a
relative margin :data:`CONSISTENT`, so that its guard starts positive), every sliding
one accelerating in its sliding direction (``s dv_t/dt >= 0`` up to that margin; one
whose sliding guard fired keeps its direction only if it strictly turns back, ``s
dv_t/dt > 0``); dependent stuck contacts must keep ``dv_t/dt = 0`` with their
least-squares forces.  Among the consistent modes the one with the most stuck contacts
is wanted.

**By a complementarity solve** (``decision="lcp"``, the default, :func:`lcp_mode`): at
``v_t = 0`` the undecided contacts' tangential forces and accelerations solve the
planar friction LCP (:func:`~nsfric.solvers.lcp.friction_lcp`, Lemke's algorithm) with
``W = J_U M^-1 J_U^T`` and ``b = J_U M^-1 f + c_U`` (``f``: gravity, the closed
contacts' normal forces and the decided sliding contacts' Coulomb forces; eq 22 for
several contacts).  The accelerations ``a`` are the same for every solution: a contact
with ``|a_i|`` beyond the margin slides that way; the others stick (a forced one slides
with its forced sign).  That mode is checked by :meth:`~ModeDecision.consistent` with
the mode's own forces (the minimum-norm ones where stuck rows are dependent); a stuck
contact found on or beyond its bound (at the cone's edge, or a minimum-norm split
beyond it) slides instead, the most loaded first, and the check is repeated -- at most
``k`` times.  The cost is polynomial in the number ``k`` of undecided contacts
(``O(k^3)`` per check and for Lemke).  No consistent mode (an LCP without solution, a
check that cannot be met) is a :class:`~nsfric.errors.ZenoError` naming the contacts
and the time.

**By enumeration** (``decision="enumerate"``, the cross-check, :func:`enumerated_modes`):
all ``3^k`` assignments of stick, ``+``, ``-`` are tested; the consistent one with the
most stuck contacts, then the one closest to the old mode, is taken.
"""
from __future__ import annotations

import itertools

import numpy as np

from nsfric.errors import ZenoError
from nsfric.symbolic.contacts import (SLIP_MINUS, SLIP_PLUS, SLIP_SIGN, STICK, contact_quantities,
                                 dependent_contacts, free_force, mode_arrays)
from nsfric.solvers.lcp import RayTermination, friction_lcp

#: relative tolerance of the consistency tests
CONSISTENT = 1e-9
#: the decision methods
DECISIONS = ("lcp", "enumerate")

__all__ = ["CONSISTENT", "DECISIONS", "ModeDecision", "check_decision", "lcp_mode", "enumerated_modes"]


def check_decision(decision: str) -> str:
    """``decision`` if it is one of :data:`DECISIONS`, else ValueError."""
    if decision not in DECISIONS:
        raise ValueError(f"decision must be one of {DECISIONS}, got {decision!r}")
    return decision


class ModeDecision:
    """The decision at an event (module docstring).  Needs ``model``, ``mu``, ``K``,
    ``accel_scale``, ``decision``, ``dependent`` and :meth:`field` of the host."""

    def consistent(self, y, mode, undecided, crossed=None):
        """``(ok, lam, dv_t)`` of ``mode`` at ``y``: the module docstring's conditions on
        the contacts ``undecided``; ``crossed`` is ``{i: s}`` for a contact that slid with
        sign ``s`` until its ``v_t`` reached zero (the margin would let a slow crossing
        continue into a chattering graze).  Stuck contacts whose ``J_t`` rows are
        dependent (:meth:`check_dependent`) must keep ``dv_t/dt = 0`` with the
        least-squares forces (else no finite force holds them all)."""
        self.check_dependent(y, mode)
        dy, lam, _, c = self.field(y, mode)
        dvt = c["J_t"] @ dy[self.model.n:] + c["c_t"]
        scale = self.mu * max(float(np.max(c["F_n"])), 1e-300)
        ascale = max(float(np.max(np.abs(dvt))), self.accel_scale)
        S = mode_arrays(mode)[2]
        ok = mode not in self.dependent or not S or bool(np.max(np.abs(dvt[S])) <= CONSISTENT * ascale)
        for i in undecided:
            if mode[i] == STICK:
                ok &= abs(lam[i]) < self.mu * c["F_n"][i] - CONSISTENT * scale
            elif (crossed or {}).get(i) == mode[i]:
                ok &= SLIP_SIGN[mode[i]] * dvt[i] > 0
            else:
                ok &= SLIP_SIGN[mode[i]] * dvt[i] >= -CONSISTENT * ascale
        return bool(ok), lam, dvt

    def check_dependent(self, y, mode):
        """Record (in :attr:`dependent`) whether ``mode``'s stuck contacts are dependent at
        ``y``; checked at every decision, where a mode is entered."""
        dep = dependent_contacts(self.model, y, self.p, self.Minv, mode_arrays(mode)[2])
        if dep:
            self.dependent[mode] = dep
        else:
            self.dependent.pop(mode, None)

    def undecided(self, y, mode, fired):
        """``(new, undecided, forced, crossed)`` after the guards ``fired`` (indices into
        the guards) at ``y``: the mode with the normal switches applied, the contacts to
        decide, ``{i: s}`` of the forced and of the crossed ones (module docstring)."""
        K = self.K
        _, lam, _, c = self.field(y, mode)
        new = list(mode)
        for i in fired:
            if i < K:
                new[i] = "o" if mode[i] != "o" else (SLIP_PLUS if c["v_t"][i] >= 0 else SLIP_MINUS)
        forced = {i - K: (SLIP_PLUS if lam[i - K] < 0 else SLIP_MINUS)
                  for i in fired if i >= K and mode[i - K] == STICK and new[i - K] != "o"}
        vscale = max(float(np.max(np.abs(c["v_t"]))), 1e-300)
        undecided = [i for i in range(K) if new[i] != "o" and
                     (new[i] == STICK or (i + K) in fired or (mode[i] == "o" and abs(c["v_t"][i]) <= 1e-12 * vscale))]
        crossed = {i - K: mode[i - K] for i in fired if i >= K and mode[i - K] in SLIP_SIGN}
        return "".join(new), undecided, forced, crossed

    def decide(self, y, mode, fired, t=None):
        """The mode after the guards ``fired`` at ``y`` (time ``t``, for messages), chosen
        by the method ``decision`` (module docstring)."""
        new, undecided, forced, crossed = self.undecided(y, mode, fired)
        if not undecided:
            return new
        if self.decision == "enumerate":
            found = enumerated_modes(self, y, mode, new, undecided, forced, crossed)
            best = min(found, key=lambda kv: kv[0])[1] if found else None
        else:
            best = lcp_mode(self, y, new, undecided, forced, crossed, t)
        if best is None:
            raise ZenoError(f"{self.model.name}: no consistent stick/slip assignment of the contacts "
                            f"{[self.model.contacts[i] for i in undecided]} from mode {mode!r}{_at(t)} "
                            "(a Painleve-type paradox)")
        return best


def _at(t):
    return "" if t is None else f" at t = {t:.17g}"


def lcp_mode(logic, y, new, undecided, forced, crossed, t=None):
    """The mode by the friction LCP and at most ``k`` checks (module docstring), or
    ``None`` when no check is met."""
    U = list(undecided)
    trial = list(new)
    for i in U:
        trial[i] = STICK
    c = contact_quantities(logic.model, y, logic.p)
    f = free_force(c, "".join(trial), logic.gravity, logic.mu)[0]
    J = c["J_t"][U]
    W = (J * logic.Minv) @ J.T
    b = J @ (logic.Minv * f) + c["c_t"][U]
    try:
        lam, a, _, pivots = friction_lcp(W, b, logic.mu * np.maximum(c["F_n"][U], 0.0), accel_scale=logic.accel_scale)
    except RayTermination as e:
        raise ZenoError(f"{logic.model.name}: the friction LCP of the contacts {[logic.model.contacts[i] for i in U]}"
                        f"{_at(t)} has no solution (Lemke's algorithm ended on a ray after {e.pivots} pivots: "
                        "a Painleve-type paradox)") from None
    logic.lcp_stats["solves"] += 1
    logic.lcp_stats["pivots"] += pivots
    tol = CONSISTENT * max(float(np.max(np.abs(a))), logic.accel_scale)
    edge = logic.mu * c["F_n"][U] * (1 - CONSISTENT)
    for i, a_i in zip(U, a):
        if abs(a_i) > tol:
            trial[i] = SLIP_PLUS if a_i > 0 else SLIP_MINUS
        elif i in forced:
            trial[i] = forced[i]
    # the most stuck first: every contact (within the margins of the check: dependent
    # contacts' least-squares forces leave dv_t/dt within them); every contact with a = 0;
    # the LCP's own split (a contact at its bound slides); then the loaded ones slide one
    # at a time
    first = "".join(trial)
    split = "".join((SLIP_PLUS if l_i < 0 else SLIP_MINUS) if first[i] == STICK and abs(l_i) >= e_i else first[i]
                    for i, l_i, e_i in _aligned(first, U, lam, edge))
    every = "".join(forced.get(i, STICK) if i in U else ch for i, ch in enumerate(first))
    checked = {}
    for mode in dict.fromkeys((every, first, split)):
        checked[mode] = logic.consistent(y, mode, U, crossed)
        if checked[mode][0]:
            return mode
        logic.lcp_stats["rechecks"] += 1
    return _repaired(logic, y, split, checked[split], U, forced, crossed, c["F_n"])


def _repaired(logic, y, mode, check, U, forced, crossed, F_n):
    """From an inconsistent ``mode`` (``check``: its :meth:`~ModeDecision.consistent`
    result; an LCP solution spoilt by rounding, ``W`` nearly singular), one contact
    repaired at a time, at most ``2 k`` times: the stuck contact most beyond its bound
    slides against its force, else the sliding one accelerating most against its
    direction sticks (a forced one reverses).  The first consistent mode, or ``None``."""
    bound = logic.mu * F_n - CONSISTENT * logic.mu * max(float(np.max(F_n)), 1e-300)
    trial = list(mode)
    for _ in range(2 * len(U)):
        _, lam, dvt = check
        ascale = CONSISTENT * max(float(np.max(np.abs(dvt))), logic.accel_scale)
        load = {i: abs(lam[i]) / max(logic.mu * F_n[i], 1e-300) for i in U
                if mode[i] == STICK and abs(lam[i]) >= bound[i]}
        wrong = {i: -SLIP_SIGN[mode[i]] * dvt[i] for i in U if mode[i] in SLIP_SIGN and
                 (SLIP_SIGN[mode[i]] * dvt[i] <= 0 if crossed.get(i) == mode[i]
                  else SLIP_SIGN[mode[i]] * dvt[i] < -ascale)}
        logic.lcp_stats["repairs"] += 1
        if load:
            i = max(load, key=load.get)
            trial[i] = SLIP_PLUS if lam[i] < 0 else SLIP_MINUS
        elif wrong:
            i = max(wrong, key=wrong.get)
            trial[i] = STICK if i not in forced else (SLIP_PLUS if mode[i] == SLIP_MINUS else SLIP_MINUS)
        else:
            return None
        mode = "".join(trial)
        check = logic.consistent(y, mode, U, crossed)
        if check[0]:
            return mode
        logic.lcp_stats["rechecks"] += 1
    return None


def _aligned(mode, U, lam, edge):
    """``(i, lam_i, edge_i)`` for every contact of ``mode`` (zero force and an infinite
    edge outside ``U``)."""
    full_l, full_e = np.zeros(len(mode)), np.full(len(mode), np.inf)
    full_l[U], full_e[U] = lam, edge
    return zip(range(len(mode)), full_l, full_e)


def enumerated_modes(logic, y, mode, new, undecided, forced, crossed):
    """Every consistent assignment of the ``3^k`` (module docstring) as ``(key, mode)``,
    ``key = (-stuck contacts, contacts changed from mode)`` (the smallest is preferred)."""
    found = []
    for combo in itertools.product((STICK, SLIP_PLUS, SLIP_MINUS), repeat=len(undecided)):
        trial = list(new)
        for i, ch in zip(undecided, combo):
            trial[i] = forced.get(i, ch) if ch == STICK else ch
        trial = "".join(trial)
        if any(trial[i] == STICK for i in forced):
            continue
        if logic.consistent(y, trial, undecided, crossed)[0]:
            found.append(((-trial.count(STICK), sum(a != b for a, b in zip(trial, mode))), trial))
    return found
