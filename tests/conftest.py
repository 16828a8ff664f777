import importlib.util

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


#: Options with which each reference solver is "numerically exact" (spec: error against a
#: closed form below 1e-10 on O(1)-scaled states).  Measured scaled max errors against
#: the closed forms of CLOSED_FORM_CASES:
#:   filippov   defaults (rtol 1e-12, atol 1e-14)                     <= 1.8e-12
#:   ida        rtol 1e-13, atol 1e-14                                <= 2.5e-11
#:              (its defaults 1e-12/1e-13: 2.0e-10 dry oscillator, 1.5e-10 impact)
#:   radau5dae  rtol 1e-13, atol 1e-14 x the smallest state scale     <= 8.9e-11
#:              (its defaults 1e-11/1e-13: up to 2.1e-9; with an unscaled atol the impact's
#:              overlap, of scale 8.7e-6 m, stays at 2e-10: the scalar atol of 1e-15 is
#:              1e-10 of that scale -- the solvers take one absolute tolerance for all states)
EXACT = {"filippov": {}, "ida": {"rtol": 1e-13, "atol": 1e-14},
         "radau5dae": {"rtol": 1e-13, "atol": 1e-14, "scaled_atol": True}}


def exact_options(case, law, solver):
    """The options of :data:`EXACT` for ``solver`` on ``case``/``law`` (atol scaled by
    the smallest state scale of the closed form where marked)."""
    opts = dict(EXACT.get(solver, {}))
    if opts.pop("scaled_atol", False):
        scale = np.max(np.abs(solve(case, law, "analytic").y), axis=1)
        opts["atol"] *= min(1.0, float(scale.min()))
    return opts


def solve_exact(case, law, solver):
    """``solve`` with :func:`exact_options`."""
    return solve(case, law, solver, **exact_options(case, law, solver))


@pytest.fixture
def solved():
    return solve


def assert_csv_holds(path, columns):
    """The CSV file ``path`` (as ``write_csv_with_sidecar`` writes it) holds ``columns``
    (name -> values) exactly: the same names in order, every number bit for bit (the
    writer's ``repr`` round-trips), every label as its string."""
    import csv

    with open(path) as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(columns), path
    for name, values in columns.items():
        numbers = np.asarray(values).dtype.kind in "fiu"
        got = [float(r[name]) if numbers else r[name] for r in rows]
        assert got == [float(v) if numbers else str(v) for v in values], (path, name)


#: why the tests of the real Kratos DEM skip: only where its wheel is not installed (an
#: installed Kratos that does not run fails them)
KRATOS_MISSING = "" if importlib.util.find_spec("KratosMultiphysics") else "the KratosMultiphysics wheel is not installed"
