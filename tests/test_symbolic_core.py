"""Derivation and code generation (issue 2, nsfric.symbolic)."""
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

import nsfric
from nsfric.symbolic import codegen, derive, laws as L


def test_codegen_is_cached_and_uses_runtime_params():
    e = [L.k * L.xi ** 2 + sp.sin(L.xi) * L.k]
    f1 = codegen.generate(e, ([L.xi], [L.k]))
    hits = codegen.STATS["hits"]
    f2 = codegen.generate([L.k * L.xi ** 2 + sp.sin(L.xi) * L.k], ([L.xi], [L.k]))
    assert f1 is f2 and codegen.STATS["hits"] == hits + 1
    assert np.isclose(f1([0.5], [2.0])[0], 2 * 0.25 + 2 * np.sin(0.5))
    assert np.isclose(f1([0.5], [3.0])[0], 3 * 0.25 + 3 * np.sin(0.5))
    with pytest.raises(ValueError, match="backend"):
        codegen.generate(e, ([L.xi], [L.k]), backend="fortran")


def test_filippov_lambda_is_km_eq13():
    """lam = f_I/(f_I - f_II) in 1D (Krengel & Matuttis eq 13) for the dry oscillator."""
    d = derive(nsfric.get_case("dry-oscillator").model())
    lam = d.modes["stick"].outputs["lam"]
    f_I = -L.k * L.x - L.mu * L.F_N
    f_II = -L.k * L.x + L.mu * L.F_N
    assert sp.simplify(lam - f_I / (f_I - f_II)) == 0
    # the sliding field keeps v = 0 exactly and the force balances the spring (eq 14)
    assert d.modes["stick"].rhs == [L.v, 0]
    assert sp.simplify(d.modes["stick"].outputs["F"] - L.k * L.x) == 0


def test_dsds_reset_is_eq3_and_exit_is_eq20():
    d = derive(nsfric.get_case("sliding-plates").model("d-sds"))
    xi_D = d.reset_expr("slip-")[0]
    assert sp.simplify(xi_D - (-(-L.F_max + L.gamma * L.v) / L.k)) == 0
    (g,) = d.modes["slip-"].guards
    # exit to sticking when the stick field stops pushing F_S below -F_max: v < gamma F_max/(m k)
    v_exit = sp.solve(g.expr.subs(L.xi, xi_D), L.v)
    assert len(v_exit) == 1 and sp.simplify(v_exit[0] - L.gamma * L.F_max / (L.m * L.k)) == 0


def test_param_validation_names_parameter_and_range():
    m = nsfric.get_case("sliding-plates").model("c-sds")
    with pytest.raises(ValueError, match=r"'gamma' must lie in \(0, inf\)"):
        m.bind({"gamma": 0})
    with pytest.raises(ValueError, match="'k' must be a number"):
        m.bind({"k": "x"})
    with pytest.raises(ValueError, match="'F_max'"):
        m.bind({"F_max": float("nan")})


@settings(max_examples=60, deadline=None)
@given(xi=st.floats(-5, 5), v=st.floats(-5, 5), gamma=st.floats(0.1, 5), k=st.floats(0.1, 5))
def test_csds_regions_agree_with_eq10(xi, v, gamma, k):
    """The C-SDS modes reproduce eq 10, xi' = -(min(|F_S|, F_max) F_S/|F_S| + k xi)/gamma,
    wherever the state lies (the law's region selection is the clip of eq 10)."""
    model = nsfric.get_case("sliding-plates").model("c-sds")
    d = derive(model)
    p = np.array([k, gamma, 1.0, 1.0, 0.0, 4.0])
    y = np.array([xi, v])
    mode = d.region_at(y, p, tol=1e-15)  # on |F_S| = F_max either side: the field is continuous
    F_S = -k * xi - gamma * v
    if F_S == 0:
        return
    want = -(min(abs(F_S), 1.0) * np.sign(F_S) + k * xi) / gamma
    assert np.isclose(d.rhs(mode)(y, p)[0], want, rtol=1e-12, atol=1e-12)


def test_solution_api():
    pytest.importorskip("numba")  # numba loaded: "auto" compiles the non-stiff modes
    c = nsfric.get_case("sliding-plates")
    sol = c.reference_solution("c-sds", samples=11)
    assert sol["xi"].shape == sol.t.shape and sol.y.shape == (2, len(sol.t))
    assert np.allclose(sol(sol.t[5]), sol.y[:, 5])
    assert [s.mode for s in sol.segments] == ["slip-", "stick"]
    assert sol.mode_at(1.0) == "slip-" and sol.mode_at(5.0) == "stick"
    assert sol.stats["nfev"] > 0 and sol.stats["nevents"] == 1
    assert sol.tolerances == {"rtol": 1e-12, "atol": 1e-14, "method": "dop853-numba"}
    assert np.allclose(sol["E_kin"], sol["v"] ** 2 / 2)
    with pytest.raises(KeyError):
        sol["nope"]


@pytest.mark.parametrize("method", ["Radau", "BDF", "LSODA", "RK45"])
def test_filippov_methods_selectable(method):
    c = nsfric.get_case("dry-oscillator")
    sol = c.reference_solution(method=method, rtol=1e-10, atol=1e-12)
    assert sol.tolerances["method"] == method
    assert [e.kind for e in sol.events] == ["reversal", "reversal", "stick"]
    assert abs(sol.events[-1].t - 1.5 * np.pi) < 1e-6


@pytest.mark.parametrize("case,law", [("sliding-plates", "c-sds"), ("sliding-plates", "d-sds"),
                                      ("dry-oscillator", "coulomb"), ("sliding-plates-2d", "c-sds-2d")])
def test_dae_jacobian_matches_finite_differences(case, law):
    """The derived iteration matrix dF/dY + c dF/dY' (used by IDA) is the residual's."""
    model = nsfric.get_case(case).model(law)
    d = derive(model)
    p = np.array([q.default for q in model.params])
    rng = np.random.default_rng(0)
    n = d.n
    for mode in model.mode_names:
        r, J = d.residual(mode), d.residual_jacobian(mode)
        Y, YP, c = rng.normal(size=n + 1), rng.normal(size=n + 1), 7.0

        def F(Yv, YPv):
            return r(Yv[:n], YPv[:n], Yv[n:], p)

        fd = np.empty((n + 1, n + 1))
        for j in range(n + 1):
            e = np.zeros(n + 1)
            e[j] = 1e-6
            fd[:, j] = (F(Y + e, YP + c * e) - F(Y - e, YP - c * e)) / 2e-6
        assert np.allclose(J(c, Y[:n], YP[:n], Y[n:], p), fd, rtol=1e-6, atol=1e-6), mode
