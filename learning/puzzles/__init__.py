"""练习题: rated puzzles made from positions no one picked by hand, each
answer checked by a rollout, themes tagged from the position and the
review's own comparison, Glicko-2 ratings for puzzles and people, and the
review's 再试一次 on a finished game's biggest errors (issue 47)."""
