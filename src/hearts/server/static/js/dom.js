// Small helpers of every module of the page.
export const $ = (sel, root = document) => root.querySelector(sel);

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const now = () => performance.now();
export const reducedMotion = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Test hook (docs/testing.md): the browser tests set window.__heartsTestPace (a
// factor between 0 and 1) before the page's scripts run, to shorten the waits between
// computer cards and the hold of a finished trick. Players never set it: factor 1.
const TEST_PACE = (() => { const f = Number(window.__heartsTestPace); return f > 0 && f < 1 ? f : 1; })();
export const paced = (ms) => ms * TEST_PACE;

// The page's test hook ``data-busy`` on <body> (docs/testing.md): "true" while the page
// acts for the player, and while a module the table asked for on the way (result.js,
// moonchoice.js) has yet to draw its part: a page that says it waits for the player
// shows all of its table.
let acting = false;
const drawing = new Set();
const showBusy = () => { document.body.dataset.busy = acting || drawing.size ? "true" : "false"; };
export function markBusy(busy) {
  acting = busy;
  showBusy();
}
export function drawnLater(promise) {
  drawing.add(promise);
  showBusy();
  const done = () => { drawing.delete(promise); showBusy(); };
  promise.then(done, done);
  return promise;
}
