"""Two rotating discs (PlanarDiscs) coupling a normal and a tangential law: an oblique
impact with exact Coulomb friction, solved by two reference solvers."""
import numpy as np
import pytest
import sympy as sp

from nsfric.solvers.base import Problem, get_solver
from nsfric.symbolic import PlanarDiscs, couple
from nsfric.symbolic import normal as N
from nsfric.symbolic import tangential as T

KIN = PlanarDiscs()


@pytest.fixture(scope="module")
def impact():
    """Disc 2 approaches disc 1 (at rest) with v = (-1, 0.1) m/s; mu = 0.5: the contact
    slips, sticks (rolls), then slips again as the normal force fades."""
    model = couple(KIN, normal=N.linear_spring_dashpot(end="force"), tangential=T.coulomb_static(),
                   name="discs")
    vals = model.bind({"mu": 0.5})
    y0 = dict.fromkeys(model.state_names, 0.0)
    y0.update(x_2=2 * vals["R_1"] + 1e-6, vx_2=-1.0, vy_2=0.1)
    prob = Problem(model, vals, np.array([y0[s] for s in model.state_names]), (0.0, 2e-5))
    return model, vals, {s: get_solver(s).solve(prob) for s in ("filippov", "ida")}


def _split(model, y):
    return {s: y[..., i] for i, s in enumerate(model.state_names)}


def test_modes_and_events(impact):
    model, _, sols = impact
    assert set(model.mode_names) == {"free", "contact/slip+", "contact/slip-", "contact/stick"}
    sol = sols["filippov"]
    assert [s.mode for s in sol.segments] == ["free", "contact/slip+", "contact/stick", "contact/slip-", "free"]
    for a, b in zip(sols["filippov"].events, sols["ida"].events):
        assert a.to_mode == b.to_mode and abs(a.t - b.t) < 1e-9 * 1e-5


def test_momentum_and_angular_momentum_are_conserved(impact):
    model, vals, sols = impact
    sol = sols["filippov"]
    t = np.linspace(0, 2e-5, 401)
    s = _split(model, np.asarray(sol(t)).T)
    m1, m2, I1, I2 = (vals[k] for k in ("m_1", "m_2", "I_1", "I_2"))
    px = m1 * s["vx_1"] + m2 * s["vx_2"]
    py = m1 * s["vy_1"] + m2 * s["vy_2"]
    Lz = (m1 * (s["x_1"] * s["vy_1"] - s["y_1"] * s["vx_1"]) + m2 * (s["x_2"] * s["vy_2"] - s["y_2"] * s["vx_2"])
          + I1 * s["omega_1"] + I2 * s["omega_2"])
    scale = m2 * 1.0
    assert np.max(np.abs(px - px[0])) < 1e-10 * scale
    assert np.max(np.abs(py - py[0])) < 1e-10 * scale
    assert np.max(np.abs(Lz - Lz[0])) < 1e-10 * scale * vals["R_1"]
    # the friction impulse spun both discs the same way (torques -l_i F_t)
    assert s["omega_1"][-1] * s["omega_2"][-1] > 0


def test_sticking_means_zero_surface_velocity_with_omega_cross_r(impact):
    """In the stick segment the material points at the contact point move together:
    (v_2 - v_1).t - (l_1 omega_1 + l_2 omega_2) = 0 with l_i = R_i - xi/2 (computed
    here by hand), while the centres' relative tangential velocity is far from 0."""
    model, vals, sols = impact
    sol = sols["filippov"]
    seg = [g for g in sol.segments if g.mode == "contact/stick"][0]
    t = np.linspace(seg.t0, seg.t1, 50)[1:-1]
    s = _split(model, np.asarray(sol(t)).T)
    dx, dy = s["x_2"] - s["x_1"], s["y_2"] - s["y_1"]
    d = np.hypot(dx, dy)
    n = np.array([dx, dy]) / d
    tang = np.array([-n[1], n[0]])
    xi = vals["R_1"] + vals["R_2"] - d
    dv = np.array([s["vx_2"] - s["vx_1"], s["vy_2"] - s["vy_1"]])
    centres = np.sum(dv * tang, axis=0)
    v_t = centres - ((vals["R_1"] - xi / 2) * s["omega_1"] + (vals["R_2"] - xi / 2) * s["omega_2"])
    assert np.max(np.abs(v_t)) < 1e-9 * 0.1
    assert np.min(np.abs(centres)) > 0.01


def test_energy_balance_symbolic():
    """Along every slipping contact mode d/dt (E_kin + k_n xi^2/2) = F_t v_t - gamma_n xi'^2
    (the dashpot and the friction dissipate, nothing else), at random states."""
    model = couple(KIN, normal=N.linear_spring_dashpot(), tangential=T.coulomb_static(), name="discs")
    (x1, y1, vx1, vy1, w1), (x2, y2, vx2, vy2, w2) = KIN.body(1), KIN.body(2)
    m1, m2, I1, I2, R1, R2 = KIN._p
    k_n, gamma_n = sp.symbols("k_n gamma_n", positive=True)
    E = (m1 * (vx1 ** 2 + vy1 ** 2) + m2 * (vx2 ** 2 + vy2 ** 2) + I1 * w1 ** 2 + I2 * w2 ** 2) / 2 \
        + k_n * KIN.overlap ** 2 / 2
    rng = np.random.default_rng(1)
    for r in model.regions:
        if r.name == "free":
            continue
        dE = sum(sp.diff(E, y) * r.rhs[y] for y in model.states)
        want = r.outputs["F"] * KIN.tangential_velocity - gamma_n * KIN.overlap_rate ** 2
        f = sp.lambdify(list(model.states) + [q.symbol for q in model.params], dE - want)
        for _ in range(3):
            vals = rng.uniform(0.5, 1.5, len(model.states) + len(model.params))
            assert abs(f(*vals)) < 1e-9, r.name
