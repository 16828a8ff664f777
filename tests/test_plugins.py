"""Registries filled through entry points (issue 8, item 6): an installed package's
cases (group ``nsfric.cases``), laws (``nsfric.laws``) and schemes (``nsfric.schemes``,
issue 23) appear in ``nsfric list``; a
broken plug-in gives a warning naming it, not a crash."""
import os
import subprocess
import sys
import textwrap
import warnings

import pytest

import nsfric
from nsfric.plugins import LazyRegistry, PluginWarning, load_entry_points

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PLUGIN = '''
"""A user's package: one case and one law, registered only through entry points."""
from nsfric.papers.krengel_matuttis.dry_oscillator import DryOscillator
from nsfric.symbolic import c_sds


class PluginOscillator(DryOscillator):
    """The dry-friction oscillator under another name (a plug-in case)."""

    name = "plugin-oscillator"
    reference = "a user's plug-in"


class Misnamed(DryOscillator):
    name = "not-the-entry-point-name"


def plugin_law():
    return c_sds()


def broken_law():
    raise RuntimeError("this law cannot be built")


import nsfric  # noqa: E402  (a scheme plug-in: Ralston's RK2 as its tableau)

ralston = nsfric.ExplicitRK("plugin-ralston", [[0, 0], ["2/3", 0]], ["1/4", "3/4"], [0, "2/3"], order=2)
'''

ENTRY_POINTS = '''
[nsfric.cases]
plugin-oscillator = nsfric_demo_plugin:PluginOscillator
missing-module = nsfric_no_such_module:Case
misnamed = nsfric_demo_plugin:Misnamed

[nsfric.laws]
plugin-law = nsfric_demo_plugin:plugin_law
broken-law = nsfric_demo_plugin:broken_law

[nsfric.schemes]
plugin-ralston = nsfric_demo_plugin:ralston
misnamed-scheme = nsfric_demo_plugin:ralston
'''


@pytest.fixture
def site(tmp_path):
    """A directory that holds an installed distribution (module + .dist-info)."""
    (tmp_path / "nsfric_demo_plugin.py").write_text(textwrap.dedent(PLUGIN))
    info = tmp_path / "nsfric_demo_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nsfric-demo-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return tmp_path


def test_nsfric_list_shows_plugin_case_and_law_and_warns_about_broken_ones(site):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, str(site)]))
    p = subprocess.run([sys.executable, "-m", "nsfric.cli", "list"], capture_output=True, text=True,
                       env=env, cwd=str(site), timeout=300)
    assert p.returncode == 0, p.stderr
    cases, rest = p.stdout.split("\nlaws:\n")
    laws = rest.split("reference solvers:")[0]
    (line,) = [ln for ln in cases.splitlines() if ln.strip().startswith("plugin-oscillator")]
    assert "a user's plug-in" in line and "[plug-in nsfric_demo_plugin]" in line
    assert "sliding-plates" in cases and "dry-oscillator" in cases  # built-ins still there
    assert any(ln.strip().startswith("plugin-law") for ln in laws.splitlines()), laws
    schemes = p.stdout.split("\nschemes:\n")[1]
    for name in ("plugin-ralston", "plugin-ralston-event"):  # the scheme and its event-aware variant
        (line,) = [ln for ln in schemes.splitlines() if ln.split()[0] == name]
        assert "order 2" in line and "[plug-in nsfric_demo_plugin]" in line, line
    assert "misnamed-scheme" not in p.stdout
    assert "broken-law" not in p.stdout and "missing-module" not in p.stdout
    assert "Traceback" not in p.stderr
    for name, why in (("missing-module", "ModuleNotFoundError"), ("misnamed", "not-the-entry-point-name"),
                      ("broken-law", "this law cannot be built"), ("misnamed-scheme", "plugin-ralston")):
        (warn,) = [ln for ln in p.stderr.splitlines() if f"plug-in {name!r}" in ln]
        assert "PluginWarning" in warn and why in warn, warn


def test_registry_loads_lazily_once_and_keeps_explicit_registrations(site, monkeypatch):
    monkeypatch.syspath_prepend(str(site))
    from nsfric.cases.base import _add_plugin_case

    from nsfric.papers.fuhrer2024.sliding_plates import SlidingPlates

    reg = LazyRegistry("nsfric.cases", _add_plugin_case)
    builtin = SlidingPlates()
    reg["plugin-oscillator"] = builtin  # an explicit registration wins over the plug-in
    assert dict.__len__(reg) == 1       # nothing loaded by a write
    with pytest.warns(PluginWarning) as record:
        assert "misnamed" not in reg     # the first read loads the group
    assert sorted(str(w.message).split("'")[1] for w in record) == ["misnamed", "missing-module"]
    assert reg["plugin-oscillator"] is builtin
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # loaded once: no second round of warnings
        assert list(reg)[0] == "plugin-oscillator" and reg.load() == []  # then the papers' cases


def test_plugin_case_runs_through_the_package_api(site, monkeypatch):
    monkeypatch.syspath_prepend(str(site))
    from nsfric.cases.base import CASES

    monkeypatch.setattr(CASES, "_loaded", False)  # as in a fresh process
    monkeypatch.setattr(nsfric.SCHEMES, "_loaded", True)  # the demo's scheme stays out of this process
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the one plug-in asked for is loaded alone: no warning
            case = nsfric.get_case("plugin-oscillator")
        with pytest.warns(PluginWarning):  # a full read loads the broken ones too
            assert "plugin-oscillator" in CASES
        res = nsfric.simulate("plugin-oscillator", dt=0.1, t_end=1.0)
        ref = nsfric.simulate("dry-oscillator", dt=0.1, t_end=1.0)
        assert case.reference == "a user's plug-in" and (res.y == ref.y).all()
    finally:
        dict.pop(CASES, "plugin-oscillator", None)
    assert load_entry_points("nsfric.no-such-group", {}) == []


def test_register_case_takes_case_classes_only():
    with pytest.raises(TypeError, match="Case subclass"):
        nsfric.register_case(object)
