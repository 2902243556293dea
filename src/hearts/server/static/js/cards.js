// Card drawing: plain HTML + CSS, text symbols with U+FE0E (never emoji).
import { SUIT_SYMBOL, RANK_LABEL, cardSpoken, isRed } from "./i18n.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The inside of a card (shared by hand buttons, table cards and mini cards).
export function cardFace(card) {
  const rank = card[0], suit = card[1];
  const face = el("span", "face " + (isRed(card) ? "red" : "black"));
  face.setAttribute("aria-hidden", "true");
  const idx = el("span", "idx");
  idx.append(el("span", "r", RANK_LABEL[rank]), el("span", "s", SUIT_SYMBOL[suit]));
  face.append(idx);
  if ("JQK".includes(rank)) {
    const court = el("span", "court");
    court.append(el("span", "cr", RANK_LABEL[rank]), el("span", "cs", SUIT_SYMBOL[suit]));
    face.append(court);
  } else {
    face.append(el("span", "pip" + (rank === "A" ? " ace" : ""), SUIT_SYMBOL[suit]));
  }
  const idx2 = el("span", "idx idx2");
  idx2.append(el("span", "r", RANK_LABEL[rank]), el("span", "s", SUIT_SYMBOL[suit]));
  face.append(idx2);
  return face;
}

// A card of South's hand: a real <button> with data-card and a Vietnamese name.
export function handCardButton(card) {
  const b = el("button", "card hand-card");
  b.type = "button";
  b.dataset.card = card;
  b.setAttribute("aria-label", cardSpoken(card));
  b.append(cardFace(card));
  return b;
}

// A face-up card lying on the table.
export function tableCard(card, seat) {
  const d = el("div", "card table-card");
  d.dataset.card = card;
  d.dataset.seat = seat;
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", cardSpoken(card));
  d.append(cardFace(card));
  return d;
}

export function cardBack(cls = "") {
  const d = el("span", "card back " + cls);
  d.setAttribute("aria-hidden", "true");
  return d;
}

// Inline text form, e.g. for the tricks panel: "Q♠︎" coloured.
export function cardText(card) {
  const s = el("span", "ctext " + (isRed(card) ? "red" : "black"), RANK_LABEL[card[0]] + SUIT_SYMBOL[card[1]]);
  s.title = cardSpoken(card);
  return s;
}
