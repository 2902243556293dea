// Card drawing: plain HTML + CSS, text symbols with U+FE0E (never emoji).
import { SUIT_SYMBOL, RANK_LABEL, cardSpoken, isRed } from "./i18n.js";
import { el } from "./dom.js";

// The inside of a card (shared by hand buttons, table cards and mini cards). Only the
// top corner is text; the pip, the court letter and the bottom corner repeat it as CSS
// content (data-t), so a card's visible text is what it shows once ("Q♠"), and a
// button's name can begin with it (voice control taps a card by what it shows).
function drawn(cls, text) {
  const e = el("span", cls);
  e.dataset.t = text;
  return e;
}

export function cardFace(card) {
  const rank = card[0], suit = card[1];
  const face = el("span", "face " + (isRed(card) ? "red" : "black"));
  face.setAttribute("aria-hidden", "true");
  const idx = el("span", "idx");
  idx.append(el("span", "r", RANK_LABEL[rank]), el("span", "s", SUIT_SYMBOL[suit]));
  face.append(idx);
  if ("JQK".includes(rank)) {
    const court = el("span", "court");
    court.append(drawn("cr", RANK_LABEL[rank]), drawn("cs", SUIT_SYMBOL[suit]));
    face.append(court);
  } else {
    face.append(drawn("pip" + (rank === "A" ? " ace" : ""), SUIT_SYMBOL[suit]));
  }
  const idx2 = el("span", "idx idx2");
  idx2.append(drawn("r", RANK_LABEL[rank]), drawn("s", SUIT_SYMBOL[suit]));
  face.append(idx2);
  return face;
}

// A card of South's hand: a real <button> with data-card and a Vietnamese name.
export function handCardButton(card) {
  const b = el("button", "card hand-card");
  b.type = "button";
  b.dataset.card = card;
  // what it shows, then its spoken name: "Q♠, Q bích"
  b.setAttribute("aria-label", `${RANK_LABEL[card[0]]}${SUIT_SYMBOL[card[1]]}, ${cardSpoken(card)}`);
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
