"""Kuhn, Suzuki & Daouadji: the paper's algorithm (Fig 1) and the conventional
add-and-project algorithm measured against the exact references (eq 18 in closed form,
and the event-driven continuous law)."""
import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

from nsfric.papers.kuhn.incremental import (
    FRAMES,
    KuhnContact,
    Movement,
    kuhn_step,
    reference,
    run_conventional,
    run_kuhn,
)
from nsfric.papers.kuhn.kuhn_contact_figures import increment_order
from nsfric.papers.kuhn import contact_law as K

C = KuhnContact(k_n=1.0, k_t=1.0, mu=0.5)


def final_body(sol):
    return np.array([sol["f_t_body1"][-1], sol["f_t_body2"][-1]])


def angle_deg(sol):
    return np.degrees(np.arctan2(sol["f_t_body2"][-1], sol["f_t_body1"][-1]))


RATIOS = np.geomspace(0.01, 5, 12)


def fig4_movement(ratio, dzeta=0.0):
    """Fig 4: force at the limit along -e2, movement along e1 (theta^t = -90 deg) of
    magnitude k_t |dxi| = ratio mu f_n."""
    return Movement.straight([ratio * C.mu * C.k_n / C.k_t, 0.0], zeta0=1.0, dzeta=dzeta,
                             f_t0=(0.0, -C.mu * C.k_n))


def test_eq18_closed_form_is_fig4_curve():
    """Eq 18 solved by SymPy (c_2 = 0): tan(theta/2) = exp(-k_t|dxi|/(mu f_n)) for theta^t = 90 deg."""
    f, f0 = K.theta_end_numeric()
    th = f0(np.pi / 2, 1 / RATIOS)
    assert np.max(np.abs(np.tan(th / 2) - np.exp(-RATIOS))) < 1e-12
    # the c_2 != 0 branch tends to the c_2 = 0 one
    assert np.max(np.abs(f(np.pi / 2, 1 / RATIOS, 1e-7) - th)) < 1e-6


def test_eq18_solves_ode16():
    """theta(alpha) from eq 18 over [0, alpha] (c_1, c_2 of the sub-step) satisfies ODE 16."""
    f, _ = K.theta_end_numeric()
    fn, dz, dxi, th0 = 0.7, 0.4, 1.3, 1.1
    rate = lambda a: -C.k_t * dxi * np.sin(theta(a)) / (C.mu * (fn + a * C.k_n * dz))
    theta = lambda a: f(th0, C.mu * fn / (C.k_t * a * dxi), C.k_n * a * dz / fn)
    for a in (0.2, 0.5, 0.9):
        h = 1e-5
        assert abs((theta(a + h) - theta(a - h)) / (2 * h) - rate(a)) < 1e-7


@pytest.mark.parametrize("dzeta", [0.0, -0.3])
def test_fig4_one_step_exact_conventional_not(dzeta):
    """The paper's algorithm in one step equals the event-driven reference to 1e-10 for
    the Fig 4 movement (constant and shrinking f_n); add-and-project deviates, more for
    larger movements.  With f_n shrinking faster than the tangential loading (A > 0,
    B < 0) the paper's C = 0 rule max(0, -2B/A) misses the immediate slip; the
    corrected rules do not."""
    errs_p, errs_c, errs_rule = [], [], []
    for r in RATIOS:
        mv = fig4_movement(r, dzeta)
        ref = reference(mv, C)
        if dzeta == 0.0:
            assert abs(abs(np.radians(angle_deg(ref))) - 2 * np.arctan(np.exp(-r))) < 1e-10
        errs_p.append(abs(angle_deg(run_kuhn(mv, C, 1, rules="corrected")) - angle_deg(ref)))
        errs_rule.append(abs(angle_deg(run_kuhn(mv, C, 1)) - angle_deg(ref)))
        errs_c.append(abs(angle_deg(run_conventional(mv, C, 1)) - angle_deg(ref)))
    assert max(errs_p) < 1e-8  # degrees
    shrink_fast = RATIOS * C.mu < C.mu * C.k_n * abs(dzeta)  # A > 0
    assert np.max(np.array(errs_rule)[~shrink_fast]) < 1e-8
    if shrink_fast.any():
        assert np.min(np.array(errs_rule)[shrink_fast]) > 0.05
    errs_c = np.array(errs_c)
    assert errs_c.max() > 10 and (errs_c[0] < 1e-4 or dzeta != 0)
    assert np.all(np.diff(errs_c[RATIOS <= 1]) > 0)  # grows with the movement up to ratio 1


def random_state(g):
    """A straight increment from a random force inside or on the circle (30 % on it),
    f_n growing or shrinking by up to 40 % (dzeta of either sign)."""
    fn0 = g.uniform(0.5, 2)
    r = C.mu * fn0 * (1.0 if g.random() < 0.3 else g.uniform(0, 1))
    phi = g.uniform(0, 2 * np.pi)
    return (r * np.cos(phi), r * np.sin(phi)), fn0, g.normal(size=2) * g.uniform(0.1, 3), g.uniform(-0.4, 0.4) * fn0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2 ** 31))
@example(720)  # starts on the limit, elastic first: the reference once found the root at its start
def test_straight_increment_exact(seed):
    """Any straight increment with f_n linear in the step (growing or shrinking): one step
    of Fig 1 (corrected rules) equals the continuous law to 1e-10 (relative to mu f_n: the
    issue's bound; 300 seeds: max 5.8e-13); alpha_s (when used) is
    the reference's switch point.  Along a straight movement slip, once reached, never
    stops (ODE 16 turns the force towards the movement), so the reference switches at
    most once."""
    f0, fn0, dxi, dz = random_state(np.random.default_rng(seed))
    mv = Movement.straight(dxi, zeta0=fn0 / C.k_n, dzeta=dz, f_t0=f0)
    ref = reference(mv, C)
    assert ref.summary["switches"] <= 1 and ref.modes[-1] == ("slip" if "slip" in ref.modes else "elastic")
    alg = run_kuhn(mv, C, 1, rules="corrected")
    scale = C.mu * fn0
    assert np.max(np.abs(final_body(alg) - final_body(ref))) < 1e-10 * scale
    a_s = alg["alpha_s"][-1]
    if np.isfinite(a_s):
        assert 0 <= a_s <= 1
        sw = [s for s in ref.summary["switch_at"] if s > 1e-12]
        if sw:
            assert abs(a_s - sw[0]) < 1e-8
    else:
        assert not any(s > 1e-9 for s in ref.summary["switch_at"])
    # the ODE 16 variant agrees with eq 18
    assert np.max(np.abs(final_body(run_kuhn(mv, C, 1, direction="ode", rules="corrected")) - final_body(alg))) < 1e-9 * scale


def test_alpha_s_branches():
    """C = 0 (start at the limit, movement first inward): alpha_s = -2B/A; A = 0 (eq 14)."""
    f0 = np.array([0.5, 0.0, 0.0])
    n = np.array([0.0, 0.0, 1.0])
    r = kuhn_step(f0, 1.0, 1.0, [-1.2, 0.6, 0.0], n, np.zeros(3), np.zeros(3), C)
    # |f0 + a dxi| = 0.5 again at a = 2 * 0.5 * 1.2 / (1.44 + 0.36) (by hand)
    assert r.mode == "slip" and abs(r.alpha_s - 2 * 0.5 * 1.2 / 1.8) < 1e-12
    # A = 0: mu k_n dz = k_t |dxi| -> linear equation
    r = kuhn_step([0.2, 0.0, 0.0], 1.0, 1.4, [0.2, 0.0, 0.0], n, np.zeros(3), np.zeros(3), C)
    B, Cc = C.mu ** 2 * C.k_n * 1.0 * 0.4 - 0.2 * 0.2, 0.25 - 0.04
    assert r.mode == "elastic" or abs(r.alpha_s + Cc / (2 * B)) < 1e-12


def test_alpha_o_fresh_contact():
    """A contact that closes during the step: alpha_o in [0, 1] is the crossing fraction
    of the overlap, and the force equals the continuous law from the touch on."""
    for zs, ze, d in [(-0.3, 0.7, 0.3), (-0.9, 0.1, 0.03), (-0.01, 1.0, 0.1), (-0.5, 0.5, 1.0)]:
        dxi = d * np.array([0.6, -0.8, 0.0])
        r = kuhn_step(np.zeros(3), zs, ze, dxi, [0, 0, 1], np.zeros(3), np.zeros(3), C)
        assert 0 <= r.alpha_o <= 1 and abs(r.alpha_o - zs / (zs - ze)) < 1e-14
        after = Movement.straight((1 - r.alpha_o) * dxi[:2], zeta0=1e-13, dzeta=ze - 1e-13)
        ref = reference(after, C, s_eval=[0.5, 1.0])
        assert np.max(np.abs(r.f_t[:2] - final_body(ref))) < 1e-9
        conv = kuhn_step(np.zeros(3), zs, ze, dxi, [0, 0, 1], np.zeros(3), np.zeros(3), C, onset=False,
                         partial_slip=False, direction="project")
        if r.mode == "elastic":  # add-and-project counts the movement before touch
            err = np.linalg.norm(conv.f_t[:2] - final_body(ref))
            assert err > 1e-4 and abs(err - r.alpha_o * C.k_t * np.linalg.norm(dxi)) < 1e-9


CIRCLE = dict(radius=1.0, zeta0=1.0, f_t0=(0.1, 0.2))


def order(Ns, errs):
    return increment_order(Ns, errs)


@pytest.mark.parametrize("dzeta", [0.0, 0.5, -0.5])
def test_circle_orders_and_work(dzeta):
    """Along a circle in the tangent plane (f_n constant, growing, shrinking): the paper's
    algorithm converges at second order in force and tangential work, add-and-project at
    first order; elastic + dissipated = total (reference to 1e-10 -- its solve's tolerance,
    measured <= 2.3e-11 --, algorithms to rounding), and the dissipated work converges at the
    scheme's order (2 and 1)."""
    mv = Movement.circle(dzeta=dzeta, **CIRCLE)
    ref = reference(mv, C)
    assert np.max(np.abs(ref["W_t"] - ref["W_t_rev"] - ref["W_t_irrev"])) < 1e-10
    assert np.all(ref["W_t_irrev"] > -1e-12)
    Ns = np.array([32, 64, 128, 256])
    e = {f"{name}{q}": [] for name in ("paper", "conventional") for q in ("", " W", " D")}
    for N in Ns:
        for name, sol in (("paper", run_kuhn(mv, C, N)), ("conventional", run_conventional(mv, C, N))):
            e[name].append(np.linalg.norm(final_body(sol) - final_body(ref)))
            e[name + " W"].append(abs(sol["W_t"][-1] - ref["W_t"][-1]))
            e[name + " D"].append(abs(sol["W_t_irrev"][-1] - ref["W_t_irrev"][-1]))
            assert np.max(np.abs(sol["W_t"] - sol["W_t_rev"] - sol["W_t_irrev"])) < 1e-12
    assert 1.8 < order(Ns, e["paper"]) < 2.2 and 1.8 < order(Ns, e["paper W"]) < 2.2
    assert 0.8 < order(Ns, e["conventional"]) < 1.2 and 0.8 < order(Ns, e["conventional W"]) < 1.2
    assert 1.8 < order(Ns, e["paper D"]) < 2.2 and 0.8 < order(Ns, e["conventional D"]) < 1.2


def test_rigid_rotation_objectivity():
    """Fig 6 analogue for one contact: a rigid 90 deg rotation in 1000 increments (no
    relative movement, a twirl component about n) recovers the force only with the frame
    adjustments: none and projection alone are O(1) wrong, projection + twirl to O(1/N)
    (linearised rotation, eqs 22-23), the exact incremental rotation to rounding."""
    body = Rotation.from_rotvec([0.3, 0.5, 0.7]).as_matrix()
    mv = Movement.straight([0.0, 0.0], zeta0=1.0, f_t0=(0.3, 0.2), axis=(1, 0, 0), angle=np.pi / 2, body=body)
    exact = mv.R(1.0) @ np.array([0.3, 0.2, 0.0])
    err = {}
    for frame in FRAMES:
        for N in ((1000, 2000) if frame == "projection+twirl" else (1000,)):
            sol = run_kuhn(mv, C, N, frame=frame)
            f = np.array([sol[f"f_t{i}"][-1] for i in (1, 2, 3)])
            err[frame, N] = np.linalg.norm(f - exact) / np.linalg.norm(exact)
    assert err["none", 1000] > 0.5 and err["projection", 1000] > 0.1
    assert err["projection+twirl", 1000] < 2e-3
    assert 1.8 < err["projection+twirl", 1000] / err["projection+twirl", 2000] < 2.2
    assert err["rotate", 1000] < 1e-12


def test_bad_input():
    with pytest.raises(ValueError, match="k_t"):
        KuhnContact(k_t=0)
    with pytest.raises(ValueError, match="N"):
        run_kuhn(Movement.straight([1, 0]), C, 0)
    with pytest.raises(ValueError, match="frame"):
        run_kuhn(Movement.straight([1, 0]), C, 2, frame="twist")
    with pytest.raises(ValueError, match="zeta"):
        reference(Movement.straight([1, 0], zeta0=-1.0), C)

