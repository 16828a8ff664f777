"""``nsfric report --jobs N``: the cases on a pool of local processes, the same page."""
from __future__ import annotations

import os

import pytest

from nsfric.cases import CASES, Case
from nsfric.cli import main
from nsfric.report import build_report
from nsfric.study.execute import forks_workers


class _Tiny(Case):
    """A case whose run writes one CSV naming the process that ran it."""

    laws = ()
    t_end = 1.0

    def run(self, out_dir, progress=None):
        os.makedirs(out_dir, exist_ok=True)
        path = os.path.join(out_dir, "who.csv")
        with open(path, "w") as f:
            f.write(f"case,pid\n{self.name},{os.getpid()}\n")
        return {"written": [path]}


NAMES = ("tiny-jobs-a", "tiny-jobs-b", "tiny-jobs-c")


@pytest.fixture
def tiny_cases(monkeypatch, tmp_path):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path / "cache"))
    for name in NAMES:  # the dict's own methods: not loading every case module
        dict.__setitem__(CASES, name, type(name, (_Tiny,), {"name": name})())
    yield NAMES
    for name in NAMES:
        dict.pop(CASES, name, None)


def _pids(out):
    return {name: int((out / name / "who.csv").read_text().split("\n")[1].split(",")[1]) for name in NAMES}


def test_report_runs_the_cases_on_worker_processes(tiny_cases, tmp_path):
    serial, pooled = tmp_path / "serial", tmp_path / "pooled"
    build_report(str(serial), list(tiny_cases), checks=False, force=True)
    build_report(str(pooled), list(tiny_cases), checks=False, force=True, jobs=2)
    assert set(_pids(serial).values()) == {os.getpid()}
    if forks_workers():  # forked workers inherit the cases registered here
        assert len(set(_pids(pooled).values()) - {os.getpid()}) >= 1  # some case ran in a worker
    else:  # fresh interpreters do not know them: this process runs them, the page is the same
        assert set(_pids(pooled).values()) == {os.getpid()}
    assert (pooled / "verdicts.json").read_text() == (serial / "verdicts.json").read_text()
    page = (pooled / "index.html").read_text()
    assert all(f"{name}/who.csv" in page for name in NAMES)
    assert page.index(NAMES[0]) < page.index(NAMES[1]) < page.index(NAMES[2])  # the order asked for


def test_report_jobs_must_be_a_positive_integer(tiny_cases, tmp_path, capsys):
    with pytest.raises(ValueError, match="jobs must be an integer >= 1, got 0"):
        build_report(str(tmp_path / "r"), list(tiny_cases), checks=False, jobs=0)
    assert main(["report", "--out", str(tmp_path / "c"), "--cases", NAMES[0], "--no-checks", "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err
    assert not (tmp_path / "c").exists() and not (tmp_path / "r").exists()


def test_cases_the_workers_do_not_know_run_in_this_process(tiny_cases, tmp_path):
    """With another thread alive the workers are fresh interpreters (not forked): they do not
    know the cases registered here, which this process then runs itself -- the same page."""
    import threading

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert not forks_workers()
        serial, pooled = tmp_path / "serial", tmp_path / "pooled"
        build_report(str(serial), list(tiny_cases), checks=False, force=True)
        build_report(str(pooled), list(tiny_cases), checks=False, force=True, jobs=2)
    finally:
        stop.set()
        thread.join()
    assert set(_pids(pooled).values()) == {os.getpid()}
    assert (pooled / "verdicts.json").read_text() == (serial / "verdicts.json").read_text()
