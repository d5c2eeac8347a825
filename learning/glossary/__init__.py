"""The glossary: the one place each term of the brief is defined, with one
sentence and a small board, and the one way to link a term from any words
the site shows.

``terms`` lists the entries (``terms_moving``, ``terms_play``,
``terms_cube``; what an entry is: ``shapes``); ``marks`` marks a term in
Python words and turns the marks into links (``term``, ``marked``,
``linked``, ``plain``; in templates ``{% load glossary_tags %}``, in scripts
``static/learning/terms.js``); ``views`` serves the page and its entries as
JSON for the scripts' small pop-up.
"""
