"""The command line is discoverable: ``nsfric list CASE`` shows a case's laws, parameters
(defaults, units, allowed ranges), observables and solvers; every option has a help text."""
import argparse

import pytest

from nsfric.cli import build_parser, main


def _subcommands(parser):
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


def test_every_option_of_every_subcommand_has_help():
    parser = build_parser()
    missing = [f"nsfric {a.dest}" for a in parser._actions if not (a.help or "").strip()
               and not isinstance(a, argparse._SubParsersAction)]
    for name, sub in _subcommands(parser).items():
        missing += [f"nsfric {name} {a.option_strings[0] if a.option_strings else a.dest}"
                    for a in sub._actions if not (a.help or "").strip()]
    assert missing == []


def test_list_case_shows_laws_parameters_observables_and_solvers(capsys):
    assert main(["list", "normal-impact"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("normal-impact: Schäfer, Dippel & Wolf (1996)")
    lines = out.splitlines()
    assert any(line.split()[:2] == ["linear-dashpot", "(default)"] for line in lines)
    assert "walton-braun-force-end" in out
    # a parameter: name, default, unit, allowed range, meaning (and the laws it belongs to)
    v_i = next(line for line in lines if line.split()[:1] == ["v_i"])
    assert "1" in v_i.split() and "m/s" in v_i.split() and "(0, inf)" in v_i and "impact velocity" in v_i
    k_1 = next(line for line in lines if line.split()[:1] == ["k_1"])
    assert "7.32e+06" in k_1 and "N/m" in k_1 and "walton-braun" in k_1 and "hertz," not in k_1
    assert "observables: e_n, t_n, xi_max" in out
    assert "states: xi [m], v [m/s]" in out and "E_kin [J]" in out
    assert "reference solvers: filippov, ida, radau5dae, analytic" in out


def test_list_case_of_a_case_with_its_own_solver_and_no_hybrid_model(capsys):
    assert main(["list", "column-detachment"]) == 0
    out = capsys.readouterr().out
    assert "reference solvers: contacts (its own exact solver)" in out and "e_tot" in out
    assert main(["list", "kuhn-contact"]) == 0
    out = capsys.readouterr().out
    assert "kuhn-contact:" in out and "parameters:" in out


def test_list_of_an_unknown_case_is_one_line_exit_2(capsys):
    assert main(["list", "no-such-case"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown case 'no-such-case'" in err and "normal-impact" in err


@pytest.mark.parametrize("argv", [["list"], ["list", "--help"]])
def test_plain_list_is_unchanged(argv, capsys):
    if argv[-1] == "--help":
        with pytest.raises(SystemExit):
            main(argv)
        assert "CASE" in capsys.readouterr().out
        return
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("cases:\n") and "schemes:" in out


def test_declared_observables_are_those_a_run_gives():
    import nsfric

    for name in ("normal-impact", "column-detachment"):
        case = nsfric.get_case(name)
        assert list(case.reference_solution(samples=2).summary) == list(case.observable_names), name


def test_every_case_with_observables_declares_their_names():
    import nsfric
    from nsfric.cli.names import names

    for name in names()["cases"]:
        case = nsfric.get_case(name)
        if type(case).observables is not nsfric.Case.observables:
            assert case.observable_names, f"{name} computes observables but declares no observable_names"
