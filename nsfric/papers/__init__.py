"""The four papers nsfric reproduces, each a plug-in package on the engine's public API.

* :mod:`nsfric.papers.fuhrer2024` -- Führer, Brendel & Wolf (2024), the C-SDS;
* :mod:`nsfric.papers.krengel_matuttis` -- Krengel & Matuttis, exact and modelled static friction;
* :mod:`nsfric.papers.schafer1996` -- Schäfer, Dippel & Wolf (1996), force schemes;
* :mod:`nsfric.papers.kuhn` -- Kuhn, Suzuki & Daouadji, the 3D linear-frictional contact.

Each registers its cases and its :class:`~nsfric.plugins.Paper` through the entry-point
groups ``nsfric.cases`` and ``nsfric.papers`` (``pyproject.toml``); the engine never
imports this package by name.  The papers' cases do not exist for nsfric until the
distribution is installed (``pip install -e .``).
"""
