// The single-player page: talks to the server (api.js), paces computer turns, feeds
// the hand's controller (controller.js) with display snapshots. It never decides what is legal: it shows
// what the server sends (legal, illegal_reasons, points, ...).
import { api } from "./api.js";
import * as fairness from "./fairness.js";
import { firstState } from "./boot.js";
import { HandController, announce } from "./controller.js";
import { renderStats } from "./panels.js";
import { wirePanels } from "./layout.js";
import { T, SEAT_NAME, LANG, chooseLang } from "./i18n.js";
import { playedSeq, intermediate, makePresenter, loadSound } from "./steps.js";
import { roomMayTakePage } from "./roomstore.js";
import { leadCard, rulesReady } from "./rules.js";
import { $, drawnLater, markBusy, now, paced, reducedMotion, sleep } from "./dom.js";

// Not needed for the first card: pwa.js, achievements.js, sound.js and ondemand.js (the
// rooms' and the transfer's buttons) are asked for once it is on the table (index.html's
// script has asked for the State before this module runs: on a slow link these files
// would share the link with its answer; over HTTP/1.1, six files at a time, each six
// cost a round trip: bench/page_results.md); moonchoice.js when a moon choice is.
let achievements = null; // achievements.js once here: the panel, the toasts
let moonChoice = null; // moonchoice.js once here
// The server says this browser's progress has moved (api.js), maybe at the first State.
addEventListener("hearts:moved", async () => (await import("./transfer.js")).moved());

let server = null;      // latest state from the server
const ROOMS = { current: () => server }; // what room.js asks of the solo table
let shown = null;       // snapshot on screen (may lag behind while animating)
let busy = true;
let flash = null;       // {text, version, until}
let statsLoadedFor = null;
let hint = null;        // {version, cards: Set, reasons, why}: Gợi ý for the position on screen

let hand = null; // the hand's controller, made in init() unless room.js takes the page

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

// ---------------------------------------------------------------- pacing
function quick() {
  const s = (server && server.settings) || {};
  return !!s.quick;
}
const gapMs = () => paced(quick() ? 220 : 450);     // between computer cards
const holdMs = () => paced(quick() ? 500 : 1000);   // finished trick stays on the table
const flightMs = () => (reducedMotion() ? 0 : 260 * (quick() ? 0.55 : 1) + 20); // a card flying to the table

// ---------------------------------------------------------------- painting
function names(s) { return (s && s.names) || SEAT_NAME; }
// South is the first seat ("S" at four players, "P1" at other tables).
function me(s) { return s.seats[0]; }
function passCount(s) { return s.hand.pass_count; }
function baseMessage(s) {
  const h = s.hand, n = names(s);
  if (s.match.over) return { text: T.matchDone + (s.match.winner ? " " + T.winner(n[s.match.winner], s.match.totals[s.match.winner]) : "") };
  if (h.phase === "pass") {
    if (!h.passed) return { text: `${T.passHint(h.pass_direction, n[h.pass_to], passCount(s))} · ${T.chosen(hand.selected.size, passCount(s))}` };
    return { text: T.waitingPasses };
  }
  if (h.phase === "moon_choice") return { text: T.moonChoose, kind: "turn" };
  if (h.phase === "done") return { text: T.handDone };
  // the hold after a trick: who took it, before anyone leads the next
  if (h.trick_winner && (h.tricks || []).length) return { text: T.tookTrick(n[h.trick_winner], h.tricks[h.tricks.length - 1].points) };
  if (h.turn === me(s)) {
    const fresh = !(h.tricks || []).length && !(h.trick || []).length;
    const lead = fresh && (h.legal || []).length === 1 && h.legal[0] === leadCard(s.rules.players) ? h.legal[0] : null;
    return { text: lead ? T.yourLead(lead) : T.yourTurn, kind: "turn" };
  }
  if (h.turn) return { text: T.isPlaying(n[h.turn]) };
  return { text: "" };
}

function renderMoon(s) {
  if (moonChoice) moonChoice.renderMoonChoice(s, { busy, choose: chooseMoon });
  else if (s.hand.phase === "moon_choice") {
    drawnLater(import("./moonchoice.js").then((m) => { moonChoice = m; paint(shown); }));
  }
}

function paint(s = shown) {
  if (!s) return;
  shown = s;
  // A hint belongs to the position it was given for: gone once anything moves.
  if (hint && hint.version !== s.version) hint = null;
  hand.paint(s, { busy, hinted: hint ? hint.cards : null });

  const h = s.hand;
  // instruction / reason line
  const msg = $("#message");
  let m = baseMessage(s);
  if (flash && flash.version === (server && server.version) && now() < flash.until) m = { text: flash.text, kind: flash.kind || "warn" };
  msg.textContent = m.text;
  msg.className = m.kind || "";

  // the buttons other than the hand's (controller.js)
  const passing = h.phase === "pass" && !h.passed;
  const choosing = !s.match.over && (passing || (h.phase === "play" && h.turn === me(s)));
  $("#hint-button").hidden = !choosing;
  $("#hint-button").disabled = busy || !!hint;
  renderHint();
  $("#next-hand").hidden = !(h.phase === "done" && !s.match.over);
  $("#review-open").hidden = h.phase !== "done";
  $("#next-hand").disabled = busy;
  $("#new-match").hidden = !s.match.over;
  $("#new-match").disabled = busy;
  // One "Trận mới" button at a time: the top bar's, or the action bar's at the end.
  $("#new-match-open").hidden = !!s.match.over;
  renderMoon(s);
  $("#retry").hidden = !retryVisible;

  // settings controls mirror the server
  const st = s.settings || {};
  for (const r of document.querySelectorAll('input[name="level"]')) r.checked = r.value === st.level;
  $("#quick").checked = !!st.quick;
  $("#take-back-setting").checked = st.take_back !== false;

  if (s.match.over && statsLoadedFor !== s.version) { statsLoadedFor = s.version; loadStats(); }
  // the toast, the "Thành tích" panel and the statistics, after every finished hand
  if (achievements) achievements.paint(s, renderStats);
  fairness.look(s);
  fairness.paint(s);
}

function setBusy(b) {
  busy = b;
  markBusy(b);
  if (shown) paint(shown);
}

function showFlash(text, kind = "warn") {
  flash = { text, kind, version: server && server.version, until: now() + 4000 };
  paint(shown);
  clearTimeout(showFlash.t);
  showFlash.t = setTimeout(() => paint(shown), 4100);
}

// ---------------------------------------------------------------- transitions
// Show the way from `prev` (on screen) to `next`, one card at a time.
const present = makePresenter({ paint, announce, names, gapMs, holdMs, flightMs });

// ---------------------------------------------------------------- server calls
function needsStep(s) {
  if (!s || s.match.over) return false;
  const h = s.hand;
  if (h.phase === "play") return !!h.turn && h.turn !== me(s);
  if (h.phase === "pass") return !!h.passed && h.turn !== me(s);
  return false;
}

let retryVisible = false;

async function adoptError(e) {
  if (e.state) {             // 409 stale (or any error that carries the state): adopt it
    server = e.state;
    paint(server);
    return;
  }
  if (e.code === "network") {
    showFlash(T.netError);
    return;
  }
  showFlash(e.message || T.error);
  try { server = await api.state(); paint(server); } catch { /* keep what we have */ }
}

async function driveComputers() {
  let failures = 0;
  while (needsStep(server)) {
    let next;
    try {
      next = await api.step(server.version);
    } catch (e) {
      if (e.state) { server = e.state; await present(shown, e.state); continue; }
      failures++;
      if (e.code === "not_computer_turn" || e.code === "wrong_phase") {
        try { server = await api.state(); paint(server); } catch { /* retry below */ }
        if (failures < 5) continue;
      }
      if (failures >= 6) { retryVisible = true; showFlash(T.netError); return; }
      if (e.code === "network" || e.status >= 500) showFlash(T.netError);
      await sleep(Math.min(4000, 300 * 2 ** failures));
      try { server = await api.state(); } catch { /* try again */ }
      continue;
    }
    failures = 0;
    server = next;
    await present(shown, next);
  }
}

// Runs one user action and then the computer turns; the page is busy meanwhile.
async function run(action) {
  if (busy) return;
  retryVisible = false;
  setBusy(true);
  try {
    if (action) await action();
  } catch (e) {
    await adoptError(e);
  }
  try {
    await driveComputers();
  } catch (e) {
    await adoptError(e);
  } finally {
    flash = flash && flash.version === server.version ? flash : null;
    setBusy(false);
    if (action) hand.placeFocus(server);
    // never leave the table hanging: if computers still have to move, try again
    if (needsStep(server)) setTimeout(() => run(null), retryVisible ? 5000 : 1200);
  }
}

// ---------------------------------------------------------------- user actions
// South's card, and the cards chosen to pass (HandController says when).
function play(card) {
  run(async () => {
    const next = await api.play(server.version, card);
    server = next;
    await present(shown, next);
  });
}

function pass(cards) {
  run(async () => {
    const next = await api.pass(server.version, cards);
    hand.passed();
    server = next;
    await present(shown, next);
  });
}

// Gợi ý: the server's Khó marks its card(s) on the hand and says why.
function doHint() {
  if (busy || hint) return;
  run(async () => {
    const got = await api.hint(server.version);
    server = got.state;
    const cards = got.card ? [got.card] : got.cards || [];
    hint = { version: got.state.version, cards: new Set(cards), reasons: got.reasons || [], why: got.why };
    hand.applyHint(got.state, cards);  // one tap: the pass chosen, or the card raised
    await present(shown, got.state);
  });
}

// Đi lại: South's last card and the computers' replies go back; the table is
// painted as the server has it again.
function doTakeBack() {
  run(async () => {
    server = await api.takeBack(server.version);
    hand.reset();
    paint(server);
    announce(T.tookBack);
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

function doNextHand() {
  run(async () => {
    const sent = fairness.seedFor(server);
    server = await api.nextHand(server.version, sent.seed);
    fairness.dealt(sent, server);
    hand.reset();
    paint(server);
  });
}

// A new match at ``rules`` (null: the rules of the match on the table).
function doNewMatch(rules = null, level = null) {
  return run(async () => {
    if (level && server && server.settings.level !== level) await sendSettings({ level });
    const sent = fairness.seedFor(server);
    server = await api.newMatch(server ? server.version : 0, rules || (server && server.rules) || null, sent.seed);
    fairness.dealt(sent, server);
    hand.reset();
    paint(server);
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
    reviewDialog ||= new ReviewDialog({ current: () => server });
  }
  reviewDialog.open();
}

// "Trận mới" (newmatch.js, loaded when first pressed)
let newMatchDialog = null;
async function openNewMatch() {
  const { NewMatchDialog } = await import("./newmatch.js");
  newMatchDialog ||= new NewMatchDialog({
    current: () => server,
    underWay: () => underWay(server),
    start: (rules, level) => doNewMatch(rules, level),
  });
  newMatchDialog.open();
}

function chooseMoon(how) {
  run(async () => {
    server = await api.moon(server.version, how);
    paint(server);
  });
}

async function sendSettings(change) {
  try {
    const res = await api.settings(change);
    if (!server) return;
    if (!busy && res.version !== server.version) { server = res; paint(server); return; }
    server = { ...server, settings: res.settings, version: Math.max(server.version, res.version) };
    if (shown) shown = { ...shown, settings: res.settings };
    paint(shown);
  } catch (e) {
    showFlash(e.message || T.error);
    if (shown) paint(shown);
  }
}

async function loadStats() {
  try { renderStats(await api.stats()); } catch { renderStats(null); }
}

// ---------------------------------------------------------------- wiring
// "Luật chơi": on every page, a room's too.
function wireHelp() {
  const help = $("#help");
  const closeHelp = () => { if (help.close) help.close(); else help.removeAttribute("open"); };
  const words = $("#help-template");
  $("#help-button").addEventListener("click", async () => {
    if (!words.content.childElementCount) {
      try {
        const got = await fetch(new URL("../help.vi.html", import.meta.url));
        const text = got.ok ? await got.text() : "";
        words.content.replaceChildren(...new DOMParser().parseFromString(text, "text/html").body.children);
      } catch { showFlash(T.netError); return; }
    }
    if (!words.content.childElementCount) { showFlash(T.netError); return; }
    help.replaceChildren(words.content.cloneNode(true));
    $("#help-close").addEventListener("click", closeHelp);
    if (help.showModal) help.showModal(); else help.setAttribute("open", "");
    $("#help-close").focus();
  });
  help.addEventListener("close", () => { help.replaceChildren(); $("#help-button").focus(); });
  help.addEventListener("click", (e) => { if (e.target === help) closeHelp(); });
}

function wire() {
  $("#hint-button").addEventListener("click", doHint);
  $("#take-back-setting").addEventListener("change", (e) => sendSettings({ take_back: e.target.checked }));
  $("#review-open").addEventListener("click", openReview);
  $("#review-file").addEventListener("click", openReview);
  $("#next-hand").addEventListener("click", doNextHand);
  $("#new-match").addEventListener("click", openNewMatch);
  $("#retry").addEventListener("click", () => run(async () => { server = await api.state(); paint(server); }));
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

// Loaded right after a trick was taken (nobody has led the next one): the trick is
// held on the table as if it had just been played, then cleared.
async function holdAfterReload(s) {
  const h = s.hand;
  if (h.phase !== "play" || (h.trick || []).length || !(h.tricks || []).length) return;
  const seq = playedSeq(s);
  paint(intermediate(s, s, seq, seq.length, false));
  await sleep(holdMs());
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
  hand = new HandController({
    current: () => server,
    busy: () => busy,
    say: showFlash,
    hush: () => { flash = null; },
    repaint: () => paint(shown),
    play,
    pass,
    takeBack: doTakeBack,
    waitText: T.wait,
  });
  wire();
  markBusy(true);
  document.body.dataset.phase = "loading";
  for (let attempt = 0; !server; attempt++) {
    try {
      server = await firstState();
    } catch (e) {
      $("#message").textContent = T.netError;
      import("./pwa.js"); // the "Không có kết nối" bar, without waiting for a State
      await sleep(Math.min(5000, 500 * 2 ** attempt));
    }
  }
  await rulesReady; // asked for as the page started, beside the State
  await holdAfterReload(server);
  paint(server);
  import("./pwa.js");
  loadSound().then((sound) => {
    $("#sound").removeEventListener("change", soundBeforeItIsHere);
    sound.wire($("#sound"));
  });
  if (!ondemand) import("./ondemand.js"); // "Chuyển sang máy khác"
  import("./achievements.js").then((m) => { // the panel and the statistics, a toast on the table
    achievements = m;
    m.paint(shown, renderStats);
    m.load(server, renderStats);
  });
  busy = false;
  await run(null); // a reload in the middle of computer turns carries on
}

init();
