"""Fuzz table of output locations (issue 24, data loss and partial outputs): nsfric never
deletes or overwrites a file it did not write.

Each case prepares a working folder (and a cache folder) holding the user's files, runs
one ``nsfric`` command in-process (``nsfric.cli.main``) and hashes every file before and
after: every user file keeps its content and mode, a refusal is one line with exit code
2 and changes nothing, no temporary file is left.  The commands are the real ones
(``sweep``, ``reference``, ``simulate``, ``export``, ``converge``); ``run`` and ``report``
run a tiny case whose outputs are real files written by nsfric's own writers (a real
case's run takes tens of seconds).  Signals are sent to real subprocesses.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from nsfric import io as nio
from nsfric.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = ".nsfric-manifest.json"
TMP = ".tmp-nsfric-"


class outputs:  # noqa: N801 - nsfric.outputs, imported when used (the tests also run on older code)
    def __getattr__(self, name):
        import nsfric.outputs

        return getattr(nsfric.outputs, name)


outputs = outputs()


def in_stage(path):
    return any(p.startswith(TMP) for p in str(path).split(os.sep))
SWEEP = ["sweep", "normal-impact", "--law", "hertz", "--grid", "v_i=0.5,2", "--observable", "e_n"]
REF = ["reference", "dry-oscillator", "--samples", "5", "--no-cross-check", "--t-end", "0.5"]
SIM = ["simulate", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "--t-end", "0.3"]
EXP = ["export", "sliding-plates", "--format", "yaml", "--samples", "3"]
CONV = ["converge", "sliding-plates", "--scheme", "euler", "--dt", "0.1", "0.05", "--t-end", "0.3"]
RUN = ["run", "tiny"]
REPORT = ["report", "--no-checks", "--cases", "tiny"]


# -- a tiny case for `run` and `report` (real files through nsfric's writers) -------------------
class TinyCase:
    """Writes ``a.csv``, ``sub/b.json`` and (unless ``$TINY_FEWER``) ``c.txt``; with
    ``$TINY_FAIL`` it fails after writing its first file."""
    name = "tiny"

    def run(self, out_dir, progress=None):
        version = os.environ.get("TINY_VERSION", "1")
        written = [os.path.join(out_dir, "a.csv"), os.path.join(out_dir, "sub", "b.json")]
        nio.write_text(written[0], f"x\n{version}\n")
        if os.environ.get("TINY_FAIL"):
            raise ValueError("tiny: failed half way")
        nio.write_json(written[1], {"version": version})
        if not os.environ.get("TINY_FEWER"):
            written.append(os.path.join(out_dir, "c.txt"))
            nio.write_text(written[2], version)
        return {"written": written}


def fake_report(out_dir, cases, checks=True, progress=None, force=False, jobs=1):
    run = TinyCase().run(os.path.join(out_dir, "tiny"))
    nio.write_text(os.path.join(out_dir, "index.html"), "<html>%d</html>" % len(run["written"]))
    return os.path.join(out_dir, "index.html")


@pytest.fixture
def work(tmp_path, monkeypatch):
    """The working folder (the current folder), with the user's files."""
    import nsfric.cases
    import nsfric.cli.names
    import nsfric.report

    real_get, real_check = nsfric.cases.get_case, nsfric.cli.names.check_case
    monkeypatch.setattr(nsfric.cases, "get_case", lambda n: TinyCase() if n == "tiny" else real_get(n))
    monkeypatch.setattr(nsfric.cli.names, "check_case",
                        lambda case, *a: None if case == "tiny" else real_check(case, *a))
    monkeypatch.setattr(nsfric.report, "build_report", fake_report)
    for k in ("TINY_FAIL", "TINY_FEWER", "TINY_VERSION"):
        monkeypatch.delenv(k, raising=False)
    w = tmp_path / "work"
    w.mkdir()
    (w / "thesis.tex").write_text("precious\n")
    (w / "data").mkdir()
    (w / "data" / "measured.csv").write_text("t,x\n0,1\n")
    monkeypatch.chdir(w)
    return w


@pytest.fixture
def cache(tmp_path_factory, monkeypatch):
    """A cache folder of its own (beside the working folder's parent), with an entry no
    output may touch (for the cases refused before any work: the others keep the
    session's warm cache)."""
    root = tmp_path_factory.mktemp("cache")
    (root / "sweep").mkdir(parents=True)
    (root / "sweep" / "entry.json").write_text("cache entry\n")
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(root))
    return root


def snapshot(*folders):
    """``{path: (mode, sha256 or None)}`` of every entry below ``folders``."""
    snap = {}
    for folder in folders:
        for d, dirs, files in os.walk(folder):
            for n in dirs + files:
                p = os.path.join(d, n)
                st = os.lstat(p)
                digest = None
                if os.path.isfile(p) and not os.path.islink(p):
                    with open(p, "rb") as f:
                        digest = hashlib.sha256(f.read()).hexdigest()
                snap[p] = (st.st_mode, digest)
    return snap


def nsfric(argv, capsys):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def kept(before, after):
    """Every entry of ``before`` is in ``after`` unchanged."""
    lost = {p: v for p, v in before.items() if after.get(p) != v}
    assert not lost, f"changed or removed: {sorted(lost)}"


def no_temporaries(*folders):
    for folder in folders:
        for d, dirs, files in os.walk(folder):
            left = [n for n in dirs + files if n.startswith((".tmp-", ".old-"))]
            assert not left, f"temporary entries left in {d}: {left}"


def refused(rc, err, *words):
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("nsfric: error: --out"), err
    for w in words:
        assert w in lines[0], (w, err)


# -- folder outputs: refusals change nothing -----------------------------------------------
def _link(target, name="link"):
    os.symlink(target, name)
    return name


REFUSED = {  # id: (setup returning the --out value, argv without --out, words of the message)
    "issue-reproduction": (lambda w, c: "results", SWEEP, ["not empty", "--beside-existing"]),
    "sweep-dot": (lambda w, c: ".", SWEEP, ["not empty"]),
    "sweep-dotdot": (lambda w, c: "..", SWEEP, ["not empty"]),
    "run-dot": (lambda w, c: ".", RUN, ["not empty"]),
    "run-dotdot": (lambda w, c: "..", RUN, ["not empty"]),
    "sweep-cache-root": (lambda w, c: str(c), SWEEP, ["equal to the cache"]),
    "sweep-cache-root-beside": (lambda w, c: str(c), SWEEP + ["--beside-existing"], ["cache"]),
    "sweep-inside-cache": (lambda w, c: str(c / "sweep" / "out"), SWEEP, ["inside the cache"]),
    "run-above-cache": (lambda w, c: str(c.parent), RUN + ["--beside-existing"], ["above the cache"]),
    "converge-cache-root": (lambda w, c: str(c), CONV, ["cache"]),
    "report-cache-root": (lambda w, c: str(c), REPORT, ["cache"]),
    "sweep-link-to-cache": (lambda w, c: _link(str(c)), SWEEP, ["cache"]),
    "sweep-own-cache-option": (lambda w, c: "mine", SWEEP + ["--cache", "mine"], ["cache"]),
    "run-link-to-user-folder": (lambda w, c: _link("data"), RUN, ["not empty"]),
    "converge-user-folder": (lambda w, c: "data", CONV, ["not empty"]),
    "report-user-folder": (lambda w, c: "data", REPORT, ["not empty"]),
    "run-existing-file": (lambda w, c: "thesis.tex", RUN, ["not a directory"]),
    "sweep-existing-file": (lambda w, c: "thesis.tex", SWEEP, ["not a directory"]),
    "sweep-garbage-manifest": (lambda w, c: _garbage_manifest(w), SWEEP + ["--beside-existing"], ["manifest"]),
    "run-manifest-escaping": (lambda w, c: _escaping_manifest(w), RUN, ["manifest"]),
    "sweep-beside-same-name": (lambda w, c: _user_file(w, "results/sweep.csv"), SWEEP + ["--beside-existing"],
                               ["sweep.csv", "did not write"]),
    "run-beside-read-only-same-name": (lambda w, c: _user_file(w, "res/a.csv", 0o444), RUN + ["--beside-existing"],
                                       ["a.csv", "did not write"]),
    "run-nested-blocked-by-file": (lambda w, c: _user_file(w, "res/sub"), RUN + ["--beside-existing"],
                                   ["sub", "in the way"]),
    "run-nested-blocked-by-link": (lambda w, c: _link_in(w, "res/sub", "data"), RUN + ["--beside-existing"],
                                   ["in the way"]),
    "run-nested-same-name": (lambda w, c: _user_file(w, "res/sub/b.json"), RUN + ["--beside-existing"],
                             ["b.json"]),
}


def _garbage_manifest(w):
    (w / "results").mkdir()
    (w / "results" / MANIFEST).write_text("{not json")
    return "results"


def _escaping_manifest(w):
    (w / "results").mkdir()
    (w / "results" / MANIFEST).write_text(json.dumps({"format": "nsfric-manifest-1", "files": {
        "../thesis.tex": {"sha256": hashlib.sha256(b"precious\n").hexdigest(), "group": "folder"}}}))
    return "results"


def _user_file(w, rel, mode=None):
    p = w / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("the user's\n")
    if mode is not None:
        p.chmod(mode)
    return rel.split("/")[0]


def _link_in(w, rel, target):
    p = w / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(os.path.abspath(target), p)
    return rel.split("/")[0]


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_output_changes_nothing(case, work, cache, capsys):
    """Refused before any work: one line, exit 2, no file changed (the cache neither)."""
    setup, argv, words = REFUSED[case]
    if case == "issue-reproduction":  # mkdir results; echo precious > results/thesis.tex
        (work / "results").mkdir()
        (work / "results" / "thesis.tex").write_text("precious\n")
    out = setup(work, cache)
    before = snapshot(work.parent, cache)
    rc, _, err = nsfric(argv + ["--out", out], capsys)
    refused(rc, err, *(words or []))
    assert snapshot(work.parent, cache) == before


# -- folder outputs: what is written, replaced, kept -------------------------------------------
def test_issue_reproduction_beside_existing_keeps_the_thesis(work, capsys):
    (work / "results").mkdir()
    (work / "results" / "thesis.tex").write_text("precious\n")
    before = snapshot(work)
    rc, out, err = nsfric(SWEEP + ["--out", "results", "--beside-existing"], capsys)
    assert rc == 0 and err == "", err
    kept(before, snapshot(work))
    names = sorted(os.listdir(work / "results"))
    assert names == sorted([MANIFEST, "sweep.csv", "sweep.json", "sweep.nc", "thesis.tex"])
    listed = outputs.read_manifest(str(work / "results"))
    assert sorted(listed) == ["sweep.csv", "sweep.json", "sweep.nc"]
    # a second run (no option needed now) replaces exactly its own files
    rc, _, err = nsfric(SWEEP[:-4] + ["--grid", "v_i=0.5,1,2", "--observable", "e_n", "--out", "results"], capsys)
    assert rc == 0, err
    assert (work / "results" / "thesis.tex").read_text() == "precious\n"
    assert len((work / "results" / "sweep.csv").read_text().splitlines()) == 4
    no_temporaries(work)


def test_dot_and_dotdot_beside_write_only_new_files(work, capsys):
    before = snapshot(work.parent)
    rc, _, err = nsfric(SWEEP + ["--out", ".", "--beside-existing"], capsys)
    assert rc == 0, err
    os.chdir(work / "data")
    rc, _, err = nsfric(RUN + ["--out", "..", "--beside-existing"], capsys)
    assert rc == 0, err
    kept(before, snapshot(work.parent))
    assert sorted(outputs.read_manifest(str(work))) == ["a.csv", "c.txt", "sub/b.json"]  # the run replaced the sweep
    assert not (work / "sweep.csv").exists()  # nsfric's own unchanged outputs of the earlier sweep
    no_temporaries(work)


def test_folder_with_only_a_manifest_is_nsfrics(work, capsys):
    (work / "res").mkdir()
    (work / "res" / MANIFEST).write_text(json.dumps({"format": "nsfric-manifest-1", "files": {}}))
    rc, _, err = nsfric(RUN + ["--out", "res"], capsys)
    assert rc == 0, err
    assert (work / "res" / "sub" / "b.json").exists()


def test_second_run_replaces_its_files_and_removes_only_unchanged_stale_ones(work, capsys, monkeypatch):
    rc, _, err = nsfric(RUN + ["--out", "res"], capsys)
    assert rc == 0, err
    (work / "res" / "mine.txt").write_text("added by the user\n")
    monkeypatch.setenv("TINY_VERSION", "2")
    monkeypatch.setenv("TINY_FEWER", "1")  # c.txt no longer written: unchanged, so removed
    before = {p: v for p, v in snapshot(work).items() if p.endswith(("mine.txt", "thesis.tex", "measured.csv"))}
    rc, _, err = nsfric(RUN + ["--out", "res"], capsys)
    assert rc == 0 and err == "", err
    kept(before, snapshot(work))
    assert sorted(os.listdir(work / "res")) == [MANIFEST, "a.csv", "mine.txt", "sub"]
    assert (work / "res" / "a.csv").read_text() == "x\n2\n"
    no_temporaries(work)


def test_user_edited_stale_output_is_kept_with_a_note(work, capsys, monkeypatch):
    rc, _, _ = nsfric(RUN + ["--out", "res"], capsys)
    (work / "res" / "c.txt").write_text("edited by the user\n")
    monkeypatch.setenv("TINY_FEWER", "1")
    rc, _, err = nsfric(RUN + ["--out", "res"], capsys)
    assert rc == 0
    assert err.strip().splitlines() == [f"nsfric: note: kept {os.path.join('res', 'c.txt')!r}: changed since "
                                        f"nsfric wrote it (no longer in its manifest)"]
    assert (work / "res" / "c.txt").read_text() == "edited by the user\n"
    assert "c.txt" not in outputs.read_manifest(str(work / "res"))
    monkeypatch.delenv("TINY_FEWER")  # c.txt is now the user's: the run writing it again is refused
    rc, _, err = nsfric(RUN + ["--out", "res"], capsys)
    refused(rc, err, "c.txt", "did not write")
    assert (work / "res" / "c.txt").read_text() == "edited by the user\n"


def test_user_edited_output_is_never_overwritten(work, capsys):
    rc, _, _ = nsfric(CONV + ["--out", "conv"], capsys)
    assert rc == 0
    (work / "conv" / "orders.csv").write_text("my notes\n")
    before = snapshot(work)
    rc, _, err = nsfric(CONV + ["--out", "conv"], capsys)
    refused(rc, err, "orders.csv", "changed since")
    assert snapshot(work) == before


def test_report_and_default_run_folder_replace_their_own_outputs(work, capsys, monkeypatch):
    for version in "12":
        monkeypatch.setenv("TINY_VERSION", version)
        rc, out, err = nsfric(REPORT + ["--out", "rep"], capsys)
        assert rc == 0, err
        rc, out, err = nsfric(RUN, capsys)  # default out/tiny
        assert rc == 0, err
    assert (work / "rep" / "tiny" / "a.csv").read_text() == "x\n2\n"
    assert sorted(outputs.read_manifest(str(work / "rep"))) == ["index.html", "tiny/a.csv", "tiny/c.txt",
                                                                "tiny/sub/b.json"]
    assert out.split("\n\n")[0].split() == [os.path.join("out", "tiny", n)  # the paths, then the summary
                                          for n in ("a.csv", os.path.join("sub", "b.json"), "c.txt")]
    no_temporaries(work)


def test_read_only_user_file_beside_outputs_is_untouched(work, capsys):
    (work / "res").mkdir()
    ro = work / "res" / "frozen.dat"
    ro.write_text("read only\n")
    ro.chmod(0o444)
    before = snapshot(work)
    rc, _, err = nsfric(RUN + ["--out", "res", "--beside-existing"], capsys)
    assert rc == 0, err
    kept(before, snapshot(work))


# -- partial outputs: a failing command leaves nothing ----------------------------------------------
def test_failing_run_leaves_the_previous_outputs_and_no_new_folder(work, capsys, monkeypatch):
    rc, _, _ = nsfric(RUN + ["--out", "res"], capsys)
    assert rc == 0
    before = snapshot(work)
    monkeypatch.setenv("TINY_FAIL", "1")
    monkeypatch.setenv("TINY_VERSION", "2")
    for out in ("res", "new/deeper/res"):
        rc, _, err = nsfric(RUN + ["--out", out], capsys)
        assert rc == 2 and "half way" in err, err
        assert snapshot(work) == before  # a.csv of the failing run is not published; no folder made


def test_failing_publication_is_rolled_back(work, capsys, monkeypatch):
    rc, _, _ = nsfric(RUN + ["--out", "res"], capsys)
    before = snapshot(work)
    monkeypatch.setenv("TINY_VERSION", "2")
    real, calls = os.rename, []

    def rename(src, dst):  # the second move of a new file into place fails
        if not in_stage(dst):
            calls.append(dst)
            if len(calls) == 2:
                raise OSError(28, "No space left on device")
        return real(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    rc, _, err = nsfric(RUN + ["--out", "res"], capsys)
    monkeypatch.setattr(os, "rename", real)
    assert rc == 1 and "No space left" in err, err
    assert snapshot(work) == before


# -- single-file outputs ----------------------------------------------------------------------
FILES = {  # id: (argv, the output, a sidecar)
    "reference": (REF, "x.csv", "x.json"),
    "simulate": (SIM, "x.csv", "x.json"),
    "export": (EXP, "x.yaml", None),
}


@pytest.mark.parametrize("cmd,which", [(c, w) for c in sorted(FILES) for w in ("output", "sidecar", "edited")
                                       if w != "sidecar" or FILES[c][2]])  # export has no sidecar
def test_single_file_output_replaces_only_its_own_file(cmd, which, work, capsys):
    argv, name, side = FILES[cmd]
    if which == "edited":
        rc, _, err = nsfric(argv + ["--out", name], capsys)
        assert rc == 0, err
        rc, _, err = nsfric(argv + ["--out", name], capsys)  # nsfric's own file: replaced
        assert rc == 0, err
        with open(name, "a") as f:
            f.write("# my note\n")
    else:
        (work / (name if which == "output" else side)).write_text("the user's\n")
    before = snapshot(work)
    rc, _, err = nsfric(argv + ["--out", name], capsys)
    refused(rc, err, "nsfric did not write")
    assert snapshot(work) == before


def test_single_file_output_in_the_cache_is_refused(work, cache, capsys):
    before = snapshot(cache)
    rc, _, err = nsfric(REF + ["--out", str(cache / "x.csv")], capsys)
    refused(rc, err, "cache")
    assert snapshot(cache) == before


def test_api_writers_refuse_a_user_file(work):
    (work / "r.csv").write_text("user\n")
    before = snapshot(work)
    with pytest.raises(ValueError, match="nsfric did not write"):
        nio.write_csv_with_sidecar(str(work / "r.csv"), {"t": [0.0, 1.0]}, {})
    with pytest.raises(ValueError, match="nsfric did not write"):
        nio.write_text(str(work / "thesis.tex"), "gone")
    assert snapshot(work) == before
    nio.write_csv_with_sidecar(str(work / "s.csv"), {"t": [0.0]}, {})
    nio.write_csv_with_sidecar(str(work / "s.csv"), {"t": [1.0]}, {})  # its own: replaced
    assert sorted(outputs.read_manifest(str(work))) == ["s.csv", "s.json"]
    kept(before, snapshot(work))


# -- temporary entries of dead processes; signals ----------------------------------------------------
def _dead_pid():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temporaries_of_dead_processes_are_removed_only(work, capsys):
    rc, _, _ = nsfric(RUN + ["--out", "res"], capsys)
    res = work / "res"
    host = outputs._HOST
    dead, alive = _dead_pid(), os.getppid()
    (res / f".tmp-nsfric-{host}-{dead}-abc").mkdir()
    (res / f".tmp-nsfric-{host}-{dead}-abc" / "half.csv").write_text("half")
    (res / f".tmp-nsfric-{host}-{dead}-def").write_text("half")
    for name in (f".tmp-nsfric-{host}-{alive}-ghi", f".tmp-nsfric-otherhost-{dead}-jkl", ".tmp-user-thing",
                 ".tmp-12345"):
        (res / name).write_text("not to be removed")
    before = {p: v for p, v in snapshot(work).items() if "ghi" in p or "jkl" in p or "user" in p or "12345" in p}
    rc, _, err = nsfric(RUN + ["--out", "res"], capsys)
    assert rc == 0, err
    kept(before, snapshot(work))
    assert not any(str(dead) in n and host in n for n in os.listdir(res))


def test_publication_killed_half_way_is_undone_by_the_next_write(work, capsys, monkeypatch):
    """A process SIGKILLed in the middle of moving files into place: the next write into
    the folder puts the old outputs back (the manifest was not yet replaced)."""
    rc, _, _ = nsfric(RUN + ["--out", "res"], capsys)
    (work / "res" / "mine.txt").write_text("user\n")
    before = snapshot(work)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child dies after its second move
        try:
            os.environ["TINY_VERSION"] = "2"
            real, n = os.rename, [0]

            def rename(src, dst):
                real(src, dst)
                n[0] += not (in_stage(src) and in_stage(dst))  # a move of the publication
                if n[0] == 5:  # three moved aside, two new placed
                    os.kill(os.getpid(), signal.SIGKILL)
            os.rename = rename
            main(RUN + ["--out", "res"])
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    assert snapshot(work) != before  # half published
    outputs.remove_stale(str(work / "res"))
    assert snapshot(work) == before
    no_temporaries(work)


ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + sys.path))


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGHUP])
def test_signal_during_sweep_then_a_second_sweep(sig, work, capsys):
    rc, _, err = nsfric(SWEEP + ["--out", "res"], capsys)
    assert rc == 0, err
    (work / "res" / "notes.txt").write_text("user\n")
    before = snapshot(work)
    proc = subprocess.Popen([sys.executable, "-m", "nsfric.cli", "sweep", "normal-impact", "--law", "hertz",
                             "--grid", "v_i=logspace:-1:1:2000", "--observable", "e_n", "--no-cache",
                             "--out", "res"], cwd=work, env=ENV, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and not any(outputs.is_temporary(n) for n in os.listdir(work / "res")):
        time.sleep(0.05)  # the staging folder exists: the sweep is under way
    time.sleep(0.3)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == (-9 if sig == signal.SIGKILL else 129), err
    assert "Traceback" not in err
    assert snapshot(work) == before or sig == signal.SIGKILL  # SIGHUP unwinds: nothing left
    kept(before, snapshot(work))
    rc, _, err = nsfric(SWEEP + ["--out", "res"], capsys)
    assert rc == 0, err
    kept({p: v for p, v in before.items() if "sweep." not in p and MANIFEST not in p}, snapshot(work))
    no_temporaries(work)
