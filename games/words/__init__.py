"""The words of a game, in the active language: refused steps (``refusals``),
the play page's words for its scripts (``play``), the cube's and the match's
(``cube``). Words only: they read states and codes and change nothing.
"""
