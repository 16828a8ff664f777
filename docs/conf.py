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
    "sphinx_gallery.gen_gallery",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "gallery/*.ipynb", "gallery/*.py", "gallery/*.zip"]
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

# the examples gallery: every script in examples/ is executed at build time (the tests run
# them too, tests/test_examples.py); `-D plot_gallery=0` builds the pages without running them
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "gallery",
    "filename_pattern": r".*\.py$",
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "remove_config_comments": True,
    "matplotlib_animations": False,
}
# long code lines scroll inside their box instead of running off the page
html_static_path = ["_static"]
html_css_files = ["nsfric.css"]
