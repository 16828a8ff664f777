"""``nsfric warm-up`` builds the disk caches of the installed cases once: derived
numerics and each mode's compiled DOP853 stepper; a second run only reads them and says
so, and a plain process then solves on the compiled stepper from its first solve."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from nsfric.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _nsfric(args, cache):
    env = dict(os.environ, NSFRIC_CACHE_DIR=str(cache), PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "nsfric.cli", *args], capture_output=True, text=True, env=env)


def test_warm_up_builds_once_then_only_reads(tmp_path):
    pytest.importorskip("numba")
    first = _nsfric(["warm-up", "--case", "dry-oscillator", "--progress", "plain"], tmp_path)
    assert first.returncode == 0, first.stderr
    assert "warm-up: dry-oscillator coulomb: stepper 3/3" in first.stderr  # progress, a line per step
    assert "dry-oscillator coulomb: 3 modes; " in first.stdout and "3 steppers compiled, 0 on disk" in first.stdout
    assert "functions derived" in first.stdout
    assert first.stdout.strip().splitlines()[-1].startswith("warm-up: built the caches of 1 of 1 case laws")
    assert len([f for f in os.listdir(tmp_path / "kernels") if f.endswith(".compiled")]) == 3
    assert os.listdir(tmp_path / "numerics")

    again = _nsfric(["warm-up", "--case", "dry-oscillator", "--progress", "none"], tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stderr == ""
    assert "numerics cached; 0 steppers compiled, 3 on disk" in again.stdout
    assert again.stdout.strip().splitlines()[-1].startswith("warm-up: every cache was already warm, nothing built")

    plain = ("import sys, nsfric\n"
             "sol = nsfric.get_case('dry-oscillator').reference_solution()\n"
             "print(sol.tolerances['method'], 'sympy' in sys.modules)\n")
    env = dict(os.environ, NSFRIC_CACHE_DIR=str(tmp_path), PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", plain], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split() == ["dop853-numba", "False"]


def test_warm_up_refuses_an_unknown_case(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NSFRIC_CACHE_DIR", str(tmp_path))
    assert main(["warm-up", "--case", "dry-oscillator", "--case", "no-such-case"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nsfric: error: unknown case 'no-such-case'") and err.count("\n") == 1
    assert not os.path.exists(tmp_path / "kernels") and not os.path.exists(tmp_path / "numerics")
