// The end of a hand on the table: its points, a moon and how it was scored, and at
// the end of the match the ranking and a summary. Functions of a TableView.
import { SEAT_NAME, T, signed } from "./i18n.js";
import { $ } from "./dom.js";

// ---- end-of-hand result on the table ----------------------------------
export function renderResult(view, snap) {
  const h = snap.hand;
  const box = $("#result");
  const show = h.phase === "done" && h.points;
  box.hidden = !show;
  if (!show) return;
  const names = snap.names || SEAT_NAME;
  $("#result-title").textContent = snap.match.over ? T.matchOverTitle : T.handPoints(snap.match.hand_number);
  renderMatchEnd(view, snap);
  const list = $("#result-points");
  list.hidden = !!snap.match.over;
  list.replaceChildren();
  for (const seat of view.seats) {
    const li = document.createElement("li");
    li.dataset.seat = seat;
    const n = document.createElement("span");
    n.className = "rn";
    n.textContent = names[seat];
    const p = document.createElement("span");
    p.className = "rp";
    p.textContent = signed(h.points[seat], true);
    const t = document.createElement("span");
    t.className = "rt";
    t.textContent = `= ${signed(snap.match.totals[seat])}`; // one minus sign: −26 = −26
    li.append(n, p, t);
    if (h.moon === seat) li.classList.add("moon");
    list.append(li);
  }
  const moon = $("#result-moon");
  moon.hidden = !h.moon;
  moon.replaceChildren();
  if (h.moon) {
    const big = document.createElement("div");
    big.textContent = T.moon(names[h.moon]);
    const small = document.createElement("div");
    small.className = "moon-sub";
    const you = h.moon === view.me;
    const chose = T.chose(names[h.moon], you);
    const how = h.moon_scoring === "subtract_from_self"
      ? T.moonMinusLine(names[h.moon], you)
      : T.moonAddLine(names[h.moon], T.othersCount(view.seats.length - 1));
    small.textContent = snap.rules && snap.rules.moon === "shooter_chooses" ? `${chose}: ${how}` : how;
    moon.append(big, small);
  }
  const auto = $("#result-auto");
  auto.hidden = !h.auto_finished;
  auto.textContent = T.autoFinished;
  const win = $("#result-winner");
  const m = snap.match;
  win.hidden = !m.over;
  if (m.over && m.winner) win.textContent = T.winner(names[m.winner], signed(m.totals[m.winner]));
  // The end of the match says how many hints were used (Gợi ý).
  const hints = $("#result-hints");
  hints.hidden = !m.over;
  hints.textContent = T.hintsUsed(m.hints);
  box.classList.toggle("over", !!m.over);
}

// The end of a match: the ranking by totals (the lowest first, ties share a place),
// the hands played, the moons, South's best and worst hand.
function renderMatchEnd(view, snap) {
  const m = snap.match;
  const ranking = $("#result-ranking"), summary = $("#result-summary");
  ranking.hidden = summary.hidden = !m.over;
  $("#result").classList.toggle("won", !!m.over && m.winner === view.me);
  if (!m.over) { ranking.replaceChildren(); summary.replaceChildren(); return; }
  const names = snap.names || SEAT_NAME;
  const seats = [...view.seats].sort((a, b) => m.totals[a] - m.totals[b]);
  ranking.replaceChildren();
  seats.forEach((seat) => {
    const place = 1 + seats.filter((s) => m.totals[s] < m.totals[seat]).length;
    const li = document.createElement("li");
    li.dataset.seat = seat;
    li.dataset.place = String(place);
    if (place === 1) li.classList.add("first");
    const p = document.createElement("span");
    p.className = "rk";
    p.textContent = `${place}.`;
    const n = document.createElement("span");
    n.className = "rn";
    n.textContent = names[seat];
    const t = document.createElement("span");
    t.className = "rp";
    t.textContent = signed(m.totals[seat]);
    li.append(p, n, t);
    ranking.append(li);
  });
  const hands = m.hands || [];
  const lines = [T.handsPlayed(hands.length)];
  const moons = hands.map((hd, i) => (hd.moon ? `${names[hd.moon]} (${T.handN(i + 1)})` : null)).filter(Boolean);
  if (moons.length) lines.push(T.moons(moons.join(", ")));
  if (hands.length) {
    const mine = hands.map((hd, i) => ({ i, p: hd.points[view.me] }));
    const best = mine.reduce((a, b) => (b.p < a.p ? b : a));
    const worst = mine.reduce((a, b) => (b.p > a.p ? b : a));
    const say = (x) => `${T.handN(x.i + 1)} (${signed(x.p, true)})`;
    lines.push(T.bestWorst(say(best), say(worst)));
  }
  summary.replaceChildren(...lines.map((text) => {
    const d = document.createElement("div");
    d.textContent = text;
    return d;
  }));
}
