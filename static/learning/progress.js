// Follows a finished game's analysis job over the game's socket: "analysis"
// events ({state, done, total}) as they come, and one reading of the status
// over HTTP each time the socket has joined the game, for whatever was missed
// while it was down. "Joined" is the socket's first "state" message: the
// server sends it after joining the game's group, so a status read from then
// on misses nothing (one taken at "open" could, as the server accepts the
// socket before it joins the group). Reconnects with backoff; stops for good once the job is done or has
// failed. Nothing polls.
//
//   followAnalysis({state, wsUrl, statusUrl, onProgress, onConnection})
import { reconnectDelay, socketUrl } from "../games/common.js";

const CLOSE_FORBIDDEN = 4403;

class AnalysisFollower {
  constructor({ state, wsUrl, statusUrl, onProgress, onConnection = () => {} }) {
    this.wsUrl = wsUrl;
    this.statusUrl = statusUrl;
    this.onProgress = onProgress;
    this.onConnection = onConnection;
    // No analysis, a finished one or a failed one (the page's button queues
    // it again, and the page after it follows anew): nothing to follow.
    this.stopped = !state || state === "done" || state === "failed";
    this.attempt = 0;
    this.ws = null;
    this.timer = null;
  }

  start() {
    if (!this.stopped) this.connect();
  }

  connect() {
    const ws = new WebSocket(socketUrl(this.wsUrl));
    this.ws = ws;
    let joined = false;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.onConnection(true);
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (_err) {
        return;
      }
      if (msg.type === "analysis") this.take(msg);
      else if (msg.type === "state" && !joined) {
        joined = true;
        this.catchUp();
      }
    });
    ws.addEventListener("close", (event) => this.closed(ws, event));
  }

  closed(ws, event) {
    if (this.ws !== ws || this.stopped) return;
    if (event.code === CLOSE_FORBIDDEN) {
      // Signed out or not the owner: retrying cannot help.
      this.stop();
      return;
    }
    this.onConnection(false);
    const delay = reconnectDelay(this.attempt, event.code);
    this.attempt += 1;
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  async catchUp() {
    try {
      const response = await fetch(this.statusUrl, {
        headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store",
      });
      if (response.ok) this.take(await response.json());
    } catch (_err) {
      // Offline: the socket's reconnect reads the status again.
    }
  }

  take(msg) {
    if (this.stopped) return;
    this.onProgress(msg);
    if (msg.state === "done" || msg.state === "failed") this.stop();
  }

  stop() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}

export function followAnalysis(options) {
  const follower = new AnalysisFollower(options);
  follower.start();
  return follower;
}
