"""Kuhn, Suzuki & Daouadji: 3D linear-frictional contact.

The paper as an nsfric plug-in (entry point ``nsfric.papers`` -> :data:`PAPER`): its
systems, cases, studies, figures, tables, verdicts and symbolic checks live in this
package and use only nsfric's public API, as a user's plug-in would.
"""
from nsfric.plugins import Paper

PAPER = Paper(
    key='Kuhn, Suzuki & Daouadji',
    title='Kuhn, Suzuki & Daouadji: 3D linear-frictional contact',
    cases=('kuhn-contact',),
    claims=('An incremental algorithm for the linear-frictional contact with four refinements (onset of slip, partial slip, the change of direction within the step, objective rotation of the force) that is exact for straight increments; a movement orthogonal to a force at the limit turns the force along tan(-theta/2) = exp(-K) (Fig 4), which the usual add-and-project misses.'),
    label='K',
    citation='Kuhn, Suzuki & Daouadji, Linear-frictional contact model for 3D DEM',
    order=4,
    modules={'verdicts': ('nsfric.papers.kuhn.verdicts',), 'checks': ('nsfric.papers.kuhn.checks',), 'systems': ()},
)
