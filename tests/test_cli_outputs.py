"""Output locations are validated before any computation, outputs appear all at once
(a CSV and its sidecar, a `run`/`report` folder) or not at all, and the CLI handles
broken pipes, full disks and SIGTERM without tracebacks or leftovers (issue 12, item 1
and part of item 6).  Real subprocesses and real files."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))] + sys.path))


def nsfric(*args, cwd, **kw):
    return subprocess.run([sys.executable, "-m", "nsfric.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env=ENV, **kw)


def snapshot(folder):
    """Every path below ``folder`` with its content (files) or None (folders)."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), folder)] = None
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, folder)] = fh.read()
    return out


def assert_clean_failure(p, code=2):
    assert p.returncode == code, (p.returncode, p.stderr)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nsfric: "), p.stderr
    assert "Traceback" not in p.stderr


BAD_OUTS = [
    ("reference", "sliding-plates", "--out", "{d}"),                  # a directory
    ("reference", "sliding-plates", "--out", "/proc/nsfric.csv"),     # pseudo file system
    ("reference", "sliding-plates", "--out", "/sys/nsfric.csv"),
    ("reference", "sliding-plates", "--out", "old.csv/x.csv"),        # under a regular file
    ("reference", "sliding-plates", "--out", "x" * 300 + ".csv"),     # name too long
    ("reference", "sliding-plates", "--out", "clash.csv"),            # sidecar clash.json is a folder
    ("reference", "sliding-plates", "--out", "x.txt"),                # not a .csv
    ("simulate", "sliding-plates", "--scheme", "euler", "--out", "clash.csv"),
    ("simulate", "sliding-plates", "--scheme", "euler", "--out", "/proc/x.csv"),
    ("run", "normal-impact", "--out", "old.csv"),                     # an existing file
    ("report", "--cases", "normal-impact", "--out", "old.csv"),
    ("converge", "sliding-plates", "--scheme", "euler", "--out", "old.csv"),
    ("reference", "sliding-plates", "--param", "k=1", "--param", "k=2", "--out", "y.csv"),
    ("converge", "sliding-plates", "--scheme", "euler", "--scheme", "euler", "--out", "conv"),
    ("converge", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "0.1", "--out", "conv"),
]


@pytest.mark.parametrize("args", BAD_OUTS, ids=lambda a: " ".join(a)[:60])
def test_bad_output_is_refused_before_any_work_and_nothing_changes(tmp_path, args):
    (tmp_path / "old.csv").write_text("OLD\n")
    (tmp_path / "clash.json").mkdir()
    before = snapshot(tmp_path)
    p = nsfric(*[a.format(d=tmp_path) for a in args], cwd=tmp_path)
    assert_clean_failure(p)
    assert snapshot(tmp_path) == before


def test_reference_pair_replaces_both_files_together(tmp_path):
    from nsfric.io import write_csv_with_sidecar

    write_csv_with_sidecar(str(tmp_path / "a.csv"), {"t": [0.0]}, {})  # an earlier output of nsfric
    p = nsfric("reference", "dry-oscillator", "--samples", "11", "--no-cross-check", "--out", "a.csv",
               cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "a.csv").read_text().startswith("t,")
    meta = json.loads((tmp_path / "a.json").read_text())  # strict JSON parses
    assert meta["case"] == "dry-oscillator"
    assert sorted(os.listdir(tmp_path)) == [".nsfric-manifest.json", "a.csv", "a.json"]  # no temporary file left


def test_outputs_honour_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        p = nsfric("reference", "dry-oscillator", "--samples", "11", "--no-cross-check", "--out", "a.csv",
                   cwd=tmp_path)
    finally:
        os.umask(old)
    assert p.returncode == 0, p.stderr
    assert oct(os.stat(tmp_path / "a.csv").st_mode & 0o777) == oct(0o644)


def test_strict_json_has_no_bare_nan(tmp_path):
    from nsfric.io import json_text

    text = json_text({"a": float("nan"), "b": [1.0, float("inf")], "c": 2})
    assert json.loads(text) == {"a": None, "b": [1.0, None], "c": 2}
    assert "NaN" not in text and "Infinity" not in text


def test_run_folder_appears_at_once_beside_the_users_files(tmp_path):
    out = tmp_path / "res"
    out.mkdir()
    (out / "notes.txt").write_text("the user's")
    p = nsfric("run", "sphere-wall", "--out", "res", "--beside-existing", cwd=tmp_path)  # a cheap real case
    assert p.returncode == 0, p.stderr
    assert (out / "notes.txt").read_text() == "the user's"  # never deleted (issue 24)
    assert (out / "reference-coulomb.csv").exists() and (out / "reference.png").exists()
    printed = p.stdout.split("\n\n")[0].split()  # the paths, before the summary
    assert printed and all(os.path.exists(tmp_path / q) for q in printed)  # final paths printed
    assert sorted(os.listdir(tmp_path)) == ["res"]


def test_sigterm_during_run_leaves_the_previous_folder_and_no_temporary_files(tmp_path):
    out = tmp_path / "res"
    out.mkdir()
    (out / "keep.txt").write_text("previous run")
    # a run of minutes (slope-block), stopped a second in: on a warm machine the dry
    # oscillator's whole run (tried first) ended within that second and exited 0
    proc = subprocess.Popen([sys.executable, "-m", "nsfric.cli", "run", "slope-block", "--out", "res",
                             "--beside-existing"],
                            cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and not any(n.startswith(".tmp-") for n in os.listdir(out)):
        time.sleep(0.05)  # the staging folder exists: the run is under way
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "Traceback" not in err
    assert sorted(os.listdir(tmp_path)) == ["res"]
    assert sorted(os.listdir(out)) == ["keep.txt"]


def test_broken_pipe_and_full_disk(tmp_path):
    p = subprocess.run(f"{sys.executable} -m nsfric.cli list | head -1", shell=True, capture_output=True,
                       text=True, env=ENV, cwd=tmp_path)
    assert p.stdout.strip() == "cases:"
    assert p.stderr == ""
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            q = subprocess.run([sys.executable, "-m", "nsfric.cli", "list"], stdout=full,
                               stderr=subprocess.PIPE, text=True, env=ENV, cwd=tmp_path)
        assert_clean_failure(q, code=1)
        assert "No space left" in q.stderr
