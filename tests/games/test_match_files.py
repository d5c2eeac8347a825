"""Match files in and out: import into the database, export, and GNU Backgammon reading ours.

GNU Backgammon (Debian's ``gnubg``) is run as a separate program: it reads
the file we wrote, writes it back, and the moves and score must be the same.
"""

from __future__ import annotations

import html
import io
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from games import reading, services
from games.engine import Dice, Position, Side, legal_plays
from games.engine.matfile import MatchRecord, MatFileError, MatProblem, parse_mat
from games.engine.matreplay import replay_match
from games.matfiles import describe_mat_error, export_text
from games.models import CubeAction, Game, Match, Status, Turn
from games.services import import_match_file
from games.signals import game_finished
from tests.conftest import require_service
from tests.learning.conftest import RACE, play_out

DATA = Path(__file__).resolve().parents[1] / "data"
GNUBG = "/usr/games/gnubg"
pytestmark = pytest.mark.django_db


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def moves(record: MatchRecord) -> list[list[tuple[str, str, str, int]]]:
    """Each game's actions as replayed (side, kind, the play's notation, cube)."""
    return [
        [
            (
                t.action.side.value,
                t.action.kind.value,
                t.play.notation() if t.play else "",
                t.action.cube,
            )
            for t in game.turns
        ]
        for game in replay_match(record).games
    ]


def results(record: MatchRecord) -> list[tuple[str, str, int] | None]:
    """Each game's winner, how it ended, and the points the match counts."""
    out: list[tuple[str, str, int] | None] = []
    for game in replay_match(record).games:
        end = game.end
        if end is None:
            out.append(None)
            continue
        away = game.match.away(end.winner) if record.length else end.points
        out.append((end.winner.value, end.how.value, min(end.points, away)))
    return out


def gnubg_rewrites(text: str, tmp_path: Path) -> tuple[str, str]:
    """GNU Backgammon imports ``text`` and exports it again: (its output, its file)."""
    require_service("GNU Backgammon", lambda: shutil.which(GNUBG) is not None)
    source, again = tmp_path / "ours.mat", tmp_path / "again.mat"
    source.write_text(text, encoding="utf-8")
    commands = f"import mat {source}\nshow score\nexport match mat {again}\n"
    run = subprocess.run(
        [GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=120
    )
    output = run.stdout + run.stderr
    for trouble in ("WARNING", "Invalid", "rror", "llegal", "No game in progress"):
        assert trouble not in output, output
    return output, again.read_text(encoding="utf-8")


def file_score(record: MatchRecord, owner: str, opponent: str) -> str:
    """The score a file's results add up to, as gnubg says it, the owner first."""
    totals = {"light": 0, "dark": 0}
    for game in record.games:
        if game.win is not None:
            totals[game.win.side.value] += game.win.points
    return f"{owner} {totals['light']}, {opponent} {totals['dark']}"


def gnubg_score(output: str) -> str:
    """The score line of ``show score`` ("alice 3, bob 2")."""
    found = re.search(r"The score \(after \d+ games?\) is: (.*?) \(", output)
    assert found, output
    return found.group(1)


def test_import_stores_the_match_with_its_cube_actions(
    user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    finished: list[int] = []

    def note(sender: Any, game_id: int, **kwargs: Any) -> None:
        finished.append(game_id)

    game_finished.connect(note, dispatch_uid="test-import")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            imported = import_match_file(user, read("gnubg_match3.mat"))
    finally:
        game_finished.disconnect(dispatch_uid="test-import")
    match = imported.match
    assert match is not None and match.length == 3 and match.opponent_name == "bob"
    assert (match.score_light, match.score_dark, match.winner) == (3, 2, "light")
    games = list(match.games.order_by("match_game"))
    assert finished == [g.pk for g in games]  # each reviewed like a finished game
    assert [(g.winner, g.points, g.passed, g.resigned) for g in games] == [
        ("light", 1, True, False),
        ("dark", 2, False, False),
        ("light", 1, False, True),
        ("light", 1, False, True),  # the gammon counts what alice needed
    ]
    assert [(g.score_light, g.score_dark, g.crawford) for g in games] == [
        (0, 0, False),
        (1, 0, False),
        (1, 2, True),
        (2, 2, False),
    ]
    assert all(g.status == Status.FINISHED and g.owner == user for g in games)
    cubes = CubeAction.objects.filter(game=games[1]).order_by("number")
    assert [(c.side, c.action, c.value) for c in cubes] == [
        ("dark", "double", 2),
        ("light", "take", 2),
    ]
    assert (games[1].cube_value, games[1].cube_owner) == (2, "light")
    record = parse_mat(read("gnubg_match3.mat"))
    rolls = [sum(a.kind.value == "roll" for a in g.actions) for g in record.games]
    assert [g.turns.count() for g in games] == rolls


def test_round_trip_through_the_database_and_gnubg(user: Any, tmp_path: Path) -> None:
    for name in ("gnubg_match3.mat", "gnubg_match3_short.mat", "gnubg_money_take.mat"):
        original = parse_mat(read(name))
        imported = import_match_file(user, read(name))
        text = export_text(imported.games[0])
        ours = parse_mat(text)
        assert moves(ours) == moves(original) and results(ours) == results(original), name
        output, again = gnubg_rewrites(text, tmp_path)
        # An imported game keeps both players' names from the file (issue 32).
        assert gnubg_score(output) == file_score(original, *original.players), name
        assert moves(parse_mat(again)) == moves(original), name
        assert results(parse_mat(again)) == results(original), name


def test_a_single_game_exports_as_a_money_game_gnubg_reads(user: Any, tmp_path: Path) -> None:
    seed = next(s for s in range(1, 50) if _first_roll_differs(s))
    game = play_out(user, Position.start(), seed=seed)
    text = export_text(game)
    record = parse_mat(text)
    assert record.length == 0 and results(record) == [(game.winner, "played", game.points)]
    ours = moves(record)[0]
    stored = [(t.side, "roll", t.notation, 0) for t in game.turns.order_by("number")]
    assert ours == stored
    output, again = gnubg_rewrites(text, tmp_path)
    points = {game.winner: game.points}
    light, dark = points.get("light", 0), points.get("dark", 0)
    assert gnubg_score(output) == f"ann {light}, Shuanglu-casual {dark}"
    assert moves(parse_mat(again))[0] == stored


def _first_roll_differs(seed: int) -> bool:
    rng = random.Random(seed)
    return rng.randint(1, 6) != rng.randint(1, 6)


def test_an_unfinished_game_exports_without_a_result(user: Any, tmp_path: Path) -> None:
    seed = next(s for s in range(1, 50) if _first_roll_differs(s))
    game = play_out(user, Position.start(), seed=seed, turns=6)  # stopped in play
    assert game.status == Status.PLAYING and game.turns.count() == 6
    record = parse_mat(export_text(game))
    assert results(record) == [None] and len(moves(record)[0]) == 6
    output, again = gnubg_rewrites(export_text(game), tmp_path)
    assert len(moves(parse_mat(again))[0]) == 6


def test_an_illegal_move_stores_nothing_and_says_where(user: Any) -> None:
    text = read("gnubg_match3.mat").replace(
        "16) 55: 18/13 13/8 13/8 13/8", "16) 55: 18/13 13/8 13/8 13/3"
    )
    with pytest.raises(MatFileError) as caught:
        import_match_file(user, text)
    error = caught.value
    assert (error.problem, error.line, error.text) == (
        MatProblem.ILLEGAL_MOVE,
        31,
        "18/13 13/8 13/8 13/3",
    )
    words = describe_mat_error(error)
    assert "31" in words and "18/13 13/8 13/8 13/3" in words and "55" in words
    assert not Game.objects.exists() and not Match.objects.exists()


def test_a_length_the_site_does_not_play_is_refused(user: Any) -> None:
    text = read("gnubg_match3.mat").replace(" 3 point match", " 4 point match")
    with pytest.raises(MatFileError) as caught:
        import_match_file(user, text)
    assert caught.value.problem is MatProblem.UNSUPPORTED_LENGTH
    assert not Game.objects.exists()


def test_the_user_plays_the_column_they_name(make_user: Any) -> None:
    bob = make_user("bob")
    imported = import_match_file(bob, read("gnubg_match3_short.mat"), Side.DARK)
    assert imported.match is not None and imported.match.opponent_name == "alice"
    first = imported.match.games.get(match_game=1)
    assert first.winner == "light" and first.passed  # bob won the first game by alice's pass
    source = first.imported_from
    assert source is not None
    assert (source.light_player, source.dark_player, source.claimed) == ("bob", "alice", True)


def test_commands_import_and_export(user: Any, tmp_path: Path) -> None:
    out = io.StringIO()
    call_command("import_match", str(DATA / "gnubg_match3_short.mat"), "--user", "ann", stdout=out)
    match = Match.objects.get()
    assert f"match {match.pk}" in out.getvalue()
    exported = io.StringIO()
    call_command("export_match", str(match.pk), stdout=exported)
    assert moves(parse_mat(exported.getvalue())) == moves(parse_mat(read("gnubg_match3_short.mat")))
    bad = tmp_path / "bad.mat"
    bad.write_text(read("gnubg_match3_short.mat").replace("53: 8/3 6/3", "53: 8/2 6/3"))
    with pytest.raises(CommandError, match="8/2 6/3"):
        call_command("import_match", str(bad), "--user", "ann")
    assert Match.objects.count() == 1


def test_download_from_the_review_and_history_pages(client_logged_in: Any, user: Any) -> None:
    imported = import_match_file(user, read("gnubg_match3_short.mat"))
    game = imported.games[1]
    url = reverse("learning:export_mat", args=[game.pk])
    for page in (reverse("learning:history"), reverse("learning:review", args=[game.pk])):
        assert url in client_logged_in.get(page).content.decode()
    answer = client_logged_in.get(url)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")
    match_id = imported.match.pk if imported.match else 0
    assert f'filename="shuanglu-match-{match_id}.mat"' in answer["Content-Disposition"]
    text = answer.content.decode()
    assert moves(parse_mat(text)) == moves(parse_mat(read("gnubg_match3_short.mat")))


def test_someone_elses_game_is_not_found(client: Any, make_user: Any) -> None:
    imported = import_match_file(make_user("cat"), read("gnubg_money_pass.mat"))
    client.force_login(make_user("dan"), backend="django.contrib.auth.backends.ModelBackend")
    assert (
        client.get(reverse("learning:export_mat", args=[imported.games[0].pk])).status_code == 404
    )


def test_a_game_set_up_from_a_position_is_not_exported(client_logged_in: Any, user: Any) -> None:
    game = play_out(user, Position.start(), seed=3)
    assert client_logged_in.get(reverse("learning:export_mat", args=[game.pk])).status_code == 200
    race = play_out(user, RACE, seed=3)
    answer = client_logged_in.get(reverse("learning:export_mat", args=[race.pk]), follow=True)
    assert answer.redirect_chain[-1][0] == reverse("learning:review", args=[race.pk])
    assert "这一局是从摆好的局面开始的，棋谱文件记录不了。" in answer.content.decode()
    with pytest.raises(CommandError, match="set up from a position"):
        call_command("export_match", "--game", str(race.pk), stdout=io.StringIO())


def upload(client: Any, text: str, language: str = "zh-hans", mine: str = "neither") -> str:
    answer = client.post(
        reverse("learning:import_mat"),
        {
            "file": SimpleUploadedFile("m.mat", text.encode(), content_type="text/plain"),
            "mine": mine,
        },
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    )
    assert answer.redirect_chain[-1][0] == reverse("learning:history")
    found = re.search(r'<li class="message [^"]*">(.*?)</li>', answer.content.decode())
    assert found, answer.content.decode()
    return html.unescape(found.group(1))


def test_upload_on_the_history_page(client_logged_in: Any, user: Any) -> None:
    words = upload(client_logged_in, read("gnubg_match3.mat"), mine="right")
    assert words == "已导入 4 局，复盘分析已排队。"
    assert Match.objects.get(owner=user).games.count() == 4
    assert Game.objects.own_record().count() == 4  # bob's side, named: the person's games
    words = upload(client_logged_in, read("gnubg_money_pass.mat"), "en")
    assert words == (
        "Imported 1 game for study; its review has been queued. It is listed apart and is "
        "not in your counts, progress or practice."
    )
    assert Game.objects.studies().count() == 1
    words = upload(client_logged_in, read("gnubg_money_take.mat"), mine="mine")
    assert words == "文件没有导入。请说明你执哪一方：左边的棋手、右边的棋手，或都不是。"
    assert Game.objects.count() == 5


def test_a_bad_upload_says_where_and_stores_nothing(client_logged_in: Any) -> None:
    text = read("gnubg_match3_short.mat").replace("53: 8/3 6/3", "53: 8/2 6/3")
    words = upload(client_logged_in, text)
    assert words == "文件没有导入。第 8 行（8/2 6/3）：掷出 53 时不能这样走。"
    english = upload(client_logged_in, text, "en")
    assert english == (
        "The file was not imported. Line 8 (8/2 6/3): The move is not legal with the roll 53."
    )
    assert upload(client_logged_in, "hello") == (
        "文件没有导入。第 1 行（hello）：找不到“N point match”这一行：这不是比赛记录文件。"
    )
    assert not Game.objects.exists()


def test_the_history_names_the_imported_opponent(client_logged_in: Any, user: Any) -> None:
    import_match_file(user, read("gnubg_match3_short.mat"), Side.LIGHT)
    page = client_logged_in.get(reverse("learning:history"), HTTP_ACCEPT_LANGUAGE="en")
    rows = re.findall(
        r'data-label="Winner" class="history-winner">(.*?)</td>', page.content.decode()
    )
    assert sorted(rows) == ["You", "bob"]


def test_the_review_names_the_imported_opponent(client_logged_in: Any, user: Any) -> None:
    game = import_match_file(user, read("gnubg_match3_short.mat"), Side.LIGHT).games[0]
    page = client_logged_in.get(reverse("learning:review", args=[game.pk])).content.decode()
    assert "复盘：你对 bob" in page


def test_the_review_of_a_study_names_both_players_of_the_file(
    client_logged_in: Any, user: Any
) -> None:
    game = import_match_file(user, read("gnubg_match3_short.mat")).games[0]
    page = client_logged_in.get(
        reverse("learning:review", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    text = html.unescape(page.content.decode())
    assert "Review: alice against bob (imported for study)" in text
    assert "bob won: Single game, 1 point." in text
    assert "You won" not in text and "The computer won" not in text


def test_a_money_session_keeps_no_running_score(user: Any) -> None:
    text = read("gnubg_money_pass.mat").replace("alice : 0 ", "alice : 40000 ")
    (game,) = import_match_file(user, text).games
    assert (game.kind, game.score_light, game.score_dark, game.match_id) == ("money", 0, 0, None)
    assert (game.winner, game.points, game.passed) == ("dark", 1, True)


# --- games played on the site, through games.services, exported --------------------


class Driver:
    """Plays a cube game through games.services: both sides take the engine's first
    legal play; each ``(side, action, from_turn)`` of ``plan`` is done at that side's
    first chance from that turn on (else no double, and take)."""

    def __init__(self, user: Any, game: Game, plan: list[tuple[str, str, int]]) -> None:
        self.user, self.game_id, self.plan = user, game.pk, list(plan)

    def game(self) -> Game:
        return Game.objects.get(pk=self.game_id)

    def wants(self, side: str, actions: tuple[str, ...]) -> str | None:
        turn = Turn.objects.filter(game_id=self.game_id).count() + 1
        for index, (who, action, from_turn) in enumerate(self.plan):
            if who == side and action in actions and from_turn <= turn:
                del self.plan[index]
                return action
        return None

    def run(self) -> Game:
        for _ in range(3000):
            game = self.game()
            if game.is_over:
                return game
            if game.turn == "light":
                self.light(game)
            else:
                self.dark(game)
        raise AssertionError("the game did not end")

    def light(self, game: Game) -> None:
        if game.status == Status.DECIDING:
            doubles = self.wants("light", ("double",))
            act = services.double if doubles else services.roll_dice
            act(game.pk, self.user, game.version)
        elif game.status == Status.DOUBLED:
            passes = self.wants("light", ("pass", "take")) == "pass"
            answer = services.pass_double if passes else services.take
            answer(game.pk, self.user, game.version)
        else:
            play = legal_plays(reading.position_of(game), Dice(*game.dice))[0]
            for step in play.steps:
                game = services.make_step(game.pk, self.user, game.version, step.src, step.dst)

    def dark(self, game: Game) -> None:
        due = services.computer_due(game.pk, game.version)
        assert due is not None, (game.status, game.turn)
        if due.task == "play":
            assert due.dice is not None
            plays = legal_plays(due.position, due.dice)
            services.finish_computer_turn(game.pk, game.version, plays[0] if plays else None)
        elif due.task == "cube":
            wanted = self.wants("dark", ("double",)) or "no_double"
            assert services.finish_computer_cube(game.pk, game.version, wanted)
        else:
            wanted = self.wants("dark", ("pass", "take")) or "take"
            assert services.finish_computer_cube(game.pk, game.version, wanted)


@pytest.fixture
def seeded_dice(monkeypatch: pytest.MonkeyPatch) -> random.Random:
    rng = random.Random(7)
    monkeypatch.setattr(services.dice, "roll_die", lambda: rng.randint(1, 6))
    return rng


def test_a_money_game_played_here_with_the_cube_reads_back_in_gnubg(
    user: Any, seeded_dice: random.Random, held_computer_turns: list, tmp_path: Path
) -> None:
    game = services.start_game(user, "casual", "money")
    plan = [("light", "double", 5), ("dark", "take", 5), ("dark", "double", 12)]
    game = Driver(user, game, plan).run()
    assert game.status == Status.FINISHED and game.cube_value == 4
    actions = [(c.side, c.action) for c in CubeAction.objects.filter(game=game).order_by("number")]
    assert actions == [("light", "double"), ("dark", "take"), ("dark", "double"), ("light", "take")]
    text = export_text(game)
    record = parse_mat(text)
    stored = [(t.side, "roll", t.notation, 0) for t in game.turns.order_by("number")]
    assert [m for m in moves(record)[0] if m[1] == "roll"] == stored
    assert results(record) == [(game.winner, "played", game.points)]
    output, again = gnubg_rewrites(text, tmp_path)
    assert moves(parse_mat(again)) == moves(record)
    light, dark = (game.points, 0) if game.winner == "light" else (0, game.points)
    assert gnubg_score(output) == f"ann {light}, Shuanglu-casual {dark}"


def test_a_match_played_here_with_a_pass_reads_back_in_gnubg(
    user: Any, seeded_dice: random.Random, held_computer_turns: list, tmp_path: Path
) -> None:
    first = services.start_match(user, "casual", 3)
    # The first game ends on a passed double, the second is played on with a take.
    game1 = Driver(user, first, [("light", "double", 4), ("dark", "pass", 4)]).run()
    assert game1.passed and game1.winner == "light"
    services.next_game(game1.pk, user, game1.version)
    game2 = Game.objects.get(match_id=game1.match_id, match_game=2)
    game2 = Driver(user, game2, [("dark", "double", 4)]).run()
    assert game2.is_over
    text = export_text(game2)
    record = parse_mat(text)
    assert record.length == 3 and len(record.games) == 2
    assert results(record)[0] == ("light", "passed", 1)
    output, again = gnubg_rewrites(text, tmp_path)
    assert moves(parse_mat(again)) == moves(record)
    assert results(parse_mat(again)) == results(record)
    assert gnubg_score(output) == file_score(record, "ann", "Shuanglu-casual")


@pytest.mark.slow
def test_an_imported_game_is_reviewed_like_any_other(
    user: Any, held_reviews: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.live import broadcast
    from learning.models import AnalysisState, GameAnalysis
    from learning.review import game as review

    monkeypatch.setattr(broadcast, "send_to_game", lambda game_id, payload: None)
    game = import_match_file(user, read("gnubg_match3_short.mat")).games[0]
    review.run_analysis(game.pk)
    row = GameAnalysis.objects.get(game=game)
    assert row.state == AnalysisState.DONE, row.message
    assert row.turns.count() == game.turns.count() == 12
    decisions = {(c.before_turn, c.side, c.decision, c.action) for c in row.cube_decisions.all()}
    # bob's double before the 13th turn and alice's pass are judged with the rest.
    assert {(13, "dark", "double", "double"), (13, "light", "take", "pass")} <= decisions
