// Vietnamese words used by the page. Wording follows seed 000.
export const VS = "\uFE0E"; // text presentation selector: never render suits as emoji

export const SUIT_SYMBOL = { C: "♣" + VS, D: "♦" + VS, S: "♠" + VS, H: "♥" + VS };
export const SUIT_NAME = { C: "nhép", D: "rô", S: "bích", H: "cơ" };
export const SUIT_TITLE = { C: "Nhép", D: "Rô", S: "Bích", H: "Cơ" };
export const RANK_LABEL = {
  "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
  T: "10", J: "J", Q: "Q", K: "K", A: "A",
};
const RANK_SPOKEN = { ...RANK_LABEL, A: "Át" };

export const SEAT_NAME = { S: "Bạn", W: "Tây", N: "Bắc", E: "Đông" };

// The default table (docs/api.md, Rules) and a short line for any other.
export const DEFAULT_RULES = { players: 4, qs_breaks_hearts: false, moon: "add_to_others", jd_bonus: false, target: 100 };
const COUNT_WORD = { 2: "hai", 3: "ba", 4: "bốn", 5: "năm", 6: "sáu" };
export const MOON_WORDS = {
  add_to_others: (others) => `Cộng 26 cho ${COUNT_WORD[others] || others} nhà kia`,
  subtract_from_self: () => "Trừ 26 cho người bắn",
  shooter_chooses: () => "Người bắn tự chọn",
};
export function isDefaultRules(r) {
  return !r || Object.keys(DEFAULT_RULES).every((k) => r[k] === DEFAULT_RULES[k]);
}
export function rulesLine(r) {
  const parts = [`${r.players} người`];
  if (r.qs_breaks_hearts) parts.push("Q♠" + VS + " phá cơ");
  if (r.moon === "subtract_from_self") parts.push("trăng −26");
  if (r.moon === "shooter_chooses") parts.push("trăng tự chọn");
  if (r.jd_bonus) parts.push("J♦" + VS + " −10");
  if (r.target !== DEFAULT_RULES.target) parts.push(`đến ${r.target}`);
  return parts.join(" · ");
}
// Cards taken out of the deck for each table size (docs/api.md).
export const REMOVED = { 3: ["2D"], 4: [], 5: ["2D", "2C"], 6: ["2D", "3D", "3C", "4C"], 7: ["2D", "3D", "3C"] };
// Points with a real minus sign: the J♦ shows as −10.
export function signed(n, plus = false) {
  if (n < 0) return `−${-n}`;
  return plus && n > 0 ? `+${n}` : `${n}`;
}

export const PASS_DIR = { left: "sang trái", right: "sang phải", across: "sang đối diện", none: "" };

export function cardSpoken(card) {
  return `${RANK_SPOKEN[card[0]]} ${SUIT_NAME[card[1]]}`;
}
export function cardShort(card) {
  return `${RANK_LABEL[card[0]]}${SUIT_SYMBOL[card[1]]}`;
}
export function isRed(card) { return card[1] === "H" || card[1] === "D"; }

export function points(n) { return `${n} điểm`; }

export const T = {
  title: "Hearts",
  subtitle: "Bài Hearts · bạn và ba máy",
  passHint: (dir, to, k) => `Chọn ${k} lá để chuyền ${PASS_DIR[dir]} (cho ${to})`,
  passButton: (dir) => `Chuyền ${PASS_DIR[dir]}`,
  passFull: (k) => `Đã chọn đủ ${k} lá. Chạm một lá đã chọn để bỏ chọn.`,
  waitingPasses: "Đang chờ các máy chuyền bài…",
  received: (from, cards) => `${from} chuyền cho bạn: ${cards}`,
  yourTurn: "Đến lượt bạn",
  yourLead: (card) => `Đến lượt bạn: mở vòng đầu bằng ${cardSpoken(card)}`,
  moonChoose: "Bạn bắn trăng! Chọn cách tính điểm.",
  isPlaying: (name) => `${name} đang đánh…`,
  played: (name, card) => `${name} đánh ${cardSpoken(card)}`,
  tookTrick: (name, pts) => `${name} ăn vòng` + (pts ? ` (${signed(pts, true)})` : ""),
  handDone: "Hết ván. Bấm «Chia ván mới» để đánh tiếp.",
  matchDone: "Trận đấu kết thúc.",
  noPass: "Ván này không chuyền bài.",
  heartsBroken: "Cơ đã bị phá",
  queenFell: "Đầm bích đã ra",
  queenTaken: (name) => `${name} ăn đầm bích`,
  queenTakenShort: (name) => `${name} ăn Q♠${VS}`,
  queenFellShort: `Q♠${VS} đã ra`,
  moon: (name) => (name === "Bạn" ? "Bạn bắn trăng!" : `${name} bắn trăng!`),
  winner: (name, pts) => (name === "Bạn" ? `Bạn thắng trận với ${pts} điểm!` : `${name} thắng trận với ${pts} điểm.`),
  handPoints: (n) => `Điểm ván ${n}`,
  matchOverTitle: "Kết thúc trận",
  handsPlayed: (n) => `${n} ván`,
  moons: (list) => `Bắn trăng: ${list}`,
  bestWorst: (best, worst) => `Ván tốt nhất của bạn: ${best} · tệ nhất: ${worst}`,
  autoFinished: "Các vòng cuối được đánh tự động vì điểm không thể thay đổi nữa.",
  wait: "Chờ máy đánh xong…",
  notYourTurn: "Chưa đến lượt bạn",
  netError: "Mất kết nối với máy chủ. Đang thử lại…",
  error: "Có lỗi xảy ra.",
};
