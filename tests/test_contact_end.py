"""The end of a contact whose normal force holds a root of the overlap (Kuwabara-Kono's
``sqrt(delta) d delta/dt``): the tangential guards and the sliding field then hold
``d sqrt(|delta|)/dt``, infinite as ``delta -> 0`` and ``0 * inf`` exactly at zero
overlap.  The contact end is located on its own guard; the root search of that guard
evaluates no other guard's value, so the singular point is never needed -- while a
guard that is not finite where the solver uses it still stops the run."""
from __future__ import annotations

import json

import numpy as np
import pytest

from nsfric.cli import main
from nsfric.errors import NonFiniteField
from nsfric.solvers.guard_search import first_crossing
from nsfric.solvers.watch import GuardWatch

T_END = 0.3  # the overlap x = T_END - t of the synthetic step reaches zero here


def _dense(t):
    t = np.asarray(t, dtype=float)
    return np.array([T_END - t, -np.ones_like(t)])


def _guards(y, p):
    """Guard 0: a stick exit ``-1 - sign(x)/sqrt(|x|)``, crossing through its pole at the
    contact end and not finite on it and just beyond (``0 * inf``); guard 1: the contact
    end ``-x``."""
    x = np.asarray(y[0], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        exit_ = np.where((x <= 0) & (x > -1e-9), np.nan, -1.0 - np.sign(x) / np.sqrt(np.abs(x)))
    return np.array([exit_, -x])


def _rates(y, p):
    x = np.asarray(y[0], dtype=float)
    return np.array([np.zeros_like(x), np.ones_like(x)])


def test_the_contact_end_is_located_without_the_singular_guards():
    watched = GuardWatch(_guards, "filippov", "law", "contact/slip+", ["x", "v"])
    found = first_crossing(watched, _rates, (), _dense, 0.0, 0.5, 8)
    assert found is not None and found[1] == 1
    assert found[0] == pytest.approx(T_END, abs=1e-15)


def test_a_guard_not_finite_where_it_is_used_still_stops_the_run():
    """The watch is not switched off: a guard NaN at a sample (before any event) is named."""
    def bad(y, p):
        g = _guards(y, p)
        g[0] = np.where(np.asarray(y[0]) < 0.2, np.nan, g[0])  # NaN well inside the mode
        return g

    watched = GuardWatch(bad, "filippov", "law", "contact/slip+", ["x", "v"])
    with pytest.raises(NonFiniteField, match="guards of law 'law' is not finite .* in mode 'contact/slip\\+'"):
        first_crossing(watched, _rates, (), _dense, 0.0, 0.5, 8)


@pytest.mark.slow
def test_kuwabara_kono_contact_ends_while_sliding(tmp_path, capsys):
    """``nsfric reference oblique-impact --law d-sds/kuwabara-kono --param psi_i=1`` failed
    with a NonFiniteField at the contact end (the D-SDS slides there)."""
    out = tmp_path / "kk.csv"
    rc = main(["reference", "oblique-impact", "--law", "d-sds/kuwabara-kono", "--param", "psi_i=1",
               "--out", str(out), "--no-cross-check"])  # ida agrees to 8.1e-11 in psi_f (38 s CPU more)
    assert rc == 0, capsys.readouterr().err
    meta = json.loads(out.with_suffix(".json").read_text())
    kinds = [e["kind"] for e in meta["events"]]
    end = meta["events"][kinds.index("contact-end")]
    assert end["from"].startswith("contact/slip"), end  # the D-SDS slides into the contact end
    assert meta["termination"] == "reached t_end"
    assert meta["summary"]["psi_f"] == pytest.approx(-0.41188447, abs=1e-8)  # ida: -0.4118844703350
    assert meta["summary"]["t_n"] == pytest.approx(end["t"])


def test_the_compiled_stepper_reaches_the_singular_contact_end_as_scipys_does():
    """The compiled DOP853 evaluates the law with NumPy's error model (a division by zero
    gives inf, as the NumPy functions do), so the stall at the Kuwabara-Kono contact end is
    seen as non-finite and located as SciPy's stepper locates it: both give one psi_f
    (to 1e-12).  With Python's error model the ZeroDivisionError inside the compiled field
    was printed and ignored, and the run failed with NaN guards."""
    pytest.importorskip("numba")
    from nsfric.cases import get_case

    case = get_case("oblique-impact")
    psi = [case.reference_solution("d-sds/kuwabara-kono", params={"psi_i": 1.0}, method=m).summary["psi_f"]
           for m in ("DOP853", "dop853-numba")]
    assert abs(psi[1] - psi[0]) < 1e-12, psi
