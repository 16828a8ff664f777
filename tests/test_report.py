"""`nsfric report`: verdicts.json, a valid self-contained HTML page, the output cache."""
import json
import os
import re
import shutil
from html.parser import HTMLParser

import matplotlib.image
import pytest

from nsfric.cli import main
from nsfric.report import VERDICT_KEYS, cache

#: the report cache's folder rule itself (the shared report below points it at its own folder)
CACHE_ROOT = cache.cache_root

def cpu_seconds():
    """CPU seconds of this process and its finished children: unlike wall time, not
    stretched when other processes share the cores (the suite runs on every core)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class StrictHTML(HTMLParser):
    """Collects errors of a page: unbalanced or misnested tags, duplicate ids, and the
    local files referenced by src/href."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.ids, self.links, self.images = [], [], set(), [], []
        self.doctype = False

    def handle_decl(self, decl):
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"duplicate id {a['id']}")
            self.ids.add(a["id"])
        for k in ("src", "href"):
            if a.get(k) and not a[k].startswith("#"):
                self.links.append(a[k])
        if tag == "img":
            self.images.append(a.get("src"))
            if not a.get("alt"):
                self.errors.append(f"img without alt: {a.get('src')}")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def check_page(folder):
    """Parse ``folder/index.html``: valid nesting, every local link exists, every image
    decodes.  Returns the parser."""
    p = StrictHTML()
    p.feed((folder / "index.html").read_text())
    p.close()
    assert p.doctype, "no <!DOCTYPE html>"
    assert not p.errors, p.errors[:5]
    assert not p.stack, f"unclosed: {p.stack}"
    for link in p.links:
        assert "://" not in link, f"external reference {link}"
        assert (folder / link).is_file(), link
    for src in p.images:
        img = matplotlib.image.imread(folder / src)
        assert img.ndim == 3 and img.shape[0] > 50 and img.shape[1] > 50, src
    return p


@pytest.fixture(scope="module")
def impact_report(tmp_path_factory):
    """One report of normal-impact (computed, then cached), shared by the tests here.  The
    report cache is the test's own (empty: the case runs); the compiled kernels and derived
    numerics stay the session's, as a user's second report finds them."""
    root = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        own_report_cache(mp, root / "cache")
        t0 = cpu_seconds()
        assert main(["report", "--out", str(root / "r"), "--cases", "normal-impact", "--no-checks"]) == 0
        cold = cpu_seconds() - t0
        yield root, cold


def own_report_cache(mp, folder):
    """Point the report cache (only) at ``folder``."""
    from nsfric.report import cache

    mp.setattr(cache, "cache_root", lambda: str(folder / "report"))


def test_page_is_valid_and_self_contained(impact_report):
    root, _ = impact_report
    out = root / "r"
    p = check_page(out)
    assert any(link.endswith(".png") for link in p.links)
    assert any(link.endswith(".csv") for link in p.links)
    # normal-impact's run (the base run's references and figure, then its own)
    names = set(os.listdir(out / "normal-impact"))
    assert {"reference-linear-dashpot.csv", "reference-linear-dashpot.json",
            "reference-linear-dashpot-force-end.csv", "reference.png", "fig2.png", "schemes.png"} <= names
    assert not any(n.startswith(".tmp-") for n in names)
    page = (out / "index.html").read_text()
    assert "Schäfer" in page and "versions" in page.lower()
    assert "What the paper claims" in page
    # the figure of the paper has its caption, not the file name
    assert re.search(r"<figcaption>Schäfer et al\. Fig 2: \(a\) normal restitution", page)


def test_verdicts_json(impact_report):
    root, _ = impact_report
    verdicts = json.loads((root / "r" / "verdicts.json").read_text())
    assert all(set(VERDICT_KEYS) <= set(v) for v in verdicts)
    assert {v["status"] for v in verdicts} <= {"match", "differs", "depends on reading", "not reproduced"}
    assert all(v["note"] for v in verdicts if v["status"] != "match")
    named = {v["quantity"]: v for v in verdicts}
    t_n = named["Hertz contact duration t_n at v_n^i = 100 m/s [s]"]
    assert t_n["status"] == "match" and t_n["paper"] == 1.88e-5
    assert abs(t_n["difference"] - (t_n["nsfric"] - t_n["paper"])) < 1e-20
    assert sum(v["status"] == "match" for v in verdicts) >= 10


def test_warm_report_reuses_the_cache_and_force_recomputes(impact_report, tmp_path):
    root, cold = impact_report
    t0 = cpu_seconds()
    assert main(["report", "--out", str(tmp_path / "w"), "--cases", "normal-impact", "--no-checks"]) == 0
    warm = cpu_seconds() - t0
    assert "outputs from the cache" in (tmp_path / "w" / "index.html").read_text()
    assert warm < cold / 2, (warm, cold)
    assert ((tmp_path / "w" / "verdicts.json").read_text()
            == (root / "r" / "verdicts.json").read_text())
    check_page(tmp_path / "w")


def test_verdicts_are_computed_from_the_outputs(impact_report, tmp_path):
    """Changing an output changes the verdict: nothing is hard-coded."""
    from nsfric.cases import get_case

    src = root_out = impact_report[0] / "r" / "normal-impact"
    dst = tmp_path / "normal-impact"
    shutil.copytree(src, dst)
    meta = json.loads((dst / "reference-linear-dashpot.json").read_text())
    meta["summary"]["e_n"] = 0.80
    (dst / "reference-linear-dashpot.json").write_text(json.dumps(meta))
    os.remove(dst / "fig2.csv")
    verdicts = {v["quantity"]: v for v in get_case("normal-impact").verdicts(str(dst))}
    e_n = verdicts["linear spring-dashpot e_n (k_n = 7.32e6 N/m, gamma_n = 2.06 kg/s)"]
    assert e_n["status"] == "differs" and e_n["nsfric"] == 0.80
    t_n = verdicts["Hertz contact duration t_n at v_n^i = 100 m/s [s]"]
    assert t_n["status"] == "not reproduced" and "fig2.csv" in t_n["note"]
    assert root_out.exists()


def test_cache_key_follows_the_sources(monkeypatch, tmp_path):
    from nsfric.cases import get_case

    case = get_case("normal-impact")
    files = cache.source_files(case)
    names = {os.path.basename(f) for f in files}
    assert {"normal_impact.py", "normal_impact_figures.py", "base.py", "laws.py"} <= names
    assert "verdicts.py" in names  # the paper's package, all of it: its verdicts and figures
    assert not any(p in f for f in files for p in ("fuhrer2024", "krengel_matuttis", "kuhn/"))  # no other paper's
    extra = tmp_path / "extra.py"
    extra.write_text("a = 1\n")
    monkeypatch.setattr(cache, "source_files", lambda c: files + [str(extra)])
    k1 = cache.case_key(case)
    extra.write_text("a = 2\n")
    assert cache.case_key(case) != k1
    assert cache.case_key(get_case("dry-oscillator")) != cache.case_key(case)


def test_report_unknown_case_writes_nothing(tmp_path, capsys):
    assert main(["report", "--out", str(tmp_path / "r"), "--cases", "nope"]) == 2
    assert "unknown case 'nope'" in capsys.readouterr().err
    assert not os.path.exists(tmp_path / "r")


def test_report_cache_follows_the_one_cache_folder_rule(monkeypatch, tmp_path):
    """Kernels, sweeps and reports share one rule: ``$NSFRIC_CACHE_DIR/<kind>``, else
    ``$XDG_CACHE_HOME/nsfric/<kind>``."""
    from nsfric.io import cache_dir

    monkeypatch.setattr(cache, "cache_root", CACHE_ROOT)
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    assert cache.cache_root() == str(tmp_path / "report") == cache_dir("report")
    assert cache_dir("sweep") == str(tmp_path / "sweep")
    monkeypatch.delenv("NSFRIC_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_root() == str(tmp_path / "xdg" / "nsfric" / "report")


def test_a_failed_case_does_not_stop_the_others_and_is_named(monkeypatch, tmp_path, capsys):
    """A case that fails (here: a reference stopped by its budget) is named with its error
    after every other case ran; the others are cached, so running the report again runs
    only the failed one; no page is written (exit 1, one line)."""
    from nsfric.cases import get_case
    from nsfric.errors import BudgetError

    own_report_cache(monkeypatch, tmp_path / "cache")
    failing = type(get_case("dry-oscillator"))

    def stopped(self, out_dir, progress=None):
        raise BudgetError("ida: stopped after the default budget of 600 s (--max-seconds)\nof CPU time")

    monkeypatch.setattr(failing, "run", stopped)
    argv = ["report", "--out", str(tmp_path / "r"), "--cases", "dry-oscillator", "sphere-wall", "--no-checks"]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("nsfric: failed: 1 of 2 cases failed"), err
    assert "dry-oscillator: BudgetError: ida: stopped after the default budget of 600 s" in err[0], err
    assert "sphere-wall" not in err[0].split("--")[1] and "the other 1 completed" in err[0], err
    assert not (tmp_path / "r").exists()
    # again: sphere-wall from the cache (its run would fail now), dry-oscillator runs again
    monkeypatch.setattr(type(get_case("sphere-wall")), "run", lambda self, out_dir, progress=None: 1 / 0)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "1 of 2 cases failed" in err and "ZeroDivision" not in err, err


def test_the_report_runs_every_case_in_it_and_leaves_out_the_ones_that_ask(monkeypatch, tmp_path):
    """``in_report = False`` (chung-ooi: minutes of cross-checks, no paper claim) keeps a
    case out of the default report; every other registered case is in it."""
    import nsfric.report as R
    from nsfric.cases import CASES, get_case

    assert get_case("chung-ooi").in_report is False
    seen = []
    monkeypatch.setattr(R, "_run_cases", lambda objs, *a: seen.extend(o.name for o in objs) or [])
    monkeypatch.setattr(R, "merge_claims", lambda v: (_ for _ in ()).throw(StopIteration))
    with pytest.raises((StopIteration, RuntimeError)):
        R.build_report(str(tmp_path / "r"), checks=False)
    assert "chung-ooi" not in seen and "sphere-wall" in seen
    assert get_case("chung-ooi-spheres").in_report is False  # run by nsfric run chung-ooi too
    assert set(seen) == {n for n in CASES if n not in ("chung-ooi", "chung-ooi-spheres")}
