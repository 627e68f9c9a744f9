// The one WebSocket to the server: hello first, a ref on every request, and a reconnect with backoff that says
// hello again, asks to `resume`, and re-sends what was never answered (the server refuses a stale version, so
// nothing is played twice; the page then shows whatever game the server sends).

import { word } from "./speech.js";

const PING_MS = 25000;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const FINAL = new Set([4401, 4403]); // unauthorized, forbidden: a new socket would be refused the same way
// A `bye` may also say `final` (never come back: a new socket would be refused the same way) or `retry_in`
// (seconds: come back no sooner, as after too many sign-ins, or while Discord or the bot is busy).
const NOT_HERE = 4421; // another process of the bot runs this server: its `bye` may name the route there

export class Connection {
  /**
   * A connection to `url` that introduces itself with `hello`; `handlers` receive what the server says;
   * `router` turns a `bye`'s route (a shard cluster's path prefix) into the socket URL behind it (null: none).
   */
  constructor(url, hello, handlers, router = () => null) {
    this.url = url;
    this.router = router;
    this.routed = false; // a route was followed since the last welcome: a second one is an error, not a loop
    this.next = null; // where the last `bye` sent this connection
    this.lastBye = null; // the last `bye`: whether and when to come back
    this.hello = hello;
    this.handlers = handlers; // {welcome(frame, again), push(frame), status(words | null), closed(reason)}
    this.nextRef = 1;
    this.pending = new Map(); // ref -> {frame, resolve, resent}
    this.socket = null;
    this.attempt = 0;
    this.welcomed = false;
    this.everWelcomed = false;
    this.stopped = false;
    this.pinger = null;
  }

  /** Open the socket (and keep it open). */
  open() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    this.welcomed = false;
    socket.addEventListener("open", () => socket.send(JSON.stringify(this.hello)));
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => this.lost(socket, event));
  }

  /**
   * Send a request; resolves with `{frame, resent}`: the server's answer to its ref (`game`, `choose`, `refused`,
   * `menu`), and whether the request had to be sent again on a new socket (its answer may be a stale refusal).
   */
  request(frame) {
    const ref = this.nextRef;
    this.nextRef += 1;
    const full = { ...frame, ref };
    return new Promise((resolve) => {
      const request = { frame: full, resolve, sent: false, resent: false };
      this.pending.set(ref, request);
      if (this.welcomed) this.transmit(request);
    });
  }

  /** The refs sent and not answered yet. */
  pendingRefs() {
    return [...this.pending.keys()];
  }

  /** Close the socket for good. */
  close() {
    this.stopped = true;
    clearInterval(this.pinger);
    if (this.socket) this.socket.close(1000);
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame.type === "welcome") return this.welcome(frame);
    if (frame.type === "pong") return undefined;
    if (frame.type === "bye") return this.bye(frame);
    const request = frame.ref != null ? this.pending.get(frame.ref) : null;
    if (request) {
      this.pending.delete(frame.ref);
      return request.resolve({ frame, resent: request.resent });
    }
    return this.handlers.push(frame);
  }

  /** The server's last words before it closes: a route to the process that runs this server is followed, once. */
  bye(frame) {
    this.lastBye = frame;
    const url = frame.route !== undefined ? this.router(frame.route) : null;
    if (url && url !== this.url && !this.routed) {
      this.next = url;
      return undefined;
    }
    return this.handlers.closed(frame.reason);
  }

  welcome(frame) {
    const again = this.everWelcomed;
    const waiting = [...this.pending.values()];
    this.welcomed = true;
    this.routed = false;
    this.everWelcomed = true;
    this.attempt = 0;
    this.handlers.status(null);
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    this.handlers.welcome(frame, again);
    for (const request of waiting) this.transmit(request);
  }

  /** Send a request's frame (again, after a reconnect: then its answer may be a refusal of a stale version). */
  transmit(request) {
    request.resent = request.sent;
    request.sent = true;
    this.send(request.frame);
  }

  send(frame) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(frame));
  }

  lost(socket, event) {
    if (socket !== this.socket) return;
    clearInterval(this.pinger);
    this.welcomed = false;
    if (this.stopped) return;
    const next = this.next;
    const lastBye = this.lastBye;
    this.next = null;
    this.lastBye = null;
    if (next && event.code === NOT_HERE) {
      this.url = next; // the same sign-in, at once, to the process that runs this server
      this.routed = true;
      this.open();
      return;
    }
    if (event.code === NOT_HERE) {
      // no route, a route back here, or a second one before any welcome: said in words, never a loop
      this.stopped = true;
      const reason = (lastBye && lastBye.reason) || event.reason || word("other_process");
      this.handlers.closed(word("not_reached", { reason }));
      return;
    }
    if (FINAL.has(event.code) || (lastBye && lastBye.final)) {
      this.stopped = true;
      this.handlers.closed((lastBye && lastBye.reason) || event.reason || word("cannot_play_here"));
      return;
    }
    const backoff = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)] * (1 + Math.random() * 0.3);
    const wait = Math.max(backoff, lastBye && lastBye.retry_in ? lastBye.retry_in * 1000 : 0);
    this.attempt += 1;
    this.handlers.status(word("reconnecting"));
    setTimeout(() => this.open(), wait);
  }
}

/** The socket's URL beside the page (`ws` relative to the document, ws: or wss: as the page is served). */
export function socketUrl(base) {
  const url = new URL("ws", base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}
