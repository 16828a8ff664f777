"""The look-up-table variant of eq 18 (Kuhn, Suzuki & Daouadji, text after eq 19).

Eq 18 reads ``G(theta_end) = G(theta_t) - K`` with ``G(x) = ln|csc x - cot x|`` and the
slip exponent ``K`` (``1/c_1`` for a constant normal force, ``ln|1 + c_2|/(c_1 c_2)``
otherwise; :func:`nsfric.papers.kuhn.contact_law.slip_exponent`).  Instead of Newton's method the
paper suggests a master table for ``G`` and an inverse one, interpolated, reused for
every contact and step.  Here one master table serves both ways: ``theta_end`` against
``K`` for ``theta_t = 90 deg`` (``G(90 deg) = 0``), sampled from the symbolic closed form
(:func:`nsfric.papers.kuhn.contact_law.theta_end_solution`) on ``K`` uniform in ``[-K_max, K_max]``.
Read backwards it gives ``K_0 = -G(theta_t)`` (the ``K`` at which the 90 deg table passes
``theta_t``), and forwards ``theta_end = table(K_0 + K)``: two linear interpolations.
Outside the table the ends are held (``theta`` within ``2 exp(-K_max)`` of 0 or pi).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from nsfric.papers.kuhn import contact_law as K

#: default number of table entries and half-range of K
TABLE_SIZE = 1024
K_MAX = 20.0


@lru_cache(maxsize=8)
def theta_table(n: int = TABLE_SIZE, K_max: float = K_MAX):
    """The master table ``(K, theta_end)``: ``n`` entries, ``K`` uniform in
    ``[-K_max, K_max]``, ``theta_end`` from the closed form of eq 18 at ``theta_t = pi/2``
    (``c_2 = 0``, ``c_1 = 1/K``), decreasing from near pi to near 0."""
    if not (isinstance(n, (int, np.integer)) and n >= 2):
        raise ValueError(f"table size n must be an integer >= 2, got {n!r}")
    if not K_max > 0:
        raise ValueError(f"K_max must be > 0, got {K_max}")
    _, theta_end0 = K.theta_end_numeric()
    Ks = np.linspace(-K_max, K_max, n)
    with np.errstate(divide="ignore"):
        th = np.asarray(theta_end0(np.pi / 2, 1.0 / Ks), dtype=float)
    return Ks, th


def theta_end_from_table(theta_t, K_slip, n: int = TABLE_SIZE, K_max: float = K_MAX):
    """``theta_end`` of eq 18 for ``0 < theta_t < pi`` and the slip exponent ``K_slip``
    by the two interpolations of the master table (module docstring)."""
    Ks, th = theta_table(n, K_max)
    K0 = np.interp(theta_t, th[::-1], Ks[::-1])  # inverse table: -G(theta_t)
    return np.interp(K0 + K_slip, Ks, th)


def table_errors(sizes=(16, 32, 64, 128, 256, 512, 1024, 2048, 4096), n_theta=181, Ks=np.geomspace(1e-3, 10, 60)):
    """Largest error (radians) of :func:`theta_end_from_table` against the closed form
    over ``theta_t`` in ``(0, pi)`` (``n_theta`` values) and slip exponents ``Ks``, per
    table size."""
    _, theta_end0 = K.theta_end_numeric()
    tt, kk = np.meshgrid(np.linspace(0, np.pi, n_theta)[1:-1], Ks)
    exact = theta_end0(tt, 1.0 / kk)
    return np.array([np.max(np.abs(theta_end_from_table(tt, kk, n) - exact)) for n in sizes])
