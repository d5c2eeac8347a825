"""The runtime floor: how the site's processes run, not what the site does.

It imports no package of the site (import-linter's contract): the database
threads of the game sockets (``dbthreads``), SQLite's checkpointer
(``checkpoint``), the in-memory channel layer (``layers``), and daphne's
launcher with the tuning of daphne, Twisted and autobahn it installs
(``serve``). Every use of a library's private name in the site is here,
each with the versions it was checked against and a test
(tests/runtime/test_private_names.py) that fails when the library changes it.
"""
