"""Krengel & Matuttis: dry-friction oscillator, the block on the slope, the disc pile and heap.

The paper as an nsfric plug-in (entry point ``nsfric.papers`` -> :data:`PAPER`): its
systems, cases, studies, figures, tables, verdicts and symbolic checks live in this
package and use only nsfric's public API, as a user's plug-in would.
"""
from nsfric.plugins import Paper

PAPER = Paper(
    key='Krengel & Matuttis',
    title='Krengel & Matuttis: numerically exact and modelled static friction',
    cases=('dry-oscillator', 'slope-block', 'slope-block-rotating', 'km-pile', 'km-heap'),
    claims=("Static friction is a constraint on a Filippov surface (x' = 0): a dry-friction oscillator sticks exactly once a turning point lies inside |x| < mu F_N/k (Fig 1). A delta-approximation (eqs 15-17) makes it a DEM force; on a block on a slope (Table 1) it is compared with Cundall-Strack: CS grips later at the critical angle, the approximated 'DAE' friction drifts, more for larger dt; BDF integrators drift less than Heun and the drift depends on the block size (Figs 2-5)."),
    label='KM',
    citation='Krengel & Matuttis, Comparing numerically exact and modelled static friction',
    order=2,
    modules={'verdicts': ('nsfric.papers.krengel_matuttis.verdicts', 'nsfric.papers.krengel_matuttis.verdicts_rotating'), 'checks': ('nsfric.papers.krengel_matuttis.checks',), 'systems': ('nsfric.papers.krengel_matuttis.systems',)},
)
