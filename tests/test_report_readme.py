"""The README's verdict counts stay in sync with docs/_static/verdicts.json, and that file
with the verdict declarations (regenerate both with `nsfric report` and
`python -m nsfric.report.readme out/report/verdicts.json --write`)."""
import json
import pathlib

from nsfric.cases import get_case
from nsfric.cases.verdicts import claim_id, merge_claims
from nsfric.report import readme

ROOT = pathlib.Path(__file__).resolve().parents[1]
STORED = ROOT / "docs" / "_static" / "verdicts.json"


def test_readme_table_matches_the_stored_verdicts():
    verdicts = json.loads(STORED.read_text())
    text = (ROOT / "README.md").read_text()
    assert readme.replace_block(text, readme.table(verdicts)) == text


def test_stored_verdicts_match_the_declarations(tmp_path):
    stored = json.loads(STORED.read_text())
    declared = []
    for name in dict.fromkeys(v["case"] for v in stored):
        declared += get_case(name).verdicts(str(tmp_path))   # no outputs: every one "not reproduced"
    # one verdict per claim: the claims stored are those declared (merged by id, inputs apart)
    key = lambda v: (v["source"], v.get("kind", "claim"), v.get("id") or claim_id(v["place"], v["quantity"]))  # noqa: E731
    assert [key(v) for v in merge_claims(stored)] == [key(v) for v in merge_claims(declared)]
    assert len(stored) >= 30


def test_gallery_images_exist():
    text = (ROOT / "README.md").read_text()
    images = [line.split("](")[1].split(")")[0] for line in text.splitlines() if line.startswith("![")]
    assert len(images) == 3
    for img in images:
        path = ROOT / img
        assert path.is_file() and path.stat().st_size < 150_000, img
