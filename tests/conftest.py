import numpy as np
import pytest

import nsfric

CLOSED_FORM_CASES = [
    ("sliding-plates", "c-sds"),
    ("sliding-plates", "d-sds"),
    ("dry-oscillator", "coulomb"),
    ("normal-impact", "linear-dashpot"),
    ("normal-impact", "linear-dashpot-force-end"),
]

_CACHE = {}


def solve(case, law, solver, **kw):
    """Cached reference solutions on a common grid (solves are shared by the tests)."""
    key = (case, law, solver, tuple(sorted(kw.items())))
    if key not in _CACHE:
        c = nsfric.get_case(case)
        t = np.linspace(0.0, c.t_end, 1001)
        _CACHE[key] = c.reference_solution(law, solver=solver, t_eval=t, **kw)
    return _CACHE[key]


@pytest.fixture
def solved():
    return solve
