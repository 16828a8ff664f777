"""Linear complementarity problems: Lemke's algorithm, and the planar friction LCP of
contacts that may stick or slip (the mode decision of the multi-contact references,
:mod:`nsfric.solvers.contacts`).

**The LCP** ``(q, M)``: find ``z >= 0`` with ``w = M z + q >= 0`` and ``z . w = 0``.
:func:`lemke` runs Lemke's complementary pivoting (Cottle, Pang & Stone, *The Linear
Complementarity Problem*, 1992, §4.4) with the covering vector ``d = 1`` on a dense
tableau, the ratio test broken lexicographically by the rows of the basis inverse (no
cycling on degenerate problems).  For a copositive-plus ``M`` (every positive
semidefinite one) it either finds a solution or ends on a secondary ray, which proves
the LCP infeasible (:class:`RayTermination`).  Each pivot costs ``O(n^2)``; a
solution takes a few pivots per variable (``O(n^3)`` in all, against the ``3^k``
assignments an enumeration of stick/slip modes tests).

**The friction LCP** (:func:`friction_lcp`).  ``k`` contacts with fixed normal forces,
each with a tangential force ``lam_i``, ``|lam_i| <= c_i = mu F_n,i``, and a relative
tangential acceleration ``a = W lam + b`` (``W = J M^-1 J^T``, positive semidefinite;
``b`` the acceleration without these forces, eq 22 of Krengel & Matuttis for several
contacts).  Coulomb's law at ``v_t = 0``: a contact sticks (``a_i = 0``, ``|lam_i| <=
c_i``) or slides the way it accelerates, opposed by the full force (``a_i > 0`` with
``lam_i = -c_i``, or ``a_i < 0`` with ``lam_i = c_i``).  With ``lam = lam+ - lam-``
and a slack ``sigma`` (the magnitude of the sliding acceleration) this is the LCP in
``z = (lam+, lam-, sigma)`` (Glocker & Pfeiffer's planar friction LCP):

    w1 =  a + sigma            >= 0  complementary to lam+ >= 0
    w2 = -a + sigma            >= 0  complementary to lam- >= 0
    w3 = c - lam+ - lam-       >= 0  complementary to sigma >= 0

``M = [[W, -W, I], [-W, W, I], [-I, -I, 0]]``: ``z^T M z = (lam+ - lam-)^T W (lam+ -
lam-) >= 0``, positive semidefinite, and ``z = (0, 0, max|b|)`` is feasible, so Lemke
always solves it; all solutions share the accelerations ``a`` (for a positive
semidefinite ``M`` the solutions share ``(M + M^T) z``), while the forces of contacts
whose ``J`` rows are dependent may be split in many ways.
"""
from __future__ import annotations

import numpy as np

__all__ = ["RayTermination", "lemke", "friction_lcp"]

#: relative size of the rounding below which two ratios of the ratio test tie
TIE = 1e-11


class RayTermination(ArithmeticError):
    """Lemke's algorithm ended on a secondary ray (the LCP has no solution when ``M`` is
    copositive-plus) or ran out of pivots; ``pivots`` says how many it made."""

    def __init__(self, message, pivots):
        super().__init__(message)
        self.pivots = pivots


def lemke(M, q, max_pivots=None, tol=1e-13):
    """Solve the LCP ``(q, M)`` by Lemke's algorithm (see the module docstring).

    Parameters
    ----------
    M : (n, n) array
    q : (n,) array
    max_pivots : int, optional
        Pivot budget (default ``50 n + 50``).
    tol : float
        Relative size below which a pivot column entry counts as zero.

    Returns
    -------
    z : (n,) array, ``z >= 0`` with ``M z + q >= 0`` and ``z . (M z + q) = 0`` to rounding
    pivots : int, the pivots made

    Raises
    ------
    RayTermination
        On a secondary ray or when the pivot budget is spent.

    Examples
    --------
    >>> z, _ = lemke(np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-5.0, -6.0]))
    >>> np.round(z, 12).tolist()
    [1.333333333333, 2.333333333333]
    """
    M = np.asarray(M, dtype=float)
    q = np.asarray(q, dtype=float)
    n = len(q)
    if M.shape != (n, n):
        raise ValueError(f"M must be {n} x {n} to match q, got shape {M.shape}")
    if not (np.all(np.isfinite(M)) and np.all(np.isfinite(q))):
        raise ValueError("M and q must be finite")
    if n == 0 or np.min(q) >= 0:
        return np.zeros(n), 0
    max_pivots = 50 * n + 50 if max_pivots is None else int(max_pivots)
    # tableau [I | -M | -d | q]: variables w (0..n-1), z (n..2n-1), z0 (2n); the I block
    # holds the basis inverse (the lexicographic tie-break)
    T = np.hstack([np.eye(n), -M, -np.ones((n, 1)), q[:, None]])
    basis = list(range(n))
    z0 = 2 * n
    r = int(np.argmin(q))
    entering = z0
    for pivots in range(1, max_pivots + 1):
        col = T[:, entering]
        if pivots > 1:
            r = _ratio_row(T, col, basis, z0, n, tol)
            if r is None:
                raise RayTermination(f"Lemke: secondary ray after {pivots - 1} pivots (no solution)", pivots - 1)
        T[r] /= T[r, entering]
        others = np.arange(n) != r
        T[others] -= np.outer(T[others, entering], T[r])
        leaving, basis[r] = basis[r], entering
        if leaving == z0:
            z = np.zeros(2 * n + 1)
            z[basis] = T[:, -1]
            return np.maximum(z[n:2 * n], 0.0), pivots
        entering = leaving + n if leaving < n else leaving - n  # the complement
    raise RayTermination(f"Lemke: no solution within {max_pivots} pivots", max_pivots)


def _ratio_row(T, col, basis, z0, n, tol):
    """The row leaving the basis: the lexicographic minimum ratio of ``(q, B^-1)`` over
    the positive entries of the entering column (``z0`` leaves on a tie), ``None`` on a
    ray.  Ratios tie when they differ by less than the rounding of their numerators
    (:data:`TIE` times the column's largest entry, over the pivot entry)."""
    cand = np.nonzero(col > tol * max(1.0, float(np.max(np.abs(col)))))[0]
    if not len(cand):
        return None
    for j in [-1] + list(range(n)):
        key = T[cand, j] / col[cand]
        # ties up to the rounding of the numerators (a degenerate LCP has exact ties)
        noise = TIE * max(float(np.max(np.abs(T[:, j]))), 1e-300) / col[cand]
        cand = cand[key - np.min(key) <= noise]
        if z0 in (basis[i] for i in cand):
            return next(int(i) for i in cand if basis[i] == z0)
        if len(cand) == 1:
            return int(cand[0])
    return int(cand[0])


def friction_lcp(W, b, c, force_scale=None, accel_scale=None):
    """The planar friction LCP of ``k`` contacts at ``v_t = 0`` (module docstring).

    Parameters
    ----------
    W : (k, k) array, positive semidefinite: ``J M^-1 J^T``
    b : (k,) array, the relative tangential accelerations without the contacts' forces
    c : (k,) array, the bounds ``mu F_n`` (``>= 0``)
    force_scale, accel_scale : float, optional
        Scales of ``lam`` and ``a`` (defaults ``max c`` and ``max |b|``): the LCP is
        solved in these units.

    Returns
    -------
    lam, a, sigma : (k,) arrays, the forces, the accelerations ``W lam + b`` and the
        sliding slacks
    pivots : int

    Raises
    ------
    RayTermination
        As :func:`lemke` (not for a positive semidefinite ``W``, up to rounding).
    """
    W, b, c = (np.asarray(x, dtype=float) for x in (W, b, c))
    k = len(b)
    if np.any(c < 0):
        raise ValueError(f"the force bounds c = mu F_n must be >= 0, got {c}")
    F = force_scale or max(float(np.max(c, initial=0.0)), 1e-300)
    A = accel_scale or max(float(np.max(np.abs(b), initial=0.0)), 1e-300)
    Wh, I, O = W * (F / A), np.eye(k), np.zeros((k, k))
    M = np.block([[Wh, -Wh, I], [-Wh, Wh, I], [-I, -I, O]])
    z, pivots = lemke(M, np.concatenate([b / A, -b / A, c / F]))
    lam = F * (z[:k] - z[k:2 * k])
    return lam, W @ lam + b, A * z[2 * k:], pivots
