// "Chơi với bạn bè": the "Trận mới" dialog's rules and difficulty, plus the time a
// player has for each turn and the creator's display name; "Tạo phòng" makes the room.
import { NewMatchDialog } from "./newmatch.js";
import { T } from "./i18n.js";
import { $ } from "./dom.js";

export const NAME_KEY = "hearts-name"; // the display name last typed in this browser

export function savedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}
export function saveName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* private mode */ }
}

export class RoomDialog extends NewMatchDialog {
  // create({rules, level, turn_seconds, name}): makes the room (returns a promise).
  constructor({ current, create }) {
    super({ current, underWay: () => false, start: null, dialog: "#room-dialog", opener: "#room-open" });
    this.create = create;
  }

  async open() {
    await super.open();
    $("#nm-h", this.dialog).textContent = T.roomTitle;
    $("#nm-default", this.dialog).hidden = true;
    $("#nm-start", this.dialog).textContent = T.makeRoom;
    $("#nm-error", this.dialog).before($("#room-extra-template").content.cloneNode(true));
    for (const r of this.form.querySelectorAll('input[name="turn"]')) r.checked = r.value === "30";
    this.form.elements["room-name"].value = savedName();
  }

  async go(rules) {
    const level = this.level();
    const turn = this.form.querySelector('input[name="turn"]:checked');
    const name = this.form.elements["room-name"].value.trim();
    const body = { rules: { ...rules }, level, turn_seconds: turn && turn.value ? Number(turn.value) : null };
    if (name) { body.name = name; saveName(name); }
    const button = $("#nm-start", this.dialog);
    button.disabled = true;
    try {
      await this.create(body);
    } catch (e) {
      button.disabled = false;
      const err = $("#nm-error", this.dialog);
      err.textContent = e.message || T.roomFailed;
      err.hidden = false;
    }
  }
}
