"""The stick/slip decision of the multi-contact references by a complementarity solve
(Lemke's algorithm on the planar friction LCP, :mod:`nsfric.solvers.lcp`,
:mod:`nsfric.solvers.contact_modes`), against the enumeration of all 3^k modes."""
import itertools

import numpy as np
import pytest
from hypothesis import assume, example, given, settings, strategies as st

import nsfric
from nsfric.errors import ZenoError
from nsfric.solvers import contact_modes as pile_modes
from nsfric.solvers.lcp import RayTermination, friction_lcp, lemke
from nsfric.solvers.contacts import PileLogic
from nsfric.papers.krengel_matuttis.block_corners import block_corners
from nsfric.papers.krengel_matuttis.pile_model import DiscPile, contact_quantities

PILE = DiscPile()


def _psd(rng, k, dependent):
    J = rng.normal(size=(k, int(rng.integers(1, 7))))
    if dependent and k > 1:
        J[-1] = J[0] * rng.uniform(0.5, 2)
    return J @ J.T


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), k=st.integers(1, 5), dependent=st.booleans())
@example(seed=270142, k=5, dependent=False)  # a three-way tie with z0 up to rounding: a false ray before
def test_lemke_solves_positive_semidefinite_lcps(seed, k, dependent):
    """z >= 0, w = M z + q >= 0, z.w = 0 for M = [[W, B], [-B^T, D]] positive
    semidefinite (skew off-diagonal part) and any q for which a solution exists (q =
    w* - M z* from a complementary pair, some of it degenerate: z*_i = w*_i = 0)."""
    rng = np.random.default_rng(seed)
    W = _psd(rng, k, dependent)
    B = rng.normal(size=(k, 2))
    M = np.block([[W, B], [-B.T, _psd(rng, 2, False)]])
    n = k + 2
    pick = rng.integers(0, 3, size=n)  # 0: z* > 0, 1: w* > 0, 2: both zero
    z_star = np.where(pick == 0, rng.uniform(0, 2, n), 0.0)
    w_star = np.where(pick == 1, rng.uniform(0, 2, n), 0.0)
    q = (w_star - M @ z_star) * rng.choice([1e-3, 1.0, 1e3])
    z, pivots = lemke(M, q)
    w = M @ z + q
    scale = np.max(np.abs(q)) * (1 + np.max(np.abs(M)))
    assert np.all(z >= 0) and np.all(w >= -1e-10 * scale)
    assert abs(z @ w) <= 1e-10 * scale * max(1.0, np.max(z))
    assert pivots <= 50 * len(q) + 50


def _coulomb_ok(lam, a, c, tol=1e-9):
    """Coulomb at v_t = 0: stick inside the bound or slide the way it accelerates."""
    scale = max(1.0, float(np.max(np.abs(a))))
    return all((abs(ai) <= tol * scale and abs(li) <= ci * (1 + tol)) or
               (ai > 0 and abs(li + ci) <= tol * max(ci, 1)) or (ai < 0 and abs(li - ci) <= tol * max(ci, 1))
               for li, ai, ci in zip(lam, a, c))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), k=st.integers(1, 4), dependent=st.booleans())
def test_friction_lcp_is_coulomb_and_its_accelerations_unique(seed, k, dependent):
    """Every contact sticks inside its bound or slides the way it accelerates; the
    accelerations equal those of the brute-force solution over the 3^k sign patterns
    (the same for every solution of a positive semidefinite LCP)."""
    rng = np.random.default_rng(seed)
    W, b, c = _psd(rng, k, dependent), rng.normal(size=k) * 3, rng.uniform(0, 2, size=k)
    lam, a, sigma, _ = friction_lcp(W, b, c)
    assert _coulomb_ok(lam, a, c) and np.allclose(a, W @ lam + b) and np.all(sigma >= 0)
    brute = []
    for signs in itertools.product((0, 1, -1), repeat=k):
        S = [i for i, s in enumerate(signs) if s == 0]
        lb = -np.array(signs, dtype=float) * c
        if S:
            lb[S] = np.linalg.lstsq(W[np.ix_(S, S)], -(b[S] + W[S] @ lb), rcond=None)[0]
        ab = W @ lb + b
        if _coulomb_ok(lb, ab, c, 1e-7) and np.allclose(ab[S], 0, atol=1e-7):
            brute.append(ab)
    assert brute and all(np.allclose(ab, a, atol=1e-6 * max(1.0, np.max(np.abs(a)))) for ab in brute)


def test_lemke_ray_and_bad_input():
    with pytest.raises(RayTermination, match="ray") as info:  # w = -z - 1 >= 0 has no solution
        lemke(np.array([[-1.0]]), np.array([-1.0]))
    assert info.value.pivots == 1
    with pytest.raises(ValueError, match="M must be 2 x 2"):
        lemke(np.eye(3), np.ones(2))
    with pytest.raises(ValueError, match="mu F_n"):
        friction_lcp(np.eye(1), np.ones(1), -np.ones(1))
    assert lemke(np.eye(2), np.ones(2))[1] == 0  # q >= 0: z = 0 at once


def _pile_state(dx, dv, sink):
    """The pile pressed into floor, walls and each other by ``sink`` (m), each coordinate
    moved by ``dx`` and each velocity ``dv``."""
    v = PILE.bind({})
    R, xb = v["R"], v["a"] * v["R"]
    y3 = R - sink + np.sqrt(4 * R * R - (xb + sink) ** 2) - 2 * sink
    y = np.array([-xb - sink, R - sink, 0, xb + sink, R - sink, 0, 0, y3, 0] + [0] * 9)
    return y + np.concatenate([dx, dv])


def _check_against_enumeration(logic, y, mode):
    """The LCP's decision from ``mode`` at ``y`` (entered there: its dependent stuck
    contacts known) against every consistent mode of the enumeration."""
    logic.check_dependent(y, mode)
    new, undecided, forced, crossed = logic.undecided(y, mode, [])
    found = pile_modes.enumerated_modes(logic, y, mode, new, undecided, forced, crossed)
    modes = {m for _, m in found}
    if not modes:
        with pytest.raises(ZenoError):
            logic.decide(y, mode, [], 0.5)
        return
    chosen = logic.decide(y, mode, [])
    assert logic.consistent(y, chosen, undecided, crossed)[0]
    if len(modes) == 1:
        assert chosen == modes.pop()
    # as many stuck contacts as the enumeration's preferred mode
    assert chosen.count("s") == -min(k for k, _ in found)[0]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), mu=st.floats(0.01, 1.0), beta=st.floats(0.0, 29.0),
       slides=st.lists(st.sampled_from("s+-"), min_size=6, max_size=6))
def test_lcp_mode_is_the_enumerated_one_on_random_piles(seed, mu, beta, slides):
    """Random piles (all six contacts closed, random tilt, mu, velocities, some contacts
    sliding with a fixed sign): the LCP's mode is consistent, has the most stuck contacts,
    and is the enumeration's mode wherever that one is the only consistent one."""
    rng = np.random.default_rng(seed)
    y = _pile_state(rng.normal(scale=1e-6, size=9), rng.normal(scale=1e-4, size=9), 5e-6)
    values = PILE.bind({"mu": mu, "beta": beta})
    c = contact_quantities(PILE, y, PILE.param_vector(values))
    assert np.all(c["xi"] > 0) and np.all(c["F_n"] > 0)
    _check_against_enumeration(PileLogic(PILE, values), y, "".join(slides))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), mu=st.floats(0.05, 1.5), alpha=st.floats(0.0, 45.0),
       theta=st.sampled_from([0.0, 1e-6, -5e-6, 1e-3, -2e-3]))
@example(seed=9523, mu=1.0, alpha=0.0, theta=0.0)  # every contact stuck within the margins, not by the LCP
@example(seed=0, mu=1.0, alpha=15.0, theta=-5e-6)  # W nearly singular: Lemke's forces spoilt, repaired
def test_lcp_mode_is_the_enumerated_one_on_random_blocks(seed, mu, alpha, theta):
    """The block on both corners, flat (the statically indeterminate pair: parallel J_t
    rows, minimum-norm forces) or tilted: as for the piles."""
    rng = np.random.default_rng(seed)
    model = block_corners()
    values = model.bind({"mu": mu, "alpha": alpha})
    y = np.array([0.0, 0.0, theta, rng.normal(scale=1e-3), 0.0, rng.normal(scale=1e-3)])
    p = model.param_vector(values)
    y[1] = max(contact_quantities(model, y, p)["xi"]) - values["l"] * abs(np.sin(theta)) - 1e-6
    c = contact_quantities(model, y, p)
    assume(np.all(c["xi"] > 0) and np.all(c["F_n"] > 0))
    for mode in ("ss", "+s", "s-"):
        _check_against_enumeration(PileLogic(model, values), y, mode)


def test_decisions_of_a_pile_run_match_the_enumeration(monkeypatch):
    """Every decision of km-pile up to rest (29 ms, 15 events) and of the block's lift-off
    drop: the LCP's mode is the enumeration's."""
    seen = []
    decide = pile_modes.ModeDecision.decide

    def both(self, y, mode, fired, t=None):
        self.decision = "enumerate"
        expected = decide(self, y, mode, fired, t)
        self.decision = "lcp"
        got = decide(self, y, mode, fired, t)
        seen.append((t, got, expected))
        return got

    monkeypatch.setattr(pile_modes.ModeDecision, "decide", both)
    sols = [nsfric.get_case("km-pile").reference_solution(t_end=0.035, samples=11),
            nsfric.get_case("slope-block-rotating").reference_solution("coulomb-corners", params={"theta0": 0.002},
                                                                       t_end=0.009, samples=11)]
    assert len(seen) > 35
    assert [s[1] for s in seen] == [s[2] for s in seen]
    # the LCP's own split decides; the repair only where Lemke's forces are spoilt by
    # rounding: once in the drop, at 7.99 ms (cond W ~ 1e11, the rounding floor)
    for sol, repairs in zip(sols, (0, 1)):
        stats = sol.info["decisions"]
        assert stats["solves"] > 10 and stats["repairs"] <= repairs, stats


def test_lcp_decision_costs_polynomially():
    """Deciding k stuck contacts checks a handful of modes, the enumeration 3^k: counted
    by the field evaluations of the consistency test."""
    values = PILE.bind({"mu": 0.05})
    y = _pile_state(np.zeros(9), np.zeros(9), 5e-6)
    counts = {}
    for decision in ("lcp", "enumerate"):
        logic = PileLogic(PILE, values, decision)
        calls = []
        check = logic.consistent
        logic.consistent = lambda *a, **k: (calls.append(1), check(*a, **k))[1]
        counts[decision] = (logic.decide(y, "ssssss", []), len(calls))
    assert counts["lcp"][0] == counts["enumerate"][0]
    assert counts["enumerate"][1] == 3 ** 6 and counts["lcp"][1] <= 6 + 3
    assert logic.lcp_stats == {"solves": 0, "pivots": 0, "rechecks": 0, "repairs": 0}


def test_ray_termination_names_the_contacts_and_the_time(monkeypatch):
    def ray(*args, **kwargs):
        raise RayTermination("Lemke: secondary ray after 3 pivots (no solution)", 3)

    monkeypatch.setattr(pile_modes, "friction_lcp", ray)
    logic = PileLogic(PILE, PILE.bind({}))
    y = _pile_state(np.zeros(9), np.zeros(9), 5e-6)
    with pytest.raises(ZenoError, match=r"contacts \['1-floor', '2-floor', '1-wall'\] at t = 0.25 .*ray after 3"):
        logic.decide(y, "sssooo".replace("o", "+"), [], 0.25)


def test_decision_option():
    with pytest.raises(ValueError, match="decision must be one of"):
        PileLogic(PILE, PILE.bind({}), "guess")
    with pytest.raises(ValueError, match="decision must be one of"):
        nsfric.get_case("km-pile").reference_solution(t_end=0.001, decision="guess")
