// Thin fetch wrapper around the JSON API (docs/api.md). Keeps the browser token
// in localStorage under 'hearts-token'. SoloTransport, at the end, is the solo
// table's transport for the table's page (tablepage.js).
import * as fairness from "./fairness.js";
import { LANG, T } from "./i18n.js";
import { sleep } from "./dom.js";

const TOKEN_KEY = "hearts-token";
// The language of the server's words (messages, names, hints): docs/api.md, Language.
export const LANG_HEADERS = LANG === "en" ? { "X-Hearts-Lang": "en" } : {};

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || (status === 0 ? "network" : "http");
    this.state = body && body.state ? body.state : null;
    this.room = body && body.room ? body.room : null; // a room's 409 stale carries the Room
    this.reason = err.reason || null; // a bad record's fault, for the page to word (review.js)
  }
}

function readToken() {
  try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
}
function writeToken(t) {
  try { localStorage.setItem(TOKEN_KEY, t); } catch { /* private mode: keep in memory */ }
}

let token = readToken();
// The token index.html's inline script may have stored since this module read it
// (a new player's, while the first deal is still on its way): used, not a second one.
function known() {
  if (!token) token = readToken();
  return token;
}

// The last State of this player's match, kept in this browser: a page opened without
// a connection shows it, read-only, until the server answers (main.js).
const KEPT_KEY = "hearts-kept";
export function keepState(s) {
  try { localStorage.setItem(KEPT_KEY, JSON.stringify({ token: known(), state: s })); } catch { /* full, private mode */ }
}
export function keptState() {
  try {
    const k = JSON.parse(localStorage.getItem(KEPT_KEY));
    return k && k.state && k.token === known() ? k.state : null;
  } catch { return null; }
}

async function raw(method, path, body, auth = true) {
  const headers = { Accept: "application/json", ...LANG_HEADERS };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth && token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, {
      method, headers, cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    dispatchEvent(new CustomEvent("hearts:net", { detail: false })); // pwa.js: the offline bar
    throw new ApiError(0, { error: { code: "network", message: String(e) } });
  }
  dispatchEvent(new CustomEvent("hearts:net", { detail: true }));
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const err = new ApiError(res.status, data);
    if (err.code === "moved") dispatchEvent(new Event("hearts:moved")); // transfer.js tells the player
    throw err;
  }
  return data;
}

async function newToken() {
  const data = await raw("POST", "/api/players", undefined, false);
  token = data.token;
  writeToken(token);
  return token;
}

// A new player's token with its first deal's commitment, in one round trip
// (docs/api.md): `{next_commitment, version}`, read before the page sends its seed.
async function newPlayerPromised() {
  const data = await raw("POST", "/api/players", { fairness: true }, false);
  token = data.token;
  writeToken(token);
  return data.fairness;
}

// Any call: obtain a token first if we have none; on 403 get a fresh one and retry once.
async function call(method, path, body) {
  if (!known()) await newToken();
  try {
    return await raw(method, path, body);
  } catch (e) {
    if (e.status === 403) {
      await newToken();
      return await raw(method, path, body);
    }
    throw e;
  }
}

export const api = {
  state: () => call("GET", "/api/state"),
  pass: (version, cards) => call("POST", "/api/pass", { version, cards }),
  play: (version, card, checker) => call("POST", "/api/play", checker ? { version, card, checker } : { version, card }),
  check: (version) => call("POST", "/api/check", { version }),
  step: (version) => call("POST", "/api/step", { version }),
  hint: (version) => call("POST", "/api/hint", { version }),
  takeBack: (version) => call("POST", "/api/take-back", { version }),
  hand: (n) => call("GET", `/api/hands/${n}`),
  checkRecord: (record) => call("POST", "/api/records/check", { record }),
  startAnalysis: (hand) => call("POST", "/api/analysis", { hand }),
  analysis: (hand) => call("GET", `/api/analysis/${hand}`),
  knew: (hand) => call("GET", `/api/knew/${hand}`),
  // a deal's calls carry this browser's seed (docs/fairness.md)
  nextHand: (version, seed) => call("POST", "/api/next-hand", { version, client_seed: seed }),
  newMatch: (version, rules, seed) => call("POST", "/api/new-match", rules ? { version, rules, client_seed: seed } : { version, client_seed: seed }),
  fairness: () => call("GET", "/api/fairness"),
  newPlayer: newPlayerPromised,
  moon: (version, choice) => call("POST", "/api/moon", { version, choice }),
  settings: (s) => call("PUT", "/api/settings", s),
  stats: () => call("GET", "/api/stats"),
  achievements: () => call("GET", "/api/achievements"),
};

// Chuyển sang máy khác (transfer.js): the code is asked for with this browser's token;
// claimed, the player's new token becomes this browser's; moved away, it starts afresh.
export const transferApi = {
  create: () => call("POST", "/api/transfer"),
  claim: (code, claimId) => raw("POST", "/api/transfer/claim", { code, claim_id: claimId }, false),
};
export function adoptToken(t) {
  token = t;
  writeToken(t);
}
export function forgetToken() {
  token = null;
  try { localStorage.removeItem(TOKEN_KEY); } catch { /* private mode */ }
}
// Whether this browser has a token yet (none: a new player, whose first match the
// page deals itself, with its own seed).
export function hasToken() { return !!known(); }
// The inline script's new player becomes this page's, unless the page made another
// meanwhile (a room created before that token came): false, and that one stays.
export function adoptFirst(t) {
  if (known() && token !== t) return false;
  adoptToken(t);
  return true;
}

// The browser's token, made first if there is none (a room's WebSocket sends it as
// its first message).
export async function ensureToken() {
  if (!known()) await newToken();
  return token;
}

// A room's calls renew the token only when the server does not know it: a 403
// not_in_room or creator_only is an answer, and a new token would lose the seat.
async function roomCall(method, path, body) {
  if (!known()) await newToken();
  try {
    return await raw(method, path, body);
  } catch (e) {
    if (e.code === "bad_token") {
      await newToken();
      return await raw(method, path, body);
    }
    throw e;
  }
}

// Play with friends (docs/api.md, Rooms): every answer is a Room.
const at = (code, what = "") => `/api/rooms/${encodeURIComponent(code)}${what ? "/" + what : ""}`;
export const roomApi = {
  create: (body) => roomCall("POST", "/api/rooms", body),
  get: (code) => roomCall("GET", at(code)),
  join: (code, name, seed) => roomCall("POST", at(code, "join"), name ? { name, client_seed: seed } : { client_seed: seed }),
  start: (code, version, seed) => roomCall("POST", at(code, "start"), { version, client_seed: seed }),
  remove: (code, version, seat) => roomCall("POST", at(code, "remove"), { version, seat }),
  leave: (code, version) => roomCall("POST", at(code, "leave"), { version }),
  // a seat's action by name ("pass", "play", "moon", "next-hand"), as the socket takes it
  act: (code, what, body) => roomCall("POST", at(code, what), body),
};

// Play with everyone (docs/api.md, Public tables): a public table is a room; these
// are its own calls and the leaderboard.
const pub = (code, what) => `/api/public/${encodeURIComponent(code)}/${what}`;
export const publicApi = {
  seek: (body) => roomCall("POST", "/api/public/seek", body),
  table: () => roomCall("GET", "/api/public/table"),
  react: (code, reaction) => roomCall("POST", pub(code, "react"), { reaction }),
  hide: (code, seat, hidden) => roomCall("POST", pub(code, "hide"), { seat, hidden }),
  leave: (code) => roomCall("POST", pub(code, "leave")),
  board: () => roomCall("GET", "/api/leaderboard"),
  keepOff: (hidden) => roomCall("PUT", "/api/leaderboard/me", { hidden }),
};

// ---- the solo table's transport (tablepage.js): REST, a State for each action, and
// the computers' turns paced by the page: one POST /api/step per computer card, asked
// for once the card before it has landed (its gap counts the call's time).
// Whether a computer is to move on the table `s` (South is its first seat).
function needsStep(s) {
  if (!s || s.match.over) return false;
  const h = s.hand;
  if (h.phase === "play") return !!h.turn && h.turn !== s.seats[0];
  if (h.phase === "pass") return !!h.passed && h.turn !== s.seats[0];
  return false;
}

export class SoloTransport {
  constructor() {
    this.stuck = false; // the computers' steps failed again and again: "Thử lại" shown
  }

  // South's action ("play", "pass", "moon", "next-hand") → the State after it; a deal
  // carries this browser's seed.
  async act(what, body, newest) {
    if (what === "play") return api.play(body.version, body.card, body.checker);
    if (what === "pass") return api.pass(body.version, body.cards);
    if (what === "moon") return api.moon(body.version, body.choice);
    if (what !== "next-hand") throw new Error(`no such action: ${what}`);
    const sent = fairness.seedFor(newest);
    const state = await api.nextHand(body.version, sent.seed);
    fairness.dealt(sent, state);
    return state;
  }

  refresh() { return api.state(); }

  // South's action, then the computers' turns; an error leaves the table as the
  // server has it.
  async run(page, call) {
    try {
      if (call) await page.receive(await call(page.version()));
    } catch (e) {
      await this.recover(page, e);
    }
    try {
      await this.computers(page);
    } catch (e) {
      await this.recover(page, e);
    }
  }

  // Never leave the table hanging: if computers still have to move, try again.
  after(page) {
    if (needsStep(page.current())) setTimeout(() => page.act(null), this.stuck ? 5000 : 1200);
  }

  async recover(page, e) {
    if (e.code === "moved") return; // to another device: transfer.js says so
    if (e.state) { // 409 stale (or any error that carries the state): adopt it
      await page.receive(e.state);
      return;
    }
    if (e.code === "network") {
      page.say(T.netError);
      return;
    }
    page.say(e.message || T.error);
    try { await page.receive(await api.state()); } catch { /* keep what we have */ }
  }

  async computers(page) {
    let failures = 0;
    while (needsStep(page.current())) {
      let next;
      try {
        next = await api.step(page.version());
      } catch (e) {
        if (e.state) { await page.receive(e.state); continue; }
        if (e.code === "moved") return; // to another device: transfer.js says so
        failures++;
        if (e.code === "not_computer_turn" || e.code === "wrong_phase") {
          try { await page.receive(await api.state()); } catch { /* retry below */ }
          if (failures < 5) continue;
        }
        if (failures >= 6) { this.stuck = true; page.say(T.netError); return; }
        if (e.code === "network" || e.status >= 500) page.say(T.netError);
        await sleep(Math.min(4000, 300 * 2 ** failures));
        try { page.note(await api.state()); } catch { /* try again */ }
        continue;
      }
      failures = 0;
      await page.receive(next);
    }
  }
}
