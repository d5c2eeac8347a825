"""The course teaches before it uses: from the lessons' data, every word a
lesson shows in Chinese and in English (its title, opening words, tasks,
quizzes, and the verdicts, reasons and hints the engine gives on right and
wrong answers) is read for the glossary's terms, and no lesson uses a term
before the lesson or the glossary link that teaches it; each term is linked
where the course first uses it. The Chinese words are written as a Chinese
reader writes: no Latin move words, no 点 for a die's number, full-width
punctuation."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.utils import translation

from learning.course import answers, check, hints
from learning.course.lessons import LESSONS, known_terms
from learning.course.quiz import quiz
from learning.course.shapes import QUESTIONS, Lesson, Task
from learning.glossary.marks import marked, plain, uses
from learning.glossary.terms import TERMS
from tests.chinese import chinese_mistakes
from tests.learning.fixtures_course import missing_plays

SEEDS = range(3)
# A die's number written as a point: "用 2 点", "掷出的 6 点", "6 点无法使用".
DIE_AS_POINT = re.compile(r"(用|掷出的?|骰子的?)\s?\d\s?点|\d\s?点(无法使用|才能移出)")
LATIN_MOVE_WORD = re.compile(r"\b(bar|off)\b", re.IGNORECASE)


def verdict_words(task: Task, lesson: Lesson) -> Iterator[str]:
    """What the engine says on the right answer and on wrong ones."""
    known = known_terms(lesson)
    verdicts = []
    if task.goal in QUESTIONS:
        keys = [k for k, _label in answers.choices(task)]
        right = answers.right_answer(task)
        wrong = [k for k in keys if k != right] or (
            [str(int(right) + 1)] if right.isdigit() else []
        )
        verdicts = [answers.judge_answer(task, a, known) for a in [right, *wrong]]
    else:
        verdicts.append(check.judge_steps(task, list(task.solution), known))
        verdicts += [check.judge_steps(task, list(w.steps), known) for w in task.wrong]
        for play in missing_plays(task)[:2]:
            verdicts.append(check.judge_steps(task, [(s.src, s.dst) for s in play.steps], known))
    for verdict in verdicts:
        yield verdict.message
        yield from verdict.reasons
    shown = hints.hint(task)
    if shown is not None:
        yield shown["text"]


def task_words(task: Task, lesson: Lesson) -> Iterator[str]:
    yield str(task.prompt)
    if task.why:
        yield str(task.why)
    if task.miss:
        yield str(task.miss)
    yield from (label for _key, label in answers.choices(task))
    yield from verdict_words(task, lesson)


def lesson_words(lesson: Lesson, language: str) -> list[str]:
    """Every word the lesson shows in ``language``, in the order a learner
    meets them (its title first, then the opening words, each task and its
    verdicts)."""
    with translation.override(language):
        words = [marked(line) for line in lesson.intro]
        tasks = [*lesson.tasks, *(t for seed in SEEDS for t in quiz(lesson.slug, seed))]
        words += [marked(text) for task in tasks for text in task_words(task, lesson)]
        return [str(lesson.title), *words]


LANGUAGES = ("zh-hans", "en")
WORDS = {
    (lang, lesson.slug): lesson_words(lesson, lang) for lang in LANGUAGES for lesson in LESSONS
}
LESSON_IDS = [pytest.param(lesson, id=lesson.slug) for lesson in LESSONS]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", LESSON_IDS)
def test_no_lesson_uses_a_term_before_the_lesson_or_the_link_that_teaches_it(
    lesson: Lesson, language: str
) -> None:
    known, linked, early = known_terms(lesson), set(), []
    for text in WORDS[language, lesson.slug]:
        for _at, key, link in uses(text, language):
            if link:
                linked.add(key)
            elif key not in known and key not in linked:
                early.append((key, plain(text)))
    assert early == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("lesson", LESSON_IDS)
def test_each_term_a_lesson_teaches_is_linked_where_it_first_appears(
    lesson: Lesson, language: str
) -> None:
    taught = {t.key for t in TERMS if t.taught_by == lesson.slug}
    first: dict[str, bool] = {}
    for text in WORDS[language, lesson.slug][1:]:  # the title is a heading, not a sentence
        for _at, key, link in uses(text, language):
            first.setdefault(key, link)
    assert {key: first.get(key) for key in taught} == dict.fromkeys(taught, True)


def test_every_term_the_glossary_says_a_lesson_teaches_names_a_lesson() -> None:
    slugs = {lesson.slug for lesson in LESSONS}
    assert {t.taught_by for t in TERMS} - {None} <= slugs
    # And the course uses terms it does not teach only as links to the glossary.
    assert {t.key for t in TERMS if t.taught_by is None} >= {"equity", "engine", "pr", "luck"}


@pytest.mark.parametrize("lesson", LESSON_IDS)
def test_a_lesson_s_chinese_reads_as_a_chinese_reader_writes(lesson: Lesson) -> None:
    found = []
    for text in WORDS["zh-hans", lesson.slug]:
        words = plain(text)
        mistakes = chinese_mistakes(words)
        if LATIN_MOVE_WORD.search(words):
            mistakes.append("a Latin move word")
        if DIE_AS_POINT.search(words):
            mistakes.append("点 for a die's number")
        if mistakes:
            found.append((words, mistakes))
    assert found == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_terms_are_found_in_the_words_of_the_course(language: str) -> None:
    used = {
        key
        for (lang, _slug), texts in WORDS.items()
        if lang == language
        for text in texts
        for _at, key, _l in uses(text, language)
    }
    taught = {t.key for t in TERMS if t.taught_by}
    assert taught <= used
