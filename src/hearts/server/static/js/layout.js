// The side panels on a small screen ("Các vòng", "Bảng điểm", "Thành tích"): a tab
// each, one tap opens that panel over the table, a tap on the same tab, "Về bàn" or
// Escape closes it. On a wide screen the panels stand beside the table and the tabs
// are hidden (layout.css). The page's layout is CSS, but for the two moves below.
import { $ } from "./dom.js";

// While a panel lies over the table, the table and the hand under it are out of reach
// (no Tab stop, no screen reader visit); on a wide screen the panels stand beside it.
function coverTable() {
  const side = $(".side");
  const covered = !!document.body.dataset.panel && getComputedStyle(side).position === "absolute";
  $(".game").inert = covered;
}

// A landscape phone: the top bar is one line, with no room for the settings and the
// match's buttons both. "Trận mới", "Chơi với bạn bè" and "Chơi với mọi người" stay
// on the table screen, one tap away (issue 39, item 5); the settings (level, quick
// play, sound) go behind the top bar's "Cài đặt", one tap away too (issue 56, item 11:
// under "Các bảng" nobody looked for them), and back on a wider screen.
const LANDSCAPE_PHONE = "(orientation: landscape) and (max-height: 599px)";
function placeSettings(landscape) {
  const settings = $(".settings"), pop = $("#settings-pop");
  if (landscape) pop.append(settings);
  else {
    // (a browser without pop-ups has no hidePopover, nor knows ":popover-open")
    if (pop.hidePopover && pop.matches(":popover-open")) pop.hidePopover();
    $("#new-match-open").before(settings);
  }
}

// A hand's result and the moon's choice on a small screen, or beside a tablet's side
// panels, take the hand's place below the table (the hand is empty then), off the
// seats' plates and the table's notes (issue 39, item 3: over the table's middle they
// hid West's and East's); the end of a match still fills the table, and on a wide
// screen both lie over its middle (layout.css has the same query).
const SMALL = window.matchMedia("(max-width: 1199px), (max-height: 599px)");
function placeBoxes() {
  for (const box of [$("#result"), $("#moon-choice")]) {
    const below = SMALL.matches && !box.classList.contains("over");
    if (below && box.parentElement !== $(".game")) $("#hand").after(box);
    else if (!below && box.parentElement !== $("#table")) $("#table").append(box);
  }
}

export function wirePanels() {
  window.addEventListener("resize", coverTable);
  placeBoxes();
  SMALL.addEventListener("change", placeBoxes);
  new MutationObserver(placeBoxes).observe($("#result"), { attributes: true, attributeFilter: ["class"] });
  const landscape = window.matchMedia(LANDSCAPE_PHONE);
  placeSettings(landscape.matches);
  landscape.addEventListener("change", (e) => placeSettings(e.matches));
  const tabs = [...document.querySelectorAll("#panel-tabs button[data-panel]")];
  const show = (name) => {
    if (name) document.body.dataset.panel = name;
    else delete document.body.dataset.panel;
    for (const t of tabs) t.setAttribute("aria-expanded", String(t.dataset.panel === name));
    coverTable();
    if (name === "tricks") {
      const list = $("#tricks-scroll");
      list.scrollTop = list.scrollHeight;
    }
  };
  for (const t of tabs) {
    t.addEventListener("click", () => show(document.body.dataset.panel === t.dataset.panel ? null : t.dataset.panel));
  }
  $("#panel-close").addEventListener("click", () => {
    const open = tabs.find((t) => t.dataset.panel === document.body.dataset.panel);
    show(null);
    if (open) open.focus();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && document.body.dataset.panel && !document.querySelector("dialog[open]")) show(null);
  });
}
