"""Long commands report progress for logs without a terminal (``--progress plain`` or
``NSFRIC_PROGRESS=plain``: a line per step, case or tenth on stderr), keep stderr empty by
default, and ``nsfric run`` ends with a summary of what it wrote and of the verdicts."""
import os

import pytest

import nsfric
from nsfric.cli import main


class TinyCase(nsfric.Case):
    """Writes a table, a figure and a sidecar, reporting a step before each."""

    name = "tiny-progress"
    reference = "a case of the tests"
    laws = ()  # no model: nothing for the report cache to hash but this file

    def run(self, out_dir, progress=None):
        written = []
        for i, name in enumerate(("a.csv", "b.png", "c.json")):
            progress(f"step {i}")
            written.append(os.path.join(out_dir, name))
            with open(written[-1], "w") as f:
                f.write("x\n")
        return {"written": written}


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setitem(nsfric.CASES, TinyCase.name, TinyCase())
    monkeypatch.delenv("NSFRIC_PROGRESS", raising=False)
    return TinyCase.name


def test_run_is_silent_on_stderr_and_ends_with_a_summary(tiny, tmp_path, capsys):
    out = tmp_path / "res"
    assert main(["run", tiny, "--out", str(out)]) == 0
    stdout, err = capsys.readouterr()
    assert err == ""
    paths, summary = stdout.split("\n\n")
    assert paths.split("\n") == [str(out / n) for n in ("a.csv", "b.png", "c.json")]  # first, as before
    assert summary.splitlines() == [
        f"{tiny}: wrote 3 files into {out}: 1 figures, 1 tables, 1 JSON sidecars",
        "verdicts: none declared for this case",
        f"report: nsfric report --cases {tiny} --out DIR writes the HTML page of the figures, tables and verdicts"]


@pytest.mark.parametrize("how", ["option", "env"])
def test_run_progress_plain_writes_a_line_per_step(how, tiny, tmp_path, capsys, monkeypatch):
    extra = ["--progress", "plain"] if how == "option" else []
    if how == "env":
        monkeypatch.setenv("NSFRIC_PROGRESS", "plain")
    assert main(["run", tiny, "--out", str(tmp_path / "res"), *extra]) == 0
    assert capsys.readouterr().err.splitlines() == [f"{tiny}: step {i}" for i in range(3)]


def test_a_bad_progress_mode_is_one_line_exit_2(tiny, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NSFRIC_PROGRESS", "loud")
    assert main(["run", tiny, "--out", str(tmp_path / "res")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "NSFRIC_PROGRESS must be one of plain, bar, none" in err
    monkeypatch.delenv("NSFRIC_PROGRESS")
    assert main(["run", tiny, "--progress", "loud", "--out", str(tmp_path / "res")]) == 2
    assert not (tmp_path / "res").exists()


def test_report_progress_plain(tmp_path, capsys, monkeypatch):
    import nsfric.report

    def fake_report(out_dir, cases, checks=True, progress=None, force=False, jobs=1):  # the command's wiring only
        for name in cases:
            progress(name)
            progress("step 1")
        with open(os.path.join(out_dir, "index.html"), "w") as f:
            f.write("<html></html>")
        return os.path.join(out_dir, "index.html")

    monkeypatch.setattr(nsfric.report, "build_report", fake_report)
    monkeypatch.delenv("NSFRIC_PROGRESS", raising=False)
    argv = ["report", "--no-checks", "--cases", "normal-impact", "dry-oscillator"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    assert capsys.readouterr().err == ""
    assert main([*argv, "--progress", "plain", "--out", str(tmp_path / "b")]) == 0
    assert capsys.readouterr().err.splitlines() == ["report: normal-impact", "report: step 1",
                                                    "report: dry-oscillator", "report: step 1"]


SWEEP = ["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=1,2,3", "--observable", "e_n", "--no-cache"]
CONVERGE = ["converge", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "0.05", "--t-end", "0.3"]


@pytest.mark.parametrize("argv, lines", [
    (SWEEP, [f"normal-impact: {i}/3 points" for i in (1, 2, 3)]),
    (CONVERGE, ["sliding-plates: converge: 1/2", "sliding-plates: converge: 2/2"]),
])
def test_sweep_and_converge_progress(argv, lines, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NSFRIC_PROGRESS", raising=False)
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    assert capsys.readouterr().err == ""
    assert main([*argv, "--progress", "plain", "--out", str(tmp_path / "b")]) == 0
    assert capsys.readouterr().err.splitlines() == lines
