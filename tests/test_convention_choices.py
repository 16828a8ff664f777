"""Contact conventions name their implementation choices (lever arm, Coulomb cap, damping,
history frame, contact end) from a fixed vocabulary, and the presets' choices agree with
the case parameters and laws they set."""
from __future__ import annotations

import pytest

from nsfric.cli import main
from nsfric.conventions import CHOICES, CONVENTIONS, Convention

#: the case parameters that realise a lever-arm choice
ARM_PARAMS = {"R": {"arm_overlap": 0.0}, "R - delta/2": {"arm_overlap": 1.0}, "R - delta": {"arm_overlap": 2.0},
              "mixed: R for the velocity, R - delta/2 for the torque": {"arm_overlap": 0.0, "torque_arm_shift": 1.0}}


def test_bad_choices_name_the_choice_and_the_allowed_values():
    with pytest.raises(ValueError, match=r"choices: unknown choice 'arm' of convention 'x'; the choices are"):
        Convention("x", "oblique-impact", choices={"arm": "R"})
    with pytest.raises(ValueError, match=r"choices: damping = 'outside' of convention 'x' is not one of "
                                         r"\['inside the cap', 'dropped on slip', 'trimmed to the cap'\]"):
        Convention("x", "oblique-impact", choices={"damping": "outside"})


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_each_preset_states_every_choice_consistently_with_its_parameters(name):
    c = CONVENTIONS[name]
    assert set(c.choices) == set(CHOICES), name
    for key, value in ARM_PARAMS[c.choices["lever_arm"]].items():
        assert c.params.get(key, {"arm_overlap": 1.0, "torque_arm_shift": 0.0}[key]) == value, (name, key)
    force_end = all("force-end" in law for law in c.laws) and bool(c.laws)
    assert (c.choices["contact_end"] == "zero normal force") == force_end, name


def test_nsfric_list_shows_the_conventions_and_their_choices(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    block = out.split("contact conventions (--convention):")[1]
    for name in CONVENTIONS:
        assert name in block
    assert "lever arm: mixed: R for the velocity, R - delta/2 for the torque" in block
