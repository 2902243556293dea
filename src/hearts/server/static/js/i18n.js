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
  passHint: (dir, to) => `Chọn 3 lá để chuyền ${PASS_DIR[dir]} (cho ${to})`,
  passButton: (dir) => `Chuyền ${PASS_DIR[dir]}`,
  passFull: "Đã chọn đủ 3 lá. Chạm một lá đã chọn để bỏ chọn.",
  waitingPasses: "Đang chờ các máy chuyền bài…",
  received: (from, cards) => `${from} chuyền cho bạn: ${cards}`,
  yourTurn: "Đến lượt bạn",
  yourLead2C: "Đến lượt bạn: mở vòng đầu bằng 2 nhép",
  isPlaying: (name) => `${name} đang đánh…`,
  handDone: "Hết ván. Xem điểm trên bàn, rồi chia ván tiếp.",
  matchDone: "Trận đấu kết thúc.",
  noPass: "Ván này không chuyền bài.",
  heartsBroken: "Cơ đã bị phá",
  queenFell: "Đầm bích đã ra",
  queenTaken: (name) => `${name} ăn đầm bích`,
  moon: (name) => (name === "Bạn" ? "Bạn bắn trăng!" : `${name} bắn trăng!`),
  winner: (name, pts) => (name === "Bạn" ? `Bạn thắng trận với ${pts} điểm!` : `${name} thắng trận với ${pts} điểm.`),
  handPoints: (n) => `Điểm ván ${n}`,
  autoFinished: "Các vòng cuối được đánh tự động vì không còn gì thay đổi.",
  wait: "Chờ máy đánh xong…",
  notYourTurn: "Chưa đến lượt bạn",
  netError: "Mất kết nối với máy chủ. Đang thử lại…",
  error: "Có lỗi xảy ra.",
};
