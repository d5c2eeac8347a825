"""The runtime floor: how the site's processes run, not what the site does
(its modules: docs/architecture.md §1). It imports no package of the site.
Every library internal the site touches is here, listed in one place
(runtime/internals.py) with the versions it was checked with, each with a
test that fails when the library changes it
(tests/runtime/test_private_names.py reads the list).
"""
