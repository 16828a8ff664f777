"""The grazing regime of ``sds-elastic-test`` (the limit of LIGGGHTS's and YADE's step,
:mod:`nsfric.symbolic.slip_rule_laws`): where the spring held at its cap would leave it
(the cap, without dashpot, turns the sticking rate of the elastic part inward) but the
sticking mode (with dashpot) would return to it at once, LIGGGHTS's step switches
between capped and sticking about every other step; as ``dt -> 0`` the contact point's
velocity follows the rate at which the cap moves and the dashpot is on in a fixed
fraction of the steps.  Two points of the slip-rule zoo's sweep: 25 deg, mu 0.1,
e_n 0.5 and 65 deg, mu 0.6, e_n 0.9."""
import numpy as np
import pytest

from nsfric.cases.slip_rule_zoo import contact_time, standard_impact
from nsfric.schemes.slip_rule_impact import run_impact

POINTS = ((25.0, 0.1, 0.5), (65.0, 0.6, 0.9))


def chattering(p, n):
    """LIGGGHTS's step at ``dt = t_n/n`` on the impact ``p``: the longest run of steps in
    which capped (no dashpot) and sticking (dashpot) steps alternate with at most 6 steps
    between switches; returns ``(e_t, switches, dashpot-on fraction, max |v - v_cap|,
    (t_start, t_end))`` over it, ``v`` the contact point's tangential velocity and
    ``v_cap`` the rate at which the cap ``mu F_n/k_t`` moves (central differences of the
    step's own normal force, inside the run)."""
    dt = contact_time(p) / n
    r = run_impact("liggghts-history", p, dt, record=True)
    t, vx, vy, w, delta, hist, Ft, Fn = r["trace"].T
    capped = np.abs(np.abs(Ft) - p["mu"] * np.abs(Fn)) < 1e-9 * np.abs(Fn)
    sw = np.nonzero(capped[1:] != capped[:-1])[0]
    runs, start = [], sw[0]
    for a, b in zip(sw[:-1], sw[1:]):
        if b - a > 6:
            runs.append((start, a))
            start = b
    runs.append((start, sw[-1]))
    a, b = max(runs, key=lambda ab: ab[1] - ab[0])
    inside = slice(a + 1, b + 1)
    inner = slice(a + 2, b - 1)  # the clamped F_n has a kink at the run's end
    v = (vx + p["R"] * w)[inner]
    v_cap = np.sign(hist[inner]) * p["mu"] * (Fn[a + 3:b] - Fn[a + 1:b - 2]) / (2 * dt) / p["k_t"]
    n_sw = int(np.sum((sw >= a) & (sw <= b)))
    return r["e_t"], n_sw, 1.0 - float(np.mean(capped[inside])), float(np.max(np.abs(v - v_cap))), (t[a], t[b])


@pytest.mark.parametrize("theta, mu, e_n", POINTS)
def test_liggghts_step_chatters_on_the_cap_with_a_fixed_dashpot_fraction(theta, mu, e_n):
    """On ``dt = t_n/800 ... t_n/12800`` the chattering run holds switches growing as
    ``1/dt``, the dashpot on in a fraction of its steps that converges (to 4/7 here: with
    ``k_t/k_n = m_eff/m = 2/7`` and ``gamma_t = gamma_n/2`` the fraction that keeps
    ``v = v_cap`` is ``(2/7) gamma_n/gamma_t``, a constant), ``v - v_cap`` falling at
    first order and ``e_t`` converging."""
    p = standard_impact(theta, mu=mu, e_n=e_n)
    out = [chattering(p, n) for n in (800, 3200, 12800)]
    e_t, switches, on, dv, span = (np.array(c, dtype=object) for c in zip(*out))
    assert switches[0] > 20 and all(switches[1:] > 3.5 * switches[:-1]), switches
    assert all(abs(f - 4 / 7) < 0.01 for f in on), on
    assert abs(on[-1] - 4 / 7) < 1e-3, on
    assert all(dv[1:] < dv[:-1] / 3.5) and dv[-1] < 2e-5, dv
    assert abs(e_t[2] - e_t[1]) < abs(e_t[1] - e_t[0]), e_t
    assert span[-1][1] - span[-1][0] > 0.05 * contact_time(p)  # a regime, not a few steps


# -- the limit law's graze mode --------------------------------------------------------------
def limit_solution(p, solver="filippov"):
    from nsfric.cases import get_case
    from nsfric.cases.slip_rule_zoo import CASE_LAW, TOLERANCES, case_params

    return get_case("sphere-wall").reference_solution(CASE_LAW.format("sds-elastic-test"), solver=solver,
                                                       params=case_params("sds-elastic-test", p), **TOLERANCES)


def graze_lam(sol, n=9):
    """``(t, lam)`` at ``n`` points of the solution's graze segment."""
    seg = next(s for s in sol.segments if "graze" in s.mode and s.t1 > s.t0)
    t = np.linspace(seg.t0, seg.t1, n)
    return t, sol.derived("lam", y=sol(t), modes=[seg.mode] * n)


@pytest.mark.parametrize("theta, mu, e_n", POINTS)
def test_the_limit_grazes_where_the_step_chatters_and_two_solvers_agree(theta, mu, e_n):
    """The Filippov solution enters the graze mode where the step's chattering run
    begins and stays in it to the end of the force, as the run does; IDA agrees to
    below 1e-9; ``e_t`` is the step's limit: the step at ``t_n/51200`` within 1e-5 of
    it (3.7e-6 at 25 deg, 1.8e-6 at 65 deg), its error falling along the ladder."""
    from nsfric.cases.slip_rule_zoo import exact_limit

    p = standard_impact(theta, mu=mu, e_n=e_n)
    sol = limit_solution(p)
    enter = [e for e in sol.events if e.kind == "graze"]
    assert len(enter) == 1 and enter[0].from_mode == "contact/cap-"
    assert sol.events[-1].kind == "contact-end" and sol.events[-1].from_mode == "contact/graze-"
    start, end = chattering(p, 12800)[4]
    assert abs(enter[0].t - start) < 2e-3 * contact_time(p) and abs(sol.events[-1].t - end) < 2e-3 * contact_time(p)
    fil, ida = (exact_limit("sds-elastic-test", p, solver=s, energy=False) for s in ("filippov", "ida"))
    assert all(abs(fil[k] - ida[k]) < 1e-9 for k in fil), (fil, ida)
    errs = [abs(run_impact("liggghts-history", p, contact_time(p) / n)["e_t"] - fil["e_t"]) for n in (800, 51200)]
    assert errs[1] < 1e-5 and errs[1] < errs[0] / 10, errs


@pytest.mark.parametrize("theta, mu, e_n", POINTS)
def test_lam_is_the_steps_dashpot_fraction(theta, mu, e_n):
    """``lam`` along the graze segment: in [0, 1], and with ``k_t/k_n = m_eff/m`` the
    constant ``(m_eff/m) gamma_n/gamma_t = 4/7`` (to 1e-10, rounding of the terms of ``G``; SymPy: the derived ``lam`` on the
    manifold ``h = 0``, ``G = 0`` simplifies to ``2 gamma_n/(7 gamma_t)``), the fraction
    of dashpot-on steps in LIGGGHTS's chattering run to 1e-3; the force ``-mu F_n - lam
    gamma_t v``."""
    p = standard_impact(theta, mu=mu, e_n=e_n)
    sol = limit_solution(p)
    t, lam = graze_lam(sol)
    assert np.all(np.abs(lam[:-1] - 4 / 7) < 1e-10), lam  # the last point is the contact end (F = 0)
    assert abs(chattering(p, 12800)[2] - lam[0]) < 1e-3
    Y = sol(t[:-1])
    s = dict(zip(sol.state_names, Y))
    modes = ["contact/graze-"] * len(t[:-1])
    F, F_n = (sol.derived(k, y=Y, modes=modes) for k in ("F", "F_n"))
    v = s["vx"] + p["R"] * s["omega"]
    assert np.allclose(F, -p["mu"] * F_n - lam[:-1] * p["gamma_t"] * v, rtol=0, atol=1e-9 * np.max(np.abs(F)))


def test_lam_closed_form_on_the_manifold():
    import sympy as sp

    from nsfric.cases import get_case
    from nsfric.symbolic.normal import real_abs, step_sign

    m = get_case("sphere-wall").model("sds-elastic-test/linear-dashpot-force-end")
    d = m.derived()
    g = m.mode("contact/graze-")
    lam, G = d.modes[g.name].outputs["lam"], d.graze_indicator(g)
    sym = {x.name: x for x in lam.free_symbols | G.free_symbols}
    sub = {sym["arm_overlap"]: 0, sym["I"]: sp.Rational(2, 5) * sym["m"] * sym["R"] ** 2,
           sym["ks_ratio"]: sp.Rational(2, 7)}

    def pressed(e):  # in contact the normal force k_n delta - gamma_n vy > 0: the argument u = -F_n < 0
        return e.xreplace(sub).replace(step_sign, lambda a: -1).replace(real_abs, lambda a: -a)
    xi_cap = sp.solve(pressed(m.switching["e_minus"]), sym["xi"])[0]
    vx_G = sp.solve(pressed(G).subs(sym["xi"], xi_cap), sym["vx"])[0]
    on = sp.simplify(pressed(lam).subs(sym["xi"], xi_cap).subs(sym["vx"], vx_G))
    assert sp.simplify(on - 2 * sym["gamma_n"] / (7 * sym["gamma_t"])) == 0, on


def test_lam_varies_and_follows_the_step_off_the_matched_stiffness():
    """``k_t/k_n = 0.5`` (25 deg, mu 0.1, e_n 0.5): ``lam`` falls from 0.78 towards 4/7
    along the graze, in [0, 1]; the step's dashpot-on fraction over each third of its
    chattering run at ``t_n/12800`` follows the mean of ``lam`` there to 5e-3."""
    p = standard_impact(25.0, mu=0.1, e_n=0.5, ks_ratio=0.5)
    sol = limit_solution(p)
    t, lam = graze_lam(sol, 61)
    lam, t = lam[:-1], t[:-1]
    assert np.all((lam > 0) & (lam < 1)) and lam[0] > 0.75 and np.all(np.diff(lam) < 0), lam
    dt = contact_time(p) / 12800
    tr = run_impact("liggghts-history", p, dt, record=True)["trace"]
    capped = np.abs(np.abs(tr[:, 6]) - p["mu"] * np.abs(tr[:, 7])) < 1e-9 * np.abs(tr[:, 7])
    edges = np.linspace(t[0], t[-1], 4)
    for a, b in zip(edges[:-1], edges[1:]):
        inside = (tr[:, 0] > a) & (tr[:, 0] < b)
        on = 1 - np.mean(capped[inside])
        assert abs(on - np.mean(lam[(t >= a) & (t <= b)])) < 5e-3, (a, on)


#: ``e_t`` of ``sds-elastic-test`` before the graze mode existed (the Filippov solution
#: at the zoo's tolerances, commit 8d74f90): where the limit never grazes, unchanged
BEFORE = {(5.0, 0.3, 0.9, 2 / 7): 0.47523321276988084, (45.0, 0.3, 0.9, 2 / 7): 0.4655324669410173,
          (85.0, 0.3, 0.9, 2 / 7): 0.9498570597411672, (25.0, 0.1, 0.5, 1.0): 0.6738313018162743,
          (65.0, 0.6, 0.99, 0.1): 0.683374453730996}


@pytest.mark.parametrize("point", list(BEFORE))
def test_values_where_the_limit_does_not_graze_are_unchanged(point):
    from nsfric.cases.slip_rule_zoo import exact_limit

    theta, mu, e_n, ks = point
    p = standard_impact(theta, mu=mu, e_n=e_n, ks_ratio=ks)
    assert not any(e.kind == "graze" for e in limit_solution(p).events)
    assert abs(exact_limit("sds-elastic-test", p, energy=False)["e_t"] - BEFORE[point]) <= 1e-12


@pytest.mark.parametrize("theta, psi_f", [(25.0, -0.38759621810432493), (45.0, -0.8618628397294105)])
def test_an_exit_through_a_kink_of_the_bound_is_a_plain_exit(theta, psi_f):
    """With the normal force that pulls at the end (``linear-dashpot``), the bound ``mu
    |F_n|`` has its kink where ``F_n = 0``: the cap's exit indicator jumps below zero
    there, and the spring leaves the cap for sticking without a graze (as before the
    graze mode: ``psi_f`` of commit 8d74f90 to 1e-12)."""
    from nsfric.cases import get_case
    from nsfric.cases.slip_rule_zoo import TOLERANCES, case_params

    p = standard_impact(theta)
    sol = get_case("sphere-wall").reference_solution("sds-elastic-test/linear-dashpot",
                                                       params=case_params("sds-elastic-test", p), **TOLERANCES)
    kinds = [(e.kind, e.from_mode, e.to_mode) for e in sol.events]
    assert ("stick", "contact/cap-", "contact/stick") in kinds and not any(k[0] == "graze" for k in kinds)
    assert abs(sol.summary["psi_f"] - psi_f) <= 1e-12


def test_a_graze_mode_must_lie_inside_a_constrained_mode():
    """The model's validation: a graze mode's ``plus`` is a constrained mode on its
    surface, its ``minus`` a neighbouring region of that mode."""
    from dataclasses import replace

    from nsfric.symbolic.coupling import couple
    from nsfric.symbolic.kinematics import Slider
    from nsfric.symbolic.laws import LawSliding, P, get_law, m, xi

    body = Slider(params=(P(m, 1.0, 0, lo_open=True),))
    law = get_law("sds-elastic-test")
    assert [s.name for s in couple(body, tangential=law).slidings if s.kind == "graze"] == ["graze+", "graze-"]
    for plus, minus, match in (("stick", "cap+", "must lie inside a constrained mode"),
                               ("cap-", "stick", "must lie inside a constrained mode"),
                               ("cap+", "cap-", "must lead to a neighbouring region")):
        bad = replace(law, slidings={**law.slidings, "graze+": LawSliding("e_plus", "graze", xi, plus, minus)})
        with pytest.raises(ValueError, match=match):
            couple(body, tangential=bad)
