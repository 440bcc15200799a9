"""Developer tools of the checkout; not part of the package and not in the wheel.

Each runs from a checkout, on that checkout's package and files, whatever the
current directory::

    python devtools/fixtures.py check|regenerate   # the golden fixtures (fixtures/golden)
    python devtools/schemagen.py [--check]         # the schema files (schemas/)

``python -m devtools.fixtures`` from the top of the checkout does the same. The
tests import them as ``devtools.*`` (pyproject.toml puts the checkout on pytest's
path).
"""
