"""The sliding-plates study derives its formulas from the symbolic laws (issue 23).

It restated the D-SDS reset bound ``v(0) = F_max/gamma`` (which ignores ``xi0``) and
eq 17 by hand; a second spring law, ``cundall_strack_viscous``, sat outside the law
registry.
"""
import inspect
import warnings

import numpy as np
import pytest
import sympy as sp

import nsfric
from nsfric.papers.fuhrer2024 import sliding_plates_study as study
from nsfric.symbolic import laws as L

PLATES = nsfric.get_case("sliding-plates")


def test_the_reset_bound_is_the_root_of_the_laws_switching_function():
    from nsfric.papers.fuhrer2024.checks import reset_threshold

    model = PLATES.model("d-sds")
    xi0 = [q.symbol for q in model.params if q.name == "xi0"][0]
    assert sp.simplify(reset_threshold(model) - (L.F_max - L.k * xi0) / L.gamma) == 0
    p = {q.name: q.default for q in model.params}
    assert study.reset_bound(model, {**p, "xi0": 0.25, "gamma": 4.0}) == pytest.approx((1.0 - 0.25) / 4.0, rel=1e-15)


def test_eq17_along_the_exact_c_sds_holds_and_fails_on_a_perturbed_law():
    from nsfric.papers.fuhrer2024.checks import eq17_residual

    model = PLATES.model("c-sds")
    s = L.v - model.mode("slip+").rhs[L.xi]
    assert sp.simplify(eq17_residual(model, "slip+").subs(L.xi, (-L.F_max - 3 * L.gamma - L.gamma * L.v) / L.k)) == 0
    assert eq17_residual(model, "slip+").has(sp.Abs) and s.has(L.k)
    cols = study.sanity_data(PLATES, samples=401)["columns"]
    assert np.max(np.abs(cols["residual_eq17"])) < 1e-12 and np.any(cols["loading"] > 0)


def test_the_study_restates_no_law_formula():
    src = inspect.getsource(study)
    for formula in ('p["F_max"] / p["gamma"]', "gamma * np.abs(s) + F_max"):
        assert formula not in src, formula


def test_cundall_strack_viscous_is_a_registered_law():
    law = nsfric.get_law("cundall-strack-viscous")
    assert law.name == "cundall-strack-viscous" and "after eq 20" in law.reference
    assert "instantaneous" in law.doc and [q.name for q in law.params] == ["k_t", "gamma_t", "mu", "F_N"]
    from nsfric.papers.fuhrer2024 import systems
    from nsfric.symbolic import tangential

    k_t, gamma_t = tangential.k_t, tangential.gamma_t
    assert sp.simplify(law.branches["stick"].F - (-k_t * L.xi - gamma_t * L.v)) == 0
    assert sp.simplify(law.slidings["slip+"].F - (L.mu * L.F_N - gamma_t * L.v)) == 0  # beyond the cut-off

    k, g = sp.symbols("k_x g_x", positive=True)
    assert tangential.cundall_strack_viscous(k, g, params=()).params == ()
    assert not hasattr(systems, "cundall_strack_viscous")  # the deprecated alias is gone (CHANGELOG)
