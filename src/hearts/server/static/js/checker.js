// Cảnh báo nước đi's question (docs/api.md, Play checker), loaded once the switch is
// on: the server's line for the card tapped, "Vẫn đánh" (play it) and "Đánh 9♦" (play
// Khó's card instead). The server says which cards are flagged and why; this only asks.
import { T } from "./i18n.js";
import { $, el } from "./dom.js";

// ask(line, card, instead) → the card to play (card or instead), or null: neither
// (Escape, or a click outside): the player chooses again.
export function ask(line, card, instead) {
  const box = $("#checker-dialog");
  const keep = el("button", "ghost", T.checkerKeep);
  const other = el("button", "primary", T.checkerPlay(instead));
  keep.type = other.type = "button";
  keep.dataset.card = card;
  other.dataset.card = instead;
  const title = el("h2", "", T.checkerTitle);
  title.id = "ck-h";
  const why = el("p", "", line);
  why.id = "ck-line";
  const actions = el("div", "ck-actions");
  actions.append(keep, other);
  box.replaceChildren(title, why, actions);
  return new Promise((resolve) => {
    let answer = null;
    const close = (what) => { answer = what; box.close(); };
    keep.addEventListener("click", () => close(card));
    other.addEventListener("click", () => close(instead));
    box.onclick = (e) => { if (e.target === box) close(null); };
    box.addEventListener("close", () => { box.replaceChildren(); resolve(answer); }, { once: true });
    box.showModal();
    other.focus(); // the safer answer first: Enter plays Khó's card
  });
}
