// The game's WebSocket: versioned commands with ids, acks, gap detection
// (a missed version → the whole state over HTTP), reconnect with backoff.
//
//   const conn = new GameSocket({wsUrl, stateUrl, version, onState,
//                                onRefused, onError, onStatus, onOther});
//   conn.start(); conn.send("step", {from: 13, to: 8}) → the command id or null
//
// `connected` is true from the server's first message on (it comes once the
// socket is in the game's group), not from the socket's opening.
//
// `version` is the page's first state's; from then on the socket knows the
// version of the last state it received, however far the page's animations
// lag behind it.

import { reconnectDelay, socketUrl } from "./common.js";

const COMMAND_TIMEOUT_MS = 10000;
const CLOSE_FORBIDDEN = 4403;
const CLOSE_SIGNED_OUT = 4401;  // the session ended: log-out, password change, expiry
// The computer's reply may be lost (a broadcast that failed): while it is
// thinking, ask for the state this often rather than wait forever.
const THINKING_RESYNC_MS = 12000;

export class GameSocket {
  constructor(opts) {
    this.opts = opts;
    this.ws = null;
    this.counter = 0;
    this.pending = null;   // {id, timer}: one command in flight at a time
    this.attempt = 0;
    this.stopped = false;
    this.connected = false;
    this.version = opts.version ?? 0;
  }

  start() {
    this.stopped = false;
    this.connect();
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }

  connect() {
    const ws = new WebSocket(socketUrl(this.opts.wsUrl));
    this.ws = ws;
    ws.addEventListener("open", () => {
      // No fetch of the state here: the server's first message is the whole
      // state as it is now, and one that skips a version is a gap, which
      // fetches the move list (receiveState). After a restart of the site a
      // fetch for every page that comes back was a request each.
      this.attempt = 0;
    });
    ws.addEventListener("message", (event) => {
      // The server sends the state once it has joined the game's group: from
      // then on no broadcast can pass this socket by, and commands may go.
      if (!this.connected && this.ws === ws) {
        this.connected = true;
        this.opts.onStatus("open");
      }
      this.receive(event.data);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.connected = false;
      this.clearPending();
      if (this.stopped) return;
      if (event.code === CLOSE_FORBIDDEN || event.code === CLOSE_SIGNED_OUT) {
        // Signed out or not the owner: retrying cannot help.
        this.stopped = true;
        this.opts.onStatus("forbidden");
        return;
      }
      this.opts.onStatus("closed");
      const delay = reconnectDelay(this.attempt, event.code);
      this.attempt += 1;
      window.setTimeout(() => this.connect(), delay);
    });
  }

  get busy() {
    return this.pending !== null;
  }

  /** Sends one command made on the current version; null if it cannot go now. */
  send(type, fields = {}) {
    if (!this.connected || this.pending) return null;
    this.counter += 1;
    const id = `c${this.counter}`;
    const message = { type, id, version: this.version, ...fields };
    const timer = window.setTimeout(() => {
      // No answer: forget the command and ask for the truth instead.
      if (this.pending && this.pending.id === id) {
        this.clearPending();
        this.refetch();
      }
    }, COMMAND_TIMEOUT_MS);
    this.pending = { id, timer };
    this.opts.onStatus("busy");
    this.ws.send(JSON.stringify(message));
    return id;
  }

  clearPending(id = null) {
    if (!this.pending || (id !== null && this.pending.id !== id)) return;
    window.clearTimeout(this.pending.timer);
    this.pending = null;
    this.opts.onStatus("idle");
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (err) {
      return;
    }
    switch (msg.type) {
      case "ack":
        this.acked(msg.id, msg.version);
        // The tutor's warning (or that it could not check in time): games/tutor.py.
        if (msg.tutor && this.opts.onOther) this.opts.onOther({ ...msg.tutor, type: "tutor", id: msg.id });
        break;
      case "state":
        this.receiveState(msg);
        break;
      case "refused":
        this.clearPending(msg.id);
        this.opts.onRefused(msg);
        break;
      case "error":
        this.clearPending(msg.id ?? null);
        this.opts.onError(msg);
        break;
      default:
        if (this.opts.onOther) this.opts.onOther(msg);
    }
  }

  // The ack comes before the state it leads to; a command sent in between
  // would carry the old version, so the command stays pending until that
  // state arrives (or briefly after, for commands that change no state).
  acked(id, version) {
    if (!this.pending || this.pending.id !== id) return;
    // A command that changes nothing (a hint) brings no new state: done now.
    if (typeof version === "number" && version <= this.version) {
      this.clearPending(id);
      return;
    }
    this.pending.acked = true;
    window.clearTimeout(this.pending.timer);
    this.pending.timer = window.setTimeout(() => this.clearPending(id), 1500);
  }

  receiveState(state) {
    if (this.pending && this.pending.acked) this.clearPending();
    const known = this.version;
    if (typeof state.version !== "number" || state.version < known) return;
    this.version = state.version;
    this.watchThinking(state);
    if (state.version > known + 1) {
      // A gap: an event was missed, so this one may not tell the whole story
      // (e.g. the computer's steps to animate). Take it, then the HTTP truth.
      this.opts.onState(state, { gap: true });
      this.refetch();
      return;
    }
    this.opts.onState(state, { gap: false });
  }

  /** The whole state over HTTP, with its move list; null if it cannot come now. */
  async fetchState() {
    try {
      const response = await fetch(this.opts.stateUrl, {
        headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store",
      });
      if (!response.ok) throw new Error(`state: ${response.status}`);
      return await response.json();
    } catch (err) {
      return null;
    }
  }

  async refetch() {
    const state = await this.fetchState();
    if (!state) {
      // Offline or unavailable: the reconnect loop, or the next watch, tries again.
      this.watchThinking({ thinking: this.thinking });
      return;
    }
    if (typeof state.version === "number" && state.version >= this.version) {
      this.version = state.version;
      this.opts.onState(state, { gap: false, fetched: true });
      this.watchThinking(state);
    }
  }

  watchThinking(state) {
    this.thinking = Boolean(state.thinking);
    window.clearTimeout(this.thinkingTimer);
    if (state.thinking) this.thinkingTimer = window.setTimeout(() => this.refetch(), THINKING_RESYNC_MS);
  }
}
