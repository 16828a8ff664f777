"""Independent reference solvers agree (issue 2: within 1e-8 at default tolerances)."""
import itertools

import numpy as np
import pytest

from conftest import CLOSED_FORM_CASES, solve
from nsfric.solvers.crosscheck import disagreement

SOLVERS = ["filippov", "ida", "radau5dae"]


@pytest.mark.parametrize("case", CLOSED_FORM_CASES, ids=lambda c: "/".join(c))
def test_solvers_agree(case):
    sols = {s: solve(*case, s) for s in SOLVERS}
    scale = np.max(np.abs(sols["filippov"].y), axis=1)
    for a, b in itertools.combinations(SOLVERS, 2):
        d = disagreement(sols[a], sols[b])
        assert d["events_match"], (a, b)
        worst = max(d["states"][n] / s for n, s in zip(sols[a].state_names, scale))
        assert worst < 1e-8, f"{a} vs {b}: {worst:.3g}"
        assert d["event_dt"] < 1e-8 * sols[a].t_span[1]


def test_tolerance_refinement_changes_little():
    """'Numerically exact': refining the tolerance changes the result by less than the
    stated error."""
    a = solve("sliding-plates", "c-sds", "filippov")
    b = solve("sliding-plates", "c-sds", "filippov", rtol=1e-13, atol=1e-15)
    assert disagreement(a, b)["max_abs"] < 1e-11
