"""Kuhn, Suzuki & Daouadji's 3D linear-frictional contact: the paper's incremental
algorithm (Fig 1), the conventional add-and-project algorithm, and the exact continuous
reference, all along one prescribed movement.

A :class:`Movement` prescribes, for a clock ``s`` in ``[0, 1]``, the tangential
displacement ``xi(s)`` in the pair's co-rotating tangent plane (body frame, basis
``e1, e2``, normal ``e3``), the overlap ``zeta(s)`` (``f_n = k_n zeta``, eq 1) and the
rigid rotation ``R(s)`` of the pair (body -> space).  Sampled in ``N`` increments it
gives, per step, ``zeta^t``, ``zeta^{t+dt}``, ``Delta_xi`` (in the end-of-step tangent
plane, eq 6), the end-of-step normal ``n`` and the particles' rotation increments
``Delta_theta^p = Delta_theta^q`` (rigid pair).

* :func:`kuhn_step` -- one step of Fig 1: ``alpha_o`` (eqs 7-8), ``alpha_s`` (eqs 9-15,
  branches ``C = 0`` and ``A = 0``/eq 14), the slip direction by eq 18 solved exactly
  (``direction="exact"``) or ODE 16 integrated (``"ode"``), eqs 20-21, projection and
  twirl (eqs 22-23), and the work increments (lines 18, 28, 45, 51-53).  Each refinement
  can be switched off; all off is the conventional add-and-project step.
* :func:`run_kuhn`, :func:`run_conventional` -- ``N`` steps -> a :class:`~nsfric.solution.Solution`.
* :func:`~nsfric.papers.kuhn.reference.reference` -- the continuous law, event-driven (elastic ``df = k_t dxi``
  inside the circle, associated slip on it, switching located by events).

All formulas come from :mod:`nsfric.papers.kuhn.contact_law` (lambdified once).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.spatial.transform import Rotation

from nsfric.solution import Solution
from nsfric.symbolic.codegen import generate
from nsfric.papers.kuhn import contact_law as K
from nsfric.symbolic.laws import k_n as _kn
from nsfric.symbolic.laws import mu as _mu
from nsfric.papers.kuhn.movement import Movement, _v
from nsfric.papers.kuhn.table_variant import TABLE_SIZE, theta_end_from_table

#: frame adjustments of the step: none, eq 22 only, eqs 22-23, eq 22 with the magnitude kept
#: (LAMMPS' project-and-rescale), the exact incremental rotation (including twist)
FRAMES = ("none", "projection", "projection+twirl", "projection+rescale", "rotate")
COLUMNS = ("f_t1", "f_t2", "f_t3", "f_t_body1", "f_t_body2", "f_t_abs", "f_n", "W_n", "W_t",
           "W_t_rev", "W_t_irrev", "alpha_o", "alpha_s")


# -- the paper's formulas, lambdified from nsfric.papers.kuhn.contact_law -----------------------------
@lru_cache(maxsize=1)
def _formulas():
    f = sp.Matrix(sp.symbols("f1:4", real=True))
    d = sp.Matrix(sp.symbols("d1:4", real=True))
    n = sp.Matrix(sp.symbols("n1:4", real=True))
    tp, tq = sp.Matrix(sp.symbols("p1:4", real=True)), sp.Matrix(sp.symbols("q1:4", real=True))
    fn, dz, kn, kt, mu = K.f_n, K.d_zeta, _kn, K.k_t, _mu
    A, B, C = K.slip_coefficients(f, d, fn, dz, mu, kn, kt)
    As, Bs, Cs = sp.symbols("A B C", real=True)
    lam = lambda args, e: generate(e, args, "numpy", cse=False, products=False, raw=True)
    th_exact, th_exact0 = K.theta_end_numeric()
    return {
        "onset": lam((K.zeta_end, K.d_zeta), K.contact_onset()),
        "ABC": lam((*f, *d, fn, dz, mu, kn, kt), [A, B, C]),
        "eq10": lam((As, Bs, Cs), K.slip_onset(As, Bs, Cs)),
        "eq10_c0": lam((As, Bs), K.slip_onset_at_limit(As, Bs)),
        "eq14": lam((Bs, Cs), K.slip_onset_linear(Bs, Cs)),
        "c1": lam((fn, kt, K.dxi_norm, mu), K.c1()),
        "c2": lam((fn, kn, dz), K.c2()),
        "theta_end": th_exact, "theta_end0": th_exact0,
        "K": lam((K.c_1, K.c_2), K.slip_exponent(False)), "K0": lam((K.c_1,), K.slip_exponent(True)),
        "rate": lam((K.theta, K.alpha, fn, kn, dz, kt, K.dxi_norm, mu), K.theta_rate()),
        "project": lam((*f, *n), K.project(f, n)),
        "twirl": lam((*f, *n, *tp, *tq), K.twirl(f, n, tp, tq)),
        "rescale": lam((*f, *d), K.rescale(f, d)),  # (f_projected, f_before)
        "W_rev": lam((*f, *d, kt), K.elastic_work(f, d, kt)),  # (f_start, f_end)
        "W_slip": lam((*d, *f, *n), K.slip_work(d, f, n)),  # (dxi, f_s, f_end)
    }


@dataclass(frozen=True)
class KuhnContact:
    """Stiffnesses and friction coefficient: ``k_n, k_t > 0``, ``mu > 0``; ``eps`` is the
    relative tolerance of the ``A = 0``, ``C = 0`` and ``theta = 0`` tests (Fig 1, ``epsilon``)."""

    k_n: float = 1.0
    k_t: float = 1.0
    mu: float = 0.5
    eps: float = 1e-12

    def __post_init__(self):
        for name in ("k_n", "k_t", "mu", "eps"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be > 0, got {getattr(self, name)}")


@dataclass
class StepResult:
    """One step: tangential force (3D), normal force, work increments, the fractions
    ``alpha_o``/``alpha_s`` (NaN when not used), the mode (``open``, ``elastic``, ``slip``)
    and the rule's own state carried to the next step (the C-SDS's elongation; None)."""

    f_t: np.ndarray
    f_n: float
    W_n: float
    dW_t: float
    dW_t_rev: float
    dW_t_irrev: float
    alpha_o: float = np.nan
    alpha_s: float = np.nan
    mode: str = "elastic"
    state: object = None


def _slip_fraction(F, f_t, dxi, f_n, dz, c, rules):
    """``alpha_s`` of eqs 10-14 (Fig 1 lines 22-29).

    At the limit (``C = 0``) the roots are 0 and ``-2B/A``.  ``rules="paper"`` takes
    the larger (text after eq 13, line 25); ``"corrected"`` takes 0 when ``B < 0``
    (the force leaves the circle at once: when ``A > 0`` the paper's rule then wrongly
    reports an elastic stretch up to ``-2B/A``, e.g. a normal force shrinking faster than
    the tangential loading), else ``-2B/A``.  A force beyond the limit at the start
    (``C < 0``, not covered by the paper; after eq 23, which lengthens ``f`` at second
    order) slips at once."""
    A, B, C = (float(x) for x in F["ABC"](*f_t, *dxi, f_n, dz, c.mu, c.k_n, c.k_t))
    scale_A = (c.mu * c.k_n * dz) ** 2 + c.k_t ** 2 * dxi @ dxi
    if C < -c.eps * (c.mu * f_n) ** 2:
        return 0.0  # already beyond the limit (a frame adjustment can lengthen f): slip at once
    if abs(C) <= c.eps * (c.mu * f_n) ** 2:
        if A == 0 or (rules == "corrected" and B < 0):
            return 0.0
        return float(F["eq10_c0"](A, B))
    if abs(A) <= c.eps * scale_A:
        return float(F["eq14"](B, C))
    return float(F["eq10"](A, B, C))


def _final_angle(F, theta_t, f_n, dz, dxi_norm, c, direction, table_size=TABLE_SIZE):
    """``theta^{t+dt}`` from ``theta^t`` at the slip limit: eq 18 solved exactly, by the
    look-up table (:mod:`.kuhn_table`), or ODE 16 (with eq 17) integrated over
    ``alpha in [0, 1]``; sign by eq 19."""
    if abs(theta_t) <= c.eps:
        return theta_t  # line 34
    if direction == "ode":
        sol = solve_ivp(lambda a, th: F["rate"](th, a, f_n, c.k_n, dz, c.k_t, dxi_norm, c.mu),
                        (0.0, 1.0), [abs(theta_t)], method="DOP853", rtol=1e-12, atol=1e-14)
        return float(np.sign(theta_t) * sol.y[0, -1])
    c1 = F["c1"](f_n, c.k_t, dxi_norm, c.mu)
    c2 = F["c2"](f_n, c.k_n, dz)
    if direction == "table":
        K_slip = F["K0"](c1) if abs(c2) <= c.eps else F["K"](c1, c2)
        return float(np.sign(theta_t) * theta_end_from_table(abs(theta_t), K_slip, table_size))
    th = F["theta_end0"](abs(theta_t), c1) if abs(c2) <= c.eps else F["theta_end"](abs(theta_t), c1, c2)
    return float(np.sign(theta_t) * th)


def _cross(a, b):
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _vec(out):
    """A lambdified SymPy 3-vector evaluated on scalars or (M,) arrays -> (3,) or (M, 3)."""
    return np.asarray(out, dtype=float)[:, 0].T


def adjust_frame(f, n, dtheta_p, dtheta_q, frame):
    """A frame adjustment of the tangential force (Fig 1 lines 48-49), for one contact or
    vectorised over many.

    Parameters
    ----------
    f : (3,) or (M, 3) tangential force(s)
    n : (3,) or (M, 3) unit normal(s) at the end of the step
    dtheta_p, dtheta_q : (3,) or (M, 3) the particles' rotation increments
    frame : one of :data:`FRAMES`: ``"none"``; ``"projection"`` (eq 22);
        ``"projection+twirl"`` (eqs 22-23); ``"projection+rescale"`` (eq 22, then the
        magnitude before it restored, :func:`nsfric.papers.kuhn.contact_law.rescale`); ``"rotate"``
        (``f`` turned by the rotation vector ``(dtheta_p + dtheta_q)/2``, exactly)

    Returns
    -------
    ndarray, the shape of ``f``
    """
    if frame not in FRAMES:
        raise ValueError(f"frame must be one of {FRAMES}, got {frame!r}")
    F = _formulas()
    f = np.asarray(f, dtype=float)
    if f.shape[-1:] != (3,) or f.ndim > 2:
        raise ValueError(f"f must have the shape (3,) or (M, 3), got {f.shape}")
    if frame == "rotate":
        spin = (np.asarray(dtheta_p, dtype=float) + np.asarray(dtheta_q, dtype=float)) / 2
        return Rotation.from_rotvec(spin).apply(f) if spin.shape == (3,) else \
            Rotation.from_rotvec(np.broadcast_to(spin, f.shape)).apply(f)
    n, p, q = (np.asarray(x, dtype=float).T for x in (n, dtheta_p, dtheta_q))
    g = f
    if frame != "none":
        g = _vec(F["project"](*f.T, *n))
    if frame == "projection+twirl":
        g = _vec(F["twirl"](*g.T, *n, *p, *q))
    elif frame == "projection+rescale":
        with np.errstate(divide="ignore", invalid="ignore"):  # a zero force stays zero
            scaled = _vec(F["rescale"](*g.T, *f.T))
        g = np.where((np.linalg.norm(g, axis=-1) > 0)[..., None], scaled, g)
    return g


def kuhn_step(f_t, zeta_start, zeta_end, dxi, n, dtheta_p, dtheta_q, contact: KuhnContact, *,
              onset=True, partial_slip=True, direction="exact", frame="projection+twirl",
              rules="paper", table_size=TABLE_SIZE):
    """One step of the algorithm of Fig 1 (all refinements on) or of a variant.

    Parameters
    ----------
    f_t : (3,) tangential force at the start of the step
    zeta_start, zeta_end : overlaps ``zeta^t``, ``zeta^{t+dt}``
    dxi : (3,) tangential movement ``Delta_xi`` in the end-of-step tangent plane (eq 6)
    n : (3,) unit normal at the end of the step
    dtheta_p, dtheta_q : (3,) rotation increments of the two particles (eq 23)
    contact : KuhnContact
    onset : bool, fresh-contact fraction ``alpha_o`` (eqs 7-8); off: the whole movement counts
    partial_slip : bool, elastic part before slip ``alpha_s`` (eqs 9-15, clipped to
        ``[0, 1]``); off: slip from ``alpha = 0``
    direction : ``"exact"`` (eq 18), ``"table"`` (eq 18 by the look-up table the paper
        suggests, ``table_size`` entries, :mod:`nsfric.papers.kuhn.table_variant`), ``"ode"``
        (ODE 16 integrated) or ``"project"`` (add and project onto the final limit, the
        conventional rule)
    frame : one of :data:`FRAMES`; ``"rotate"`` turns ``f_t`` by the pair's rotation
        increment before the step (exact rotation including twist)
    rules : ``"paper"`` (as stated) or ``"corrected"``: ``alpha_s`` at the limit by the
        first crossing (see :func:`_slip_fraction`) and ``theta^t`` by ``atan2`` instead of
        ``asin`` (line 32), which folds ``|theta^t| > 90 deg`` -- a slip against part of
        the force, possible while ``f_n`` shrinks -- onto the wrong side

    Returns
    -------
    StepResult
    """
    if direction not in ("exact", "table", "ode", "project"):
        raise ValueError(f"direction must be 'exact', 'table', 'ode' or 'project', got {direction!r}")
    if rules not in ("paper", "corrected"):
        raise ValueError(f"rules must be 'paper' or 'corrected', got {rules!r}")
    if frame not in FRAMES:
        raise ValueError(f"frame must be one of {FRAMES}, got {frame!r}")
    F, c = _formulas(), contact
    f0, dxi, n = _v(f_t), _v(dxi), _v(n)
    dtheta_p, dtheta_q = _v(dtheta_p), _v(dtheta_q)
    if frame == "rotate":
        f0 = adjust_frame(f0, n, dtheta_p, dtheta_q, "rotate")
    if zeta_end <= 0:  # lines 4-5
        return StepResult(np.zeros(3), 0.0, 0.0, 0.0, 0.0, 0.0, mode="open")
    dz = zeta_end - zeta_start
    f_n_end = c.k_n * zeta_end
    alpha_o = np.nan
    if zeta_start <= 0:  # fresh contact, lines 10-18
        f0 = np.zeros(3)
        if onset:
            alpha_o = float(F["onset"](zeta_end, dz))
            dxi, dz = (1 - alpha_o) * dxi, (1 - alpha_o) * dz
        f_start, f_n = f0, 0.0
    else:
        f_start, f_n = f0, c.k_n * zeta_start
    f_est = f_start + c.k_t * dxi
    limit = c.mu * f_n_end
    if f_est @ f_est <= limit ** 2:  # elastic throughout (lines 17-18)
        f_end, alpha_s, mode = f_est, np.nan, "elastic"
        dW_t = float(F["W_rev"](*f_start, *f_end, c.k_t))
    else:
        mode = "slip"
        if partial_slip and f_n > 0:
            alpha_s = min(max(_slip_fraction(F, f_start, dxi, f_n, dz, c, rules), 0.0), 1.0)
        else:
            alpha_s = 0.0
        f_n_s, f_s = f_n + alpha_s * c.k_n * dz, f_start + alpha_s * c.k_t * dxi  # eq 15
        dW_el = float(F["W_rev"](*f_start, *f_s, c.k_t))  # line 28
        dxi, dz = (1 - alpha_s) * dxi, (1 - alpha_s) * dz  # line 30
        dxi_norm, fs_norm = np.linalg.norm(dxi), np.linalg.norm(f_s)
        if direction == "project" or fs_norm == 0 or dxi_norm == 0:
            f_end = f_s + c.k_t * dxi
            f_end = limit * f_end / np.linalg.norm(f_end)
        else:
            m_dxi = dxi / dxi_norm
            m_perp = _cross(n, m_dxi)  # line 31
            m_f = f_s / fs_norm
            theta_t = float(np.arcsin(np.clip(m_perp @ m_f, -1, 1)) if rules == "paper"
                            else np.arctan2(m_perp @ m_f, m_dxi @ m_f))  # line 32
            theta_end = _final_angle(F, theta_t, f_n_s, dz, dxi_norm, c, direction, table_size)
            f_end = limit * (np.sin(theta_end) * m_perp + np.cos(theta_end) * m_dxi)  # eqs 20-21
        dW_t = dW_el + float(F["W_slip"](*dxi, *f_s, *f_end))  # line 45
    if frame != "rotate":
        f_end = adjust_frame(f_end, n, dtheta_p, dtheta_q, frame)
    dW_rev = float(F["W_rev"](*f0, *f_end, c.k_t))  # line 52
    return StepResult(f_end, f_n_end, f_n_end ** 2 / (2 * c.k_n), dW_t, dW_rev, dW_t - dW_rev,
                      alpha_o, alpha_s, mode)


def conventional_step(f_t, zeta_start, zeta_end, dxi, n, dtheta_p, dtheta_q, contact, *,
                      frame="projection+twirl"):
    """The conventional step: ``f_t + k_t Delta_xi`` projected onto the final friction
    circle (eq 2), tangential work by the trapezoid rule; frame adjustment ``frame``."""
    return kuhn_step(f_t, zeta_start, zeta_end, dxi, n, dtheta_p, dtheta_q, contact, onset=False,
                     partial_slip=False, direction="project", frame=frame)


class _Track:
    """The minimal model a :class:`Solution` of a prescribed contact needs: named
    columns as states, no derived quantities."""

    def __init__(self, name):
        self.name = name
        self.state_names = list(COLUMNS)
        self.states = self.state_names
        self.output_names = []

    def derived(self):
        return self

    def outputs(self, mode):
        return [], lambda Y, p: []

    def param_vector(self, params):
        return []


def _solution(rows, modes, s, scheme, contact, N):
    Y = np.array(rows, dtype=float).T
    return Solution.from_steps(_Track(f"kuhn-contact ({scheme})"), vars(contact), s, Y, modes,
                               scheme=scheme, dt=None if N is None else 1.0 / N, t_span=(0.0, 1.0),
                               case="kuhn-contact")


def _row(R, f, f_n, W, a_o=np.nan, a_s=np.nan):
    body = R.T @ f
    return [*f, body[0], body[1], np.linalg.norm(f), f_n, *W, a_o, a_s]


def run_steps(movement: Movement, contact: KuhnContact, N: int, step=kuhn_step, **options):
    """``N`` increments of ``movement`` through ``step`` (default :func:`kuhn_step`).

    A step with the attribute ``stateful`` (:func:`~nsfric.papers.kuhn.csds.csds_step`)
    also gets ``state=`` (its :attr:`StepResult.state` of the step before, None at first)
    and ``ds=`` (the increment's length on the clock); its ``scheme`` attribute names the run.

    Returns
    -------
    Solution
        Rows at ``s_k = k/N`` with the columns :data:`COLUMNS` (works cumulative:
        ``W_n`` the stored normal energy, ``W_t = W_t_rev + W_t_irrev``).
    """
    if not (isinstance(N, (int, np.integer)) and N >= 1):
        raise ValueError(f"N must be an integer >= 1, got {N!r}")
    s = np.linspace(0.0, 1.0, N + 1)
    Rs = movement.R(s)
    dths = Rotation.from_matrix(Rs[1:] @ np.swapaxes(Rs[:-1], 1, 2)).as_rotvec()
    R0 = Rs[0]
    f = R0 @ np.array([*movement.f_t0, 0.0])
    z0 = movement.zeta(0.0)
    W = np.zeros(4)  # W_n, W_t, W_t_rev, W_t_irrev
    W[0] = contact.k_n * max(z0, 0) ** 2 / 2
    rows, modes = [_row(R0, f, contact.k_n * max(z0, 0), W)], ["start"]
    stateful, state = getattr(step, "stateful", False), None
    for k in range(N):
        Rb, dth = Rs[k + 1], dths[k]
        dxi = Rb @ np.array([*(movement.xi(s[k + 1]) - movement.xi(s[k])), 0.0])
        carried = {"state": state, "ds": s[k + 1] - s[k]} if stateful else {}
        r = step(f, movement.zeta(s[k]), movement.zeta(s[k + 1]), dxi, Rb[:, 2], dth, dth, contact,
                 **options, **carried)
        f, state = r.f_t, r.state
        W += [r.W_n - W[0], r.dW_t, r.dW_t_rev, r.dW_t_irrev]
        rows.append(_row(Rb, f, r.f_n, W, r.alpha_o, r.alpha_s))
        modes.append(r.mode)
    name = options.get("direction", "exact") if step is kuhn_step else "conventional"
    name = getattr(step, "scheme", f"kuhn-{name}" if name != "conventional" else name)
    return _solution(rows, modes, s, name, contact, N)


def run_kuhn(movement, contact, N, **options):
    """The paper's algorithm (Fig 1) in ``N`` steps; ``options`` as :func:`kuhn_step`."""
    return run_steps(movement, contact, N, kuhn_step, **options)


def run_conventional(movement, contact, N, frame="projection+twirl"):
    """The conventional add-and-project algorithm in ``N`` steps."""
    return run_steps(movement, contact, N, conventional_step, frame=frame)


# the continuous law, event-driven (kept in its own module, re-exported here)
from nsfric.papers.kuhn.reference import reference  # noqa: F401
