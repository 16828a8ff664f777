"""A statement true by construction is a check, not a verdict (issue 28): Führer et al.'s
eq 11 is an identity of F = -(k xi + gamma xi') and s = v - xi'."""
import sympy as sp

from nsfric.cases import get_case
from nsfric.papers.fuhrer2024.checks import eq11_residual, gamma, k


def test_eq11_is_an_identity_of_any_path():
    """Any xi, xi', v in the plane: the residual vanishes with F = -(k xi + gamma xi') (the spring-dashpot force)."""
    xi, xd, v = (sp.Matrix(sp.symbols(f"{n}1:3", real=True)) for n in ("xi", "xd", "v"))
    assert sp.expand(eq11_residual(xi, xd, v, -(k * xi + gamma * xd))) == 0


def test_eq11_is_not_a_verdict_but_a_check(tmp_path):
    from nsfric.symbolic.checks import CHECKS

    for case in ("sliding-plates", "sliding-plates-2d"):
        places = [v["place"] for v in get_case(case).verdicts(str(tmp_path))]
        assert places and "eq 11" not in places, (case, places)
    assert "csds-energy-balance" in CHECKS


def test_one_fuhrer_claim_in_1d_and_in_the_plane_is_one_verdict(tmp_path):
    """The single smooth stick and 'no energy created' are tested in both cases: one id each,
    merged into one verdict listing both cases."""
    from nsfric.cases.verdicts import merge_claims

    vs = merge_claims(get_case("sliding-plates").verdicts(str(tmp_path))
                      + get_case("sliding-plates-2d").verdicts(str(tmp_path)))
    for claim in ("csds-slides-then-sticks-once", "csds-creates-no-energy"):
        (v,) = [v for v in vs if v["id"] == claim]
        assert v["cases"] == ["sliding-plates", "sliding-plates-2d"], v
