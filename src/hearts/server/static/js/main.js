// The single-player page: the table (tablepage.js) fed by the solo transport (api.js's
// SoloTransport: REST, the page pacing the computers), and what only this table has:
// the hint, the play checker, the take-back, a new match, the settings, the
// statistics, the review.
// It never decides what is legal: it shows what the server sends.
import { adoptFirst, api, hasToken, keepState, keptState, SoloTransport } from "./api.js";
import * as fairness from "./fairness.js";
import { announce, renderStats, wirePanels } from "./controller.js";
import { TablePage, loadSound } from "./tablepage.js";
import { T, SEAT_NAME, LANG, chooseLang, leadCard, rulesReady } from "./i18n.js";
import { $, markBusy, roomMayTakePage } from "./dom.js";

// The solo table's first State. index.html's inline script asks for it before any
// file arrives (window.heartsStart: on a slow link each file and each call costs a
// round trip, bench/page_results.md); this page takes it over as its modules run: the
// new player's token into api.js, the seed sent into the fairness ledger, and whatever
// the script could not finish (a failed call) done again through api.js.
// A new player's first match, dealt with this browser's seed after reading the
// server's commitment (docs/fairness.md): the token and the commitment come together.
async function firstMatch() {
  const promised = await api.newPlayer();
  const sent = fairness.seedFor({ fairness: promised });
  const state = await api.newMatch(promised.version, null, sent.seed);
  fairness.dealt(sent, state);
  return state;
}

const load = () => (hasToken() ? api.state() : firstMatch());

// What the inline script got: {token, sent: {seed, promised, version}, state}, each
// only if its call answered.
async function takeOver(started) {
  const got = await started;
  if (got.token && !adoptFirst(got.token)) return load();
  if (!got.sent) return got.state || load();
  fairness.sending(got.sent);
  // the deal's call failed: the same seed again, for the same promised deal
  const state = got.state || (await api.newMatch(got.sent.version, null, got.sent.seed));
  fairness.dealt(got.sent, state);
  return state;
}

// Not for a room's page: room.js decides first, and the solo State only if it does not.
let early = window.heartsStart ? takeOver(window.heartsStart) : roomMayTakePage() ? null : load();
if (early) early.catch(() => { /* firstState() hands the failure to main.js */ });

// The first State: the one asked for as the page started, else (again) now.
function firstState() {
  const got = early || load();
  early = null;
  return got;
}

// Not needed for the first card: pwa.js, achievements.js, sound.js and ondemand.js (the
// rooms' and the transfer's buttons) are asked for once it is on the table (index.html's
// script has asked for the State before this module runs: on a slow link these files
// would share the link with its answer; over HTTP/1.1, six files at a time, each six
// cost a round trip: bench/page_results.md); moonchoice.js when a moon choice is.
let achievements = null; // achievements.js once here: the panel, the toasts
// The server says this browser's progress has moved (api.js), maybe at the first State.
addEventListener("hearts:moved", async () => (await import("./transfer.js")).moved());

let page = null;        // the table, made in init() unless room.js takes the page
const current = () => (page ? page.current() : null); // the State the server sent last
const ROOMS = { current }; // what room.js asks of the solo table
const say = (text, kind) => { if (page) page.say(text, kind); };
let statsLoadedFor = null;
let hint = null;        // {version, cards: Set, reasons, why}: Gợi ý for the position on screen

// The language switch names the other language in that language: "EN" / "VI"; its
// name begins with what it shows (a voice user says "EN").
{
  const b = $("#lang-switch");
  if (LANG === "en") {
    b.textContent = "VI";
    b.lang = "vi";
    b.setAttribute("aria-label", "VI, Tiếng Việt");
  }
  b.addEventListener("click", () => chooseLang(LANG === "en" ? "vi" : "en"));
}

// ---------------------------------------------------------------- the solo mode
function quick() {
  const s = current();
  return !!(s && s.settings && s.settings.quick);
}
const names = (s) => (s && s.names) || SEAT_NAME;
// Khó's kernel still compiling on the server (its first start): its cards wait for it.
const preparingHard = (s) => !!s.preparing_hard && s.settings.level === "hard";

// What tablepage.js asks of this table (its mode).
const SOLO = {
  waitText: T.wait,
  flashPerVersion: true,
  holdOnOpen: true,
  allows: { hint: true, review: true, newMatch: true },
  // between computer cards; a finished trick stays on the table; a card flying to it
  pace: () => {
    // the server's pacing rule (table/pacing.py) says the times, the page keeps them
    const s = current(), p = (s && s.settings && s.settings.pace) || { gap_ms: 450, hold_ms: 1000 };
    return { gap: p.gap_ms, hold: p.hold_ms, flight: quick() ? 260 * 0.55 + 20 : 280 };
  },
  stateOf: (s) => s,
  arrive: async (s) => { keepState(s); return s; },
  onTable: () => true,
  choosing: (s, text) => ({ text }),
  passesAwaited: (s) => ({ text: preparingHard(s) ? T.preparingHard : T.waitingPasses }),
  handOver: () => ({ text: T.handDone }),
  yourTurn(s) {
    const h = s.hand;
    const fresh = !(h.tricks || []).length && !(h.trick || []).length;
    const lead = fresh && (h.legal || []).length === 1 && h.legal[0] === leadCard(s.rules.players) ? h.legal[0] : null;
    return { text: lead ? T.yourLead(lead) : T.yourTurn, kind: "turn" };
  },
  othersTurn: (s, seat) => ({ text: preparingHard(s) ? T.preparingHard : T.isPlaying(names(s)[seat]) }),
  // A hint belongs to the position it was given for: gone once anything moves.
  hinted(s) {
    if (hint && hint.version !== s.version) hint = null;
    return hint ? hint.cards : null;
  },
  takeBack: doTakeBack,
  beforePlay,
  paint: paintSolo,
};

function paintSolo(s, busy) {
  renderHint();
  askCheck();
  // A hint in play raises its card and waits for a second tap: the button says so.
  const h = s.hand;
  const card = hint && h.phase === "play" && h.turn === s.seats[0] ? [...hint.cards][0] : null;
  const play = $("#hint-play");
  play.hidden = !card;
  play.disabled = !!busy;
  play.dataset.card = card || "";
  // One "Trận mới" button at a time: the top bar's, or the action bar's at the end.
  $("#new-match-open").hidden = !!s.match.over;
  // settings controls mirror the server
  const st = s.settings || {};
  for (const r of document.querySelectorAll('input[name="level"]')) r.checked = r.value === st.level;
  $("#quick").checked = !!st.quick;
  $("#take-back-setting").checked = st.take_back !== false;
  if (s.match.over && statsLoadedFor !== s.version) { statsLoadedFor = s.version; loadStats(); }
  // the toast, the "Thành tích" panel and the statistics, after every finished hand
  if (achievements) achievements.paint(s, renderStats);
}

// ---------------------------------------------------------------- the coach
// Gợi ý: the server's Khó marks its card(s) on the hand and says why.
function doHint() {
  if (page.busy() || hint) return;
  page.act(async (v) => {
    const got = await api.hint(v);
    const cards = got.card ? [got.card] : got.cards || [];
    hint = { version: got.state.version, cards: new Set(cards), reasons: got.reasons || [], why: got.why };
    page.hand.applyHint(got.state, cards);  // one tap: the pass chosen, or the card raised
    return got.state;
  });
}

// Cảnh báo nước đi (docs/api.md, Play checker): this browser's switch, off by default.
// As South's turn comes the page asks for the check of the position in the background
// and keeps it for that version: a tap on a card that is fine, or before the check is
// back, plays at once as with the switch off; only a flagged card asks, once.
const CHECKER_KEY = "hearts-checker";
let checkerOn = (() => { try { return localStorage.getItem(CHECKER_KEY) === "on"; } catch { return false; } })();
let check = null;       // {version, card, flagged, asked}: the check of the position now
let checkAskedFor = -1; // the version the last check was asked for
let checker = null;     // checker.js (the question) once here

const southToPlay = (s) => !!s && !s.match.over && s.hand.phase === "play" && s.hand.turn === s.seats[0];

function askCheck() {
  const s = current();
  if (!checkerOn || !southToPlay(s) || checkAskedFor === s.version) return;
  const v = (checkAskedFor = s.version);
  if (!checker) import("./checker.js").then((m) => { checker = m; });
  api.check(v).then((got) => {
    const s = current();
    if (!s || s.version !== got.version) return;
    check = { ...got, asked: false };
    $("#hand").dataset.checked = String(v); // test hook: the check of this version is here
  }).catch(() => {}); // none: the cards play as with the switch off
}

async function beforePlay(s, card, play) {
  if (!checkerOn) { play(card); return; }
  const c = check && check.version === s.version ? check : null;
  const flag = c && !c.asked && c.flagged[card];
  if (!flag) { play(card, { checker: c && c.asked ? "asked" : "on" }); return; }
  c.asked = true;
  checker ||= await import("./checker.js");
  const chosen = await checker.ask(flag.line, card, c.card);
  const now = current();
  if (chosen && now && now.version === s.version) play(chosen, { checker: "asked" });
}

function setChecker(on) {
  checkerOn = on;
  try { localStorage.setItem(CHECKER_KEY, on ? "on" : "off"); } catch { /* private mode: this page only */ }
  askCheck();
}

// Đi lại: South's last card and the computers' replies go back; the table is
// painted as the server has it again.
function doTakeBack() {
  page.act(async (v) => {
    const s = await api.takeBack(v);
    page.hand.reset();
    announce(T.tookBack);
    return s;
  });
}

function renderHint() {
  const box = $("#hint-box");
  const lines = hint ? hint.reasons : [];
  box.replaceChildren(...lines.map((line, i) => {
    const p = document.createElement("p");
    p.textContent = line;
    // the first line says why Khó chose (the server's code: docs/api.md, Hint)
    if (i === 0 && hint.why) p.dataset.why = hint.why;
    return p;
  }));
  box.hidden = !lines.length;
}

// A new match at ``rules`` (null: the rules of the match on the table).
function doNewMatch(rules = null, level = null) {
  return page.act(async () => {
    const was = current();
    if (level && was && was.settings.level !== level) await sendSettings({ level });
    const s = current();
    const sent = fairness.seedFor(s);
    const state = await api.newMatch(s ? s.version : 0, rules || (s && s.rules) || null, sent.seed);
    fairness.dealt(sent, state);
    page.hand.reset();
    return state;
  });
}

// A match is "under way" once anything happened in it: leaving it asks first.
function underWay(s) {
  if (!s || s.match.over) return false;
  const h = s.hand;
  return s.match.hand_number > 1 || !!h.passed || (h.tricks || []).length > 0 || (h.trick || []).length > 0;
}

// The review (and its Máy đã biết gì) loads on first use: not part of the first visit.
let reviewDialog = null;
async function openReview() {
  if (!reviewDialog) {
    const { ReviewDialog } = await import("./review.js");
    reviewDialog ||= new ReviewDialog({ current });
  }
  reviewDialog.open();
}

// "Trận mới" (newmatch.js, loaded when first pressed)
let newMatchDialog = null;
async function openNewMatch() {
  const { NewMatchDialog } = await import("./newmatch.js");
  newMatchDialog ||= new NewMatchDialog({
    current,
    underWay: () => underWay(current()),
    start: (rules, level) => doNewMatch(rules, level),
  });
  newMatchDialog.open();
}

async function sendSettings(change) {
  try {
    const res = await api.settings(change);
    if (!current()) return;
    if (!page.busy() && res.version !== current().version) { page.amend(() => res, () => res); return; }
    page.amend((s) => ({ ...s, settings: res.settings, version: Math.max(s.version, res.version) }),
      (s) => ({ ...s, settings: res.settings }));
  } catch (e) {
    say(e.message || T.error);
  }
}

async function loadStats() {
  try { renderStats(await api.stats()); } catch { renderStats(null); }
}

// ---------------------------------------------------------------- wiring
// "Luật chơi": on every page, a room's too. The rules' text in the page's language
// (static/help.vi.html, help.en.html) is fetched the first time it is asked for. "Cam
// kết là gì?" beside the hand's commitment (fairness.js) opens it at that section.
function wireHelp() {
  const help = $("#help");
  const closeHelp = () => { if (help.close) help.close(); else help.removeAttribute("open"); };
  const words = $("#help-template");
  let opener = null;
  const openHelp = async (section) => {
    opener = document.activeElement;
    if (!words.content.childElementCount) {
      try {
        const got = await fetch(new URL(`../help.${LANG}.html`, import.meta.url));
        const text = got.ok ? await got.text() : "";
        words.content.replaceChildren(...new DOMParser().parseFromString(text, "text/html").body.children);
      } catch { say(T.netError); return; }
    }
    if (!words.content.childElementCount) { say(T.netError); return; }
    help.replaceChildren(words.content.cloneNode(true));
    $("#help-close").addEventListener("click", closeHelp);
    if (help.showModal) help.showModal(); else help.setAttribute("open", "");
    const at = section && help.querySelector(`#${section}`);
    if (at) {
      at.focus({ preventScroll: true }); // read aloud from there (tabindex="-1")
      at.scrollIntoView({ block: "start" }); // below the title's bar: scroll-margin-top
    } else {
      $("#help-close").focus();
    }
  };
  $("#help-button").addEventListener("click", () => openHelp(null));
  $("#fairness-help").addEventListener("click", () => openHelp("help-fair"));
  help.addEventListener("close", () => {
    help.replaceChildren();
    const back = opener && opener !== document.body && !opener.closest("[hidden]") ? opener : $("#help-button");
    back.focus();
  });
  help.addEventListener("click", (e) => { if (e.target === help) closeHelp(); });
}

function wire() {
  $("#hint-button").addEventListener("click", doHint);
  $("#hint-play").addEventListener("click", (e) => {
    if (e.currentTarget.dataset.card) page.hand.tap(e.currentTarget.dataset.card);
  });
  $("#take-back-setting").addEventListener("change", (e) => sendSettings({ take_back: e.target.checked }));
  $("#checker-setting").checked = checkerOn;
  $("#checker-setting").addEventListener("change", (e) => setChecker(e.target.checked));
  $("#review-open").addEventListener("click", openReview);
  $("#review-file").addEventListener("click", openReview);
  $("#new-match").addEventListener("click", openNewMatch);
  for (const r of document.querySelectorAll('input[name="level"]')) {
    r.addEventListener("change", () => { if (r.checked) sendSettings({ level: r.value }); });
  }
  $("#quick").addEventListener("change", (e) => sendSettings({ quick: e.target.checked }));
  $("#new-match-open").addEventListener("click", openNewMatch);
  // The rooms' buttons and the sound's switch work from the first paint, although
  // their modules come after the first card: room.js and public.js load when pressed,
  // and a change of the switch before sound.js is here is kept for it.
  $("#room-open").addEventListener("click", async () => (await import("./room.js")).openRoomDialog(ROOMS));
  let publicDialog = null; // "Chơi với mọi người" (public.js)
  $("#public-open").addEventListener("click", async () => {
    if (!publicDialog) publicDialog = new (await import("./public.js")).PublicDialog();
    publicDialog.open();
  });
  $("#sound").addEventListener("change", soundBeforeItIsHere);
}

function soundBeforeItIsHere(e) {
  const want = e.target.checked;
  loadSound().then((sound) => {
    sound.set(want);
    e.target.checked = want;
  });
}

function measureTopbar() {
  const h = document.querySelector(".topbar").offsetHeight;
  document.documentElement.style.setProperty("--topbar-h", `${h}px`);
}

// Once the first State is on the table: what the first card did not wait for.
function afterFirstCard(ondemand) {
  import("./pwa.js");
  loadSound().then((sound) => {
    $("#sound").removeEventListener("change", soundBeforeItIsHere);
    sound.wire($("#sound"));
  });
  if (!ondemand) import("./ondemand.js"); // "Chuyển sang máy khác"
  import("./achievements.js").then((m) => { // the panel and the statistics, a toast on the table
    achievements = m;
    m.paint(page.shown, renderStats);
    m.load(current(), renderStats);
  });
}

// No connection: the match as this browser kept it, read-only, rather than an empty
// table (once the rule facts are here, kept too: i18n.js).
async function showKept() {
  const kept = keptState();
  if (!kept) return;
  await rulesReady;
  if (!page.current()) page.showKept(kept);
}

// A retry's wait, cut short when the browser says the connection is back.
function backOnline(ms) {
  return new Promise((done) => {
    const stop = new AbortController();
    const t = setTimeout(() => { stop.abort(); done(); }, ms);
    addEventListener("online", () => { clearTimeout(t); done(); }, { once: true, signal: stop.signal });
  });
}

async function init() {
  wireHelp();
  wirePanels();
  measureTopbar();
  window.addEventListener("resize", measureTopbar);
  // A room's link (or a room this browser sits in): room.js drives the page instead.
  const ondemand = roomMayTakePage() ? await import("./ondemand.js") : null;
  if (ondemand && (await ondemand.enterRoom(ROOMS))) {
    import("./pwa.js");
    loadSound();
    return;
  }
  page = new TablePage({ transport: new SoloTransport(), mode: SOLO });
  wire();
  markBusy(true);
  document.body.dataset.phase = "loading";
  let first = null;
  for (let attempt = 0; !first; attempt++) {
    try {
      first = await firstState();
    } catch (e) {
      // moved to another device (410 moved): transfer.js says so, and nothing here
      // waits for a connection that is not lost
      if (e.code === "moved") return;
      if (!page.kept) $("#message").textContent = T.netError;
      import("./pwa.js"); // the "Không có kết nối" bar, without waiting for a State
      if (!attempt) showKept();
      await backOnline(Math.min(5000, 500 * 2 ** attempt));
    }
  }
  await rulesReady; // asked for as the page started, beside the State
  // held on the table if a trick was just taken; a reload in the middle of computer
  // turns carries on
  await page.open(first, () => afterFirstCard(ondemand));
}

init();
