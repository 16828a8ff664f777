"""The per-corner delta schemes on a batch of members (issue 13; nsfric.schemes.corners
integrate_batch, the compiled forces of nsfric.symbolic.corner_kernel): every member of a
batch equals, bit for bit, its run alone through simulate_contacts, for members with
different sizes, grid phases, a lift-off and a slide."""
import numpy as np
import pytest

from nsfric.cases.base import get_case
from nsfric.papers.krengel_matuttis.slope_block_corners import LAW, corner_phase_starts
from nsfric.schemes.base import get_scheme
from nsfric.schemes.corners import integrate_batch, simulate_contacts
from nsfric.symbolic.corner_forces import CornerForces

CASE = get_case("slope-block-rotating")
DT = 5e-6
#: (parameters, grid phase index of 2): sizes, a phase, a tilted drop (lift-off), a slide, and
#: a spun flat block whose stronger corner (first in the Gauss-Seidel order) alternates
MEMBERS = (({"alpha": 15.0, "l": 2e-3}, 0), ({"alpha": 15.0, "l": 1.0}, 1), ({"alpha": 15.0}, 1),
           ({"alpha": 15.0, "theta0": 0.002}, 0), ({"alpha": 35.0, "l": 0.1}, 0), ({"alpha": 0.0, "omega0": 0.5}, 0))


def members():
    values, U0 = [], []
    for params, j in MEMBERS:
        v = CASE.bind(LAW, params=params)
        _, U = corner_phase_starts(CASE, v, DT, 2)
        values.append(v)
        U0.append(U[:, j])
    return values, np.array(U0).T


@pytest.mark.parametrize("scheme", ["delta-heun", "delta-bdf5"])
def test_every_member_of_a_batch_equals_its_run_alone(scheme):
    """The batch's rows, modes and events of each member are those of simulate_contacts on
    that member alone (bit for bit); the members differ (a lift-off, a slide, stick)."""
    model = CASE.model(LAW)
    values, U0 = members()
    n_steps = 1200
    t, Y, info = integrate_batch(CornerForces(model, values), get_scheme(scheme).base, 0.0, U0, DT, n_steps)
    kinds = []
    for b, v in enumerate(values):
        t1, Y1, info1 = simulate_contacts(model, v, get_scheme(scheme), 0.0, U0[:, b], DT, n_steps)
        assert np.array_equal(t, t1)
        assert np.array_equal(Y[:, b], Y1), (b, np.nanmax(np.abs(Y[:, b] - Y1)))
        assert info["events"][b] == info1["events"] and info["termination"][b] == info1["termination"]
        kinds.append({e["kind"] for e in info1["events"]})
    assert "lift-off" in kinds[3] and "stick" in kinds[0] and "stick" not in kinds[4]


def test_a_diverging_member_leaves_the_others_alone():
    """A member that diverges (NaN state) ends with NaN rows and its termination; the
    others run on unchanged."""
    model = CASE.model(LAW)
    values, U0 = members()
    U0 = U0[:, :2].copy()
    U0[3, 1] = np.inf
    t, Y, info = integrate_batch(CornerForces(model, values[:2]), get_scheme("heun"), 0.0, U0, DT, 50)
    assert info["termination"][1].startswith("diverged at") and np.all(np.isnan(Y[:, 1, 1:]))
    alone = simulate_contacts(model, values[0], get_scheme("delta-heun"), 0.0, U0[:, 0], DT, 50)[1]
    assert np.array_equal(Y[:, 0], alone) and info["termination"][0] == "reached t_end"
