"""km-pile: three discs, six contacts with exact static friction (issue 13 item 3)."""
import numpy as np
import pytest

from nsfric.cases import get_case
from nsfric.papers.krengel_matuttis.km_pile_figures import agreement
from nsfric.solvers.contacts import PileLogic
from nsfric.papers.krengel_matuttis.pile_model import DiscPile, contact_quantities, stuck_mechanisms


@pytest.fixture(scope="module")
def runs():
    case = get_case("km-pile")
    t_eval = np.linspace(0.0, case.t_end, 201)
    return {s: case.reference_solution(solver=s, t_eval=t_eval) for s in ("events", "ida")}, t_eval


def test_pile_holds_still_after_settling(runs):
    sols, _ = runs
    for sol in sols.values():
        s = sol.summary
        assert s["com_drift"] <= 1e-12, s
        assert s["settle_time"] < s["window"][0]
        # at rest every closed contact is stuck, wall 1 stays open
        assert s["final_mode"] == "ssosss"
        # the stuck contacts' v_t = 0 (the events reference keeps it to rounding; IDA keeps
        # it at the acceleration level, to its tolerance)
        assert s["max_stuck_v_t"] <= (1e-13 if sol.solver == "pile-events" else 1e-11)
        assert 0 < s["max_stuck_ratio"] < 1


def test_mode_changes_are_exercised(runs):
    sols, _ = runs
    kinds = [e.kind for e in sols["events"].events]
    for kind in ("contact-begin", "contact-end", "stick", "slip"):
        assert kind in kinds, kinds
    # slip -> stick on one contact somewhere: a '+'/'-' becoming 's'
    pairs = {(a, b) for e in sols["events"].events for a, b in zip(e.from_mode, e.to_mode)}
    assert ("+", "s") in pairs or ("-", "s") in pairs


def test_event_driven_and_dae_agree(runs):
    sols, t_eval = runs
    a, b = sols["events"], sols["ida"]
    assert [e.to_mode for e in a.events] == [e.to_mode for e in b.events]
    assert max(abs(e.t - f.t) for e, f in zip(a.events, b.events)) < 1e-9
    d = agreement(a, b, t_eval)
    assert max(d["max_diff_q"].max(), d["max_diff_v"].max()) <= 1e-9


def test_stuck_forces_inside_the_cone_at_every_sample(runs):
    sols, _ = runs
    sol = sols["events"]
    for i, c in enumerate(sol.model.contacts):
        stuck = np.array([m[i] == "s" for m in sol.sample_modes])
        assert np.all(sol[f"ratio_{c}"][stuck] <= 1 + 1e-9)


def test_four_contacts_leave_a_rolling_mechanism():
    """Floor and disc-disc contacts alone (3 discs, 4 contacts) keep one rigid motion of the
    stuck pile; with the walls none is left."""
    model = DiscPile()
    v = model.bind({})
    p = model.param_vector(v)
    R, xb = v["R"], v["a"] * v["R"]
    y = np.array([-xb, R, 0, xb, R, 0, 0, R + np.sqrt(4 * R * R - xb * xb), 0] + [0] * 9)
    assert np.allclose(contact_quantities(model, y, p)["xi"], 0, atol=1e-15)
    assert stuck_mechanisms(model, y, p, [0, 1, 4, 5]) == 1
    assert stuck_mechanisms(model, y, p, range(6)) == 0


def test_decision_is_complementary(runs):
    """At the settled state every contact sticks; with mu a tenth of it the same state
    cannot stick everywhere and the chosen mode is consistent."""
    sols, _ = runs
    sol = sols["events"]
    y = sol.y[:, -1]
    logic = PileLogic(sol.model, sol.params)
    assert logic.decide(y, "ssosss", []) == "ssosss"
    weak = PileLogic(sol.model, {**sol.params, "mu": 0.03})
    mode = weak.decide(y, "ssosss", [])
    assert mode != "ssosss"
    undecided = [i for i, ch in enumerate(mode) if ch != "o"]
    assert weak.consistent(y, mode, undecided)[0]


def test_bad_input():
    case = get_case("km-pile")
    with pytest.raises(ValueError, match="solvers"):
        case.reference_solution(solver="filippov")
    with pytest.raises(ValueError, match="beta"):
        case.bind(params={"beta": 45.0})
    with pytest.raises(ValueError, match="every contact open"):
        case.reference_solution(params={"h_1": 0.0}, t_end=0.01)


def test_projection_onto_the_stuck_contacts():
    """The projection at an event zeroes the stuck contacts' v_t and changes the velocities
    M-orthogonally (the smallest change in the kinetic metric)."""
    model = DiscPile()
    values = model.bind({})
    logic = PileLogic(model, values)
    rng = np.random.default_rng(1)
    y = model.initial_state(values)
    y[model.n:] += rng.normal(scale=0.05, size=model.n)
    mode = "ssooss"
    z = logic.project(y, mode)
    c = contact_quantities(model, z, logic.p)
    assert np.all(np.abs(c["v_t"][[0, 1, 4, 5]]) <= 1e-15)
    assert np.max(np.abs(c["v_t"][[0, 1, 4, 5]] - 0)) < np.max(np.abs(contact_quantities(model, y, logic.p)["v_t"]))
    dv = z[model.n:] - y[model.n:]
    J = c["J_t"][[0, 1, 4, 5]]
    # dv = M^-1 J^T mu for some mu: M dv lies in the row space of J
    Mdv = dv / logic.Minv
    resid = Mdv - J.T @ np.linalg.lstsq(J.T, Mdv, rcond=None)[0]
    assert np.max(np.abs(resid)) <= 1e-12 * np.max(np.abs(Mdv))
    assert np.array_equal(z[:model.n], y[:model.n])


def test_stick_needs_to_lie_strictly_inside_the_cone(runs):
    """At rest, with mu a hair below what the most loaded contact needs, that contact
    (its sliding guard just fired) cannot stick: it slides, and every stuck contact of the
    chosen mode starts with its guard mu F_n - |lam| above zero (armed)."""
    sols, _ = runs
    sol = sols["events"]
    y = sol.y[:, -1]
    ratios = np.array([sol[f"ratio_{c}"][-1] for c in sol.model.contacts])
    i = int(np.argmax(ratios))
    mu_needed = ratios[i] * sol.params["mu"]
    logic = PileLogic(sol.model, {**sol.params, "mu": mu_needed * (1 - 1e-12)})
    K = sol.model.K
    mode = "".join("+" if k == i else ch for k, ch in enumerate("ssosss"))
    new = logic.decide(y, mode, [K + i])
    assert new[i] in "+-"
    g = logic.guards(y, new)
    stuck = [k for k, ch in enumerate(new) if ch == "s"]
    assert np.all(g[[K + k for k in stuck]] > 0)
    ok = PileLogic(sol.model, {**sol.params, "mu": mu_needed * 1.01})
    assert ok.decide(y, mode, [K + i])[i] == "s"


def test_dependent_stuck_contacts_are_named():
    """A contact listed twice is a dependent pair (singular J_S M^-1 J_S^T): both are named
    (the field then takes the minimum-norm least-squares forces); independent contacts
    give none."""
    from nsfric.papers.krengel_matuttis.pile_model import dependent_contacts, mass_vector

    model = DiscPile()
    values = model.bind({})
    p, Minv = model.param_vector(values), 1.0 / mass_vector(model, values)
    y = model.initial_state(values)
    assert dependent_contacts(model, y, p, Minv, [0, 1, 4]) == []
    assert dependent_contacts(model, y, p, Minv, [0, 4, 0]) == [0, 0]
