// Side panels: "Các vòng trong ván" (tricks of this hand) and the score table, and
// their place on a small screen (below: one file, not two, before the first card:
// bench/page_results.md).
import { cardText } from "./table.js";
import { SEAT_NAME, T, rulesLine, signed } from "./i18n.js";
import { isDefaultRules } from "./rules.js";
import { $, el } from "./dom.js";

export function renderTricks(snap) {
  const h = snap.hand;
  const names = snap.names || SEAT_NAME;
  const list = document.getElementById("tricks-list");
  const empty = document.getElementById("tricks-empty");
  const tricks = h.tricks || [];
  const key = JSON.stringify([snap.match.hand_number, tricks.length]);
  empty.hidden = tricks.length > 0;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren();
  tricks.forEach((t, i) => {
    const li = el("li", "trick-row");
    if (t.points) li.classList.add("has-points");
    const head = el("div", "trick-head");
    head.append(el("span", "tn", T.trickN(i + 1)), el("span", "tl", T.leads(names[t.leader])));
    const cards = el("div", "trick-cards");
    cards.style.gridTemplateColumns = `repeat(${t.cards.length}, minmax(0, 1fr))`;
    for (const p of t.cards) {
      const c = el("span", "tc" + (p.seat === t.winner ? " won" : ""));
      c.append(el("span", "ts", names[p.seat]), cardText(p.card));
      cards.append(c);
    }
    const foot = el("div", "trick-foot");
    const jack = t.cards.some((p) => p.card === "JD") && snap.rules && snap.rules.jd_bonus;
    foot.append(
      el("span", "tw", T.takes(names[t.winner])),
      el("span", "tp" + (t.points > 0 ? " pts" : t.points < 0 ? " bonus" : ""), T.points(signed(t.points)) + (jack ? " (J♦\uFE0E −10)" : "")),
    );
    li.append(head, cards, foot);
    list.append(li);
  });
  const panel = document.getElementById("tricks-scroll");
  const toEnd = () => { panel.scrollTop = panel.scrollHeight; };
  toEnd();
  requestAnimationFrame(() => requestAnimationFrame(toEnd));
}

export function renderScores(snap) {
  const m = snap.match;
  const names = snap.names || SEAT_NAME;
  const seats = snap.seats;
  const table = document.getElementById("score-table");
  const head = table.tHead.rows[0];
  const foot = table.tFoot.rows[0];
  // One column per seat, in play order (3 to 7 of them).
  const seatKey = seats.join(",");
  if (table.dataset.seats !== seatKey) {
    table.dataset.seats = seatKey;
    table.dataset.key = "";
    while (head.cells.length > 1) head.deleteCell(-1);
    while (foot.cells.length > 1) foot.deleteCell(-1);
    for (const s of seats) {
      const th = el("th", "", names[s]);
      th.scope = "col";
      head.append(th);
      foot.append(el("td", "", "0"));
    }
    table.classList.toggle("wide", seats.length > 5);
  }
  seats.forEach((s, i) => { head.cells[i + 1].textContent = names[s]; });
  // the match's own lines before the rows' early return: a new match at other rules
  // has the same empty rows as the last new match
  document.getElementById("score-target").textContent = T.targetLine(m.target);
  const line = document.getElementById("score-rules");
  line.hidden = !snap.rules || isDefaultRules(snap.rules);
  line.textContent = line.hidden ? "" : T.rulesOfMatch(rulesLine(snap.rules));
  const body = table.tBodies[0];
  const key = JSON.stringify([m.hands, m.totals, m.over]);
  if (table.dataset.key === key) return;
  table.dataset.key = key;
  body.replaceChildren();
  (m.hands || []).forEach((hd, i) => {
    const tr = el("tr");
    tr.append(el("th", "hn", String(i + 1)));
    tr.firstChild.scope = "row";
    for (const s of seats) {
      const td = el("td", "", signed(hd.points[s]));
      if (hd.moon === s) {
        // a crescent before the points, the words for screen readers and a pointer's
        // title: the word under the points widened its column and lifted the points
        // off their row's line (a phone's narrow panel)
        const words = hd.moon_scoring === "subtract_from_self" ? T.moonTagMinus : T.moonTag;
        td.classList.add("moon");
        td.title = words;
        const sign = el("span", "moon-tag");
        sign.setAttribute("aria-hidden", "true");
        td.prepend(sign);
        td.append(el("span", "sr-only", ` ${words}`));
      }
      if (hd.points[s] >= 13) td.classList.add("heavy");
      tr.append(td);
    }
    body.append(tr);
  });
  const low = Math.min(...seats.map((s) => m.totals[s]));
  seats.forEach((s, i) => {
    const c = foot.cells[i + 1];
    c.textContent = signed(m.totals[s]);
    c.classList.toggle("leader", (m.hands || []).length > 0 && m.totals[s] === low);
  });
  document.getElementById("score-empty").hidden = (m.hands || []).length > 0;
}

export function renderStats(stats) {
  const box = document.getElementById("stats");
  const tables = document.getElementById("stats-tables");
  tables.hidden = true;
  if (!stats) { box.hidden = true; return; }
  // Matches by the rules they were played with, when any was not the default table.
  const other = (stats.tables || []).filter((t) => !isDefaultRules(t.rules));
  if (other.length) {
    tables.hidden = false;
    tables.replaceChildren(el("div", "st-title", T.byRules));
    for (const t of stats.tables || []) {
      const best = t.best === null || t.best === undefined ? "–" : signed(t.best);
      const row = el("div", "st-row", T.rulesRow(isDefaultRules(t.rules) ? T.defaultRules : rulesLine(t.rules), t.played, t.won, best));
      row.dataset.rules = JSON.stringify(t.rules);
      tables.append(row);
    }
  }
  box.hidden = false;
  const best = stats.best === null || stats.best === undefined ? "–" : String(stats.best);
  document.getElementById("stats-text").textContent =
    T.statsText(stats.played, stats.won, stats.hands, stats.moons) +
    (stats.take_back_matches ? T.takeBackMatches(stats.take_back_matches) : "") +
    (stats.checker_plays ? T.checkerStats(stats.checker_asked, stats.checker_plays) : "");
  document.getElementById("stats-best").textContent = T.bestTotal(best);
}

// The side panels on a small screen ("Các vòng", "Bảng điểm", "Thành tích"): a tab
// each, one tap opens that panel over the table, a tap on the same tab, "Về bàn" or
// Escape closes it. On a wide screen the panels stand beside the table and the tabs
// are hidden (layout.css). The page's layout is CSS, but for the two moves below.
// While a panel lies over the table, the table and the hand under it are out of reach
// (no Tab stop, no screen reader visit); on a wide screen the panels stand beside it.
function coverTable() {
  const side = $(".side");
  const covered = !!document.body.dataset.panel && getComputedStyle(side).position === "absolute";
  $(".game").inert = covered;
}

// A landscape phone: the top bar is one line, with no room for the settings and the
// match's buttons both. "Trận mới", "Chơi với bạn bè" and "Chơi với mọi người" stay
// on the table screen, one tap away (issue 39, item 5); the settings (level, quick
// play, sound) go behind the top bar's "Cài đặt", one tap away too (issue 56, item 11:
// under "Các bảng" nobody looked for them), and back on a wider screen.
const LANDSCAPE_PHONE = "(orientation: landscape) and (max-height: 599px)";
function placeSettings(landscape) {
  const settings = $(".settings"), pop = $("#settings-pop");
  if (landscape) pop.append(settings);
  else {
    // (a browser without pop-ups has no hidePopover, nor knows ":popover-open")
    if (pop.hidePopover && pop.matches(":popover-open")) pop.hidePopover();
    $("#new-match-open").before(settings);
  }
}

// A hand's result and the moon's choice on a small screen, or beside a tablet's side
// panels, take the hand's place below the table (the hand is empty then), off the
// seats' plates and the table's notes (issue 39, item 3: over the table's middle they
// hid West's and East's); the end of a match still fills the table, and on a wide
// screen both lie over its middle (layout.css has the same query).
const SMALL = window.matchMedia("(max-width: 1199px), (max-height: 599px)");
function placeBoxes() {
  for (const box of [$("#result"), $("#moon-choice")]) {
    const below = SMALL.matches && !box.classList.contains("over");
    if (below && box.parentElement !== $(".game")) $("#hand").after(box);
    else if (!below && box.parentElement !== $("#table")) $("#table").append(box);
  }
}

export function wirePanels() {
  window.addEventListener("resize", coverTable);
  placeBoxes();
  SMALL.addEventListener("change", placeBoxes);
  new MutationObserver(placeBoxes).observe($("#result"), { attributes: true, attributeFilter: ["class"] });
  const landscape = window.matchMedia(LANDSCAPE_PHONE);
  placeSettings(landscape.matches);
  landscape.addEventListener("change", (e) => placeSettings(e.matches));
  const tabs = [...document.querySelectorAll("#panel-tabs button[data-panel]")];
  const show = (name) => {
    if (name) document.body.dataset.panel = name;
    else delete document.body.dataset.panel;
    for (const t of tabs) t.setAttribute("aria-expanded", String(t.dataset.panel === name));
    coverTable();
    if (name === "tricks") {
      const list = $("#tricks-scroll");
      list.scrollTop = list.scrollHeight;
    }
  };
  for (const t of tabs) {
    t.addEventListener("click", () => show(document.body.dataset.panel === t.dataset.panel ? null : t.dataset.panel));
  }
  $("#panel-close").addEventListener("click", () => {
    const open = tabs.find((t) => t.dataset.panel === document.body.dataset.panel);
    show(null);
    if (open) open.focus();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && document.body.dataset.panel && !document.querySelector("dialog[open]")) show(null);
  });
}
