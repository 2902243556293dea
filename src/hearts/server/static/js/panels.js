// Side panels: "Các vòng trong ván" (tricks of this hand) and the score table.
import { cardText } from "./cards.js";
import { SEAT_NAME, T, rulesLine, signed } from "./i18n.js";
import { isDefaultRules } from "./rules.js";
import { el } from "./dom.js";

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
