// The play page's event points, for the scripts around the board (the hint
// panel, sound): what happened, and one way to send a command.
//
//   on("state", ({state, prev, canHint}) => ...)   every state shown
//   on("message", (msg) => ...)                    other socket messages (hint)
//   on("answer", ({id, type, message}) => ...)     a refused or failed command
//   on("dice", ({side, values}) => ...)            dice drawn for a new roll
//   on("checker", ({side, step}) => ...)           a checker put down
//   on("hit", ({side, step}) => ...)               a blot sent to the bar
//   sendCommand("hint") → {id, version} of the command, or null if it cannot go now

const listeners = new Map();
let sender = null;

export function on(kind, fn) {
  if (!listeners.has(kind)) listeners.set(kind, new Set());
  listeners.get(kind).add(fn);
  return () => listeners.get(kind).delete(fn);
}

export function emit(kind, detail = {}) {
  for (const fn of listeners.get(kind) || []) {
    try {
      fn(detail);
    } catch (err) {
      console.error(err);
    }
  }
}

/** A checker of `side` was put down by `step`: the sound points. */
export function placed(side, step) {
  emit("checker", { side, step });
  if (step.hit) emit("hit", { side, step });
}

export function provideSender(fn) {
  sender = fn;
}

export function sendCommand(type, fields = {}) {
  return sender ? sender(type, fields) : null;
}
