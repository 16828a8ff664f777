"""Workers that are not forked run the parent's steppers.

``method="auto"`` takes the compiled DOP853 once numba is imported, so a worker
started by forkserver (the parent runs another thread, e.g. a Dask client's, and is
not forked) without numba ran SciPy's DOP853 and gave other bits than the parent:
``test_oblique_impact_figures``'s sweep on 2 workers differed by 3e-14 from the single
references, depending on what ran before it in the process.
"""
import sys
import threading

import pytest

from nsfric.study.execute import forks_workers, run_tasks


def _has_numba(_):
    return "numba" in sys.modules


def test_a_forkserver_worker_imports_what_selected_the_parents_stepper():
    pytest.importorskip("numba")
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()  # a second thread: the local pool does not fork
    try:
        assert not forks_workers()
        got = {}
        run_tasks(_has_numba, [(i, i) for i in range(4)], got.__setitem__, jobs=2)
    finally:
        stop.set()
    assert got == {i: True for i in range(4)}
