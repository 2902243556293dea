// Sharing one of this page's links (a room's invite, a transfer): the system share
// sheet where the browser has one, and a QR code that the server draws (web/qr.py)
// for a friend at the same table. The image is asked for only when opened.
import { A } from "./i18n.js";
import { el } from "./dom.js";

export const qrSrc = (link) => `/api/qr.svg?link=${encodeURIComponent(link)}`;

// The "Chia sẻ…" button: shown only where the browser has a share sheet.
export function wireShare(button, title, text, link) {
  button.hidden = !navigator.share;
  button.addEventListener("click", () => {
    navigator.share({ title, text, url: link }).catch(() => {});
  });
}

// A "Mã QR" disclosure holding the QR code of `link`.
export function qrDetails(link, alt) {
  const img = el("img", "qr-code");
  img.alt = alt;
  img.width = img.height = 164;
  const box = el("details", "qr");
  box.append(el("summary", "", A.qrShow), img);
  box.addEventListener("toggle", () => {
    if (box.open && !img.getAttribute("src")) img.src = qrSrc(link);
  });
  return box;
}
