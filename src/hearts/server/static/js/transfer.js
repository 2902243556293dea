// Chuyển sang máy khác (issue 39, item 17; players/transfer.py): this browser's match,
// statistics and achievements move to another one, with no account. "Chuyển sang máy
// khác" (in the Thành tích panel) asks the server for a one-time code and shows it
// with its link /t/<code> and the link's QR code; the other browser opens the link
// (or types the code), says "Nhận", and gets the player's new token. The old browser
// is told at its next call (410 moved, api.js) and may start afresh. Loaded when
// needed (ondemand.js).
import { adoptToken, forgetToken, transferApi } from "./api.js";
import { A } from "./i18n.js";
import { el } from "./dom.js";
import { qrSrc, wireShare } from "./share.js";

const CODE_IN_PATH = /^\/t\/([A-Za-z0-9-]{4,64})\/?$/;
const link = (code) => `${location.origin}/t/${code}`;

function button(text, cls, onClick) {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

// A dialog of this module, removed when closed.
function openDialog(id, title, closable = true) {
  const d = el("dialog", "app-dialog");
  d.id = id;
  d.setAttribute("aria-labelledby", `${id}-h`);
  const top = el("div", "help-top");
  const h = el("h2", "", title);
  h.id = `${id}-h`;
  top.append(h);
  if (closable) top.append(button(A.close, "ghost", () => d.close()));
  else d.addEventListener("cancel", (e) => e.preventDefault());
  d.append(top);
  d.addEventListener("close", () => d.remove());
  document.body.append(d);
  d.showModal();
  return d;
}

function errorLine() {
  const p = el("p", "nm-error");
  p.setAttribute("role", "alert");
  p.hidden = true;
  return p;
}

// The claim's id (docs/api.md, Transfer), kept until the token is in hand: a claim
// whose answer was lost (network error, server restarting) is sent again with the
// same id and answers the same token.
const CLAIM_KEY = "hearts-transfer-claim";
const plain = (code) => code.toUpperCase().replace(/[-\s]/g, "");

function claimId(code) {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(CLAIM_KEY) || "null"); } catch { kept = null; }
  if (kept && kept.code === plain(code) && /^[0-9a-f]{32}$/.test(kept.id)) return kept.id;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  try { localStorage.setItem(CLAIM_KEY, JSON.stringify({ code: plain(code), id })); } catch { /* private mode */ }
  return id;
}

const RETRIES = [1000, 3000]; // ms before each new try after a network error
const lost = (e) => e.code === "network" || e.status >= 500;

async function claimOnce(code, id) {
  for (let i = 0; ; i += 1) {
    try {
      return await transferApi.claim(code, id);
    } catch (e) {
      if (!lost(e) || i >= RETRIES.length) throw e;
      await new Promise((done) => setTimeout(done, RETRIES[i]));
    }
  }
}

async function claim(code, error, go) {
  go.disabled = true;
  try {
    const got = await claimOnce(code, claimId(code));
    adoptToken(got.token);
    try {
      localStorage.removeItem(CLAIM_KEY);
      localStorage.removeItem("hearts-room");
    } catch { /* private mode */ }
    location.replace("/");
  } catch (e) {
    error.textContent = lost(e) ? A.transferNet : e.message;
    error.hidden = false;
    go.disabled = false; // "Nhận" again: the same claim id
  }
}

// "Nhận từ máy khác": a code typed by hand.
function receiveForm() {
  const form = el("form", "transfer-receive");
  const label = el("label", "", A.transferType);
  const input = el("input");
  input.name = "transfer-code";
  input.autocomplete = "off";
  input.setAttribute("autocapitalize", "characters");
  input.maxLength = 20;
  input.placeholder = "ABCDE-FGHJK-MNPQR";
  label.append(input);
  const error = errorLine();
  const go = el("button", "ghost", A.transferTake);
  go.type = "submit";
  form.append(el("h3", "", A.transferReceive), label, go, error);
  form.addEventListener("submit", (e) => { e.preventDefault(); claim(input.value.trim(), error, go); });
  return form;
}

export async function give() {
  const d = openDialog("transfer-dialog", A.transferOpen);
  const body = el("div", "app-body");
  const error = errorLine();
  body.append(el("p", "", A.transferSay), error);
  d.append(body, el("div", "app-body", ""));
  d.lastChild.append(receiveForm());
  try {
    const got = await transferApi.create();
    const url = link(got.code);
    const code = el("p", "transfer-code", got.code);
    code.id = "transfer-code";
    const a = el("a", "room-link", url);
    a.href = url;
    a.id = "transfer-link";
    a.addEventListener("click", (e) => e.preventDefault()); // opened on the other device
    const copy = button(A.copy, "ghost", () => navigator.clipboard.writeText(url).then(() => { copy.textContent = A.copied; }, () => {}));
    const share = button(A.share, "ghost", () => {});
    wireShare(share, A.transferOpen, A.transferShareText, url);
    const img = el("img", "qr-code");
    img.alt = A.transferQr;
    img.width = img.height = 164;
    img.src = qrSrc(url);
    const actions = el("div", "invite-actions");
    actions.append(copy, share);
    body.append(code, a, actions, img, el("p", "muted", A.transferWhen));
  } catch (e) {
    error.textContent = e.code === "network" ? A.transferNet : e.message;
    error.hidden = false;
  }
}

// Opened at /t/<code>: the player says "Nhận" (a link preview changes nothing).
function receive(code) {
  const d = openDialog("transfer-claim", A.transferReceive);
  const body = el("div", "app-body");
  const error = errorLine();
  const go = button(A.transferTake, "primary", () => claim(code, error, go));
  const no = button(A.cancel, "ghost", () => { d.close(); });
  const actions = el("div", "invite-actions");
  actions.append(go, no);
  body.append(el("p", "", A.transferClaimSay), el("p", "transfer-code", code), actions, error);
  d.append(body);
  d.addEventListener("close", () => history.replaceState(null, "", "/"));
}

let told = false;
export function moved() {
  if (told) return;
  told = true;
  document.body.dataset.moved = "true";
  const d = openDialog("moved-dialog", A.movedTitle, false);
  const body = el("div", "app-body");
  const again = button(A.startAfresh, "primary", () => { forgetToken(); location.replace("/"); });
  body.append(el("p", "", A.movedSay), again);
  d.append(body);
}

const inPath = CODE_IN_PATH.exec(location.pathname);
if (inPath) receive(inPath[1]);

