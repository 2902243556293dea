// Side panels: "Các vòng trong ván" (tricks of this hand) and the score table.
import { cardText } from "./cards.js";
import { SEAT_NAME } from "./i18n.js";

const SEATS = ["S", "W", "N", "E"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

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
    head.append(el("span", "tn", `Vòng ${i + 1}`), el("span", "tl", `${names[t.leader]} đánh trước`));
    const cards = el("div", "trick-cards");
    for (const p of t.cards) {
      const c = el("span", "tc" + (p.seat === t.winner ? " won" : ""));
      c.append(el("span", "ts", names[p.seat]), cardText(p.card));
      cards.append(c);
    }
    const foot = el("div", "trick-foot");
    foot.append(el("span", "tw", `${names[t.winner]} ăn`), el("span", "tp" + (t.points ? " pts" : ""), `${t.points} điểm`));
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
  const table = document.getElementById("score-table");
  const head = table.tHead.rows[0];
  SEATS.forEach((s, i) => { head.cells[i + 1].textContent = names[s]; });
  const body = table.tBodies[0];
  const key = JSON.stringify([m.hands, m.totals, m.over]);
  if (table.dataset.key === key) return;
  table.dataset.key = key;
  body.replaceChildren();
  (m.hands || []).forEach((hd, i) => {
    const tr = el("tr");
    tr.append(el("th", "hn", String(i + 1)));
    tr.firstChild.scope = "row";
    for (const s of SEATS) {
      const td = el("td", "", String(hd.points[s]));
      if (hd.moon === s) {
        td.classList.add("moon");
        td.append(el("span", "moon-tag", "bắn trăng"));
      }
      if (hd.points[s] >= 13) td.classList.add("heavy");
      tr.append(td);
    }
    body.append(tr);
  });
  const foot = table.tFoot.rows[0];
  const low = Math.min(...SEATS.map((s) => m.totals[s]));
  SEATS.forEach((s, i) => {
    const c = foot.cells[i + 1];
    c.textContent = String(m.totals[s]);
    c.classList.toggle("leader", (m.hands || []).length > 0 && m.totals[s] === low);
  });
  document.getElementById("score-empty").hidden = (m.hands || []).length > 0;
  document.getElementById("score-target").textContent = `Trận kết thúc khi có người từ ${m.target || 100} điểm trở lên; ai ít điểm nhất thắng.`;
}

export function renderStats(stats) {
  const box = document.getElementById("stats");
  if (!stats) { box.hidden = true; return; }
  box.hidden = false;
  const best = stats.best === null || stats.best === undefined ? "–" : String(stats.best);
  document.getElementById("stats-text").textContent =
    `Đã chơi ${stats.played} trận, thắng ${stats.won} · ${stats.hands} ván · bắn trăng ${stats.moons} lần · tổng thấp nhất một trận ${best}`;
}
