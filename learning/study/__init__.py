"""Study between games: the analysis board, practice, match files, the
study queue, the error profile and progress."""
