"""`nsfric report`: one HTML page linking every output of the cases run."""
import os
import re

from nsfric.cli import main


def test_report_links_every_output(tmp_path):
    assert main(["report", "--out", str(tmp_path), "--cases", "normal-impact", "--no-checks"]) == 0
    page = (tmp_path / "index.html").read_text()
    links = re.findall(r"(?:src|href)='([^'#]+)'", page)
    assert any(link.endswith(".png") for link in links)
    assert any(link.endswith(".csv") for link in links)
    for link in links:
        assert (tmp_path / link).exists(), link
    assert "Schäfer" in page and "versions" in page.lower()


def test_report_unknown_case_writes_nothing(tmp_path, capsys):
    assert main(["report", "--out", str(tmp_path / "r"), "--cases", "nope"]) == 2
    assert "unknown case 'nope'" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "r")
