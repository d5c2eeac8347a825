"""Browser: static/learning/progress.js on its own, with a stand-in socket.

The follower reads the analysis status once per connection, and only after
the socket's first "state" message: the server accepts a socket before it
joins the game's group and sends "state" once it has, so a read taken at
"open" could miss a broadcast sent in between (CI once saw a failed analysis
never shown that way).
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW = """async () => {
  const reads = [];
  const shown = [];
  const sockets = [];
  class StandIn extends EventTarget {
    constructor(url) { super(); this.url = url; sockets.push(this); }
    close() {}
    emit(type, data) {
      const ev = new Event(type);
      if (data !== undefined) ev.data = JSON.stringify(data);
      this.dispatchEvent(ev);
    }
  }
  window.WebSocket = StandIn;
  window.fetch = async (url) => {
    reads.push(url);
    return { ok: true, json: async () => ({ state: "failed", done: 2, total: 9 }) };
  };
  const { followAnalysis } = await import('/static/learning/progress.js');
  followAnalysis({
    state: "pending", wsUrl: "/ws/games/1/", statusUrl: "/status/1",
    onProgress: (msg) => shown.push(msg.state),
  });
  const tick = () => new Promise((r) => setTimeout(r, 20));
  const ws = sockets[0];
  ws.emit("open");
  await tick();
  const afterOpen = reads.length;
  ws.emit("message", { type: "state", version: 3 });
  await tick();
  const afterState = reads.length;
  ws.emit("message", { type: "state", version: 4 });
  await tick();
  return { afterOpen, afterState, afterSecond: reads.length, shown, url: ws.url };
}"""


def test_the_status_is_read_once_after_the_socket_has_joined(browser_page: Any) -> None:
    browser_page.goto("/static/games/board.css")
    seen = browser_page.evaluate(FOLLOW)
    assert seen["afterOpen"] == 0
    assert seen["afterState"] == 1
    assert seen["afterSecond"] == 1
    assert seen["shown"] == ["failed"]
    assert seen["url"].endswith("/ws/games/1/")
