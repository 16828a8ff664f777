"""``nsfric run kuhn-contact``: Fig 4 of Kuhn, Suzuki & Daouadji with its CSV, the
convergence study and the rigid-rotation table, checked against the exact curves."""
import csv
import json
import os

import numpy as np
import pytest

import nsfric


def read_csv(path):
    """Columns of a CSV written by nsfric (numbers as float where they parse)."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    out = {}
    for k in rows[0]:
        vals = [r[k] for r in rows]
        try:
            out[k] = np.array(vals, dtype=float)
        except ValueError:
            out[k] = vals
    return out


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("kuhn"))
    nsfric.get_case("kuhn-contact").run(d)
    return d


def test_fig4_csv(out):
    """fig4.csv: >= 10 ratios from 0.01 to 5; the exact curve is tan(theta/2) =
    -exp(-ratio) to 1e-10; the paper's algorithm (one step) lies on it; add and project
    deviates by more than 10 degrees at large movements."""
    cols = read_csv(os.path.join(out, "fig4.csv"))
    r = np.asarray(cols["ratio"], float)
    assert len(r) >= 10 and r.min() == pytest.approx(0.01) and r.max() == pytest.approx(5.0)
    th = np.radians(np.asarray(cols["theta_exact_deg"], float))
    assert np.max(np.abs(np.tan(th / 2) + np.exp(-r))) < 1e-10
    alg = np.asarray(cols["theta_algorithm_deg"], float)
    ref = np.asarray(cols["theta_reference_deg"], float)
    assert np.max(np.abs(alg - np.degrees(th))) < 1e-8 and np.max(np.abs(ref - np.degrees(th))) < 1e-8
    proj = np.asarray(cols["theta_project_deg"], float)
    assert np.max(np.abs(proj - np.degrees(th))) > 10
    assert os.path.getsize(os.path.join(out, "fig4.png")) > 10_000


@pytest.mark.parametrize("variant", ["growing", "shrinking"])
def test_fig4_variable_fn(out, variant):
    """Growing and shrinking f_n: the corrected rules lie on the reference; the paper's
    rules as stated too when f_n grows, not for small movements when it shrinks."""
    cols = {k: np.asarray(v, float) for k, v in read_csv(os.path.join(out, f"fig4-{variant}.csv")).items()}
    assert np.max(np.abs(cols["theta_algorithm_corrected_deg"] - cols["theta_exact_deg"])) < 1e-8
    dev = np.max(np.abs(cols["theta_algorithm_deg"] - cols["theta_exact_deg"]))
    assert (dev < 1e-8) if variant == "growing" else (dev > 1.0)


def test_convergence_orders(out):
    """Circle movement: the paper's algorithm second order, add-and-project first; with a
    rotating pair eqs 22-23 bring the paper's algorithm down to first order, the exact
    incremental rotation keeps second order and the same errors as without rotation."""
    with open(os.path.join(out, "convergence.json")) as f:
        o = json.load(f)["observed_orders"]
    assert abs(o["force_paper"] - 2) < 0.1 and abs(o["work_paper"] - 2) < 0.1
    assert abs(o["force_conventional"] - 1) < 0.1 and abs(o["work_conventional"] - 1) < 0.1
    with open(os.path.join(out, "convergence-rotating.json")) as f:
        o = json.load(f)["observed_orders"]
    assert abs(o["force_paper"] - 1) < 0.15 and abs(o["force_paper_rotate"] - 2) < 0.1
    still = read_csv(os.path.join(out, "convergence.csv"))
    turning = read_csv(os.path.join(out, "convergence-rotating.csv"))
    a = np.asarray(still["force_error_paper"], float)
    b = np.asarray(turning["force_error_paper_rotate"], float)
    assert np.max(np.abs(a - b) / a) < 1e-6


def test_rotation_table(out):
    cols = read_csv(os.path.join(out, "rotation.csv"))
    err = dict(zip(cols["frame"], np.asarray(cols["force_error"], float)))
    assert err["none"] > 0.5 and err["projection"] > 0.1
    assert 1e-5 < err["projection+twirl"] < 2e-3 and err["rotate"] < 1e-12


def test_refinements_table(out):
    """Refinements switched off one at a time: only all of them make a straight
    increment exact (fresh contacts included); the direction change (eqs 16-21) is what
    lifts the order along the circle from 1 to 2."""
    cols = read_csv(os.path.join(out, "refinements.csv"))
    row = {v: i for i, v in enumerate(cols["variant"])}
    straight, order = cols["straight_max_error"], cols["force_order"]
    assert straight[row["all refinements"]] < 1e-9
    assert all(straight[i] > 1e-3 for v, i in row.items() if v != "all refinements")
    assert abs(order[row["all refinements"]] - 2) < 0.1 and abs(order[row["no partial slip (eqs 9-15)"]] - 2) < 0.1
    assert abs(order[row["no direction change (eqs 16-21)"]] - 1) < 0.1
    assert abs(order[row["none (add and project)"]] - 1) < 0.1


def test_objectivity_csv(out):
    """objectivity.csv (Fig 6 analogue, a few hundred contacts, 90 deg about x1 in 1000
    increments): none and projection alone leave the restored stress percent off and do
    not improve with more increments; projection + twirl is first order (error halves
    from N/2 to N); the exact incremental rotation recovers the stress to round-off."""
    cols = read_csv(os.path.join(out, "objectivity.csv"))
    assert list(cols["adjustment"])[:3] == ["none", "projection", "projection+twirl"]
    err = dict(zip(cols["adjustment"], np.asarray(cols["stress_error"], float)))
    ratio = dict(zip(cols["adjustment"], np.asarray(cols["error_ratio"], float)))
    assert err["none"] > 1e-2 and err["projection"] > 1e-2 and err["projection+rescale"] > 1e-2
    assert abs(ratio["none"] - 1) < 0.01 and abs(ratio["projection"] - 1) < 0.01
    assert 1e-6 < err["projection+twirl"] < 1e-3 and abs(ratio["projection+twirl"] - 2) < 0.05
    assert err["rotate"] < 1e-10
    with open(os.path.join(out, "objectivity.json")) as f:
        meta = json.load(f)
    assert 200 <= meta["contacts"] <= 400
    back = np.array(meta["stress_restored"]["projection+twirl"])
    assert np.linalg.norm(back - np.array(meta["stress_original"])) / np.linalg.norm(back) == \
        pytest.approx(err["projection+twirl"], rel=1e-6)
    assert os.path.getsize(os.path.join(out, "objectivity.png")) > 10_000
