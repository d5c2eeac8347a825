"""The learning app's rows: analyses and hints (``analysis``), the study
side's analysis-board jobs and practice items (``study``), and the course's
lesson progress (``learning.course.models``) and the puzzles
(``learning.puzzles.models``), all seen from here.
"""

from __future__ import annotations

from learning.course.models import LessonProgress
from learning.models.analysis import (
    AnalysisState,
    CubeAnalysis,
    ErrorClass,
    GameAnalysis,
    Hint,
    TurnAnalysis,
)
from learning.models.study import BoardAnalysis, PracticeItem
from learning.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating, RetryAnswer

__all__ = [
    "AnalysisState",
    "BoardAnalysis",
    "CubeAnalysis",
    "ErrorClass",
    "GameAnalysis",
    "Hint",
    "LessonProgress",
    "PracticeItem",
    "Puzzle",
    "PuzzleAttempt",
    "PuzzleRating",
    "RetryAnswer",
    "TurnAnalysis",
]
