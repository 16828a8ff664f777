"""km-pile: three discs, six contacts with exact static friction (issue 13 item 3)."""
import numpy as np
import pytest

from nsfric.cases import get_case
from nsfric.cases.km_pile_figures import agreement
from nsfric.solvers.pile import PileLogic
from nsfric.symbolic.pile import DiscPile, contact_quantities, stuck_mechanisms


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
        assert s["max_stuck_v_t"] <= 1e-12
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
