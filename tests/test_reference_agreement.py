"""Independent reference solvers agree within the spec's 1e-9 (scaled states), radau5dae
included, at the options of ``conftest.EXACT``.  Measured worst pairwise disagreement:
8.9e-11 (filippov/ida vs radau5dae on the C-SDS plates); at radau5dae's default
tolerances (rtol 1e-11, atol 1e-13) it would be 2.1e-9 (the impact), beyond 1e-9."""
import itertools

import numpy as np
import pytest

from conftest import CLOSED_FORM_CASES, solve, solve_exact
from nsfric.solvers.crosscheck import disagreement

SOLVERS = ["filippov", "ida", "radau5dae"]


@pytest.mark.parametrize("case", CLOSED_FORM_CASES, ids=lambda c: "/".join(c))
def test_solvers_agree(case):
    sols = {s: solve_exact(*case, s) for s in SOLVERS}
    scale = np.max(np.abs(sols["filippov"].y), axis=1)
    for a, b in itertools.combinations(SOLVERS, 2):
        d = disagreement(sols[a], sols[b])
        assert d["events_match"], (a, b)
        worst = max(d["states"][n] / s for n, s in zip(sols[a].state_names, scale))
        assert worst < 1e-9, f"{a} vs {b}: {worst:.3g}"
        assert d["event_dt"] < 1e-10 * sols[a].t_span[1]


def test_tolerance_refinement_changes_little():
    """'Numerically exact': refining the tolerance changes the result by less than the
    stated error."""
    a = solve("sliding-plates", "c-sds", "filippov")
    b = solve("sliding-plates", "c-sds", "filippov", rtol=1e-13, atol=1e-15)
    assert disagreement(a, b)["max_abs"] < 1e-11
