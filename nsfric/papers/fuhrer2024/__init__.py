"""Führer, Brendel & Wolf (2024): sliding plates.

The paper as an nsfric plug-in (entry point ``nsfric.papers`` -> :data:`PAPER`): its
systems, cases, studies, figures, tables, verdicts and symbolic checks live in this
package and use only nsfric's public API, as a user's plug-in would.
"""
from nsfric.plugins import Paper

PAPER = Paper(
    key='Führer, Brendel & Wolf (2024)',
    title='Führer, Brendel & Wolf (2024): a continuous spring-dashpot-slider (C-SDS)',
    cases=('sliding-plates', 'sliding-plates-2d'),
    claims=('The discontinuous spring-dashpot-slider (D-SDS) resets the spring at every sliding step (eq 3): it chatters between sticking and sliding, creates energy that scales with the square of the initial velocity, and limits every integration scheme to first order. The continuous C-SDS (eq 10) loads the spring by a differential equation, satisfies the energy balance eq 11 exactly and passes smoothly into sticking. Test: two plates sliding apart (m = k = F_max = 1, gamma = 2, v(0) = 4).'),
    label='F',
    citation='Führer, Brendel & Wolf (2024), Correction of the spring-dashpot-slider model',
    order=1,
    modules={'verdicts': ('nsfric.papers.fuhrer2024.verdicts',), 'checks': ('nsfric.papers.fuhrer2024.checks',), 'systems': ('nsfric.papers.fuhrer2024.systems',)},
)
