"""Führer et al.'s C-SDS in 3D as the fifth history rule of Kuhn et al.'s contact: the
direction-wise law against Führer's vector law, the exact increment, the elongation
carried with the pair, and its convergence against its own continuous law."""
import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from nsfric.papers.kuhn.incremental import KuhnContact, reference, run_conventional, run_steps
from nsfric.papers.kuhn.csds import csds_reference, csds_step, run_csds
from nsfric.papers.kuhn.kuhn_contact_csds import GAMMA_T, straight_movements, straight_table
from nsfric.papers.kuhn.kuhn_contact_orders import movements
from nsfric.papers.kuhn import csds_law as S
from nsfric.symbolic.laws import F_max, gamma, k, v_1, v_2, xi_1, xi_2
from nsfric.symbolic.tangential import c_sds_2d

C = KuhnContact(k_n=1.0, k_t=1.0, mu=0.5)


def body(sol):
    return np.array([sol["f_t_body1"][-1], sol["f_t_body2"][-1]])


def test_direction_wise_law_is_fuhrer_vector_law():
    """The 1D law generalised direction-wise (in the plane) is Führer et al.'s vector C-SDS
    (eqs 8-10, ``c-sds-2d``): forces and rates agree in both modes at random states."""
    F_stick, r_stick, F_slip, r_slip = S.rates_3d((xi_1, xi_2, 0), (v_1, v_2, 0))
    law = c_sds_2d()
    args = (xi_1, xi_2, v_1, v_2, k, gamma, F_max)
    g = np.random.default_rng(1)
    for mode, F3, r3 in (("slip", F_slip, r_slip), ("stick", F_stick, r_stick)):
        b = law.branches[mode]
        ours = sp.lambdify(args, [*F3[:2], *r3[:2], F3[2], r3[2]])
        theirs = sp.lambdify(args, [*b.F, b.rates[xi_1], b.rates[xi_2]])
        for _ in range(20):
            x = (*g.normal(size=4), *g.uniform(0.2, 3, size=3))
            a = np.array(ours(*x), float)
            assert np.allclose(a[:4], theirs(*x), rtol=1e-12, atol=1e-12) and np.all(a[4:] == 0)


def test_slip_increment_solves_eq9():
    """The increment's closed form (SymPy's dsolve of the 1D sliding rate with a linear
    bound) equals eq 9 integrated numerically; its gamma -> 0 limit is the D-SDS reset
    ``x = -F_max/k`` (eq 3 with gamma = 0)."""
    end, end0 = S.slip_increment()
    assert sp.simplify(end0 + S.b_1 / k) == 0
    f = sp.lambdify((S.x_0, S.b_0, S.b_1, S.h, k, gamma), end)
    g = np.random.default_rng(2)
    for _ in range(10):
        x0, b0, b1, hh, kk, gg = g.normal(), *g.uniform(0.1, 2, size=2), *g.uniform(0.05, 1, size=3)
        sol = solve_ivp(lambda t, x: -(b0 + (b1 - b0) * t / hh + kk * x) / gg, (0, hh), [x0], rtol=1e-12, atol=1e-14)
        assert abs(f(x0, b0, b1, hh, kk, gg) - sol.y[0, -1]) < 1e-10


def test_zero_damping_is_add_and_project_with_rotation():
    """gamma_t = 0: the C-SDS increment is the D-SDS reset, i.e. add-and-project carried by
    the exact rotation with twist (identical runs, turning pair, figure eight)."""
    mv, _ = movements()["figure eight, f_n loading+unloading, rolling+twirling"]
    a, b = run_csds(mv, C, 64), run_conventional(mv, C, 64, frame="rotate")
    for key in ("f_t1", "f_t2", "f_t3", "W_t"):
        assert np.max(np.abs(a[key] - b[key])) < 1e-13
    assert a.scheme == "kuhn-csds"


def test_straight_aligned_exact_orthogonal_first_order():
    """Straight movement along the force: every N (from 1) gives the continuous law's force
    and spring energy to round-off, with and without damping, f_n constant or growing
    (the 1D law's exact solution); orthogonal to the force (Fig 4, ratio 1): first order
    (the slip direction is frozen over the increment)."""
    cols, orders = straight_table(C)
    aligned = np.array(["aligned" in m for m in cols["movement"]])
    assert aligned.sum() == 28
    assert np.max(cols["force_error"][aligned]) < 1e-12 and np.max(cols["spring_energy_error"][aligned]) < 1e-12
    for g in (0.0, GAMMA_T):
        o = orders[f"orthogonal (Fig 4, ratio 1), f_n constant, gamma_t = {g}"]
        assert 0.85 < o["order"] < 1.15 and o["max_error"] > 1e-2


@pytest.mark.parametrize("name", ["circle, f_n +30 %, rolling+twirling",
                                  "figure eight, f_n loading+unloading, rolling+twirling"])
def test_damped_csds_first_order_against_its_own_law(name):
    """With gamma_t > 0 the C-SDS carried by the rotation with twist converges at first
    order to the continuous C-SDS (error ratio ~2 from N = 128 to 256); the reference's
    work balance holds to 1e-10, the scheme's to round-off; the damped law is not the
    elastic-frictional one (the gap stays > 1e-2)."""
    mv, _ = movements()[name]
    ref = csds_reference(mv, C, GAMMA_T, s_eval=np.linspace(0, 1, 17))
    assert np.max(np.abs(ref["W_t"] - ref["W_t_rev"] - ref["W_t_irrev"])) < 1e-10
    assert np.all(np.diff(ref["W_t_irrev"]) > 0)  # eq 11: dashpot and slider dissipate
    runs = [run_csds(mv, C, N, gamma_t=GAMMA_T) for N in (128, 256)]
    e = [np.linalg.norm(body(r) - body(ref)) for r in runs]
    assert 1.7 < e[0] / e[1] < 2.3
    assert np.max(np.abs(runs[1]["W_t"] - runs[1]["W_t_rev"] - runs[1]["W_t_irrev"])) < 1e-12
    gap = np.linalg.norm(body(ref) - body(reference(mv, C, s_eval=[0.0, 1.0])))
    assert gap > 1e-2


def test_elongation_carried_and_rotated():
    """The elongation is the rule's state: dropping it (re-deriving it from the force at
    every increment) changes the damped result; carrying it by projection only (no twist)
    on a turning pair does not converge."""
    mv, _ = movements()["circle, f_n +30 %, rolling+twirling"]

    def forgetful(*a, state=None, **kw):
        return csds_step(*a, **kw)
    forgetful.stateful = True
    a, b = run_csds(mv, C, 64, gamma_t=GAMMA_T), run_steps(mv, C, 64, forgetful, gamma_t=GAMMA_T)
    assert np.linalg.norm(body(a) - body(b)) > 1e-3
    ref = csds_reference(mv, C, GAMMA_T, s_eval=[0.0, 1.0])
    e = [np.linalg.norm(body(run_csds(mv, C, N, gamma_t=GAMMA_T, frame="projection")) - body(ref)) for N in (64, 256)]
    assert e[1] > 1e-2 and e[0] / e[1] < 1.5


def test_bad_input():
    mv = straight_movements(C)["aligned, f_n constant"]
    with pytest.raises(ValueError, match="gamma_t"):
        run_csds(mv, C, 4, gamma_t=-0.1)
    with pytest.raises(ValueError, match="gamma_t"):
        csds_reference(mv, C, 0.0)
    with pytest.raises(ValueError, match="ds"):
        csds_step(np.zeros(3), 1.0, 1.0, np.zeros(3), [0, 0, 1], np.zeros(3), np.zeros(3), C, ds=0.0)
    with pytest.raises(ValueError, match="frame"):
        run_csds(mv, C, 4, frame="spin")
