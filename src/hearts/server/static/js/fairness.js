// Committed deals, checked by this browser (docs/fairness.md). The server promises
// the next deal's secret seed by its SHA-256 (`fairness.next_commitment`) before the
// page sends a seed of its own; after the hand the secret is revealed and the page
// recomputes the commitment and the whole deal itself: WebCrypto for SHA-256 and
// HMAC, and its own shuffle, written from the contract and not from the server's
// code, so that it checks the server rather than repeats it.
import { T, removedCards } from "./i18n.js";
import { $ } from "./dom.js";

const SUITS = "CDSH";
const RANKS = "23456789TJQKA";
const SPAN = 2 ** 32;
const LEDGER_KEY = "hearts-fairness";
const KEEP = 40; // hands remembered

const toHex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
const order = (card) => SUITS.indexOf(card[1]) * 13 + RANKS.indexOf(card[0]);
const ascending = (cards) => [...cards].sort((a, b) => order(a) - order(b));

// 16 random bytes, in hex: the seed this page sends with a deal's action.
export function newClientSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

export async function commitmentOf(serverSeed) {
  return toHex(await crypto.subtle.digest("SHA-256", fromHex(serverSeed)));
}

// The deck in play, ascending: 2C…AC, 2D…AD, 2S…AS, 2H…AH without the `removed` cards.
export function deckOf(removed) {
  const deck = [];
  for (const s of SUITS) for (const r of RANKS) if (!removed.includes(r + s)) deck.push(r + s);
  return deck;
}

// The shuffled deck: HMAC-SHA256 blocks read as 4-byte big-endian words, then
// Fisher-Yates from the end, each index drawn without bias (rejection).
export async function shuffledDeck(serverSeed, clientSeeds, handNumber, removed) {
  const key = await crypto.subtle.importKey(
    "raw", fromHex(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = `${clientSeeds.join(",")}:${handNumber}:`;
  const enc = new TextEncoder();
  let block = 0;
  let words = [];
  const draw = async () => {
    if (!words.length) {
      const mac = new DataView(await crypto.subtle.sign("HMAC", key, enc.encode(prefix + block)));
      block += 1;
      for (let i = 0; i < mac.byteLength; i += 4) words.push(mac.getUint32(i, false));
    }
    return words.shift();
  };
  const deck = deckOf(removed);
  for (let j = deck.length - 1; j >= 1; j--) {
    const size = j + 1;
    const limit = SPAN - (SPAN % size);
    let u = await draw();
    while (u >= limit) u = await draw();
    const k = u % size;
    [deck[j], deck[k]] = [deck[k], deck[j]];
  }
  return deck;
}

// Each seat's dealt cards (ascending), in the deal's seat order.
export async function dealOf(serverSeed, clientSeeds, handNumber, players, removed) {
  const deck = await shuffledDeck(serverSeed, clientSeeds, handNumber, removed);
  const h = deck.length / players;
  return Array.from({ length: players }, (_, s) => ascending(deck.slice(s * h, (s + 1) * h)));
}

// ---- what this browser remembers of each hand: by the hand's commitment --------
function readLedger() {
  try { return JSON.parse(localStorage.getItem(LEDGER_KEY)) || {}; } catch { return {}; }
}
function writeLedger(ledger) {
  const keys = Object.keys(ledger);
  for (const k of keys.slice(0, Math.max(0, keys.length - KEEP))) delete ledger[k];
  try { localStorage.setItem(LEDGER_KEY, JSON.stringify(ledger)); } catch { /* private mode */ }
}

// A seed to send with a deal's action (a State's or a Room's `fairness` promised the
// deal's commitment before it goes out): remembered under that commitment. One seed
// per promised deal: a retry, or a room's deal after this seat sent its seed for it,
// sends the same one again.
export function seedFor(promisedBy) {
  const f = promisedBy && promisedBy.fairness;
  const promised = f ? f.next_commitment : null;
  const before = promised ? readLedger()[promised] : null;
  const seed = before && before.promised === promised && before.seed ? before.seed : newClientSeed();
  const sent = { seed, promised };
  if (promised) remember(promised, sent);
  return sent;
}

// A seed index.html's inline script sent before this module was here (main.js):
// remembered as seedFor's would have been.
export function sending(sent) {
  remember(sent.promised, sent);
}

// A room answered `room` to a call that carried `sent`: the server keeps the seed
// for its next deal if that deal is still the one promised.
export function kept(sent, room) {
  const f = room && room.fairness;
  if (!sent.promised || !f || f.next_commitment !== sent.promised) return;
  const ledger = readLedger();
  ledger[sent.promised] = { ...(ledger[sent.promised] || {}), kept: true };
  writeLedger(ledger);
}

// Whether this browser's seed for the deal under `commitment` is with the server.
export function isKept(commitment) {
  return !!(readLedger()[commitment] || {}).kept;
}

function remember(commitment, sent) {
  const ledger = readLedger();
  ledger[commitment] = { ...(ledger[commitment] || {}), seed: sent.seed, promised: sent.promised };
  writeLedger(ledger);
}

// The State after a deal this page asked for with `sent` (seedFor's): a hand under
// another commitment than the one promised is remembered as such (the check says so).
export function dealt(sent, state) {
  const f = state && state.hand && state.hand.fairness;
  if (!sent || !f) return;
  if (f.commitment !== sent.promised) remember(f.commitment, sent);
  look(state);
}

// Every State: the cards this seat was dealt, read while its hand is still whole.
export function look(state) {
  const h = state && state.hand;
  const f = h && h.fairness;
  if (!f) return;
  const me = state.seats[0];
  const played = (h.tricks || []).some((t) => t.cards.some((c) => c.seat === me))
    || (h.trick || []).some((c) => c.seat === me);
  const whole = (h.phase === "pass" && !h.passed) || (h.phase === "play" && h.pass_direction === "none" && !played);
  const ledger = readLedger();
  const entry = ledger[f.commitment] || {};
  if (whole && !entry.dealt) {
    ledger[f.commitment] = { ...entry, dealt: ascending(h.cards) };
    writeLedger(ledger);
  }
}

// The finished hand checked: {status: "ok" | "bad" | "unchecked", problems: [...]}.
export async function check(state) {
  const h = state.hand;
  const f = h.fairness;
  const mine = readLedger()[f.commitment] || {};
  if (!f.client_seeds.length) return { status: "unchecked", problems: [], mine };
  const problems = [];
  const seed = f.server_seed || "";
  if (!/^[0-9a-f]{64}$/.test(seed) || (await commitmentOf(seed)) !== f.commitment) problems.push("commitment");
  if (mine.promised && mine.promised !== f.commitment) problems.push("promised");
  if (Array.isArray(f.client_seats)) {
    // a room says whose each seed is: a hand dealt without this seat's is not its to check
    const at = f.client_seats.indexOf(f.deal_seat);
    if (at < 0) return { status: "unchecked", problems: [], mine };
    if (mine.seed && f.client_seeds[at] !== mine.seed) problems.push("seed");
  } else if (mine.seed && !f.client_seeds.includes(mine.seed)) problems.push("seed");
  if (!problems.length && f.deal) {
    const n = state.seats.length;
    const deal = await dealOf(seed, f.client_seeds, state.match.hand_number, n, removedCards(n));
    const same = (a, b) => JSON.stringify(ascending(a || [])) === JSON.stringify(b);
    state.seats.forEach((letter, r) => {
      const expected = deal[(r + f.deal_seat) % n];
      if (!same(f.deal[letter], expected)) problems.push(`deal:${letter}`);
      if (r === 0 && mine.dealt && !same(mine.dealt, expected)) problems.push("mine");
    });
  }
  return { status: problems.length ? "bad" : "ok", problems, mine };
}

// ---- on the page -------------------------------------------------------------------
const checks = new Map(); // commitment -> the check under way
const results = new Map(); // commitment -> its outcome
let showing = null; // the commitment of the hand on screen once it is over
const short = (hex) => `${hex.slice(0, 12)}…`;

// The commitment while the hand is played; the verdict, with the details, after it
// (the table's side panel, "#fairness", and a line in the hand's result, "#result-fairness").
export function paint(state) {
  const el = $("#fairness");
  const res = $("#result-fairness");
  const f = state && state.hand && state.hand.fairness;
  el.hidden = !f;
  const about = $("#fairness-help"); // "Cam kết là gì?": the rules' section (main.js)
  if (about) about.hidden = !f;
  showing = null;
  if (!f || state.hand.phase !== "done" || !f.server_seed) {
    if (res) res.hidden = true;
    if (f && el.dataset.for !== f.commitment) {
      el.dataset.for = f.commitment;
      el.dataset.fairness = "committed";
      el.textContent = T.fair.committed(short(f.commitment));
    }
    return;
  }
  showing = f.commitment;
  const got = results.get(f.commitment);
  if (got) { verdict(el, res, f, got); return; }
  if (!checks.has(f.commitment)) {
    checks.set(f.commitment, check(state).then((out) => { results.set(f.commitment, out); return out; }));
  }
  checks.get(f.commitment).then((out) => {
    if (showing === f.commitment) verdict($("#fairness"), $("#result-fairness"), f, out);
  });
}

function verdict(el, res, f, got) {
  const line = T.fair[got.status];
  const why = got.status === "bad" ? `${line} ${got.problems.map((p) => T.fair.problem(p)).join("; ")}` : line;
  if (res) {
    res.hidden = false;
    res.dataset.fairness = got.status;
    res.textContent = why;
  }
  const key = `${f.commitment}:${got.status}`;
  if (el.dataset.for === key) return; // painted already (a details box the player opened stays so)
  el.dataset.for = key;
  el.dataset.fairness = got.status;
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = why;
  const body = document.createElement("p");
  body.textContent = T.fair.details(f.commitment, f.server_seed, f.client_seeds, got.mine.seed || null);
  details.append(summary, body);
  el.replaceChildren(details);
}
