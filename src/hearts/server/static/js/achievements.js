// Achievements (issue 10, items 3 and 4): the "Thành tích" panel (every goal with
// data-achievement / data-unlocked and its progress), the statistics by difficulty,
// a short toast when the server says a goal was unlocked, and the end-of-match
// lines (who took Q♠ most, what this match unlocked). The server decides every
// unlock; this module only shows what GET /api/achievements and the State say.
import { api } from "./api.js";
import { SEAT_NAME, T } from "./i18n.js";
import { achievementIcon } from "./icons.js";
import { $, el } from "./dom.js";

const LEVELS = ["easy", "medium", "hard"];
const TOASTED_KEY = "hearts-toasted";
const TOAST_MS = 3000;

let data = null;       // the last GET /api/achievements
let loadedFor = null;  // the finished-hand key it was loaded for
let loading = null;    // the look on its way, for loadingKey
let loadingKey;
let wanted = null;     // the latest finished hand asked for while a load ran

// The goals already toasted, for the whole browser: a goal unlocks once, and each new
// tab showed its toast again while the mark was the tab's own (sessionStorage).
function toasted() {
  try { return new Set(JSON.parse(localStorage.getItem(TOASTED_KEY) || "[]")); } catch { return new Set(); }
}
function remember(ids) {
  try { localStorage.setItem(TOASTED_KEY, JSON.stringify([...ids])); } catch { /* this page only */ }
}

// ---------------------------------------------------------------- the panel
function renderPanel() {
  const list = $("#achievements-list");
  if (!list || !data) return;
  const items = data.achievements || [];
  const count = items.filter((a) => a.unlocked).length;
  $("#achievements-count").textContent = `${count}/${items.length}`;
  list.replaceChildren(...items.map((a) => {
    const li = el("li", "achv" + (a.unlocked ? " unlocked" : ""));
    li.dataset.achievement = a.id;
    li.dataset.unlocked = a.unlocked ? "true" : "false";
    const icon = el("span", "achv-icon");
    icon.append(achievementIcon(a.id));
    icon.setAttribute("aria-hidden", "true");
    const text = el("div", "achv-text");
    text.append(el("span", "achv-name", a.name), el("span", "achv-cond", a.condition));
    if (a.goal) {
      const bar = el("progress", "achv-bar");
      bar.max = a.goal;
      bar.value = a.progress || 0;
      bar.setAttribute("aria-label", `${a.name}: ${a.progress || 0}/${a.goal}`);
      const row = el("span", "achv-progress");
      row.append(bar, el("span", "achv-n", `${a.progress || 0}/${a.goal}`));
      text.append(row);
    }
    const state = el("span", "achv-state", a.unlocked ? T.unlocked : T.locked);
    if (a.unlocked && a.unlocked_at) {
      const when = new Date(a.unlocked_at);
      state.append(el("span", "achv-when", when.toLocaleDateString(T.locale)));
      state.title = when.toLocaleString(T.locale);
    }
    li.append(icon, text, state);
    return li;
  }));
}

// Statistics by difficulty, with the win rate: refreshed after every hand.
export function renderLevelStats(stats) {
  const box = $("#stats-levels");
  if (!box) return;
  if (!stats) { box.hidden = true; return; }
  box.hidden = false;
  const rate = stats.played ? Math.round((100 * stats.won) / stats.played) : null;
  const head = el("div", "st-row st-main", T.statsLine(stats.played, stats.won, rate, stats.hands, stats.moons));
  head.dataset.stat = "summary";
  const rows = LEVELS.map((level) => {
    const s = (stats.levels || {})[level] || { hands: 0, average: null };
    // a real minus sign, as every number of the page (a moon of −26 at "Trừ 26")
    const avg = s.average === null || s.average === undefined ? "–" : (s.average < 0 ? "−" : "") + T.decimal(Math.abs(s.average));
    const row = el("div", "st-row", T.levelLine(T.level[level], s.hands, avg));
    row.dataset.level = level;
    return row;
  });
  box.replaceChildren(head, ...rows);
}

// ---------------------------------------------------------------- the toast
// One toast at a time, the next when it has gone: two side by side reached past the
// top bar (over "Các bảng" at 640×360). A goal counts as toasted once shown.
const queue = [];
let showing = false;

function toast(list) {
  const seen = toasted();
  for (const a of list) {
    if (!seen.has(a.id) && !queue.some((q) => q.id === a.id)) queue.push(a);
  }
  showNext();
}

function showNext() {
  const box = $("#toasts");
  if (showing || !queue.length || !box) return;
  const a = queue.shift();
  const seen = toasted();
  seen.add(a.id);
  remember(seen);
  showing = true;
  // data-achievement is the panel's hook alone (SPEC §4): the toast names its goal apart
  const t = el("div", "toast");
  t.dataset.toast = a.id;
  const icon = el("span", "toast-icon");
  icon.append(achievementIcon(a.id));
  icon.setAttribute("aria-hidden", "true");
  const text = el("div", "toast-text");
  text.append(el("span", "toast-title", T.toastTitle), el("span", "toast-name", a.name));
  t.append(icon, text);
  box.append(t);
  // it lies over the top bar: the player's first touch or key sends it away (the tap
  // goes through to the control under it), else it leaves by itself
  let gone = false;
  const leave = (fade) => {
    if (gone) return;
    gone = true;
    clearTimeout(timer);
    removeEventListener("pointerdown", now, true);
    removeEventListener("keydown", now, true);
    t.classList.add("leaving");
    setTimeout(() => { t.remove(); showing = false; showNext(); }, fade);
  };
  const now = () => leave(0);
  const timer = setTimeout(() => leave(400), TOAST_MS);
  addEventListener("pointerdown", now, true);
  addEventListener("keydown", now, true);
}

// ---------------------------------------------------------------- end of match
function renderMatchEnd(snap) {
  const queen = $("#result-queen"), unlocked = $("#result-unlocked");
  if (!queen || !unlocked) return;
  const over = !!snap.match.over && snap.hand.phase === "done";
  const ready = over && data && loadedFor === handKey(snap);
  queen.hidden = unlocked.hidden = !ready;
  if (!ready) return;
  const names = snap.names || SEAT_NAME;
  const counts = data.match.queens || {};
  const most = Math.max(0, ...Object.values(counts));
  const who = snap.seats.filter((s) => counts[s] === most);
  queen.textContent = most === 0 ? T.noQueen : T.queenMost(who.map((s) => names[s]).join(", "), most);
  const ids = new Set(data.match.unlocked || []);
  const got = (data.achievements || []).filter((a) => ids.has(a.id));
  unlocked.replaceChildren();
  if (!got.length) {
    unlocked.append(el("div", "ru-none", T.noneUnlocked));
    return;
  }
  unlocked.append(el("div", "ru-title", T.unlockedTitle));
  const list = el("ul", "ru-list");
  for (const a of got) {
    const li = el("li", "");
    const icon = achievementIcon(a.id);
    icon.classList.add("ru-icon");
    li.append(icon, ` ${a.name}`);
    li.dataset.matchAchievement = a.id;
    list.append(li);
  }
  unlocked.append(list);
}

// ---------------------------------------------------------------- wiring
// A finished hand (or none): the panel and statistics are loaded once per key.
function handKey(s) {
  return s && s.hand.phase === "done" ? `${s.match.hand_number}:${(s.match.hands || []).length}:${s.match.over}` : null;
}

export async function load(snap = null, onStats = null) {
  const key = handKey(snap);
  if (loading && loadingKey === key) return loading; // the same look already on its way
  loadingKey = key;
  const run = (async () => {
    const [list, stats] = await Promise.all([api.achievements(), api.stats().catch(() => null)]);
    data = list;
    loadedFor = key;
    renderPanel();
    renderLevelStats(stats);
    if (onStats) onStats(stats);
    if (snap) renderMatchEnd(snap);
  })();
  loading = run;
  try { await run; } catch { /* the panel stays as it was */ } finally { if (loading === run) loading = null; }
  // a hand finished while this loaded: load again for it
  if (wanted && handKey(wanted) !== loadedFor) { const next = wanted; wanted = null; await load(next, onStats); }
}

// Called with every snapshot painted: a finished hand on the table shows its toast
// and refreshes the panel; the end-of-match lines follow the data.
export function paint(snap, onStats) {
  if (!snap) return;
  if (snap.hand.phase === "done") {
    if ((snap.unlocked || []).length) toast(snap.unlocked);
    const key = handKey(snap);
    if (key !== loadedFor) {
      if (loading) wanted = snap;
      else load(snap, onStats);
    }
  }
  renderMatchEnd(snap);
}
