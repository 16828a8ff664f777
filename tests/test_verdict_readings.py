"""One verdict per paper claim: readings of what a paper leaves open, claims shared by
several cases merged into one, the paper's inputs kept apart from the verdicts
(:mod:`nsfric.cases.verdicts`), and how the report and ``nsfric run`` count them."""
import json

import pytest

from nsfric.cases.verdicts import Reading, Sheet, claim_id, claims, combine, inputs, merge_claims
from nsfric.cli.summary import run_summary
from nsfric.report.page import counts, input_table, verdict_table
from nsfric.report import readme


@pytest.fixture
def outs(tmp_path):
    (tmp_path / "r.json").write_text(json.dumps({"drift": {"crossing": 2.4, "step": 0.5, "brake": 0.8}}))
    return tmp_path


def _drift(out, rule):
    return lambda: json.loads((out / "r.json").read_text())["drift"][rule]


def test_a_claim_holds_under_some_readings_only(outs):
    s = Sheet("block", "Paper (2000)", str(outs))
    rules = [Reading(r, f"stick-entry rule {r}", _drift(outs, r), lambda x: x < 1, reason="BDF drifts more")
             for r in ("crossing", "step", "brake", "missing-rule")]
    s.readings("Fig 4", "BDF drift / Heun drift", "BDF drifts less than Heun", rules, id="fig4-bdf-heun")
    (v,) = s.items
    assert v["status"] == "depends on reading"
    assert v["holds_under"] == ["step", "brake"]
    assert [r["status"] for r in v["readings"]] == ["differs", "match", "match", "not reproduced"]
    assert v["nsfric"] == 2.4 and v["id"] == "fig4-bdf-heun"
    assert "holds under step, brake; not under crossing" in v["note"]
    assert v["readings"][0]["note"] == "BDF drifts more"


def test_combine():
    assert combine(["match", "match", "not reproduced"]) == "match"
    assert combine(["differs", "not reproduced"]) == "differs"
    assert combine(["differs", "match"]) == "depends on reading"
    assert combine(["not reproduced"]) == "not reproduced"


def test_one_claim_in_several_cases_is_one_verdict(tmp_path):
    a, b = Sheet("block", "P", str(tmp_path)), Sheet("block-rotating", "P", str(tmp_path))
    a.claim("Fig 4", "BDF drifts less (translating)", "BDF < Heun", lambda: 0.5, lambda x: x < 1, id="fig4")
    b.claim("Fig 4", "BDF drifts less (rotating)", "BDF < Heun", lambda: 2.0, lambda x: x < 1, id="fig4")
    b.claim("Fig 5", "another claim", "x", lambda: 1, lambda x: True)
    merged = merge_claims(a.items + b.items)
    assert len(merged) == 2
    one = merged[0]
    assert one["cases"] == ["block", "block-rotating"] and one["status"] == "depends on reading"
    assert [r["name"] for r in one["readings"]] == ["block", "block-rotating"]
    assert one["holds_under"] == ["block"]
    assert merged[1]["status"] == "match" and merged[1]["id"] == claim_id("Fig 5", "another claim")


def test_inputs_are_not_verdicts(tmp_path):
    s = Sheet("block", "P", str(tmp_path))
    s.input("Table 1", "mass m [kg]", 2.0, lambda: 2.0)
    s.number("eq 3", "e_n", 0.87, lambda: 0.87, tol=1e-3)
    s.number("eq 4", "t_n [s]", lambda: 1e-5, lambda: 1e-5, rtol=1e-9)
    assert [v["kind"] for v in s.items] == ["input", "claim", "claim"]
    assert len(claims(s.items)) == 2 and len(inputs(s.items)) == 1
    assert s.items[1]["paper_kind"] == "stated" and s.items[2]["paper_kind"] == "formula"
    assert counts(s.items) == {"match": 2, "differs": 0, "depends on reading": 0, "not reproduced": 0}
    html = verdict_table(claims(s.items)) + input_table(inputs(s.items))
    assert "(the paper's formula, evaluated by nsfric)" in html and "not counted as verdicts" in html


def test_readme_and_run_summary_count_claims(tmp_path):
    s = Sheet("block", "P", str(tmp_path))
    s.input("Table 1", "mass m [kg]", 2.0, lambda: 2.0)
    for case_quantity in ("translating", "rotating"):
        s.claim("Fig 4", case_quantity, "BDF < Heun", lambda: 1, lambda x: case_quantity == "rotating", id="fig4")
    table = readme.table(s.items)
    assert "| **all** | | **0** | **0** | **1** | **0** |" in table

    class Case:
        name = "block"

        def verdicts(self, out):
            return s.items

    lines = run_summary(Case(), str(tmp_path), [])
    assert "verdicts: 1 paper claims: 1 depends on reading (and 1 inputs from the paper read back)" in lines


def test_nsfrics_own_checks_are_not_claims(tmp_path):
    s = Sheet("block", "P", str(tmp_path))
    s.number("§4", "35 deg: slide acceleration [m/s^2]", lambda: 0.805, lambda: 0.805, rtol=1e-6, kind="check")
    s.claim("Fig 2", "comes to rest", "rests", lambda: 1, lambda x: True)
    (check, claim) = s.items
    assert check["kind"] == "check" and check["paper_kind"] == "nsfric closed form"
    assert claims(s.items) == [claim] and inputs(s.items) == [check]
    assert counts(s.items)["match"] == 1
    assert "nsfric check" in input_table(inputs(s.items))
