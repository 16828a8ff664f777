"""Kuhn's exact reference is couple(PrescribedContact, linear_frictional) solved by filippov."""
import numpy as np
import pytest

from nsfric.papers.kuhn.incremental import KuhnContact, Movement
from nsfric.papers.kuhn.reference import reference


@pytest.mark.parametrize("ratio", [0.5, 1.0, 2.0])
def test_orthogonal_movement_follows_eq_18_closed_form(ratio):
    """Fig 4: a force at the limit, a movement orthogonal to it at constant f_n: the force
    turns along tan(theta/2) = exp(-K), K = k_t |Delta xi|/(mu f_n) (eq 18, c_2 = 0);
    starting on the friction circle is a Filippov mode on a curved surface."""
    c = KuhnContact(k_n=1.0, k_t=1.0, mu=0.5)
    b = c.mu * c.k_n
    mv = Movement.straight([0.0, ratio * b / c.k_t], f_t0=(b, 0.0))
    ref = reference(mv, c, s_eval=[0.0, 1.0])
    f = np.array([ref["f_t_body1"][-1], ref["f_t_body2"][-1]])
    theta = np.arctan2(f[0], f[1])  # angle between the force and the movement
    assert abs(np.tan(theta / 2) - np.exp(-ratio)) < 1e-12
    assert abs(np.linalg.norm(f) - b) < 1e-12
    assert ref.modes[-1] == "slip"
