"""The glossary: every term of the brief defined once, in one sentence in
each language with a small board whose facts are true, and the one way to
link a term from words (marks, the template tag and filter, the page and
its JSON)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from ai_worker.features import count_shots
from games.engine import Display, Position, Side, outcome
from learning.glossary.marks import linked, marked, plain, term, uses, with_terms
from learning.glossary.shapes import Diagram
from learning.glossary.terms import BY_KEY, TERMS
from tests.chinese import chinese_mistakes, en, zh

# The terms issue 45 names from the brief, as the Chinese screens write them.
BRIEF_TERMS = (
    "吧台 内盘 外盘 落单 占点 锚点 封锁 建筑棋子 pip 数 打中的掷法 全胜 大胜 倍数骰 接受点 期望值"
)


def position_of(d: Diagram) -> Position:
    """A diagram as the engine's position, from LIGHT's side."""
    me, opp = [0] * 25, [0] * 25
    for point, count in d.points:
        if count > 0:
            me[point - 1] = count
        else:
            opp[24 - point] = -count
    me[24], opp[24] = d.bar
    return Position(tuple(me), tuple(opp))


def test_every_term_the_brief_names_has_an_entry() -> None:
    names = {plain(zh(t.name)) for t in TERMS}
    assert set(re.findall(r"pip 数|\S+", BRIEF_TERMS)) - {"pip", "数"} <= names


@pytest.mark.parametrize("entry", TERMS, ids=lambda t: t.key)
def test_each_entry_is_one_sentence_in_each_language(entry: Any) -> None:
    name, sentence = plain(zh(entry.name)), plain(zh(entry.sentence))
    assert name and sentence.endswith("。") and sentence.count("。") == 1
    assert chinese_mistakes(sentence) == [] and chinese_mistakes(name) == []
    assert not re.search(r"\b(bar|off)\b", sentence), "Latin move words on a Chinese screen"
    english = plain(en(entry.sentence))
    assert english != sentence and english.endswith(".") and english.count(". ") == 0
    assert plain(en(entry.name)) != name or entry.key == "pr"


@pytest.mark.parametrize("entry", TERMS, ids=lambda t: t.key)
def test_the_term_s_own_name_is_found_by_its_patterns(entry: Any) -> None:
    """So the course's test finds every use of a term in Chinese and in
    English words, and the coach's and the hints' words link it."""
    assert entry.used_in(plain(zh(entry.name))), entry.key
    assert entry.used_in(plain(en(entry.name)), "en"), entry.key


@pytest.mark.parametrize("entry", TERMS, ids=lambda t: t.key)
def test_each_small_board_is_a_board(entry: Any) -> None:
    d = entry.board
    light = sum(n for _p, n in d.points if n > 0) + d.bar[0] + d.off[0]
    dark = sum(-n for _p, n in d.points if n < 0) + d.bar[1] + d.off[1]
    assert light <= 15 and dark <= 15
    assert all(1 <= p <= 24 and n for p, n in d.points)
    assert all(0 <= m <= 25 for m in d.marks)
    assert d.board_json()["points"] == list(Display.from_position(position_of(d)).points)


@pytest.mark.parametrize(
    ("key", "kind"), [("single-win", "single"), ("gammon", "gammon"), ("backgammon", "backgammon")]
)
def test_the_boards_of_the_wins_are_those_wins(key: str, kind: str) -> None:
    won = outcome(position_of(BY_KEY[key].board), Side.LIGHT)
    assert won is not None and won.winner is Side.LIGHT and won.kind.value == kind


def test_the_shot_boards_say_true_counts() -> None:
    direct = count_shots(position_of(BY_KEY["direct-shot"].board), target=5)
    indirect = count_shots(position_of(BY_KEY["indirect-shot"].board), target=10)
    assert direct >= 11 and 0 < indirect <= 6
    assert count_shots(position_of(BY_KEY["shots"].board), target=7) > 0


def test_the_pip_count_board_is_the_start_at_167_each() -> None:
    assert position_of(BY_KEY["pip-count"].board).pips() == (167, 167)


# --- marks and links --------------------------------------------------------------------------


def test_a_term_is_marked_with_its_name_in_the_language_of_the_moment() -> None:
    with translation.override("zh-hans"):
        assert term("blot") == "[[blot|落单]]"
    with translation.override("en"):
        assert term("blot") == "[[blot|blot]]"
    assert term("blot", "blots") == "[[blot|blots]]"
    with pytest.raises(KeyError):
        term("no-such-term")
    with translation.override("zh-hans"):
        words = marked("一个[[blot]]，[[hit|打中]]，[[nope|别的]]")
        assert words == "一个[[blot|落单]]，[[hit|打中]]，别的"
        assert plain("一个[[blot]]和[[hit|打中]]") == "一个落单和打中"


def test_linked_words_are_escaped_and_each_mark_links_its_entry() -> None:
    html = linked("<script>x</script>[[blot|<b>落单</b>]] [[blot]] [[nope|y]]")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert html.count('<a class="term"') == 2
    assert 'href="/learn/help/glossary/#blot" data-term="blot">&lt;b&gt;落单&lt;/b&gt;</a>' in html
    once: set[str] = set()
    assert linked("[[blot]] [[blot]]", once).count("<a ") == 1 and once == {"blot"}


def test_the_template_tag_and_filter_link_a_term() -> None:
    template = Template('{% load glossary_tags %}{% term "anchor" %} {{ words|terms }}')
    with translation.override("zh-hans"):
        html = template.render(Context({"words": "[[prime]]<i>"}))
    assert 'data-term="anchor">锚点</a>' in html and 'data-term="prime">封锁</a>&lt;i&gt;' in html


def test_uses_finds_terms_in_chinese_words_and_says_which_are_links() -> None:
    found = uses("留下[[blot|落单]]的棋子，11 种掷法能打中；24/13")
    assert [(key, link) for _at, key, link in found] == [
        ("blot", True),
        ("shots", False),
        ("hit", False),
        ("notation", False),
    ]


def test_uses_reads_english_words_with_the_english_patterns() -> None:
    found = uses("Leaves a [[blot]]: 11 rolls of 36 hit it; bar/22 6/off", "en")
    assert [key for _at, key, _link in found] == [
        "blot",
        "shots",
        "hit",
        "bar",
        "notation",
        "notation",
        "bear-off",
    ]
    # "a double such as 3-3" is the dice's, "take a checker off" no cube action.
    assert uses("a double such as 3-3; take a checker off", "en") == []


def test_with_terms_marks_each_term_once_where_first_named_the_longer_first() -> None:
    keys = ("hit", "shots", "blot", "pip-count", "made-point")
    with translation.override("zh-hans"):
        text = with_terms("留下落单，11 种掷法能打中；再打中一次，pip 数 150，守住", keys)
    assert text == (
        "留下[[blot|落单]]，[[shots|11 种掷法能打中]]；再[[hit|打中]]一次，"
        "[[pip-count|pip 数]] 150，[[made-point|守住]]"
    )
    with translation.override("en"):
        text = with_terms("Hits a [[blot]] on the 5-point; a blot hit, 3 pips", keys)
    assert text == (
        "[[hit|Hits]] a [[blot]] on the [[made-point|5-point]]; a blot hit, 3 [[pip-count|pips]]"
    )


# --- the page -----------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_glossary_page_has_every_entry_with_its_board(client: Any, language: str) -> None:
    client.cookies["django_language"] = language
    page = client.get(reverse("learning:glossary")).content.decode()
    with translation.override(language):
        for entry in TERMS:
            assert f'<dt id="{entry.key}">{plain(entry.name)}</dt>' in page
            assert f'data-term-diagram="{entry.key}"' in page
    assert 'data-term="blot"' in page  # entries link the terms they use
    assert reverse("learning:help_page", args=["glossary"]) == reverse("learning:glossary")


@pytest.mark.django_db
def test_the_entries_as_json_for_the_pop_up(client: Any) -> None:
    client.cookies["django_language"] = "zh-hans"
    data = client.get(reverse("learning:glossary_terms")).json()
    assert list(data["terms"]) == [t.key for t in TERMS]
    hit = data["terms"]["hit"]
    assert hit["name"] == "打" and "[[blot|落单]]" in hit["sentence"]
    assert hit["url"] == "/learn/help/glossary/#hit" and hit["diagram"]["arrows"]
    assert data["words"] == {"all": "全部术语", "close": "关闭"}


@pytest.mark.django_db
def test_every_page_tells_its_scripts_where_the_glossary_is(client: Any) -> None:
    page = client.get("/").content.decode()
    assert 'data-glossary-url="/learn/help/glossary/"' in page
    assert 'data-glossary-terms="/learn/help/glossary/terms.json"' in page
    assert "learning/terms" in page
