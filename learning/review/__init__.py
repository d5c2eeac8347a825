"""The review of a finished game: every decision ranked, the cube's
decisions, luck, PR, phases, and the analysis as a command."""
