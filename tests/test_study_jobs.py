"""Studies on local worker processes: ``nsfric run slip-rule-zoo --jobs N`` and ``nsfric
run slip-rule-energy --jobs N`` run their independent points (angles, sweep points) on a
pool and give the rows of one process, bit for bit and in the same order; a study
whose function takes no ``jobs`` refuses it in one line."""
import math

import pytest

from nsfric.cases import slip_rule_energy as E
from nsfric.cases import slip_rule_zoo as Z
from nsfric.cli import main
from nsfric.studies import find_study
from nsfric.study.execute import map_tasks

RULES = ["lammps-linear-history", "kratos-linear-viscous-coulomb"]


def _same(a, b):
    assert [list(r) for r in a] == [list(r) for r in b]
    for x, y in zip(a, b):
        for k in x:
            assert x[k] == y[k] or (isinstance(x[k], float) and math.isnan(x[k]) and math.isnan(y[k])), k


def test_the_zoo_on_two_processes_gives_the_rows_of_one():
    kw = dict(rules=RULES, angles=(65.0, 25.0), divisions=(100, 200, 400))
    one, two = Z.zoo(**kw), Z.zoo(**kw, jobs=2)
    _same(one, two)
    assert [r["theta_deg"] for r in two] == [65.0, 65.0, 25.0, 25.0]  # the angles' order, not the workers'


def test_the_energy_sweep_on_two_processes_gives_the_rows_of_one():
    kw = dict(rules=RULES, sweep={"theta_deg": (60.0, 20.0), "mu": (0.3,), "e_n": (0.9,), "ks_ratio": (2 / 7,)},
              divisions=(50, 100))
    one, two = E.energy_sweep(**kw), E.energy_sweep(**kw, jobs=2)
    _same(one, two)
    assert [r["theta_deg"] for r in two] == [60.0, 60.0, 20.0, 20.0]


def test_map_tasks_keeps_the_order_of_its_items_and_checks_jobs():
    assert map_tasks(abs, [-3, 2, -1, 5, -4], jobs=2) == [3, 2, 1, 5, 4]
    with pytest.raises(ValueError, match="jobs"):
        map_tasks(abs, [1, 2], jobs=0)


def _pooled_study(out_dir, progress=None, params=None, jobs=1):
    import os

    pids = map_tasks(_pid, range(4), jobs=jobs)
    path = os.path.join(out_dir, "pids.txt")
    with open(path, "w") as f:
        f.write(f"{jobs} {len(set(pids))}")
    return {"written": [path]}


def _pid(_):
    import os
    import time

    time.sleep(0.2)  # long enough that both workers take a task
    return os.getpid()


def test_the_cli_passes_jobs_to_a_study_that_takes_them(tmp_path, capsys):
    from nsfric.studies import STUDIES, Study, register_study

    assert find_study("slip-rule-zoo").takes_jobs and find_study("slip-rule-energy").takes_jobs
    assert not find_study("lammps-conformance").takes_jobs
    register_study(Study("pooled-test-study", f"{__name__}:_pooled_study"))
    try:
        assert main(["run", "pooled-test-study", "--jobs", "2", "--out", str(tmp_path / "p")]) == 0
        jobs, processes = map(int, (tmp_path / "p" / "pids.txt").read_text().split())
        assert jobs == 2 and processes >= 2  # the pool's workers (and this process, which forks them)
    finally:
        STUDIES.pop("pooled-test-study", None)
    capsys.readouterr()
    assert main(["run", "lammps-conformance", "--jobs", "2", "--out", str(tmp_path / "lmp")]) == 2
    err = capsys.readouterr().err
    assert "takes no --jobs" in err and "Traceback" not in err and not (tmp_path / "lmp").exists()
