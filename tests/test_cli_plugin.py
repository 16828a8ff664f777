"""``nsfric --plugin MODULE`` (issue 25, item 2): a user's module, imported before the
command runs, registers a scheme with ``nsfric.register_scheme``, which ``converge``
then runs by name; a module that does not import is one line on stderr and exit 2."""
import csv
import os
import sys
import textwrap

import pytest

import nsfric
from nsfric.cli import main
from nsfric.schemes import SCHEMES

MODULE = "nsfric_user_scheme_mod"
SOURCE = '''
"""A DEM developer's scheme: explicit Euler, written by hand on nsfric's contract."""
import nsfric


class MyEuler(nsfric.Scheme):
    name = "my-euler"
    order = 1

    def step(self, field, t, u, h, hist, record=None):
        u_new, _, _ = field.assign(u, h, u)  # the law's adjustment (the D-SDS reset) is the field's
        return u_new, hist


nsfric.register_scheme(MyEuler())
'''


@pytest.fixture
def plugin_dir(tmp_path, monkeypatch):
    """The module file in ``tmp_path`` on the import path (as PYTHONPATH puts it); its
    schemes and the module are removed again afterwards."""
    (tmp_path / f"{MODULE}.py").write_text(textwrap.dedent(SOURCE))
    (tmp_path / "nsfric_broken_mod.py").write_text("import nsfric\nraise RuntimeError('no scheme today')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("my-euler", "my-euler-event"):
        dict.pop(SCHEMES, name, None)
    for mod in (MODULE, "nsfric_broken_mod"):
        sys.modules.pop(mod, None)


def orders(path):
    with open(path, newline="") as f:
        return {row["scheme"]: row for row in csv.DictReader(f)}


def test_converge_runs_a_scheme_from_plugin_module(plugin_dir, capsys):
    """``nsfric converge sliding-plates --plugin MODULE --scheme my-euler`` runs the
    user's scheme: its errors equal the built-in ``euler``'s (the same method), order 1
    (measured 1.04 on the D-SDS over dt = 0.1 ... 0.0125)."""
    out = str(plugin_dir / "conv")
    rc = main(["converge", "sliding-plates", "--law", "d-sds", "--plugin", MODULE, "--scheme", "my-euler",
               "--scheme", "euler", "--dt", "0.1", "--dt", "0.05", "--dt", "0.025", "--dt", "0.0125",
               "--phases", "1", "--t-end", "5", "--out", out])
    assert rc == 0, capsys.readouterr().err
    rows = orders(os.path.join(out, "orders.csv"))
    assert float(rows["my-euler"]["order"]) == pytest.approx(1.0, abs=0.1)
    assert rows["my-euler"]["order"] == rows["euler"]["order"]


def test_global_plugin_option_before_the_command(plugin_dir, capsys):
    """``nsfric --plugin MODULE list``: the scheme is listed (the registries, not the
    stored table of built-in names, answer once a module registered something)."""
    assert main([f"--plugin={MODULE}", "list"]) == 0
    assert "my-euler" in capsys.readouterr().out


@pytest.mark.parametrize("module, why", [("nsfric_no_such_module", "ModuleNotFoundError"),
                                         ("nsfric_broken_mod", "RuntimeError: no scheme today")])
def test_plugin_that_does_not_import_is_one_line_exit_2(plugin_dir, capsys, module, why):
    out = plugin_dir / "conv"
    rc = main(["converge", "sliding-plates", "--plugin", module, "--scheme", "euler", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2
    assert err.startswith(f"nsfric: error: --plugin {module!r} does not import") and why in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()


def test_plugin_without_module_name(capsys):
    assert main(["list", "--plugin"]) == 2
    assert "--plugin needs a MODULE" in capsys.readouterr().err


def test_scheme_contract_is_exported():
    assert nsfric.Scheme is nsfric.schemes.Scheme and nsfric.register_scheme is nsfric.schemes.register_scheme
