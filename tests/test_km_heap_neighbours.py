"""km-heap's contact detection (issue 27 item 3): the neighbour list built with a cell list
against the all-pairs loop -- the same run to the last bit -- its rebuilds, fast discs."""
from dataclasses import replace

import numpy as np
import pytest

from nsfric.papers.krengel_matuttis import km_heap as K
from nsfric.papers.krengel_matuttis.heap_run import Discs, run_heap

pytest.importorskip("numba")

G = 9.81
TABLE1 = dict(Y=5e7, D=1.5, mu=0.6, kt_ratio=2 / 7, gt_ratio=0.25)
R, RHO = 2.5e-3, 5000.0
M_DISC = RHO * np.pi * R * R


def assert_same_run(a, b):
    """Every output of two runs equal to the last bit (NaN where NaN)."""
    for c in a.rows:
        assert np.array_equal(a.rows[c], b.rows[c], equal_nan=True), c
    assert np.array_equal(a.X, b.X)
    for c, x in a.contacts.items():
        if c == "state":
            for n, s in x.items():
                assert s.dtype == b.contacts[c][n].dtype and np.array_equal(s, b.contacts[c][n]), n
        else:
            assert np.array_equal(x, b.contacts[c]), c


@pytest.fixture(scope="module")
def column():
    """km-heap's quick column (30 discs on 14 fixed ones, 3 walls) and its laws."""
    values = K.bind({"quick": 1})
    discs, _ = K.setup(values)
    return discs, K.law_params(values)


@pytest.mark.parametrize("method", ["exact", "cundall-strack", "velocity-projection"])
def test_the_neighbour_list_is_the_all_pairs_loop_to_the_bit(column, method):
    """The collapsing column for 0.05 s: contacts form and break, the list is built again
    and again; every recorded row, the final discs and every slot's state and forces are
    those of the all-pairs loop, bit for bit."""
    discs, P = column
    kw = dict(keep=25, skin=0.25 * R)
    nbr = run_heap(discs, method, 1e-5, 5000, P, **kw)
    ref = run_heap(discs, method, 1e-5, 5000, P, neighbour_list=False, **kw)
    assert_same_run(nbr, ref)
    n = nbr.rows["contacts"]
    assert n.max() >= 20 and np.sum(np.diff(n) < 0) >= 10                # formed and broken
    assert nbr.neighbours["builds"] >= 10 and ref.neighbours["builds"] == 1, nbr.neighbours
    N, S = discs.X.shape[0], nbr.contacts["active"].size
    assert ref.neighbours["most_candidates"] == N * (N - 1) // 2 + N * (S // N - N)   # every slot i < j
    assert nbr.neighbours["most_candidates"] < ref.neighbours["most_candidates"] / 8


def test_a_given_state_of_every_slot_is_released_as_the_all_pairs_loop_does(column):
    """A continued run from a state with every slot stuck and every spring stretched: the
    slots out of contact are released after the first step as by the all-pairs loop."""
    discs, P = column
    S = discs.X.shape[0] * (discs.X.shape[0] + discs.wall_p.shape[0])
    state = {"xi": np.full(S, 1e-6), "stuck": np.ones(S, np.int8), "Fs": np.full(S, 0.1), "gprev": np.ones(S)}
    for method in ("exact", "cundall-strack"):
        runs = [run_heap(discs, method, 1e-5, 50, P, state=state, neighbour_list=nl) for nl in (True, False)]
        assert_same_run(*runs)
        c = runs[0].contacts
        assert c["stuck"].sum() < 5 and not (c["stuck"] & ~c["active"]).any()   # released out of contact
        assert not np.any(c["state"]["xi"][~c["active"]])


def test_the_list_is_built_again_after_half_a_skin():
    """A disc falling freely 0.2 m: a new list once it has moved half the skin (less the
    look-ahead of two predictor steps), so about 0.2 m / (skin/2) builds, none too few."""
    disc = Discs(X=[0, 0.5, 0, 0, 0, 0], radius=R, mass=M_DISC, inertia=M_DISC * R * R / 2,
                 wall_p=[[0, 0]], wall_n=[[0, 1]])
    skin, dt, n = 1e-3, 1e-5, 20000
    run = run_heap(disc, "exact", dt, n, {**TABLE1, "g_x": 0.0, "g_y": -G}, keep=n, skin=skin)
    fall = 0.5 - run.X[0, 1]
    assert fall == pytest.approx(G * (n * dt) ** 2 / 2, rel=1e-3)
    v_max, reach = G * n * dt, skin / 2
    builds = run.neighbours["builds"] - 1
    assert fall / reach <= builds <= fall / (reach - 3 * v_max * dt) + 1, (builds, fall / reach)
    assert run.neighbours["steps_again"] == 0 and run.rows["contacts"][-1] == 0


@pytest.mark.parametrize("skin", [None, 1e-7])
def test_a_fast_disc_across_the_cells_hits_what_the_all_pairs_loop_hits(skin):
    """A disc at 5 m/s slides into a row of eight discs at rest on the floor, across seven
    cells (side 2 R + skin = 6.25 mm) before it strikes them; with a skin of 0.1 um it
    moves 500 skins per step (the margin grows with the step; a step whose end leaves the
    list's reach is done again).  The same run as the all-pairs loop, bit for bit, and
    the collisions happened."""
    x = np.r_[0.0, 0.05 + 2.2 * R * np.arange(8)]
    X = np.zeros((9, 6))
    X[:, 0], X[:, 1], X[0, 3] = x, R - 1.9e-8, 5.0         # resting on the floor: overlap m g / Y
    d = Discs(X=X, radius=R, mass=M_DISC, inertia=M_DISC * R * R / 2, wall_p=[[0, 0], [-0.01, 0]],
              wall_n=[[0, 1], [1, 0]])
    P = {**TABLE1, "g_x": 0.0, "g_y": -G}
    nbr = run_heap(d, "exact", 1e-5, 2000, P, keep=10, skin=skin)
    ref = run_heap(d, "exact", 1e-5, 2000, P, keep=10, neighbour_list=False)
    assert_same_run(nbr, ref)
    assert nbr.X[0, 0] > 0.04 and np.all(nbr.X[1:, 0] - x[1:] > 2e-3)    # it struck the row, all of it moved
    assert nbr.neighbours["builds"] >= (50 if skin is None else 500), nbr.neighbours   # measured: 95, 673


def test_a_step_that_leaves_the_lists_reach_is_done_again():
    """Three discs released at rest, the top one 10 nm above the two below it, with a skin
    of 1 pm: a step from rest moves the discs by h^2 g/2 = 0.5 nm, beyond the reach of a
    list built on the predictor (which does not move), so the step is done again after a
    new list; the top disc lands on the two below in the 5th step.  The same run as the
    all-pairs loop, bit for bit."""
    X = [[-R, R, 0, 0, 0, 0], [R, R, 0, 0, 0, 0], [0, R + np.sqrt(3) * R + 1e-8, 0, 0, 0, 0]]
    d = Discs(X=X, radius=R, mass=M_DISC, inertia=M_DISC * R * R / 2, wall_p=[[0, 0]], wall_n=[[0, 1]])
    P = {**TABLE1, "g_x": 0.0, "g_y": -G}
    nbr = run_heap(d, "exact", 1e-5, 100, P, skin=1e-12)
    ref = run_heap(d, "exact", 1e-5, 100, P, neighbour_list=False)
    assert_same_run(nbr, ref)
    assert nbr.neighbours["steps_again"] >= 1, nbr.neighbours
    assert nbr.rows["contacts"][1] == 2 and nbr.rows["contacts"][-1] == 4


def test_a_slot_that_joins_the_list_in_the_step_it_touches_keeps_its_velocity_before():
    """A disc sliding at 1 cm/s, 0.1 nm above the floor, skin 1 pm: the floor joins the list
    only at the first step (the look-ahead) and touches at its end; the stick decision
    reads the relative tangential velocity before the step (1 cm/s: no crossing, the
    contact slides), as the all-pairs loop does, not a stale one."""
    disc = Discs(X=[0, R + 1e-10, 0, 0.01, 0, 0], radius=R, mass=M_DISC, inertia=M_DISC * R * R / 2,
                 wall_p=[[0, 0]], wall_n=[[0, 1]])
    P = {**TABLE1, "g_x": 0.0, "g_y": -G}
    nbr = run_heap(disc, "exact", 1e-5, 3, P, skin=1e-12)
    ref = run_heap(disc, "exact", 1e-5, 3, P, neighbour_list=False)
    assert_same_run(nbr, ref)
    assert nbr.rows["contacts"].tolist() == [0, 1, 1, 1] and not nbr.rows["stuck"].any()
    assert nbr.neighbours["builds"] >= 2


@pytest.mark.parametrize("skin", [0.0, -1e-3, np.inf, np.nan, "1"])
def test_a_bad_skin_names_itself(column, skin):
    with pytest.raises(ValueError, match="skin must be a finite length > 0"):
        run_heap(column[0], "exact", 1e-5, 1, column[1], skin=skin)
