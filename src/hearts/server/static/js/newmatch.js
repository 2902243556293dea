// The "Trận mới" dialog: the table's rules (docs/api.md, Rules) and the difficulty.
// Its form lives in a template and is put into the dialog only while it is open.
import { MOON_WORDS, T, cardSpoken, defaultRules, handSize, removedCards, rulesReady, targetRange } from "./i18n.js";
import { $ } from "./dom.js";

export class NewMatchDialog {
  // current(): the State on screen; underWay(): leaving it asks first;
  // start(rules, level): begins the new match (returns a promise). The room dialog
  // (roomdialog.js) is this one in another <dialog>, opened by another button.
  constructor({ current, underWay, start, dialog = "#new-match-dialog", opener = "#new-match-open" }) {
    this.dialog = $(dialog);
    this.current = current;
    this.underWay = underWay;
    this.start = start;
    this.dialog.addEventListener("close", () => {
      this.dialog.replaceChildren();
      const back = $(opener);
      if (back && !back.hidden) back.focus();
    });
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.close(); });
  }

  async open() {
    await rulesReady; // (at once but in the page's first moments)
    const s = this.current();
    this.dialog.replaceChildren($("#new-match-template").content.cloneNode(true));
    this.form = $("form", this.dialog);
    this.fill((s && s.rules) || defaultRules(), (s && s.settings && s.settings.level) || "medium");
    $("#nm-close", this.dialog).addEventListener("click", () => this.close());
    $("#nm-default", this.dialog).addEventListener("click", () => this.ask(defaultRules()));
    $("#nm-start", this.dialog).addEventListener("click", () => {
      const rules = this.read();
      if (rules) this.ask(rules);
    });
    $("#nm-no", this.dialog).addEventListener("click", () => this.confirming(null));
    $("#nm-yes", this.dialog).addEventListener("click", () => this.go(this.pending));
    this.form.addEventListener("change", () => this.explain());
    this.form.addEventListener("submit", (e) => e.preventDefault());
    if (this.dialog.showModal) this.dialog.showModal(); else this.dialog.setAttribute("open", "");
    $("#nm-start", this.dialog).focus();
  }

  close() {
    if (this.dialog.close) this.dialog.close(); else { this.dialog.removeAttribute("open"); this.dialog.replaceChildren(); }
  }

  fill(rules, level) {
    const f = this.form;
    for (const r of f.querySelectorAll('input[name="players"]')) r.checked = Number(r.value) === rules.players;
    f.elements.qs_breaks_hearts.checked = !!rules.qs_breaks_hearts;
    for (const r of f.querySelectorAll('input[name="moon"]')) r.checked = r.value === rules.moon;
    f.elements.jd_bonus.checked = !!rules.jd_bonus;
    const { min, max } = targetRange();
    Object.assign(f.elements.target, { min, max, value: String(rules.target) });
    for (const r of f.querySelectorAll('input[name="nm-level"]')) r.checked = r.value === level;
    this.explain();
  }

  // The players' count names the cards removed and how many "nhà kia" a moon adds to.
  explain() {
    const f = this.form;
    const checked = f.querySelector('input[name="players"]:checked');
    const players = checked ? Number(checked.value) : defaultRules().players;
    const removed = removedCards(players);
    $("#nm-removed", this.dialog).textContent = removed.length
      ? T.removed(removed.map(cardSpoken).join(", "), handSize(players))
      : T.fullDeck;
    $("#nm-moon-add", this.dialog).textContent = MOON_WORDS.add_to_others(players - 1);
    $("#nm-error", this.dialog).hidden = true;
  }

  read() {
    const f = this.form;
    const target = Number(f.elements.target.value);
    const { min, max } = targetRange();
    if (!Number.isInteger(target) || target < min || target > max) {
      const err = $("#nm-error", this.dialog);
      err.textContent = T.badTarget(min, max);
      err.hidden = false;
      f.elements.target.focus();
      return null;
    }
    return {
      players: Number(f.querySelector('input[name="players"]:checked').value),
      qs_breaks_hearts: f.elements.qs_breaks_hearts.checked,
      moon: f.querySelector('input[name="moon"]:checked').value,
      jd_bonus: f.elements.jd_bonus.checked,
      target,
    };
  }

  level() {
    const r = this.form && this.form.querySelector('input[name="nm-level"]:checked');
    return r ? r.value : null;
  }

  // Mid-match the player confirms first; otherwise the match starts at once.
  ask(rules) {
    if (this.underWay()) this.confirming(rules);
    else this.go(rules);
  }

  confirming(rules) {
    this.pending = rules;
    $("#nm-confirm", this.dialog).hidden = !rules;
    $(".nm-actions", this.dialog).hidden = !!rules;
    if (rules) $("#nm-yes", this.dialog).focus();
  }

  async go(rules) {
    const level = this.level();
    this.close();
    await this.start({ ...rules }, level);
  }
}
