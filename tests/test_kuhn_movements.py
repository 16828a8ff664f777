"""Kuhn et al.'s contact along curved movements: the figure eight with loading and
unloading of f_n, the reference's switching along it, and what the rules do there."""
import numpy as np
import pytest

from nsfric.papers.kuhn.incremental import KuhnContact, Movement, reference, run_kuhn

C = KuhnContact(k_n=1.0, k_t=1.0, mu=0.5)


def test_figure_eight_movement():
    """xi_dot and zeta_dot are the derivatives of xi and zeta; the path is closed and
    crosses itself at the origin halfway; f_n loads then unloads."""
    mv = Movement.figure_eight(0.7, zeta0=1.0, dzeta=0.4)
    h = 1e-6
    for s in (0.1, 0.37, 0.8):
        assert np.allclose((mv.xi(s + h) - mv.xi(s - h)) / (2 * h), mv.xi_dot(s), atol=1e-7)
        assert abs((mv.zeta(s + h) - mv.zeta(s - h)) / (2 * h) - mv.zeta_dot(s)) < 1e-7
    for s in (0.0, 0.5, 1.0):
        assert np.allclose(mv.xi(s), 0, atol=1e-15)
    assert mv.zeta_dot(0.0) > 0 and mv.zeta_dot(0.5) < 0
    # the two lobes turn opposite ways (curvature changes sign)
    def cross(s):
        a, b = mv.xi_dot(s), (mv.xi_dot(s + h) - mv.xi_dot(s - h)) / (2 * h)
        return a[0] * b[1] - a[1] * b[0]
    assert cross(0.25) * cross(0.75) < 0
    with pytest.raises(ValueError, match="zeta0"):
        Movement.figure_eight(1.0, zeta0=0.3, dzeta=0.4)


@pytest.mark.parametrize("dzeta", [0.0, 0.4])
def test_figure_eight_reference_and_second_order(dzeta):
    """The reference switches slip -> elastic -> slip a few times (no chattering at the
    switch: it once re-entered slip at every round-off); the paper's algorithm with the
    corrected rules converges at second order to it; as stated (asin of line 32) it
    stalls while f_n unloads (|theta^t| > 90 deg is folded onto the wrong side)."""
    mv = Movement.figure_eight(1.0, zeta0=1.0, dzeta=dzeta, f_t0=(0.1, 0.2))
    ref = reference(mv, C, s_eval=np.linspace(0, 1, 65))
    assert 2 <= ref.summary["switches"] <= 6
    assert abs(ref["W_t"][-1] - ref["W_t_rev"][-1] - ref["W_t_irrev"][-1]) < 1e-9
    f_ref = np.array([ref["f_t_body1"][-1], ref["f_t_body2"][-1]])
    err = lambda sol: np.hypot(sol["f_t_body1"][-1] - f_ref[0], sol["f_t_body2"][-1] - f_ref[1])
    e = [err(run_kuhn(mv, C, N, rules="corrected")) for N in (128, 256)]
    assert 3.6 < e[0] / e[1] < 4.4
    stated = [err(run_kuhn(mv, C, N)) for N in (128, 256)]
    if dzeta == 0:
        assert np.allclose(stated, e, rtol=1e-6, atol=0)  # asin and atan2 agree below 90 deg
    else:
        assert stated[1] > 1e-4 and stated[0] / stated[1] < 2.5


def test_onset_inactive_without_fresh_contact():
    """Along a movement that keeps the contact closed the onset refinement (eqs 7-8) is
    inactive: switching it off changes nothing (orders.csv repeats the row)."""
    mv = Movement.figure_eight(1.0, zeta0=1.0, dzeta=0.4, f_t0=(0.1, 0.2))
    a, b = run_kuhn(mv, C, 64, rules="corrected"), run_kuhn(mv, C, 64, rules="corrected", onset=False)
    for k in ("f_t1", "f_t2", "f_t3", "W_t"):
        assert np.array_equal(a[k], b[k])
