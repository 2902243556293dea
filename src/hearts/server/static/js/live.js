// A room's live feed (docs/api.md, Rooms): the WebSocket /api/rooms/{code}/ws, whose
// first message is the token, and the server pushes {"type": "room", "room": Room}
// after every change. When a socket cannot be opened, the long poll
// GET /api/rooms/{code}/events?after=V takes over, and a socket is tried again now and
// then. A dropped socket reconnects with a growing pause; every (re)connection starts
// with the whole Room, so nothing missed while away is lost. While the socket is open
// the seat's actions go over it too (act): cheaper for the server than a request each.
// Only the room's members may follow it live (403 not_in_room): a page without a seat
// (the join screen) waits, its feed quiet, until reconnect() once it is seated.
// RoomLink, at the end, is a room's transport for the table's page (tablepage.js).
import { ApiError, ensureToken, LANG_HEADERS, roomApi } from "./api.js";
import * as fairness from "./fairness.js";
import { LANG, T } from "./i18n.js";
import { sleep } from "./dom.js";

const PING_MS = 20000;        // keep the socket alive through proxies; notice a dead one
const PONG_WAIT_MS = 10000;   // no answer to a ping in this time: the socket is dead
const POLL_TIMEOUT_MS = 40000; // the server answers a long poll within about 25 s
const SOCKET_RETRY_MS = 15000; // while polling, try a socket again this often
const FIRST_ROOM_MS = 8000;     // a socket that brings no Room in this time is no use
const OPEN_FAILURES = 3;       // sockets in a row that brought no Room before polling takes over
const ANSWER_WAIT_MS = 8000;   // an action sent on the socket with no answer by then goes by REST

// An action the socket could not carry (not open, closed before answering, no answer
// in time): the caller sends it by REST, where its version makes a second try harmless.
export class NoSocket extends Error {}

export class Live {
  // onRoom(room): each Room received; onGone(error): the room is unknown or the token
  // refused (the feed stops); onLink(how): "socket", "poll" or "down" as it changes.
  constructor({ code, version = 0, onRoom, onGone, onLink = () => {} }) {
    this.code = code;
    this.version = version;
    this.onRoom = onRoom;
    this.onGone = onGone;
    this.onLink = onLink;
    this.stopped = false;
    this.ws = null;
    this.attempt = 0;       // reconnections since the last good one (the pause grows)
    this.neverOpened = 0;   // sockets in a row that closed before their first Room
    this.polling = false;
    this.outside = false;   // refused not_in_room: no feed until reconnect()
    this.link = "";
    this.ready = false;      // the socket brought its first Room: it takes actions
    this.asked = new Map();  // id -> {resolve, reject, timer} of actions awaiting their answer
    this.lastId = 0;
    this.wake = this.wake.bind(this);
  }

  // The seat's action `type` ("pass", "play", "moon", "next-hand"; docs/api.md) with its
  // body, over the open socket: the Room after it, or an ApiError as REST would throw;
  // NoSocket when the socket cannot carry it.
  act(type, body) {
    const ws = this.ws;
    if (!ws || !this.ready || ws.readyState !== WebSocket.OPEN) return Promise.reject(new NoSocket());
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, null), ANSWER_WAIT_MS);
      this.asked.set(id, { resolve, reject, timer });
      try { ws.send(JSON.stringify({ ...body, type, id })); } catch { this.settle(id, null); }
    });
  }

  // The answer to action `id` (null: none will come).
  settle(id, answer) {
    const asked = this.asked.get(id);
    if (!asked) return;
    this.asked.delete(id);
    clearTimeout(asked.timer);
    if (!answer) asked.reject(new NoSocket());
    else if (answer.status === 200) asked.resolve(answer.room);
    else asked.reject(new ApiError(answer.status, answer));
  }

  dropAsked() {
    for (const id of [...this.asked.keys()]) this.settle(id, null);
  }

  start() {
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connect();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
    this.ready = false;
    this.dropAsked();
    if (this.abort) this.abort.abort();
  }

  // A new socket at once (the player just took a seat: the server counts a seat
  // connected by the sockets opened for it).
  reconnect() {
    if (this.stopped) return;
    this.outside = false;
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    this.dropAsked();
    if (ws) {
      ws.onclose = null;
      ws.close(1000);
    }
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.connect();
  }

  setLink(how) {
    if (how === this.link) return;
    this.link = how;
    this.onLink(how);
  }

  // Back on line or back to the tab: reconnect now instead of at the end of a pause.
  wake() {
    if (this.stopped || this.outside || document.visibilityState === "hidden") return;
    if (!this.ws && !this.polling) {
      clearTimeout(this.retryTimer);
      this.attempt = 0;
      this.connect();
    }
  }

  receive(room) {
    if (!room || typeof room.version !== "number") return;
    if (room.version > this.version) this.version = room.version;
    this.onRoom(room);
  }

  // This browser's player moved to another device (410 moved): no retry, no "Mất kết
  // nối" either; transfer.js says what happened (the event api.js sends for its calls).
  movedAway() {
    this.stop();
    this.setLink("moved");
    dispatchEvent(new Event("hearts:moved"));
  }

  // Refused as no member of the room: no socket, no poll, no retry until reconnect().
  quiet() {
    this.outside = true;
    this.stopPolling();
    clearTimeout(this.retryTimer);
  }

  async connect() {
    if (this.stopped || this.outside || this.ws) return;
    let token;
    try {
      token = await ensureToken();
    } catch {
      this.again();
      return;
    }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/rooms/${encodeURIComponent(this.code)}/ws` + (LANG === "en" ? "?lang=en" : ""));
    } catch {
      this.failedOpen();
      return;
    }
    this.ws = ws;
    // A socket counts once it has brought a Room: one that opens and then closes or
    // stays silent (a proxy that cannot pass it on) counts as one that never opened.
    let gotRoom = false;
    let lastPong = performance.now();
    const silent = setTimeout(() => { if (!gotRoom) ws.close(); }, FIRST_ROOM_MS);
    ws.onopen = () => {
      ws.send(JSON.stringify({ token }));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => {
        if (performance.now() - lastPong > PING_MS + PONG_WAIT_MS) { ws.close(); return; }
        try { ws.send(JSON.stringify({ type: "ping" })); } catch { /* closing */ }
      }, PING_MS);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      lastPong = performance.now();
      if (msg.type === "answer") {
        this.settle(msg.id, msg);
        if (msg.status === 200 && this.ws === ws) this.receive(msg.room);
      } else if (msg.type === "room") {
        gotRoom = true;
        if (this.ws === ws) this.ready = true;
        this.attempt = 0;
        this.neverOpened = 0;
        this.stopPolling();
        this.setLink("socket");
        this.receive(msg.room);
      } else if (msg.type === "error") {
        const code = msg.error && msg.error.code;
        if (code === "room_not_found" || code === "bad_token") {
          this.stop();
          this.onGone(msg.error);
        } else if (code === "not_in_room") {
          this.quiet();
        } else if (code === "moved") {
          this.movedAway();
        }
      }
    };
    ws.onclose = () => {
      clearTimeout(silent);
      clearInterval(this.pingTimer);
      if (this.ws === ws) {
        this.ws = null;
        this.ready = false;
        this.dropAsked();
      }
      if (this.stopped || this.outside) return;
      if (!gotRoom) { this.failedOpen(); return; }
      this.setLink("down");
      this.again();
    };
  }

  // The next socket after a pause that doubles (0.5 s … 8 s, with some jitter, so that a
  // restarted server is not met by every browser at the same instant).
  again() {
    if (this.stopped) return;
    const pause = Math.min(8000, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt++;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), pause);
  }

  failedOpen() {
    this.neverOpened++;
    if (this.neverOpened >= OPEN_FAILURES) {
      this.poll();
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.connect(), SOCKET_RETRY_MS);
    } else {
      this.again();
    }
  }

  stopPolling() {
    this.polling = false;
    if (this.abort) this.abort.abort();
  }

  // The long poll: the Room as soon as its version passes ours (or after ~25 s).
  async poll() {
    if (this.polling || this.stopped || this.outside) return;
    this.polling = true;
    this.setLink("poll");
    let failures = 0;
    let first = true;
    while (this.polling && !this.stopped) {
      this.abort = new AbortController();
      const timer = setTimeout(() => this.abort.abort(), POLL_TIMEOUT_MS);
      try {
        const token = await ensureToken();
        const res = await fetch(`/api/rooms/${encodeURIComponent(this.code)}/events?after=${this.version}`, {
          headers: { Accept: "application/json", Authorization: `Bearer ${token}`, ...LANG_HEADERS },
          cache: "no-store",
          signal: this.abort.signal,
        });
        const body = await res.json().catch(() => null);
        if (res.status === 403 && body && body.error && body.error.code === "not_in_room") {
          this.quiet();
          return;
        }
        if (res.status === 410 && body && body.error && body.error.code === "moved") {
          this.movedAway();
          return;
        }
        if (res.status === 404 || res.status === 403) {
          this.stop();
          this.onGone((body && body.error) || { code: "room_not_found" });
          return;
        }
        if (res.status === 429) {
          // too many polls from this network: poll again when the server says
          const wait = Number(res.headers.get("Retry-After")) || 5;
          await sleep(Math.min(60, wait) * 1000 * (0.75 + Math.random() / 2));
          continue;
        }
        if (!res.ok) throw new Error(String(res.status));
        if (failures || first) {
          // the server answers again (it was restarting, or the network came back):
          // a socket may open now, so try one at once rather than at the next retry
          clearTimeout(this.retryTimer);
          this.retryTimer = setTimeout(() => this.connect(), 300);
        }
        failures = 0;
        first = false;
        this.setLink("poll");
        if (this.polling) this.receive(body);
      } catch {
        if (!this.polling || this.stopped) return;
        failures++;
        this.setLink("down");
        await sleep(Math.min(8000, 500 * 2 ** failures));
      } finally {
        clearTimeout(timer);
      }
    }
  }
}

// A room's transport for the table's page (tablepage.js): the seat's actions over the
// socket while it is open, else (or if the socket drops before answering) by REST,
// each answered by a Room; the Rooms the server pushes come from Live.
export class RoomLink {
  constructor(code) {
    this.code = code;
    this.live = null;
    this.stuck = false; // the server paces a room: nothing for the page to retry
  }

  // hooks: Live's onRoom, onGone, onLink.
  start(version, hooks) {
    this.live = new Live({ code: this.code, version, ...hooks });
    this.live.start();
  }

  stop() { if (this.live) this.live.stop(); }

  // A seat's action by name ("pass", "play", "moon", "next-hand", "seed"); the version
  // makes a second try change nothing. A deal carries this seat's seed.
  async act(what, body, newest) {
    if (what === "next-hand") body = { ...body, client_seed: fairness.seedFor(newest).seed };
    if (this.live) {
      try {
        return await this.live.act(what, body);
      } catch (e) {
        if (!(e instanceof NoSocket)) throw e;
      }
    }
    return roomApi.act(this.code, what, body);
  }

  refresh() { return roomApi.get(this.code); }

  // After a 409 stale: whether the seat's action (what, body), sent from the State
  // `s`, still stands in a Room (still my turn, that card still legal, ...).
  still(what, body, s) {
    const hand = s && s.match.hand_number;
    const tests = {
      play: (t) => t.hand.phase === "play" && t.hand.turn === t.seats[0] && (t.hand.legal || []).includes(body.card),
      pass: (t) => t.match.hand_number === hand && t.hand.phase === "pass" && !t.hand.passed &&
        body.cards.every((c) => t.hand.cards.includes(c)),
      moon: (t) => t.hand.phase === "moon_choice",
      "next-hand": (t) => t.match.hand_number === hand && t.hand.phase === "done" && !!t.hand.points,
    };
    return (room) => !!room.state && !!tests[what] && tests[what](room.state);
  }

  // call(version)'s Room to the page. Another player may have moved the room on
  // meanwhile (409 stale, with the Room): the action is sent once more at the new
  // version if still(room) says it still stands there (still my turn, that card still
  // legal, ...); the server decides.
  async run(page, call, still) {
    if (!call) return;
    try {
      let version = page.version();
      for (let tries = 0; ; tries++) {
        try {
          page.receive(await call(version));
          return;
        } catch (e) {
          // a 409 whose Room did not come through: fetch it
          let room = e.room;
          if (!room && e.status === 409) room = await roomApi.get(this.code).catch(() => null);
          if (!room) throw e;
          page.receive(room);
          const stale = e.code === "stale" || (!e.room && room.version !== version);
          if (!stale || tries > 0 || !still(room)) throw e;
          version = room.version;
        }
      }
    } catch (e) {
      if (e.code !== "stale" && e.code !== "moved") page.say(e.code === "network" ? T.netError : e.message || T.error);
    }
  }
}
