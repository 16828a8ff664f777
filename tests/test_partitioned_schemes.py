"""The partitioned DEM schemes (semi-implicit Euler, velocity Verlet): the D-SDS reset in
their position update, and symplecticity (issue 8, item 7).

Mutants these tests catch (tried by hand): either scheme integrating ``xi`` in its
position update instead of setting it by the D-SDS reset (Führer et al. eq 3); the
semi-implicit Euler moving the positions with the old velocities (explicit Euler).
"""
import numpy as np
import pytest

import nsfric
from nsfric.schemes import CORE_SCHEMES, SCHEMES

PLATES = nsfric.get_case("sliding-plates")
OSC = nsfric.get_case("dry-oscillator")
PARTITIONED = ("symplectic-euler", "velocity-verlet")


@pytest.fixture(scope="module")
def dsds_exact():
    return PLATES.reference_solution("d-sds", solver="analytic", t_eval=np.linspace(0.0, PLATES.t_end, 3))


@pytest.mark.parametrize("scheme", PARTITIONED)
def test_dsds_partitioned_schemes_converge_to_the_dsds_solution(scheme, dsds_exact):
    """Sliding plates, D-SDS: the error in xi and v over the trajectory (t > 0) against
    the closed form shrinks at first order.  Measured: |xi error| = 3.9-4.9 dt,
    |v error| <= 0.5 dt on dt = 0.05 ... 0.0125.  Without the reset in the position
    update, xi is integrated away from |F_S| = F_max: errors 20 in xi and 6 in v,
    whatever the step."""
    dts = (0.05, 0.025, 0.0125)
    errs = []
    for dt in dts:
        res = nsfric.simulate(PLATES, "d-sds", scheme, dt)
        sel = res.t > 0
        ref = dsds_exact(res.t[sel])
        errs.append([float(np.max(np.abs(res[n][sel] - ref[i])))
                     for i, n in enumerate(res.state_names)])
    errs = np.array(errs)  # rows: dt; columns: xi, v
    assert np.all(errs[:, 0] <= 6 * np.array(dts)), errs
    assert np.all(errs[:, 1] <= 1 * np.array(dts)), errs
    assert np.all(errs[-1] < 0.6 * errs[0]), errs  # converges


def test_semi_implicit_euler_keeps_fs_on_the_slider_while_sliding():
    """Führer et al. eq 3 in the semi-implicit Euler: the position update is evaluated at
    (xi_n, v_{n+1}); where that state slides, the new xi is xi_D(v_{n+1}), so the step
    ends exactly on |F_S| = F_max (the first step: xi_1 = -(gamma v_1 - F_max)/k)."""
    res = nsfric.simulate(PLATES, "d-sds", "symplectic-euler", 0.1)
    p = res.params
    v1 = 4.0 - 0.1 * p["F_max"] / p["m"]
    assert res["v"][1] == pytest.approx(v1, abs=1e-15)
    assert res["xi"][1] == pytest.approx(-(p["gamma"] * v1 - p["F_max"]) / p["k"], abs=1e-14)
    assert abs(abs(res["F_S"][1]) - p["F_max"]) < 1e-14


def _one_step(scheme, h, u):
    res = nsfric.simulate(OSC, "coulomb", scheme, h, t_end=h,
                          params={"mu": 0.0, "x0": float(u[0]), "v0": float(u[1])})
    return np.array([res["x"][-1], res["v"][-1]])


@pytest.mark.parametrize("scheme", CORE_SCHEMES)
def test_one_step_map_preserves_area_exactly_when_symplectic(scheme):
    """Frictionless oscillator (the dry-friction oscillator with mu = 0, omega^2 = k/m = 4):
    the one-step map is linear, so its Jacobian follows from two finite differences
    exactly (to rounding).  det J = 1 for the symplectic schemes; explicit Euler has
    det J = 1 + (h omega)^2 = 1.04 at h = 0.1."""
    h, u = 0.1, np.array([0.7, -0.3])
    base = _one_step(scheme, h, u)
    J = np.column_stack([_one_step(scheme, h, u + e) - base for e in np.eye(2)])
    det = np.linalg.det(J)
    if SCHEMES[scheme].symplectic:
        assert abs(det - 1) < 1e-12, (scheme, det)
    else:
        assert abs(det - 1) > 1e-7, (scheme, det)
    if scheme == "euler":
        assert det == pytest.approx(1 + h ** 2 * 4.0, abs=1e-12)


@pytest.mark.parametrize("scheme", PARTITIONED + ("euler",))
def test_energy_error_stays_bounded_over_long_times_when_symplectic(scheme):
    """2000 steps (64 periods) of the frictionless oscillator: the energy error of a
    symplectic scheme oscillates with the amplitude of its first period (sampled at
    the steps: within 10 %; measured 11 % of E(0) for the semi-implicit Euler, 1 % for
    the Verlet); explicit Euler's grows like (1 + h^2 omega^2)^n."""
    h = 0.1
    res = nsfric.simulate(OSC, "coulomb", scheme, h, t_end=200.0, params={"mu": 0.0, "x0": 1.0, "v0": 0.0})
    E = res["E_kin"] + res["E_el"]
    dE = np.abs(E - E[0])
    first = dE[: int(np.ceil(np.pi / 2 / h)) + 1].max()  # one period, pi/omega
    if SCHEMES[scheme].symplectic:
        assert dE.max() <= 1.1 * first and dE.max() < 0.15 * E[0], (first, dE.max())
    else:
        assert dE.max() > 1e6 * E[0]
