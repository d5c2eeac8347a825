"""Browser: the board client's modules on their own, imported into Chromium.

The pure parts (dice marking, opening dice, accessible names, step
application, layout by direction) and the socket's version-gap rule, checked
without a game: the modules are loaded from the real static URL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

START = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


@pytest.fixture
def harness(browser: Any, daphne_server: str) -> Iterator[Any]:
    """A page that ignores the site's Content-Security-Policy: this harness runs
    ``new Function`` (an eval the policy refuses); the site itself never does."""
    context = browser.new_context(base_url=daphne_server, bypass_csp=True)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def js(harness: Any) -> Any:
    """Evaluate an async JS body with ``V`` (view.js), ``B`` (board.js), ``Sock`` (socket.js)."""
    harness.goto("/static/games/board.css")

    def run(body: str, arg: Any = None) -> Any:
        return harness.evaluate(
            """async ([body, arg]) => {
              const V = await import('/static/games/view.js');
              const B = await import('/static/games/board.js');
              const Sock = await import('/static/games/socket.js');
              return await (new Function('V', 'B', 'Sock', 'arg', body))(V, B, Sock, arg);
            }""",
            [f"return (async () => {{ {body} }})();", arg],
        )

    return run


def test_used_dice_are_marked_and_doubles_count_four(js: Any) -> None:
    marked = js("return [V.markUsed([5, 3], [5]), V.markUsed(V.rollValues([4, 4]), [4])];")
    assert [d["used"] for d in marked[0]] == [False, True]
    assert [d["used"] for d in marked[1]].count(True) == 3
    assert len(marked[1]) == 4


def test_opening_dice_are_one_each_person_left_computer_right_after_a_tie(js: Any) -> None:
    state = {
        "status": "opening",
        "turn": "light",
        "dice": [5, 2],
        "remaining": [5, 2],
        "last_turn": None,
        "opening": {"rolls": [[3, 3], [5, 2]], "starter": "light"},
    }
    dice = js("return V.diceFor(arg);", state)
    assert [(d["value"], d["side"], d["slot"]) for d in dice] == [
        (5, "light", "left"),
        (2, "dark", "right"),
    ]
    strings = {
        "opening_tie": "tie %(n)s",
        "opening_roll": "you %(light)s cpu %(dark)s",
        "you_start": "you start",
        "computer_starts": "cpu",
    }
    text = js("return V.openingText(arg.S, arg.state);", {"S": strings, "state": state})
    assert text == "tie 3 you 5 cpu 2 you start"


def test_accessible_names_say_the_point_and_whose_checkers(js: Any) -> None:
    strings = {
        "point_mine": "%(n)s 点，你的 %(count)s 枚",
        "point_theirs": "%(n)s 点，电脑的 %(count)s 枚",
        "point_empty": "%(n)s 点，空",
        "bar_label": "bar %(light)s/%(dark)s",
        "tray_label": "off %(light)s/%(dark)s",
        "list_sep": "，",
        "selected_suffix": "已拿起",
        "dest_suffix": "可落点",
    }
    board = {"points": START, "bar": {"light": 1, "dark": 0}, "off": {"light": 0, "dark": 2}}
    names = js(
        "return [13, 12, 2, 25, 0].map("
        "  (p) => V.targetName(arg.S, arg.board, p, {destination: p === 2}));",
        {"S": strings, "board": board},
    )
    assert names == [
        "13 点，你的 5 枚",
        "12 点，电脑的 5 枚",
        "2 点，空，可落点",
        "bar 1/0",
        "off 0/2",
    ]


def test_a_computer_step_that_hits_sends_the_blot_to_the_persons_bar(js: Any) -> None:
    points = [0] * 24
    points[18 - 1] = -2  # DARK moves up the display numbers, toward 24
    points[20 - 1] = 1  # a light blot on 20
    board = {"points": points, "bar": {"light": 0, "dark": 0}, "off": {"light": 0, "dark": 0}}
    after = js("return B.applyStep(arg, {from: 18, to: 20, die: 2}, 'dark');", board)
    assert after["points"][18 - 1] == -1 and after["points"][20 - 1] == -1
    assert after["bar"]["light"] == 1
    entered = js(
        "return B.applyStep(arg, {from: 'bar', to: 3, die: 3}, 'dark');",
        {**board, "bar": {"light": 0, "dark": 1}},
    )
    assert entered["bar"]["dark"] == 0 and entered["points"][3 - 1] == -1
    off = js(
        "return B.applyStep(arg, {from: 24, to: 'off', die: 1}, 'dark');",
        {**board, "points": [0] * 23 + [-1]},
    )
    assert off["off"]["dark"] == 1 and off["points"][23] == 0


def test_home_board_sits_bottom_right_or_bottom_left_by_preference(js: Any) -> None:
    right, left = js(
        "return ['right', 'left'].map((d) => { const l = B.boardLayout(d);"
        " return {p1: l.points[1], p6: l.points[6], p7: l.points[7],"
        " p12: l.points[12], p13: l.points[13],"
        " p24: l.points[24], tray: l.trayX, bar: l.barX}; });"
    )
    assert right["p1"]["x"] > right["p12"]["x"] and not right["p1"]["upper"]
    assert right["p24"]["x"] > right["p13"]["x"] and right["p24"]["upper"]
    assert right["tray"] > right["p1"]["x"]
    assert left["p1"]["x"] < left["p12"]["x"] and left["tray"] < left["p1"]["x"]
    # The bar always separates the home board (1-6) from the outer board (7-12).
    for layout in (right, left):
        assert (
            min(layout["p6"]["x"], layout["p7"]["x"])
            < layout["bar"]
            < max(layout["p6"]["x"], layout["p7"]["x"])
        )


def test_a_version_gap_takes_the_state_and_then_fetches_the_whole_state(js: Any) -> None:
    calls = js(
        """
        const seen = [];
        const fetched = [];
        window.fetch = async (url) => {
          fetched.push(url);
          return { ok: true, json: async () => ({ version: 9 }) };
        };
        // The page takes its states late (behind its animations): the socket
        // must know the version from what it received, not from the page.
        const s = new Sock.GameSocket({
          wsUrl: '/none', stateUrl: '/games/1/state', version: 5,
          onState: (st, info) => { seen.push([st.version, !!info.gap]); },
          onRefused() {}, onError() {}, onStatus() {},
        });
        s.receiveState({ version: 4 });   // older: ignored
        s.receiveState({ version: 6 });   // next: taken
        s.receiveState({ version: 7 });   // next again, though the page still shows 5
        const before = fetched.length;
        s.receiveState({ version: 9 });   // a gap: taken, then refetched
        await new Promise((r) => setTimeout(r, 50));
        return { seen, fetched, before, known: s.version };
        """
    )
    assert calls["seen"] == [[6, False], [7, False], [9, True], [9, False]]
    assert calls["before"] == 0, "no resync while the states come in order"
    assert calls["fetched"] == ["/games/1/state"]
    assert calls["known"] == 9


def test_a_reopened_socket_takes_its_first_state_without_fetching(js: Any) -> None:
    out = js(
        """
        const fetched = [];
        window.fetch = async (url) => {
          fetched.push(url);
          return { ok: true, json: async () => ({ version: 8 }) };
        };
        const made = [];
        window.WebSocket = class extends EventTarget {
          constructor(url) { super(); made.push(this); }
          close() {}
          send() {}
        };
        const seen = [];
        const s = new Sock.GameSocket({
          wsUrl: '/ws/games/1/', stateUrl: '/games/1/state', version: 5,
          onState: (st, info) => { seen.push([st.version, !!info.gap]); },
          onRefused() {}, onError() {}, onStatus() {},
        });
        s.start();
        const first = made[0];
        first.dispatchEvent(new Event('open'));
        first.dispatchEvent(new MessageEvent('message', { data: '{"type":"state","version":5}' }));
        await new Promise((r) => setTimeout(r, 50));
        const quiet = fetched.length;
        // Dropped while the game moved on two versions: the reopened socket's
        // first state is a gap, which fetches the whole state once.
        const closed = new Event('close');
        closed.code = 1006;
        first.dispatchEvent(closed);
        await new Promise((r) => setTimeout(r, 1000));
        const again = made[1];
        again.dispatchEvent(new Event('open'));
        again.dispatchEvent(new MessageEvent('message', { data: '{"type":"state","version":7}' }));
        await new Promise((r) => setTimeout(r, 50));
        return { quiet, fetched, seen, sockets: made.length };
        """
    )
    assert out["quiet"] == 0, "opening the socket fetches nothing: its first state is the truth"
    assert out["sockets"] == 2, "the dropped socket was opened again"
    assert out["fetched"] == ["/games/1/state"], "the gap after reconnecting fetched once"
    assert out["seen"] == [[5, False], [7, True], [8, False]]


def test_a_socket_retries_a_missing_server_often_and_a_busy_site_seldom(js: Any) -> None:
    out = js(
        """
        const C = await import('/static/games/common.js');
        const gone = [], busy = [];
        for (let i = 0; i < 200; i++) {
          gone.push(C.reconnectDelay(20, 1006));
          busy.push(C.reconnectDelay(20, C.CLOSE_TRY_AGAIN));
        }
        const first = [];
        for (let i = 0; i < 200; i++) first.push(C.reconnectDelay(0, 1006));
        return {
          gone: [Math.min(...gone), Math.max(...gone)],
          busy: [Math.min(...busy), Math.max(...busy)],
          first: [Math.min(...first), Math.max(...first)],
        };
        """
    )
    assert 1500 <= out["gone"][0] and out["gone"][1] <= 4500, out
    assert 7500 <= out["busy"][0] and out["busy"][1] <= 22500, out
    assert 250 <= out["first"][0] and out["first"][1] <= 750, out


def test_shared_helpers_format_numbers_and_join_sentences(js: Any) -> None:
    out = js(
        """
        const C = await import('/static/games/common.js');
        return [C.pct(0.5321), C.equity(0.1254), C.signed(-0.04), C.signed(0.2),
                C.socketUrl('/ws/games/3/').replace(location.host, 'HOST'),
                C.sentences(['你掷出 6-5。', '电脑先走。']), C.sentences(['You start.', 'Go.']),
                C.fmt('%(a)s-%(b)s', {a: 1, b: 2}), B.SVG_NS === C.SVG_NS,
                C.fmt('拿起了 %(p)s的棋子。', {p: '吧台'}),
                C.fmt('你从 %(a)s 走到 %(b)s。', {a: '24 点', b: '23 点'})];
        """
    )
    assert out == [
        "53.2%",
        "0.125",
        "-0.040",
        "+0.200",
        "ws://HOST/ws/games/3/",
        "你掷出 6-5。电脑先走。",
        "You start. Go.",
        "1-2",
        True,
        "拿起了吧台的棋子。",
        "你从 24 点走到 23 点。",
    ]


def test_the_animation_speed_is_the_servers_milliseconds(js: Any) -> None:
    """No second table of speeds: animation_ms (accounts.preferences) is used as sent."""
    from accounts.models import AnimationSpeed, Preferences
    from accounts.preferences import ANIMATION_MS, board_prefs_from

    for speed in AnimationSpeed:
        raw = board_prefs_from(Preferences(animation_speed=speed))
        prefs = js("const P = await import('/static/games/page.js'); return P.readPrefs(arg);", raw)
        assert prefs["stepMs"] == ANIMATION_MS[speed]


def test_the_sound_points_hear_a_checker_placed_and_a_hit(js: Any) -> None:
    """bus.js: the event point sound.js can listen to (dice, checker, hit)."""
    heard = js(
        """
        const bus = await import('/static/games/bus.js');
        const heard = [];
        for (const kind of ['checker', 'hit']) bus.on(kind, (d) => heard.push([kind, d.side]));
        bus.placed('dark', { from: 1, to: 3, hit: false });
        bus.placed('light', { from: 8, to: 5, hit: true });
        return heard;
        """
    )
    assert heard == [["checker", "dark"], ["checker", "light"], ["hit", "light"]]


def test_an_ack_that_brings_no_new_state_frees_the_socket_at_once(js: Any) -> None:
    """A hint's ack keeps the version: the next click must not be lost."""
    out = js(
        """
        const s = new Sock.GameSocket({
          wsUrl: '/none', stateUrl: '/s', version: 3,
          onState() {}, onRefused() {}, onError() {}, onStatus() {},
        });
        s.connected = true;
        s.ws = { send() {} };
        const hint = s.send('hint');
        s.receive(JSON.stringify({ type: 'ack', id: hint, version: 3 }));
        const afterHint = s.busy;
        const step = s.send('step', { from: 13, to: 8 });
        s.receive(JSON.stringify({ type: 'ack', id: step, version: 4 }));
        return [afterHint, s.busy];
        """
    )
    assert out == [False, True], "free after the hint's ack; a step waits for its state"


AUTO_WORDS = {
    "computer_played": "cpu %(dice)s %(play)s.",
    "auto_played": "forced %(dice)s %(play)s.",
    "auto_passed": "none %(dice)s.",
    "auto_note": "last: %(what)s",
    "you_rolled": "rolled %(dice)s.",
    "end_turn_hint": "end",
}


def test_a_turn_played_for_the_person_is_said_after_the_computers_and_noted(js: Any) -> None:
    cpu = {"number": 4, "side": "dark", "dice": [2, 1], "notation": "12/15", "steps": [{}]}
    forced = {
        "number": 5,
        "side": "light",
        "dice": [6, 1],
        "notation": "bar/18",
        "steps": [{"from": 25, "to": 19, "die": 6}, {"from": 19, "to": 18, "die": 1}],
        "automatic": True,
    }
    own = {**forced, "automatic": False}
    passed = {**forced, "notation": "", "steps": []}
    prev = {"turn": "dark", "version": 7, "last_turn": {**cpu, "number": 3}}
    next_ = {"turn": "dark", "version": 8, "last_turn": forced, "status": "playing"}
    said = js(
        """const S = arg.S;
        return [V.announcement(S, arg.prev, arg.next, [arg.cpu, arg.forced]),
                V.announcement(S, null, arg.next),
                V.automaticNote(S, [arg.cpu, arg.forced]),
                V.automaticNote(S, [arg.own, arg.cpu]),
                V.automaticNote(S, [arg.passed, arg.cpu]),
                V.playDice(arg.forced, 1).map((d) => [d.side, d.slot, d.used])];""",
        {
            "S": AUTO_WORDS,
            "prev": prev,
            "next": next_,
            "cpu": cpu,
            "forced": forced,
            "own": own,
            "passed": passed,
        },
    )
    assert said[0] == "cpu 2-1 12/15. forced 6-1 bar/18."
    assert said[1] == "forced 6-1 bar/18."
    assert said[2] == "last: forced 6-1 bar/18."
    assert said[3] == "", "the person's own play is not noted"
    assert said[4] == "last: none 6-1."
    assert said[5] == [["light", "home", True], ["light", "home", False]]


CUBE_WORDS = {
    "cube_line": "cube %(value)s %(owner)s",
    "cube_offered": "offered %(value)s",
    "cube_centre": "middle",
    "cube_yours": "yours",
    "cube_theirs": "theirs",
    "match_line": "to %(length)s: %(light)s-%(dark)s",
    "crawford": "Crawford",
    "post_crawford": "post",
    "kind_money": "money",
    "list_sep": ", ",
    "roll_or_double": "roll or double",
    "take_or_pass": "take or pass",
    "computer_answering": "it answers",
    "resign_waiting": "resign waits",
    "your_turn": "yours",
    "win": "won",
    "loss": "lost",
    "resigned": "resigned",
    "kind_single": "single",
    "kind_passed_dark": "it passed",
    "kind_passed_light": "you passed",
    "points_line": "%(points)s",
    "points_cube_line": "%(points)s at %(cube)s",
}


def test_the_cube_and_the_match_are_worded_for_the_status_bar_and_the_result(js: Any) -> None:
    score = {"light": 2, "dark": 1}
    match = {"length": 3, "score": score, "crawford": True, "post_crawford": False}
    said = js(
        """const S = arg.S;
        const m = arg.match;
        return [
          V.cubeText(S, {value: 2, owner: "light"}), V.cubeText(S, {value: 1, owner: "centre"}),
          V.cubeText(S, {value: 2, owner: "dark", offered: "dark"}), V.cubeText(S, null),
          V.matchText(S, {match: m}), V.matchText(S, {match: {...m, crawford: false}}),
          V.matchText(S, {kind: "money", match: null}),
          V.matchText(S, {kind: "single", match: null}),
          V.turnText(S, {status: "deciding", turn: "light"}),
          V.turnText(S, {status: "doubled", turn: "light"}),
          V.turnText(S, {status: "doubled", turn: "dark"}),
          V.turnText(S, {status: "playing", turn: "light", resign_offer: "gammon"}),
          V.resultTexts(S, {winner: "light", kind: "single", points: 2, passed: true, cube: 2}),
          V.resultTexts(S, {winner: "dark", kind: "single", points: 1, passed: true, cube: 1}),
          V.stepping({status: "deciding", dice: null}),
          V.stepping({status: "playing", dice: [3, 1]}),
          V.live({status: "doubled"}), V.live({status: "finished"}),
        ];""",
        {"S": CUBE_WORDS, "match": match},
    )
    assert said[:4] == ["cube 2 yours", "cube 1 middle", "offered 4", ""]
    assert said[4:8] == ["to 3: 2-1, Crawford", "to 3: 2-1", "money", ""]
    assert said[8:12] == ["roll or double", "take or pass", "it answers", "resign waits"]
    assert said[12] == {"title": "won", "kind": "it passed", "points": "2 at 2"}
    assert said[13] == {"title": "lost", "kind": "you passed", "points": "1"}
    assert said[14:] == [False, True, True, False]


def test_the_cube_is_drawn_with_its_value_in_the_middle_or_on_its_owners_side(js: Any) -> None:
    cubes = js(
        """const svg = document.createElementNS(B.SVG_NS, 'svg');
        document.body.appendChild(svg);
        const board = {points: arg.points, bar: {light: 0, dark: 0}, off: {light: 0, dark: 0}};
        const drawn = (cube) => {
          B.renderBoard(svg, board, {cube});
          const c = svg.querySelector('g.b-cube');
          if (!c) return null;
          const r = c.querySelector('rect');
          return {value: c.querySelector('text').textContent, owner: c.dataset.owner,
                  y: Number(r.getAttribute('y')), offered: c.classList.contains('b-cube-offered')};
        };
        return [drawn({value: 1, owner: 'centre'}), drawn({value: 2, owner: 'light'}),
                drawn({value: 4, owner: 'dark'}),
                drawn({value: 2, owner: 'light', offered: 'light'}),
                drawn(null), B.HEIGHT];""",
        {"points": START},
    )
    centre, light, dark, offered, none, height = cubes
    assert (centre["value"], light["value"], dark["value"]) == ("64", "2", "4"), "centred: 64"
    assert dark["y"] < centre["y"] < light["y"], "the person's side is the bottom"
    assert light["y"] > height / 2 and dark["y"] < height / 2
    assert offered == {"value": "4", "owner": "centre", "y": centre["y"], "offered": True}
    assert none is None, "no cube in a single game"


def test_cube_actions_take_their_place_among_the_turns_and_a_gap_fetches_the_list(
    js: Any,
) -> None:
    found = js(
        """
        const M = await import('/static/games/moves.js');
        const turn = (number, side) => ({ number, side, dice: [3, 1], notation: '8/5', steps: [] });
        const cube = (number, side, action, value, before_turn) => (
          { number, side, action, value, before_turn });
        const page = { moves: [], cubeActions: [] };
        M.takeMoves(page, { moves: [turn(1, 'light'), turn(2, 'dark')], cube_actions: [] });
        const missed = [];
        const take = cube(2, 'dark', 'take', 2, 3);
        const double = cube(1, 'light', 'double', 2, 3);
        for (const action of [double, double, take]) {
          missed.push(M.takeMoves(page, { last_turn: turn(2, 'dark'), last_cube_action: action }));
        }
        M.takeMoves(page, { last_turn: turn(3, 'light'), last_cube_action: take });
        const pass = cube(4, 'light', 'pass', 4, 5);
        missed.push(M.takeMoves(page, { last_turn: turn(4, 'dark'), last_cube_action: pass }));
        const named = (i) => (
          i.cube ? `${i.cube.action}@${i.cube.before_turn}` : `turn ${i.turn.number}`);
        const order = M.movesInOrder(page.moves, page.cubeActions).map(named);
        const S = {
          side_light: 'You', side_dark: 'Computer',
          cube_double_line: '%(side)s: double to %(value)s',
          cube_take_line: '%(side)s: take at %(value)s', cube_pass_line: '%(side)s: pass',
        };
        const words = page.cubeActions.map((a) => V.cubeActionText(S, a));
        const pending = M.movesInOrder([turn(1, 'light')], [cube(1, 'dark', 'double', 2, 2)])
          .map((i) => !!i.cube);
        return { missed, order, words, pending };
        """
    )
    assert found["missed"] == [False, False, False, True], "only a gap in the numbers fetches"
    assert found["order"] == ["turn 1", "turn 2", "double@3", "take@3", "turn 3", "turn 4"]
    assert found["words"] == ["You: double to 2", "Computer: take at 2"]
    assert found["pending"] == [False, True], "a double before the next turn comes last"
