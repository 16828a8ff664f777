"""``nsfric reference`` marks its event rows: a column ``event`` is 1 on the rows added for
an event (the state after a reset at t = 0, a switch between grid times) and 0 on the
uniform grid, so that dropping the event rows leaves exactly ``--samples`` rows on
``linspace(t0, t_end, samples)``."""
import csv
import json

import numpy as np
import pytest

import nsfric
from nsfric.cli import main


def _read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    with open(str(path)[:-4] + ".json") as f:
        return rows, json.load(f)


@pytest.mark.parametrize("argv, t_end", [
    (["sliding-plates", "--law", "d-sds"], 10.0),          # a reset at t = 0: two rows at t = 0
    (["dry-oscillator", "--t-end", "7"], 7.0),             # switches between the grid times
])
def test_event_rows_are_marked_and_the_rest_is_the_grid(argv, t_end, tmp_path, capsys):
    out = tmp_path / "ref.csv"
    assert main(["reference", *argv, "--samples", "6", "--out", str(out)]) == 0
    rows, meta = _read(out)
    assert list(rows[0])[-1] == "event" and {r["event"] for r in rows} == {"0", "1"}
    grid = [float(r["t"]) for r in rows if r["event"] == "0"]
    assert grid == list(np.linspace(0.0, t_end, 6))  # bit for bit, in order
    marked = [float(r["t"]) for r in rows if r["event"] == "1"]
    assert marked == [e["t"] for e in meta["events"] if e["t"] not in grid or e["t"] == 0.0]
    assert "event" in meta["columns"] and "1" in meta["columns"]["event"]


def test_the_reset_row_at_t0_is_the_event_row(tmp_path, capsys):
    out = tmp_path / "ref.csv"
    assert main(["reference", "sliding-plates", "--law", "d-sds", "--samples", "3", "--out", str(out)]) == 0
    rows, _ = _read(out)
    first, second = rows[0], rows[1]
    assert first["t"] == second["t"] == "0.0"
    assert (first["xi"], first["event"]) == ("0.0", "0")    # the initial state, as given
    assert (second["xi"], second["event"]) == ("-7.0", "1")  # after the D-SDS reset (Fuhrer eq 3)


def test_the_case_outputs_keep_their_columns():
    sol = nsfric.get_case("dry-oscillator").reference_solution(samples=3)
    assert "event" not in sol.columns()  # nsfric run's CSVs are unchanged


def test_a_case_with_its_own_solver_marks_its_events_too(tmp_path, capsys):
    out = tmp_path / "col.csv"
    assert main(["reference", "column-detachment", "--samples", "5", "--out", str(out)]) == 0
    rows, meta = _read(out)
    assert sum(r["event"] == "0" for r in rows) == 5
    assert sum(r["event"] == "1" for r in rows) == len(rows) - 5 > 0
