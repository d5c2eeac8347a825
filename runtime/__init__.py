"""The runtime floor: how the site's processes run, not what the site does
(its modules: docs/architecture.md §1). It imports no package of the site.
Every use of a library's private name in the site is here, each with the
versions it was checked against and a test
(tests/runtime/test_private_names.py) that fails when the library changes it.
"""
