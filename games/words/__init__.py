"""The words of a game, in the active language (docs/architecture.md §1):
they read states and codes and change nothing."""
