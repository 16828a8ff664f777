"""Sphinx configuration: MyST Markdown pages, the API reference from the numpydoc
docstrings, figures generated at build time by matplotlib's plot directive."""
import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "nsfric"
author = "the nsfric developers"
copyright = "2026, the nsfric developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "matplotlib.sphinxext.plot_directive",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_member_order = "bysource"
autodoc_typehints = "none"
plot_include_source = True
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 90)]
html_theme = "alabaster"
