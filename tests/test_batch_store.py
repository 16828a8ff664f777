"""Which rows a batched run keeps (issue 27 item 7): ``store="all" | "final" | k``.

``"final"`` keeps the last row of every member, an integer ``k`` every k-th row and
the last; the rows kept equal the same rows of ``store="all"`` bit for bit on every
path (compiled kernel, NumPy, per member, a scheme's own loop), also when the members
run in several chunks (a small working-memory budget here), with diverged members.
"""
from __future__ import annotations

import numpy as np
import pytest

import nsfric
from nsfric.errors import BudgetError
from nsfric.schemes import batch
from nsfric.schemes.batch import simulate_batch

PLATES = dict(case="sliding-plates", law="c-sds", dt=0.1, t_end=2.0, params={"v0": np.linspace(0.5, 6.0, 7)})
#: (case, law, scheme, dt, t_end, params, backend): every path of a batch
PATHS = {
    "numba": ("sliding-plates", "c-sds", "heun", 0.1, 2.0, {"v0": np.linspace(0.5, 6.0, 7)}, "numba"),
    "numpy": ("sliding-plates", "c-sds", "rk4", 0.1, 2.0, {"v0": np.linspace(0.5, 6.0, 7)}, "numpy"),
    "loop": ("sliding-plates", "d-sds", "implicit-euler", 0.1, 1.0, {"v0": [1.5, 3.0, 4.5]}, "auto"),
    "own loop": ("dry-oscillator", "coulomb", "delta-heun", 0.05, 2.0, {"x0": [1.5, 3.0, -2.0]}, "auto"),
    "diverged": ("slope-block", "coulomb", "euler", 1e-3, 0.5, {"Y": [5e3, 5e7, 5e3]}, "numpy"),
}


def _run(name, store, **kw):
    case, law, scheme, dt, t_end, params, backend = PATHS[name]
    params = {k: np.asarray(v, dtype=float) for k, v in params.items()}
    B = len(next(iter(params.values())))
    return simulate_batch(nsfric.get_case(case), law, scheme, dt, t_end, params, B, backend=backend,
                          store=store, **kw)


@pytest.mark.parametrize("name", sorted(PATHS))
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # the diverged members
def test_final_and_stride_rows_equal_the_rows_of_all(name, monkeypatch):
    full = _run(name, "all")
    n_rows = len(full.t)
    monkeypatch.setattr(batch, "WORK_BYTES", 8 * full.y.shape[0] * n_rows * 2)  # two members per chunk
    for store, rows in (("final", [n_rows - 1]), (3, list(range(0, n_rows, 3)) + [n_rows - 1]),
                        (1, list(range(n_rows))), (n_rows + 5, [0, n_rows - 1])):
        rows = sorted(set(rows))
        kept = _run(name, store)
        assert kept.info["backend"] == full.info["backend"], store
        np.testing.assert_array_equal(kept.t, full.t[rows])
        np.testing.assert_array_equal(kept.y, full.y[:, :, rows])
        np.testing.assert_array_equal(kept.info["steps"], full.info["steps"])
        assert kept.termination == full.termination
        for i in range(kept.batch):
            a, b = kept.member(i), full.member(i)
            assert a.termination == b.termination
            assert a.modes == [b.modes[r] for r in rows]
        for q in list(full.output_names)[:1]:  # a derived quantity on the rows kept
            np.testing.assert_array_equal(kept[q], full[q][:, rows])


def test_final_keeps_one_row_per_member():
    sol = nsfric.simulate(PLATES["case"], PLATES["law"], "euler", PLATES["dt"], PLATES["t_end"],
                          params=PLATES["params"], store="final")
    assert sol.y.shape == (len(sol.state_names), 7, 1) and sol.t.tolist() == [pytest.approx(2.0)]
    assert sol["v"].shape == (7, 1)


@pytest.mark.parametrize("bad", ["last", "", 0, -2, 2.0, 2.5, True, None, "3", [1]])
def test_a_bad_store_names_the_option_and_its_values(bad):
    with pytest.raises(ValueError, match=r"store must be 'all', 'final' or an integer stride >= 1"):
        nsfric.simulate(PLATES["case"], PLATES["law"], "euler", PLATES["dt"], PLATES["t_end"],
                        params=PLATES["params"], store=bad)


def test_store_belongs_to_a_batch():
    with pytest.raises(ValueError, match="store"):
        nsfric.simulate(PLATES["case"], PLATES["law"], "euler", PLATES["dt"], PLATES["t_end"],
                        params={"v0": 2.0}, store="final")
    for store in ("all", 1):  # every row
        sol = nsfric.simulate(PLATES["case"], PLATES["law"], "euler", PLATES["dt"], PLATES["t_end"],
                              params={"v0": 2.0}, store=store)
        assert len(sol.t) == 21


def test_the_memory_refusal_names_the_store_option(monkeypatch):
    from nsfric.solvers import loop

    monkeypatch.setattr(loop, "MEMORY_LIMIT", 8 * 2 * 7 * 10)  # fewer than every row of 7 members
    with pytest.raises(BudgetError, match=r"store='final'"):
        nsfric.simulate(PLATES["case"], PLATES["law"], "euler", PLATES["dt"], PLATES["t_end"],
                        params=PLATES["params"])
    sol = nsfric.simulate(PLATES["case"], PLATES["law"], "euler", PLATES["dt"], PLATES["t_end"],
                          params=PLATES["params"], store="final")  # fits: one row per member
    assert sol.y.shape[2] == 1
