// Where the table's loose pieces go (the seats on the ellipse, the marks, "Vòng
// trước", the rules badge): each where the stylesheet puts it unless it lies over
// another piece, then the first place clear of them. Functions of a TableView.
import { $ } from "./dom.js";

// Boxes on the table, for placing its loose pieces (the marks, "Vòng trước"): an
// element's box in the table's coordinates (t: the table's own box), whether two
// overlap, and whether an element is drawn at all.
const boxIn = (t, r) => ({ l: r.left - t.left, t: r.top - t.top, r: r.right - t.left, b: r.bottom - t.top });
const overlap = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
const drawn = (e) => !e.hidden && e.getClientRects().length && getComputedStyle(e).visibility === "visible";

// Seats on the ellipse, each kept wholly inside the table (a plate near the edge
// slides in rather than hang over it). On a short, wide table of six or seven
// (layout.css sets --ring-edge there) the lower seats beside the trick go to the
// table's side, under the seats above them: on the ellipse their plates lay under
// the names below the trick's end cards (640×360); and they stay off South's plate
// in the bottom corner.
export function placeRing(view) {
  view.trickBoxes = null; // measured again: the trick may have another shape now
  const chip = $("#last-trick", view.table);
  chip.style.left = chip.style.top = chip.style.right = chip.style.bottom = "";
  $("#rules-badge", view.table).style.left = ""; // placeChip may move them
  if (!view.ring) {
    if (view.table.clientWidth) clearChip(view, view.table.getBoundingClientRect());
    placeMarks(view);
    return;
  }
  const W = view.table.clientWidth, H = view.table.clientHeight;
  if (!W || !H) return;
  const t = view.table.getBoundingClientRect();
  const southPlate = $(".seat-S .plate", view.table);
  const south = southPlate ? southPlate.getBoundingClientRect() : null;
  const pad = 8;
  const ring = [...view.table.querySelectorAll(".seat-ring")];
  // a short, narrow table of five or six (layout.css sets --ring-top): the plates in
  // one line across the top, in play order, the trick's row below them
  for (const root of ring) root.style.alignItems = "";
  delete view.table.dataset.zigzag;
  view.table.style.removeProperty("--line-drop");
  if (ring.length && getComputedStyle(ring[0]).getPropertyValue("--ring-top").trim() === "1") {
    placeLine(view, ring, W, pad);
    clearTrick(view, t);
    placeChip(view, t);
    placeMarks(view);
    return;
  }
  for (const root of ring) {
    const w = root.offsetWidth, h = root.offsetHeight;
    let x = (Number(root.dataset.x) / 100) * W;
    const y = (Number(root.dataset.y) / 100) * H;
    const edge = Number(root.dataset.y) > 50 && getComputedStyle(root).getPropertyValue("--ring-edge").trim() === "1";
    if (edge) x = x < W / 2 ? 0 : W;
    const left = Math.min(Math.max(x, w / 2 + pad), W - w / 2 - pad);
    let top = Math.min(Math.max(y, h / 2 + pad), H - h / 2 - pad);
    if (edge && south && south.width) {
      const sLeft = south.left - t.left - view.table.clientLeft, sRight = sLeft + south.width;
      const sTop = south.top - t.top - view.table.clientTop;
      if (left + w / 2 > sLeft && left - w / 2 < sRight) top = Math.min(top, sTop - 6 - h / 2);
    }
    root.style.left = `${Math.round(left)}px`;
    root.style.top = `${Math.round(top)}px`;
  }
  clearTrick(view, t);
  placeChip(view, t);
  clearBadge(view, t);
  placeMarks(view);
}

// The rules badge in its corner unless it lies over a seat's note at the pass
// ("nhận 3 lá của bạn" under the lower left plate, seven seats at 360×640): then
// along its line, the first place clear of the plates, the notes, the trick and
// "Vòng trước".
function clearBadge(view, t) {
  const badge = $("#rules-badge", view.table);
  if (!drawn(badge)) return;
  const b = boxIn(t, badge.getBoundingClientRect());
  if (!takenBoxes(view, t, ".seat-hint").some((h) => overlap(b, h))) return;
  const others = takenBoxes(view, t, ".seat .plate, .seat-hint, #last-trick, #table-note", true);
  const W = view.table.clientWidth, pad = 8, w = b.r - b.l;
  for (let x = pad; x + w <= W - pad; x += 4) {
    const q = { l: x, t: b.t, r: x + w, b: b.b };
    if (others.some((o) => overlap(q, o))) continue;
    badge.style.left = `${Math.round(x - view.table.clientLeft)}px`;
    return;
  }
}

// A short, narrow table of five or six: the plates in one line across the top, in
// play order, spaced by their plates (a note under a plate, "nhận 3 lá của bạn",
// wider than it hangs towards the middle at the line's ends: centred, it pushed the
// last plate past the table's edge at 360×640). Plates too wide for one line (six at
// their widest, "Dũng +26" above "126 8") go in a zigzag of two at the pass, the
// notes for screen readers alone (the plate's ring and the pass button say who
// receives), the trick's place lower by as much (layout.css's --line-drop).
function placeLine(view, ring, W, pad) {
  const last = ring.length - 1;
  const widths = ring.map((root) => $(".plate", root).offsetWidth);
  const room = W - 2 * pad - widths.reduce((a, b) => a + b, 0);
  // in the play a zigzag pushed the trick onto South's plate (six at their widest
  // at 360×640): one line there, as tight as it goes
  const passing = !!(view.snap && view.snap.hand && view.snap.hand.phase === "pass");
  if (room >= 2 * last || !passing) {
    ring.forEach((root, i) => { if (i === 0 || i === last) root.style.alignItems = i ? "flex-end" : "flex-start"; });
    const gap = Math.max(0, room) / Math.max(last, 1);
    let x = pad;
    ring.forEach((root, i) => {
      const w = root.offsetWidth;
      const middle = i === 0 && last ? x + w / 2 : i === last && last ? x + widths[i] - w / 2 : x + widths[i] / 2;
      root.style.left = `${Math.round(middle)}px`;
      root.style.top = `${Math.round(pad + root.offsetHeight / 2)}px`;
      x += widths[i] + gap;
    });
    return;
  }
  view.table.dataset.zigzag = "true";
  const widest = Math.max(...widths);
  const tall = Math.max(...ring.map((root) => $(".plate", root).offsetHeight));
  const step = (W - 2 * pad - widest) / Math.max(last, 1);
  ring.forEach((root, i) => {
    root.style.left = `${Math.round(pad + widest / 2 + i * step)}px`;
    root.style.top = `${Math.round(pad + tall / 2 + (i % 2) * (tall + 2))}px`;
  });
  view.table.style.setProperty("--line-drop", `${tall + 2}px`);
}

// The trick's places and names (boxIn), every place measured as in a full trick
// (layout.css's .measure shows the empty ones): measured once a placement, since
// the pieces placed after it do not move the trick (each showing and hiding made
// the browser lay the table out again, many times a card on a phone). ``shown``:
// those with a box at all (clearTrick), ``drawn``: those also visible.
function trickBoxes(view, t) {
  if (view.trickBoxes) return view.trickBoxes;
  view.trickEl.classList.add("measure");
  const shown = [], seen = [];
  for (const e of view.trickEl.querySelectorAll(".slot, .slot-name")) {
    if (!e.getClientRects().length) continue;
    const b = boxIn(t, e.getBoundingClientRect());
    shown.push(b);
    if (drawn(e)) seen.push(b);
  }
  view.trickEl.classList.remove("measure");
  view.trickBoxes = { shown, drawn: seen };
  return view.trickBoxes;
}

// The boxes (boxIn) of the drawn elements matching ``sel``, and with ``trick`` the
// trick's places and names measured as in a full trick.
function takenBoxes(view, t, sel, trick = false) {
  const boxes = [...view.table.querySelectorAll(sel)].filter(drawn).map((e) => boxIn(t, e.getBoundingClientRect()));
  return trick ? boxes.concat(trickBoxes(view, t).drawn) : boxes;
}

// The marks (hearts broken, Q♠ fallen) in their corner (the stylesheet's) unless they
// lie over a plate (seven seats at 640×360 and 1024×768, the top left plate; a wide
// North at four on a small phone): then the first corner, or middle of a side, where
// they lie clear of the plates, the trick, "Vòng trước" and the notes; in their
// short form (the symbols) if they fit nowhere in their long one.
function placeMarks(view) {
  const marks = $(".marks", view.table);
  marks.classList.remove("tight");
  delete marks.dataset.cramped;
  marks.style.left = marks.style.top = marks.style.right = marks.style.bottom = "";
  if (![...marks.querySelectorAll(".mark")].some(drawn) || !view.table.clientWidth) return;
  const t = view.table.getBoundingClientRect();
  const plates = takenBoxes(view, t, ".seat .plate");
  const m = boxIn(t, marks.getBoundingClientRect());
  if (!plates.some((p) => overlap(m, p))) return;
  const others = takenBoxes(view, t, ".seat .plate, #last-trick, #table-note, #rules-badge", true);
  const W = view.table.clientWidth, H = view.table.clientHeight, pad = 8;
  for (const tight of [false, true]) {
    marks.classList.toggle("tight", tight);
    const r = marks.getBoundingClientRect(), w = r.width, h = r.height;
    const ways = [[pad, pad], [W - pad - w, pad], [pad, H - pad - h], [W - pad - w, H - pad - h],
      [pad, (H - h) / 2], [W - pad - w, (H - h) / 2], [(W - w) / 2, pad], [(W - w) / 2, H - pad - h]];
    for (const [x, y] of ways) {
      const q = { l: x, t: y, r: x + w, b: y + h };
      if (others.some((o) => overlap(q, o))) continue;
      marks.style.left = `${Math.round(x)}px`;
      marks.style.top = `${Math.round(y)}px`;
      marks.style.right = marks.style.bottom = "auto";
      return;
    }
  }
  // nowhere clear (three to seven seats on a phone, the plates at their widest): the
  // short form in the stylesheet's corner
  marks.style.left = marks.style.top = "";
  marks.dataset.cramped = "true";
}

// Four seats: North's plate at its widest ("North 126 +26") on a small phone reached
// under "Vòng trước" in the top corner, and no other corner was free (360×640): the
// plate slides the least it can towards the other side, off the button, if it stays
// in the table; else the button moves (placeChip).
function clearChip(view, t) {
  const seat = $(".seat-N", view.table);
  const plate = seat && $(".plate", seat);
  const chip = $("#last-trick", view.table);
  if (seat) seat.style.left = "";
  if (plate && !chip.hidden && chip.getClientRects().length && plate.getClientRects().length) {
    const p = plate.getBoundingClientRect(), c = chip.getBoundingClientRect();
    const gap = 6, pad = 8;
    if (p.right > c.left - gap && c.right > p.left && p.bottom > c.top && c.bottom > p.top) {
      const d = p.right - (c.left - gap);
      if (p.left - d >= t.left + view.table.clientLeft + pad) seat.style.left = `calc(50% - ${Math.ceil(d)}px)`;
    }
  }
  placeChip(view, t);
}

// "Vòng trước" in its corner (the stylesheet's) unless a plate lies there (seven
// seats on a small phone, three on a landscape one in English): then in the first
// corner, or the top or bottom middle, clear of the plates, the trick, the marks, the notes
// and the hand's result; in the bottom left the rules badge moves beside it.
function placeChip(view, t) {
  const chip = $("#last-trick", view.table);
  const badge = $("#rules-badge", view.table);
  if (chip.hidden || !chip.getClientRects().length) return;
  // a seat's fan too: at 390×844 the button lay over East's cards
  const others = takenBoxes(view, t, ".seat .plate, .seat .fan, .seat-hint, .mark, #table-note, #result", true);
  const b = drawn(badge) ? boxIn(t, badge.getBoundingClientRect()) : null;
  const c = boxIn(t, chip.getBoundingClientRect());
  if (!others.some((o) => overlap(c, o)) && !(b && overlap(c, b))) return;
  const W = view.table.clientWidth, H = view.table.clientHeight, pad = 8;
  const w = c.r - c.l, h = c.b - c.t;
  const ways = [[W - pad - w, pad], [pad, pad], [(W - w) / 2, pad], [pad, H - pad - h], [W - pad - w, H - pad - h], [(W - w) / 2, H - pad - h],
    [pad, (H - h) / 2], [W - pad - w, (H - h) / 2]];
  for (const [x, y] of ways) {
    const q = { l: x, t: y, r: x + w, b: y + h };
    if (others.some((o) => overlap(q, o))) continue;
    let moved = null; // the badge beside the button, if the button lies over it
    if (b && overlap(q, b)) {
      moved = { l: q.r + 6, t: b.t, r: q.r + 6 + b.r - b.l, b: b.b };
      if (moved.r > W - pad || others.some((o) => overlap(moved, o))) continue;
    }
    chip.style.left = `${Math.round(x)}px`;
    chip.style.top = `${Math.round(y)}px`;
    chip.style.right = chip.style.bottom = "auto";
    if (moved) badge.style.left = `${Math.round(moved.l)}px`;
    return;
  }
}

// A plate on the ellipse may lie where the cards of a full trick (and the names
// under them) go: at five seats a row's end cards covered the side seats' plates
// (1024×768, 640×360), at three a wide English plate; or under "Vòng trước" in the
// top corner (three seats on a short table). Such a plate moves the least it can:
// beside, above or below what covers it, to the table's side, wherever it stays in
// the table clear of the trick, the button, the rules badge and the other plates.
function clearTrick(view, t) {
  const box = (r) => boxIn(t, r);
  const over = (a, b, m = 2) => a.l + m < b.r && b.l + m < a.r && a.t + m < b.b && b.t + m < a.b;
  const seen = (e) => e && !e.hidden && e.getClientRects().length;
  const parts = trickBoxes(view, t).shown; // every place, as in a full trick
  const blocks = [];
  if (parts.length) {
    blocks.push(parts.reduce((a, b) => ({ l: Math.min(a.l, b.l), t: Math.min(a.t, b.t), r: Math.max(a.r, b.r), b: Math.max(a.b, b.b) })));
  }
  const chip = $("#last-trick", view.table);
  if (seen(chip)) blocks.push(box(chip.getBoundingClientRect()));
  const badge = $("#rules-badge", view.table);
  const fixed = seen(badge) ? [box(badge.getBoundingClientRect())] : [];
  const W = view.table.clientWidth, H = view.table.clientHeight, pad = 8;
  const plates = [...view.table.querySelectorAll(".seat .plate")];
  const placed = plates.map((p) => box(p.getBoundingClientRect()));
  plates.forEach((plate, i) => {
    const root = plate.closest(".seat-ring");
    const p = placed[i];
    if (!root || !blocks.some((b) => over(p, b))) return;
    const w = p.r - p.l, h = p.b - p.t, cx = (p.l + p.r) / 2, cy = (p.t + p.b) / 2;
    // the seat's whole box (its note under the plate, "nhận 3 lá của bạn", may be
    // wider) stays in the table too: moved to the side, a note reached out of it
    const s = box(root.getBoundingClientRect());
    const ext = { l: p.l - s.l, r: s.r - p.r, t: p.t - s.t, b: s.b - p.b };
    const xs = [cx, cx < W / 2 ? pad + w / 2 : W - pad - w / 2];
    const ys = [cy, ...blocks.flatMap((b) => [b.t - 3 - h / 2, b.b + 3 + h / 2])];
    const ways = xs.flatMap((x) => ys.map((y) => [x, y]))
      .sort((a, b) => Math.hypot(a[0] - cx, a[1] - cy) - Math.hypot(b[0] - cx, b[1] - cy));
    for (const [x, y] of ways) {
      const q = { l: x - w / 2, r: x + w / 2, t: y - h / 2, b: y + h / 2 };
      if (q.l - ext.l < pad - 1 || q.r + ext.r > W - pad + 1 || q.t - ext.t < pad - 1 || q.b + ext.b > H - pad + 1) continue;
      if (blocks.some((b) => over(q, b)) || fixed.some((b) => over(q, b, 0))) continue;
      if (placed.some((o, j) => j !== i && over(q, o, 0))) continue;
      // the seat's box moves with its plate (its hint lies under the plate)
      root.style.left = `${Math.round(parseFloat(root.style.left) + x - cx)}px`;
      root.style.top = `${Math.round(parseFloat(root.style.top) + y - cy)}px`;
      placed[i] = q;
      return;
    }
  });
}
