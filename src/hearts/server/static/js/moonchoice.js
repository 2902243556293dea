// The moon choice on the table: the shooter under "Người bắn tự chọn" sees both
// outcomes, one tap each (single player and rooms).
import { SEAT_NAME, MOON_WORDS, T, signed } from "./i18n.js";
import { $ } from "./dom.js";

export function renderMoonChoice(s, { busy, choose }) {
  const box = $("#moon-choice");
  const h = s.hand;
  const open = h.phase === "moon_choice" && !!h.moon_choice;
  box.hidden = !open;
  const opts = $("#moon-choice-options");
  if (!open) { opts.replaceChildren(); opts.dataset.key = ""; return; }
  const key = String(s.version) + (busy ? "b" : "");
  if (opts.dataset.key === key) return;
  opts.dataset.key = key;
  const n = s.names || SEAT_NAME;
  const words = {
    add_to_others: MOON_WORDS.add_to_others(s.seats.length - 1),
    subtract_from_self: T.minusForYou,
  };
  opts.replaceChildren();
  for (const how of ["add_to_others", "subtract_from_self"]) {
    const outcome = h.moon_choice[how];
    const b = document.createElement("button");
    b.type = "button";
    b.className = "moon-option";
    b.dataset.choice = how;
    b.disabled = busy;
    const title = document.createElement("span");
    title.className = "mo-title";
    title.textContent = words[how];
    const list = document.createElement("span");
    list.className = "mo-totals";
    list.textContent = s.seats.map((seat) => `${n[seat]} ${signed(outcome.totals[seat])}`).join(" · ");
    b.append(title, list);
    b.setAttribute("aria-label", T.totalsAfter(words[how], list.textContent));
    b.addEventListener("click", () => choose(how));
    opts.append(b);
  }
}
