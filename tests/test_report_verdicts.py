"""The verdict mechanism (nsfric.cases.verdicts) and the Führer et al. verdicts."""
import json

import pytest

from nsfric.cases import get_case
from nsfric.cases.verdicts import Sheet


def test_sheet_number_claim_and_missing(tmp_path):
    (tmp_path / "s.json").write_text(json.dumps({"a": 2.0005, "b": 3.0}))
    s = Sheet("c", "Paper", str(tmp_path))
    o = s.out
    s.number("eq 1", "a", 2.0, lambda: o.json("s.json")["a"], tol=1e-3)
    s.number("eq 2", "a rel", 2.0, lambda: o.json("s.json")["a"], rtol=1e-6, reason="because")
    s.number("eq 3", "b by formula", lambda: o.json("s.json")["a"] + 1, lambda: o.json("s.json")["b"], tol=1e-2)
    s.number("eq 4", "missing", 1.0, lambda: o.json("nope.json")["x"], tol=1)
    s.claim("Fig 1", "b > a", "b exceeds a", lambda: o.json("s.json"), lambda d: d["b"] > d["a"])
    s.claim("Fig 2", "a > b", "a exceeds b", lambda: o.json("s.json"), lambda d: d["a"] > d["b"], reason="it does not")
    s.missing("§5", "heap", "Fig 6", "not modelled")
    st = [(v["place"], v["status"]) for v in s.items]
    assert st == [("eq 1", "match"), ("eq 2", "differs"), ("eq 3", "match"), ("eq 4", "not reproduced"),
                  ("Fig 1", "match"), ("Fig 2", "differs"), ("§5", "not reproduced")]
    assert s.items[1]["note"] == "because"
    assert s.items[1]["difference"] == pytest.approx(0.0005)
    assert s.items[2]["paper"] == pytest.approx(3.0005)
    assert "nope.json" in s.items[3]["note"]
    assert s.items[5]["note"] == "it does not"


def test_unknown_case_has_no_verdicts(tmp_path):
    from nsfric.cases.verdicts import case_verdicts

    assert case_verdicts("a-case-without-declarations", str(tmp_path)) == []


def test_every_verdict_says_not_reproduced_without_outputs(tmp_path):
    for name in ("sliding-plates", "sliding-plates-2d", "dry-oscillator", "slope-block", "slope-block-rotating",
                 "normal-impact", "kuhn-contact"):
        vs = get_case(name).verdicts(str(tmp_path))
        assert vs and all(v["status"] == "not reproduced" for v in vs), name


@pytest.mark.slow
def test_fuhrer_verdicts_match(tmp_path):
    """Führer et al.: every verdict the quick run can evaluate is a match."""
    from nsfric.papers.fuhrer2024 import sliding_plates_figures as figs

    case = get_case("sliding-plates")
    figs.run(case, str(tmp_path), jobs=1, quick=True)
    vs = case.verdicts(str(tmp_path))
    assert not [v for v in vs if v["status"] == "differs"]
    assert sum(v["status"] == "match" for v in vs) >= 14  # eq 11, an identity, is a check, not a verdict
    # the quick ladder has no v0 sweep: the energy exponents only come with the full run
    assert {v["quantity"][:40] for v in vs if v["status"] != "match"} <= {
        "D-SDS: exponent of the created energy in", "D-SDS (Euler, dt = 0.1): exponent of max"}
