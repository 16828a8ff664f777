"""Schäfer, Dippel & Wolf (1996): normal and oblique impacts, the column of grains.

The paper as an nsfric plug-in (entry point ``nsfric.papers`` -> :data:`PAPER`): its
systems, cases, studies, figures, tables, verdicts and symbolic checks live in this
package and use only nsfric's public API, as a user's plug-in would.
"""
from nsfric.plugins import Paper

PAPER = Paper(
    key='Schäfer, Dippel & Wolf (1996)',
    title='Schäfer, Dippel & Wolf (1996): force schemes in simulations of granular materials',
    cases=('normal-impact', 'oblique-impact', 'column-detachment'),
    claims=('Normal force laws set the restitution e_n(v) of an impact: the linear spring-dashpot gives a constant e_n (eq 3, 0.87 with t_n = 1e-5 s), Hertz with linear damping an e_n rising with v, Kuwabara-Kono and Walton-Braun an e_n falling with v (Fig 2); the Hertz contact lasts t_n ~ v^(-1/5) (eq 7, 1.88e-5 s at 100 m/s). Tangential laws are compared on oblique impacts (Figs 3-8).'),
    label='S',
    citation='Schäfer, Dippel & Wolf (1996), Force schemes in simulations of granular materials',
    order=3,
    modules={'verdicts': ('nsfric.papers.schafer1996.verdicts',), 'checks': ('nsfric.papers.schafer1996.checks',), 'systems': ('nsfric.papers.schafer1996.systems',)},
)
