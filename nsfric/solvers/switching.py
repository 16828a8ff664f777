"""Mode logic shared by every event-driven solver: what happens at a switching surface.

At a point on ``h = 0`` the indicators ``sigma_pm = grad h . f_pm`` of the two
neighbouring regions decide (Krengel & Matuttis §3, the three scenarios after eq 8):

* both positive (negative): the flow crosses into the plus (minus) region;
* ``sigma_plus < 0 < sigma_minus``: both fields push into the surface -- sliding
  (sticking) with ``lam = sigma_plus/(sigma_plus - sigma_minus)`` in [0, 1];
* ``sigma_plus > 0 > sigma_minus``: both pull away (repulsive, Painlevé-like); the
  trajectory continues in its direction of travel and the event is logged as such.

A side that is not a mode (the D-SDS's forbidden ``|F_S| > F_max``) is entered by
projection onto the surface: the constrained sliding mode.  Where a constrained mode is
left towards a region whose field would return onto it at once (the force jumps
between them), the same decision on the mode's exit indicator, between the two fields,
enters the ``graze`` mode inside it (:meth:`ModeLogic.leave`).
"""
from __future__ import annotations

import numpy as np

from ..errors import ZenoError
from ..solution import Event, Segment
from ..symbolic.frozen import region_at
from .tolerances import _group_tolerances, resolution

__all__ = ["ModeLogic", "ZenoError", "choose_side", "contact_end_surfaces", "indicator_tol", "no_progress",
           "resolution", "sign_beyond", "stalled_at_contact_end", "state_scales", "tangent_tol"]


#: the look-ahead argument of a compiled decision quantity that takes none
_NO_DT = np.zeros(1)
_MISSING = object()


# -- the decision at a surface as plain numbers (also compiled into the batch kernels) ----------
def sign_beyond(x, tol):
    """+1 (-1) where ``x`` exceeds ``tol`` (``-tol``), else 0 (also for NaN)."""
    if x > tol:
        return 1
    if x < -tol:
        return -1
    return 0


def indicator_tol(has_plus, has_minus, s_plus, s_minus):
    """The first-order tolerance: 1e-12 of the larger indicator ``|sigma|`` present."""
    return 1e-12 * max(abs(s_plus) if has_plus else 0.0, abs(s_minus) if has_minus else 0.0, 1e-300)


def tangent_tol(t_plus, t_minus, s2_plus, s2_minus):
    """The second-order tolerance: 1e-12 of the larger ``|d2h/dt2|`` of the tangent sides."""
    return 1e-12 * max(abs(s2_plus) if t_plus else 0.0, abs(s2_minus) if t_minus else 0.0, 1e-300)


def choose_side(has_plus, has_minus, has_slide, a, b, s_sum, from_side):
    """Where the flow continues from a switching surface (see :class:`ModeLogic`):
    1 the plus region, -1 the minus region, 0 the sliding mode, 2 neither side exists.

    ``a``, ``b``: directions of the plus and minus fields (:meth:`ModeLogic.directions`),
    ``s_sum = sigma_plus + sigma_minus``, ``from_side``: +1 (-1) when coming from the
    plus (minus) region, else 0.
    """
    if has_plus and has_minus:
        if a > 0 and b > 0:
            return 1
        if a < 0 and b < 0:
            return -1
        if a <= 0 <= b and has_slide and (a < 0 or b > 0):
            return 0
        # tangential or repulsive: continue in the direction of travel
        if from_side == 1:
            return -1 if (a < 0 or b < 0) else 1
        if from_side == -1:
            return 1 if (a > 0 or b > 0) else -1
        return 1 if s_sum >= 0 else -1
    if has_plus:  # minus side forbidden
        return 0 if (a < 0 and has_slide) else 1
    if has_minus:
        return 0 if (b > 0 and has_slide) else -1
    return 2


class ModeLogic:
    """Decisions at switching events for one derived model and parameter vector."""

    def __init__(self, derived, p, scales=None, compiled=None):
        self.d = derived
        self.m = derived.model
        self.p = p
        #: ``scales(mode, y)``: :func:`state_scales` of ``mode``'s guards computed otherwise
        #: (compiled), or None where it cannot; None: always :func:`state_scales`
        self.scales = scales
        #: ``compiled(key, f)``: the compiled form of the derived function ``f`` stored as
        #: ``key`` (:class:`~nsfric.solvers.decisions.CompiledDecisions`: the same numbers), or
        #: None where it has none; None: the generated NumPy functions always
        self.compiled = compiled
        self._p = np.ascontiguousarray(p, dtype=float) if compiled is not None else None
        self._fns = {}  # derived functions by their key (:meth:`_function`)

    def acted_on(self, guards):
        """Of the guards that fired at one event (a DAE solver's root search reports them
        together), the one the switch follows: a contact end first -- the free modes
        carry no tangential force, so a tangential decision at that point has no
        consequence, and the tangential guards may pass through a pole there (the stick
        exit holds ``d sqrt(|delta|)/dt`` of a Kuwabara-Kono force) -- else the first."""
        ends = contact_end_surfaces(self.m)
        first = [g for g in guards if isinstance(g.target, tuple) and g.target[1] in ends]
        return (first or list(guards))[0]

    def value(self, what, key, y, t=None):
        """A decision quantity of the derived model at ``y``: ``what`` in ``"sigma"``,
        ``"sigma2"`` (``key = (surface, region)``), ``"guards"``, ``"guard_rates"``
        (``key = (mode,)``).  At an event (time ``t`` given) with the forward one-sided
        rate at the kinks of ``|u|`` (:meth:`DerivedModel.one_sided` with the look-ahead
        :func:`resolution`): at ``F_n = 0`` the friction limit ``mu |F_n|`` grows again
        whichever side of the kink the located event lies on."""
        if t is not None:
            key1 = ("one_sided", what) + key
            f = self._function(key1)
            if f is not None:
                return self._eval(key1, f, y, resolution(t))
        key0 = (what,) + key
        return self._eval(key0, self._function(key0), y)

    def _function(self, key):
        """The derived function stored as ``key`` (:data:`~nsfric.symbolic.frozen.CACHED`;
        ``("guards", mode)``: the function alone), looked up once per solve."""
        f = self._fns.get(key, _MISSING)
        if f is _MISSING:
            what, *rest = key
            f = getattr(self.d, what)(*rest)
            self._fns[key] = f = f[1] if what == "guards" else f
        return f

    def _eval(self, key, f, y, dt=None):
        """``f(y, p)`` (``f(y, p, [dt])`` with a look-ahead ``dt``) as a float array, by its
        compiled form where :attr:`compiled` gives one."""
        c = None if self.compiled is None else self.compiled(key, f)
        if c is not None:  # a value that is not finite: the NumPy function's, with its warnings
            out = c(np.ascontiguousarray(y, dtype=float), self._p, _NO_DT if dt is None else np.array([dt]))
            if out is not None:
                return out
        return np.asarray(f(y, self.p) if dt is None else f(y, self.p, [dt]), dtype=float)

    def sigma(self, surface, region, y, t=None):
        return float(self.value("sigma", (surface, region), y, t)[0])

    def entry_kind(self, from_mode, to_mode) -> str:
        def label(name):
            mode = self.m.mode(name)
            return mode.entry_kind if self.m.is_sliding(name) else mode.kind

        kind = label(to_mode)
        if from_mode is not None:
            pk = label(from_mode)
            if kind == "slip" and pk == "slip" and not self.m.is_sliding(to_mode):
                return "reversal"
        return kind or "switch"

    def decide(self, surface: str, y, from_mode: str | None, t: float | None = None) -> str:
        """The mode the trajectory continues in after reaching ``surface`` at ``y``
        (at time ``t``: a rate smaller than what the time resolution there changes it
        by counts as zero, see :meth:`directions`)."""
        names, f = self.d.h
        hv = self._eval(("h",), f, y).tolist()  # the switching functions, once for both sides (Python floats)
        plus = region_at(self.m.regions, names, hv, {surface: 1})
        minus = region_at(self.m.regions, names, hv, {surface: -1})
        if plus is None or minus is None:  # on a corner where other surfaces vanish too
            corner = 1e-12 * (1.0 + float(np.max(np.abs(hv))))
            plus = plus or region_at(self.m.regions, names, hv, {surface: 1}, tol=corner)
            minus = minus or region_at(self.m.regions, names, hv, {surface: -1}, tol=corner)
        slide = self.m.sliding_on(surface)
        if slide is not None and not slide.exits and from_mode in (slide.plus, slide.minus):
            return slide.name  # a saturated force: reached from its region, it stays at the limit
        sp_ = self.sigma(surface, plus, y, t) if plus else 0.0
        sm = self.sigma(surface, minus, y, t) if minus else 0.0
        tol = indicator_tol(bool(plus), bool(minus), sp_, sm)
        a, b = self.directions(surface, (plus, sp_), (minus, sm), tol, y, t)
        if plus and not minus and slide is None and a is not None and a < 0:
            return self.forbidden(y, {surface: -1}) or plus
        if minus and not plus and slide is None and b is not None and b > 0:
            return self.forbidden(y, {surface: 1}) or minus
        from_side = 1 if (plus and from_mode == plus) else (-1 if (minus and from_mode == minus) else 0)
        side = choose_side(bool(plus), bool(minus), slide is not None, a or 0, b or 0, sp_ + sm, from_side)
        if side == 1:
            return plus
        if side == -1:
            return minus
        if side == 0:
            return slide.name
        raise RuntimeError(f"no mode on either side of surface {surface!r} at y={y}")

    def leave(self, mode: str, target: str, y, t: float | None = None) -> str:
        """The mode after the exit guard of the sliding mode ``mode`` towards ``target``
        fired at ``y`` (time ``t``): ``target``, unless a ``graze`` mode lies inside
        ``mode`` towards it.  Then its guards hold ``a`` and ``-b``, the rates of the
        exit indicator ``G`` (zero here) along ``mode``'s and ``target``'s fields, and
        the decision is Filippov's on ``G = 0`` (:func:`choose_side` with ``mode`` on
        the side ``G > 0``): ``b > 0 >= a`` (``target`` would return at once) enters the
        graze mode, ``a > 0`` continues ``mode`` (a tangency of its exit), else
        ``target``.  Where ``G`` is beyond zero (its one-sided value past a kink of the
        guards, by more than :func:`_group_tolerances`) the exit is ``target``.  A rate within ``1e-12`` of the larger, widened by what the event's
        time resolution moves it by, counts as zero."""
        graze = self.m.graze_of(mode, target)
        if graze is None:
            return target
        # the exit indicator itself beyond zero (it jumps where the bound has a kink,
        # mu |F_n| at F_n = 0): a plain exit; at zero, the rates decide
        gs, gf = self.d.guards(mode)
        vals, rates = self.value("guards", (mode,), y, t), self.value("guard_rates", (mode,), y, t)
        scales = self.scales(mode, y) if self.scales is not None else None
        tol, _ = _group_tolerances(gs, vals, rates, y, t, scales if scales is not None else state_scales(gf, y, self.p))
        i = next(j for j, g in enumerate(gs) if g.target == target)
        if vals[i] > tol[i]:
            return target
        g = self.value("guards", (graze,), y, t)[:2]
        a, b = float(g[0]), -float(g[1])
        dt = 0.0 if t is None else resolution(t)
        rates = np.abs(self.value("guard_rates", (graze,), y, t)[:2]) * dt
        tol = indicator_tol(True, True, a, b)
        da, db = sign_beyond(a, tol + rates[0]), sign_beyond(b, tol + rates[1])
        side = choose_side(True, True, True, da, db, a + b, 1)
        return graze if side == 0 else (mode if side == 1 else target)

    def forbidden(self, y, override: dict):
        """The constrained sliding mode whose forbidden side holds at ``y`` (with the
        signs ``override`` forced), or ``None``: crossing another surface into it (a
        D-SDS contact beginning with ``|F_S| > F_max``) projects onto that mode."""
        names, f = self.d.h
        vals = dict(zip(names, f(y, self.p)))
        for s in self.m.slidings:
            if s.kind != "constrained" or (s.plus is not None and s.minus is not None):
                continue
            if (vals[s.surface] > 0) != (s.plus is None):
                continue
            signs = self.m.mode(s.minus if s.plus is None else s.plus).signs
            if all(override.get(n, sg) == sg and (n in override or sg * vals[n] > 0)
                   for n, sg in signs.items() if n != s.surface):
                return s.name
        return None

    def directions(self, surface, plus, minus, tol, y, t=None):
        """Where the fields of the two neighbouring regions carry the flow off ``surface``
        (+1 into ``h > 0``, -1 into ``h < 0``, 0 undecided; ``None`` for a missing side).

        First order: the sign of ``sigma = grad h . f`` beyond ``tol``.  At a tangency
        (``|sigma| <= tol``, e.g. a start at rest on the surface of the hump model) the
        second-order test of Piiroinen & Kuznetsov (2008): the sign of
        ``d2h/dt2 = grad(grad h . f) . f`` (:meth:`DerivedModel.sigma2`).

        With the event time ``t`` given, ``sigma`` is also zero when it is smaller than
        ``|d2h/dt2| dt`` with ``dt = 8 eps max(1, |t|)``, the resolution of the located
        event time (its root search stops within about 2 ulp): a shift of the event by
        that much would change its sign.  E.g. the D-SDS stick onset at ``v = gamma
        F_max/(m k)`` with ``k = 1e6, gamma = 1e-3`` near ``t = 4``: one ulp of ``t``
        moves ``sigma`` by ``k ulp(t) ~ 1e-9`` while ``sigma``'s terms are ``1e-3``.
        """
        dt = None if t is None else resolution(t)
        out, s2 = [], [0.0, 0.0]
        for region, sig in (plus, minus):
            if region is None:
                out.append(None)
                continue
            i = len(out)
            if dt is not None:  # the time resolution of the event widens the tangency band
                s2[i] = float(self.value("sigma2", (surface, region), y, t)[0])
                out.append(sign_beyond(sig, max(tol, abs(s2[i]) * dt)))
            else:
                out.append(sign_beyond(sig, tol))
                if out[-1] == 0:
                    s2[i] = float(self.value("sigma2", (surface, region), y)[0])
        ta, tb = out[0] == 0, out[1] == 0
        if ta or tb:
            tol2 = tangent_tol(ta, tb, s2[0], s2[1])
            out = [sign_beyond(s2[i], tol2) if out[i] == 0 else out[i] for i in range(2)]
        return out

    def project(self, mode: str, y):
        """Apply the reset map of a sliding mode (exact projection onto its surface) or of
        a region that declares one (a history state set on entry)."""
        if self.m.is_sliding(mode):
            return np.asarray(self.d.reset(mode)(y, self.p), dtype=float)
        if self.m.mode(mode).reset:
            return np.asarray(self.d.region_reset(mode)(y, self.p), dtype=float)
        return np.asarray(y, dtype=float)

    def initial_mode(self, y0, tol=1e-14):
        """Mode at the initial state, and the reset event if ``y0`` had to be projected."""
        names, f = self.d.h
        hv = f(y0, self.p)
        scale = 1.0 + float(np.max(np.abs(y0)))
        on = [n for n, v in zip(names, hv) if abs(v) <= tol * scale]
        if on:
            mode = self.decide(on[0], y0, None)
        else:
            mode = self.d.region_at(y0, self.p)
        if mode is None:  # inside a forbidden region: project onto the constrained mode
            vals = dict(zip(names, hv))
            for s in self.m.slidings:
                if s.kind != "constrained":
                    continue
                forbidden_plus = s.plus is None and vals[s.surface] > 0
                forbidden_minus = s.minus is None and vals[s.surface] < 0
                if forbidden_plus or forbidden_minus:
                    mode = s.name
                    break
            if mode is None:
                bad = [f"{n} = {v:g}" for n, v in zip(names, hv) if not np.isfinite(v)]
                if bad:  # a NaN switching function puts the state in no mode
                    from ..errors import NonFiniteField

                    raise NonFiniteField(f"the switching functions of {self.m.name!r} are not finite ("
                                         f"{', '.join(bad)}) at the initial state {y0}; check the law's "
                                         "expressions (0/0, log or sqrt of a negative, nan) and its parameters")
                raise ValueError(f"initial state {y0} lies in no mode of {self.m.name!r}")
        return mode

    def start(self, t0: float, y0):
        """Initial mode and state: the mode at ``y0``, the projection onto a sliding
        surface if ``y0`` lies in a forbidden region (the D-SDS reset), and any switch
        that is active at once.  Returns ``(mode, y, events, pre)`` where ``pre`` is the
        zero-length segment holding the state before the reset (or ``None``)."""
        y = np.asarray(y0, dtype=float)
        mode = self.initial_mode(y)
        events, pre = [], None
        if self.m.is_sliding(mode):
            y_new = self.project(mode, y)
            if not np.array_equal(y_new, y):
                events.append(Event(t0, self.entry_kind(None, mode), None, mode, tuple(y_new)))
                pre = Segment(mode, t0, t0, None, y.copy(), y.copy())
            y = y_new
        settled = self.settle(mode, y)
        if settled != mode:
            y = self.project(settled, y)
            events.append(Event(t0, self.entry_kind(mode, settled), mode, settled, tuple(y)))
        return settled, y, events, pre

    def switch(self, t: float, y, mode: str, guard):
        """The switch after ``guard`` of ``mode`` fired at ``(t, y)``: decision,
        projection onto a sliding surface, cascading switches.  Returns
        ``(new_mode, y, event)``; ``event`` is ``None`` when the same mode continues
        (grazing contact)."""
        target = guard.target
        new = self.decide(target[1], y, mode, t) if isinstance(target, tuple) else self.leave(mode, target, y, t)
        if new == mode:
            return mode, y, None
        y = self.project(new, y)
        new = self.settle(new, y, t=t)
        y = self.project(new, y)
        return new, y, Event(t, self.entry_kind(mode, new), mode, new, tuple(y))

    def settle(self, mode: str, y, max_iter: int = 8, t: float | None = None):
        """After a switch, follow further switches whose guards are already active.

        A guard is active when it is positive, or when it is zero (to rounding) and the
        mode's own field makes it grow at once (``grad g . f > 0``): e.g. entering D-SDS
        sliding exactly at ``v = gamma F_max/(m k)`` leaves it again at the same instant
        (a tangential exit).  A guard at zero with zero rate (second-order contact, as
        at the D-SDS stick onset) is not active -- except the guard ``h -> 0`` of a
        region whose own field leaves it at second order (``d2h/dt2`` pointing out of
        the region, Piiroinen & Kuznetsov 2008).  A switch back to a mode already
        visited here is a cycle without progress: :func:`no_progress`.
        """
        visited = [mode]
        for _ in range(max_iter):
            gs, gf = self.d.guards(mode)
            if gf is None:
                return mode
            vals = self.value("guards", (mode,), y, t).tolist()  # Python floats: the same comparisons, cheaper
            rates = self.value("guard_rates", (mode,), y, t).tolist()
            scales = self.scales(mode, y) if self.scales is not None else None
            if scales is None:
                scales = state_scales(gf, y, self.p)
            tol, rtol = _group_tolerances(gs, vals, rates, y, t, scales)
            active = [(v, g) for v, r, g, tl, rt in zip(vals, rates, gs, tol, rtol)
                      if v > tl or (v >= -tl and r > rt)]
            if not active:
                active = [(v, g) for v, r, g, tl, rt in zip(vals, rates, gs, tol, rtol)
                          if abs(v) <= tl and abs(r) <= rt and self._leaves(mode, g, y, rt, t)]
            if not active:
                return mode
            _, g = max(active, key=lambda a: a[0])
            if isinstance(g.target, tuple):
                new = self.decide(g.target[1], y, mode, t)
            else:
                new = self.leave(mode, g.target, y, t)
            if new == mode:
                return mode
            if new in visited:
                raise no_progress("", None, y, visited + [new])
            mode = new
            visited.append(mode)
        raise ZenoError(f"Zeno/chattering: mode switches do not settle at y={y} "
                        f"(modes {' -> '.join(visited)}); no mode has a consistent "
                        f"continuation here -- does the model lack a sliding mode?")

    def _leaves(self, mode, guard, y, tol, t=None):
        """The region ``mode``'s own field leaves it through ``guard``'s surface at
        second order: ``-sign d2h/dt2 > 0``."""
        if not isinstance(guard.target, tuple) or self.m.is_sliding(mode):
            return False
        surface = guard.target[1]
        sign = self.m.mode(mode).signs[surface]
        return -sign * float(self.value("sigma2", (surface, mode), y, t)[0]) > tol


#: :func:`state_scales`' relative difference of the states
SCALE_STEP = 1e-4


def state_scales(f, y, p, step=SCALE_STEP):
    """``sum_j |df_i/dy_j| |y_j|`` for each output ``f_i`` of ``f(y, p)``: the size of
    the terms the states contribute to ``f_i``, in ``f_i``'s own units -- what rounding
    of the states moves ``f_i`` by, relative.  Estimated by relative differences
    (``y_j -> y_j (1 + step)``); a state at zero contributes nothing."""
    y = np.asarray(y, dtype=float)
    f0 = np.asarray(f(y, p), dtype=float).reshape(-1)
    out = np.zeros_like(f0)
    for j, yj in enumerate(y):
        if yj == 0.0 or not np.isfinite(yj):
            continue
        yp = y.copy()
        yp[j] = yj * (1.0 + step)
        d = np.abs(np.asarray(f(yp, p), dtype=float).reshape(-1) - f0) / step
        out += np.where(np.isfinite(d), d, 0.0)
    return out


def contact_end_surfaces(model) -> set:
    """The switching functions whose zero ends a contact: those the free regions of a
    normal law (kind ``contact-end``) are entered through."""
    return {n for r in model.regions if r.kind == "contact-end" for n in r.signs}


def stalled_at_contact_end(d, p, mode, t, y):
    """The index of the guard of ``mode`` that ends the contact, where an integrator
    that stalled at ``(t, y)`` (its step shrunk to nothing, or every trial non-finite)
    stands on that guard's surface within the time resolution of an event
    (``|g| <= |dg/dt| resolution(t)``), else ``None``.

    The sliding field of a Kuwabara-Kono contact holds ``d sqrt(|delta|)/dt`` (the
    algebraic spring follows ``mu |F_n|``): a pole on the contact end itself, which no
    step crosses.  Reaching the surface to the event resolution *is* locating the
    contact end, before the singular point; anywhere else a stall stays an error."""
    gs, gf = d.guards(mode)
    if gf is None:
        return None
    ends = contact_end_surfaces(d.model)
    g = np.asarray(gf(y, p), dtype=float)
    r = np.asarray(d.guard_rates(mode)(y, p), dtype=float).reshape(-1)
    r = np.broadcast_to(r, g.shape)
    for i, guard in enumerate(gs):
        if isinstance(guard.target, tuple) and guard.target[1] in ends and np.isfinite(g[i]) \
                and np.isfinite(r[i]) and abs(g[i]) <= abs(r[i]) * resolution(t):
            return i
    return None


def no_progress(label, t, y, modes) -> ZenoError:
    """The diagnosis of mode switches that return to a mode already entered at the same
    point ``(t, y)`` without the trajectory advancing."""
    where = f"t = {t:.17g}, " if t is not None else ""
    return ZenoError(
        f"{label + ': ' if label else ''}no progress (chattering at one point, not an accumulation "
        f"of events): the switches at {where}"
        f"y = {np.asarray(y).tolist()} return to mode {modes[-1]!r} without the trajectory "
        f"advancing (modes {' -> '.join(modes)}); the mode decisions here contradict each "
        f"other and no mode has a consistent continuation -- check the model's fields, "
        f"guards and sliding modes on this surface (does it lack a sliding mode?), or try "
        f"another solver")
