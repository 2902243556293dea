// The page's words: this module is the Vietnamese table (wording follows seed 000);
// i18n-en.js, the English one, is fetched only when the player chose English (its
// install() puts its words into these same objects before any other module reads
// them: the other modules import this one, and wait for its top-level await). The
// rule facts come first (below: one file fewer before the first card).
import { sleep } from "./dom.js";

// The rule facts as the server states them (GET /api/rules, docs/api.md): the
// default table, the targets one may choose, each table size's deck (which card broke
// hearts, the State says: hand.broken_at). The page comes with them (its
// <meta name="hearts-rules">, filled in by the server), else they are asked for once
// as the page starts; the page paints nothing before `rulesReady` has resolved.
let facts = null;
// kept for a page opened without a connection, which draws the match it kept (main.js)
const KEY = "hearts-rules";

function inPage() {
  try { return JSON.parse(document.querySelector('meta[name="hearts-rules"]').content); } catch { return null; }
}

async function load(ready) {
  facts = inPage();
  if (facts) {
    try { localStorage.setItem(KEY, JSON.stringify(facts)); } catch { /* private mode */ }
    ready();
    return;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch("/api/rules", { headers: { Accept: "application/json" } });
      if (res.ok) {
        facts = await res.json();
        try { localStorage.setItem(KEY, JSON.stringify(facts)); } catch { /* private mode */ }
        ready();
        return;
      }
    } catch { /* the network: again, a little later */ }
    if (!facts) {
      try { facts = JSON.parse(localStorage.getItem(KEY)); } catch { /* none kept */ }
      if (facts) ready();
    }
    await sleep(Math.min(5000, 500 * 2 ** attempt));
  }
}

export const rulesReady = new Promise(load);

export function defaultRules() { return facts.defaults; }

export function isDefaultRules(r) {
  const d = facts.defaults;
  return !r || Object.keys(d).every((k) => r[k] === d[k]);
}

// {min, max}: the targets a match may be played to.
export function targetRange() { return facts.target; }

// The cards taken out of the deck at a table of `players`, and the cards each is dealt.
export function removedCards(players) { return (facts.tables[String(players)] || { removed: [] }).removed; }
export function handSize(players) { return facts.tables[String(players)].hand_size; }
// The card that leads the first trick at a table of `players`.
export function leadCard(players) { return facts.tables[String(players)].lead; }

export const VS = "\uFE0E"; // text presentation selector: never render suits as emoji

const LANG_KEY = "hearts-lang";
// The player's choice, kept in this browser; Vietnamese unless English was chosen.
export const LANG = (() => {
  try { return localStorage.getItem(LANG_KEY) === "en" ? "en" : "vi"; } catch { return "vi"; }
})();
// Switch language: kept, then the page loads again in it (the game is on the server).
export function chooseLang(lang) {
  try { localStorage.setItem(LANG_KEY, lang); } catch { /* private mode: this page only */ }
  location.reload();
}

export const SUIT_SYMBOL = { C: "♣" + VS, D: "♦" + VS, S: "♠" + VS, H: "♥" + VS };
export const SUIT_NAME = { C: "nhép", D: "rô", S: "bích", H: "cơ" };
export const SUIT_TITLE = { C: "Nhép", D: "Rô", S: "Bích", H: "Cơ" };
export const RANK_LABEL = {
  "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
  T: "10", J: "J", Q: "Q", K: "K", A: "A",
};
export const RANK_SPOKEN = { ...RANK_LABEL, A: "Át" };

export const SEAT_NAME = { S: "Bạn", W: "Tây", N: "Bắc", E: "Đông" };

export const COUNT_WORD = { 2: "hai", 3: "ba", 4: "bốn", 5: "năm", 6: "sáu" };
export const MOON_WORDS = {
  add_to_others: (others) => `Cộng 26 cho ${COUNT_WORD[others] || others} nhà kia`,
  subtract_from_self: () => "Trừ 26 cho người bắn",
  shooter_chooses: () => "Người bắn tự chọn",
};
// A short line for a table other than the default one (the rule facts say which is).
export function rulesLine(r) {
  const w = T.rules;
  const parts = [w.players(r.players)];
  if (r.qs_breaks_hearts) parts.push("Q♠" + VS + w.qsBreaks);
  if (r.moon === "subtract_from_self") parts.push(w.moonMinus);
  if (r.moon === "shooter_chooses") parts.push(w.moonChoose);
  if (r.jd_bonus) parts.push("J♦" + VS + " −10");
  if (r.target !== defaultRules().target) parts.push(w.target(r.target));
  return parts.join(" · ");
}
// Points with a real minus sign: the J♦ shows as −10.
export function signed(n, plus = false) {
  if (n < 0) return `−${-n}`;
  return plus && n > 0 ? `+${n}` : `${n}`;
}

export const PASS_DIR = { left: "sang trái", right: "sang phải", across: "sang đối diện", none: "" };

export function cardSpoken(card) {
  return T.spoken(RANK_SPOKEN[card[0]], SUIT_NAME[card[1]]);
}
export function cardShort(card) {
  return `${RANK_LABEL[card[0]]}${SUIT_SYMBOL[card[1]]}`;
}
export function isRed(card) { return card[1] === "H" || card[1] === "D"; }

export function points(n) { return T.points(n); }

export const T = {
  title: "Hearts",
  subtitle: "Bài Hearts · bạn và ba máy",
  passHint: (dir, to, k) => `Chọn ${k} lá để chuyền ${PASS_DIR[dir]} (cho ${to})`,
  passButton: (dir) => `Chuyền ${PASS_DIR[dir]}`,
  passFull: (k) => `Đã chọn đủ ${k} lá. Chạm một lá đã chọn để bỏ chọn.`,
  waitingPasses: "Đang chờ các máy chuyền bài…",
  preparingHard: "Đang chuẩn bị máy Khó… Lần đầu mất chừng một phút.",
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
  kept: "Ván đang giữ, chỉ xem được: có mạng trở lại là đánh tiếp.",
  error: "Có lỗi xảy ra.",
  locale: "vi-VN",
  decimal: (x) => String(x).replace(".", ","),
  spoken: (rank, suit) => `${rank} ${suit}`,
  points: (n) => `${n} điểm`,
  rules: {
    players: (n) => `${n} người`,
    qsBreaks: " phá cơ",
    moonMinus: "trăng −26",
    moonChoose: "trăng tự chọn",
    target: (n) => `đến ${n}`,
    defaultFor: (n) => `${n} người, luật mặc định`,
  },
  level: { easy: "Dễ", medium: "Vừa", hard: "Khó" },
  // main.js and room.js
  chosen: (k, n) => `đã chọn ${k}/${n}`,
  receivedFrom: (name) => `Nhận từ ${name}: `,
  passedTo: (name) => `Đã chuyền cho ${name}: `,
  passedCard: "đã chuyền", // a card of the hand passed, before the exchange
  cantPick: "Không chọn được lá này",
  cantPlay: "Không đánh được lá này",
  tookBack: "Đã đi lại",
  // Cảnh báo nước đi (checker.js): the question's title and its two answers
  checkerTitle: "Cảnh báo nước đi",
  checkerKeep: "Vẫn đánh",
  checkerPlay: (card) => `Đánh ${cardShort(card)}`,
  // moonchoice.js
  minusForYou: "Trừ 26 cho bạn",
  totalsAfter: (how, list) => `${how}: tổng điểm ${list}`,
  // newmatch.js, roomdialog.js
  removed: (cards, each) => `Bỏ ${cards}; mỗi người ${each} lá.`,
  fullDeck: "Đủ 52 lá, mỗi người 13 lá.",
  badTarget: (min, max) => `Điểm kết thúc trận phải từ ${min} đến ${max}`,
  roomTitle: "Chơi với bạn bè",
  makeRoom: "Tạo phòng",
  roomFailed: "Không tạo được phòng",
  // fairness.js: committed deals (docs/fairness.md)
  fair: {
    committed: (c) => `Cam kết của ván: ${c}`,
    ok: "Ván này được chia đúng như đã cam kết",
    bad: "Cảnh báo: ván này KHÔNG được chia như đã cam kết:",
    unchecked: "Ván này không kiểm tra được (không có hạt giống của trình duyệt)",
    problem: (p) => ({
      commitment: "hạt giống máy chủ không khớp với cam kết",
      promised: "cam kết khác với cam kết đã báo trước khi chia",
      seed: "thiếu hạt giống của trình duyệt này",
      mine: "bài bạn được chia khác với bài tính lại",
    })[p] || `bài của ghế ${p.slice(5)} khác với bài tính lại`,
    details: (c, s, seeds, mine) => `Cam kết ${c} · hạt giống máy chủ ${s} · hạt giống trình duyệt ${seeds.join(", ")}`
      + (mine ? ` (của bạn: ${mine})` : ""),
  },
  // achievements.js
  unlocked: "Đã mở",
  locked: "Chưa mở",
  statsLine: (played, won, rate, hands, moons) => `${played} trận · thắng ${won}` + (rate === null ? "" : ` (${rate}%)`) + ` · ${hands} ván · bắn trăng ${moons} lần`,
  levelLine: (word, hands, avg) => (hands ? `${word}: ${hands} ván, trung bình ${avg} điểm/ván` : `${word}: 0 ván`),
  toastTitle: "Mở khóa thành tích",
  noQueen: "Không ai ăn Q♠ trong trận",
  queenMost: (who, n) => `Ăn Q♠ nhiều nhất: ${who} (${n} lần)`,
  noneUnlocked: "Trận này chưa mở thêm thành tích nào",
  unlockedTitle: "Thành tích mở trong trận:",
  // the side panels (controller.js)
  trickN: (n) => `Vòng ${n}`,
  leads: (name) => `${name} đánh trước`,
  takes: (name) => `${name} ăn`,
  moonTag: "bắn trăng",
  moonTagMinus: "bắn trăng −26",
  targetLine: (n) => `Trận kết thúc khi có người từ ${n} điểm trở lên; ai ít điểm nhất thắng.`,
  rulesOfMatch: (line) => `Luật trận này: ${line}`,
  byRules: "Theo luật chơi:",
  defaultRules: "Luật mặc định",
  rulesRow: (rules, played, won, best) => `${rules}: ${played} trận, thắng ${won}, thấp nhất ${best}`,
  statsText: (played, won, hands, moons) => `Đã chơi ${played} trận, thắng ${won} · ${hands} ván · bắn trăng ${moons} lần`,
  takeBackMatches: (n) => ` · ${n} trận có đi lại`,
  checkerStats: (asked, plays) => ` · cảnh báo nước đi ${asked} lần / ${plays} lá`,
  bestTotal: (best) => `Điểm thấp nhất khi kết thúc trận: ${best}`,
  // table.js
  totalTitle: "Tổng điểm",
  cardsInHand: "Số lá trên tay",
  rulesBadge: "Luật của trận này",
  handPointsTitle: (n) => `Điểm ván này: ${n}`,
  takenSoFar: (n) => `Ván này đã ăn ${n} điểm`,
  receives: (k) => `nhận ${k} lá của bạn`,
  playing: "đang đánh…",
  cardsCount: (n) => `${n} lá`,
  moonMinusLine: (who, you) => `trừ 26 cho ${you ? "bạn" : who}, các nhà khác 0 điểm`,
  moonAddLine: (who, others) => `${who} 0 điểm, ${others} mỗi nhà +26`,
  othersCount: (n) => `${COUNT_WORD[n] || n} nhà kia`,
  chose: (who, you) => (you ? "Bạn chọn" : `${who} chọn`),
  hintsUsed: (n) => (n ? `Đã dùng ${n} lần gợi ý trong trận` : "Không dùng gợi ý nào trong trận"),
  handN: (n) => `ván ${n}`,
  lastTrickTitle: (n, who, pts) => `Vòng ${n}: ${who} ăn, ${pts} điểm`,
};

// Play with friends (room.js)
export const W = {
  mode: "Phòng bạn bè",
  title: "Hearts – chơi với bạn bè",
  shareText: "Vào chơi Hearts với mình:",
  waitFor: (names) => `Đang chờ ${names} đánh…`,
  waitPass: (names) => `Đã chuyền. Đang chờ ${names} chuyền bài…`,
  waitMoon: (names) => `Đang chờ ${names} chọn cách tính điểm bắn trăng…`,
  theShooter: "người bắn trăng",
  waitAll: "Đang chờ mọi người chuyền bài…",
  passedOne: (name) => `${name} đã chuyền bài`,
  allPassed: "Mọi người đã chuyền bài",
  auto: "(tự động)",
  autoPlayed: (name, card) => `${name} vắng mặt: máy đánh ${cardShort(card)} thay (tự động)`,
  autoPassed: (name) => `${name} vắng mặt: máy chuyền bài thay (tự động)`,
  secondsLeft: (n) => `còn ${n} giây`,
  handDone: "Hết ván. Bấm «Chia ván mới» để đánh tiếp.",
  wait: "Chờ một chút…",
  netDown: "Mất kết nối, đang kết nối lại…",
  starting: "Chờ chủ phòng bấm «Bắt đầu»…",
  youStart: "Ghế trống sẽ do máy chơi. Bấm «Bắt đầu» khi đủ người.",
  leaveAsk: "Rời phòng? Máy sẽ chơi thay bạn đến hết trận.",
  gone: {
    room_not_found: "Không tìm thấy phòng này. Có thể đường dẫn bị sai.",
    room_full: "Phòng đã đủ người.",
    room_started: "Trận trong phòng này đã bắt đầu, không vào thêm được.",
    match_over: "Trận trong phòng này đã kết thúc.",
  },
  copied: "Đã sao chép",
  copyFailed: "Hãy chọn đường dẫn và sao chép",
  around: { S: "Bạn", W: "Bên trái", N: "Đối diện", E: "Bên phải" },
  you: "Bạn",
  seatN: (n) => `Ghế ${n}`,
  emptySeat: "Ghế trống",
  creator: "chủ phòng",
  connected: "đã kết nối",
  disconnected: "mất kết nối",
  computer: (level) => `máy ${level}`.trim(),
  emptyTag: "máy chơi nếu không ai vào",
  remove: "Mời ra",
  removeLabel: (name) => `Mời ra khỏi phòng: ${name}`, // begins with what it shows
  leave: "Rời phòng",
  cancel: "Thôi",
  alone: "Chơi một mình",
  // who left for good (a computer has the seat now) and who runs the room after them;
  // flashed on the message line, hence no last full stop (as passedOne)
  leftSeat: (name, computer) => `${name} đã rời phòng. ${computer} chơi thay đến hết trận`,
  tookOver: (name) => `chơi thay ${name}, người đã rời phòng`,
  insteadOf: (name) => `thay ${name}`,
  newHost: (name) => `Giờ ${name} là chủ phòng`,
  youHost: "Giờ bạn là chủ phòng",
  closed: "Phòng đã đóng: bấm «Chơi một mình» để về trang chính.",
  guest: (n) => `Khách ${n}`,
  inRoom: (who, humans, seats, about) => `Trong phòng: ${who} (${humans}/${seats} người). ${about}.`,
  about: (rules, level, turn) => `${rules} · máy ${level} · ${turn}`,
  perTurn: (n) => `${n} giây mỗi lượt`,
  noLimit: "không giới hạn thời gian",
  choosing: "đang chọn bài…",
  passed: "đã chuyền",
};

// Xem lại ván (review.js)
export const R = {
  title: "Xem lại ván",
  close: "Đóng",
  pickHand: "Chọn ván của trận này",
  handN: (n) => `Ván ${n}`,
  openFile: "Mở tệp ván bài",
  download: "Tải về",
  noHand: "Chưa xong ván nào trong trận này. Mở một tệp ván bài (hearts-hand/1) để xem lại.",
  loadFailed: "Không tải được ván này",
  readFailed: "Không đọc được tệp",
  badFile: "Tệp này không phải ván bài Hearts đã lưu",
  // what is wrong with a record file, from the server's code and values (docs/api.md,
  // bad_record): card codes ("3C") and seats ("N") as the page names them
  recordWhy: (w, card, seat) => {
    const where = w.part === "deal" ? `bài chia cho ${seat(w.seat)}` : w.part === "passes" ? `lá chuyền của ${seat(w.seat)}` : "các lá đã đánh";
    const say = {
      not_json: () => "tệp không phải JSON",
      not_object: () => "nội dung không phải một đối tượng JSON",
      unknown_fields: () => `có trường lạ: ${(w.fields || []).join(", ")}`,
      missing_field: () => `thiếu trường «${w.field}»`,
      format: () => "không đúng định dạng hearts-hand/1",
      rules: () => "luật chơi ghi trong tệp không hợp lệ",
      hand_number: () => "số thứ tự ván phải là số nguyên dương",
      pass_direction: () => "hướng chuyền không hợp lệ",
      points: () => "phần điểm phải ghi một số nguyên cho mỗi người chơi",
      deal_seats: () => "phần chia bài phải có đúng các ghế của bàn",
      not_cards: () => `${where} phải là một danh sách lá bài`,
      unknown_card: () => `${where} có lá không tồn tại: «${w.card}»`,
      dealt_twice: () => `lá ${card(w.card)} được chia hai lần`,
      not_in_deck: () => `lá ${card(w.card)} không có trong bộ bài của bàn này`,
      hand_size: () => `${seat(w.seat)} được chia ${w.count} lá, phải là ${w.size} lá`,
      passes_object: () => "phần chuyền bài không hợp lệ",
      passes_seats: () => "phần chuyền bài có ghế không có ở bàn",
      passes_none: () => "ván không chuyền bài nhưng tệp có lá chuyền",
      pass_count: () => `${seat(w.seat)} phải chuyền ${w.count} lá khác nhau`,
      not_held: () => `${seat(w.seat)} chuyền ${(w.cards || []).map(card).join(" ")} nhưng không có trên tay`,
      fairness: () => "phần hạt giống của ván chia (fairness) không hợp lệ",
    }[w.code];
    return say ? say() : "";
  },
  first: "« Đầu", firstLabel: "Về đầu ván",
  prev: "◀ Trước", prevLabel: "Vòng trước",
  next: "Sau ▶", nextLabel: "Vòng sau",
  last: "Cuối »", lastLabel: "Đến cuối ván",
  toTrick: "Đến vòng",
  passStep: "Chuyền", passStepLabel: "Đầu ván: chuyền bài",
  trickN: (n) => `Vòng ${n}`,
  notDone: "chưa xong",
  passing: (dir) => ` · chuyền ${PASS_DIR[dir]}`,
  noPassing: " · không chuyền",
  points: (n) => `${n} điểm`,
  passTo: (name, cards) => `Chuyền cho ${name}: ${cards}`,
  caption: (n, leader) => `Vòng ${n}: ${leader} đánh trước`,
  tookIt: (name, pts) => ` · ${name} ăn vòng (${pts} điểm)`,
  noPassCaption: "Đầu ván: ván này không chuyền bài.",
  passCaption: "Đầu ván: bài chia và các lá chuyền.",
  analyse: "Phân tích",
  analyseAbout: " Khó xem lại từng quyết định của bạn, chỉ với những gì bạn biết lúc đó.",
  analyseFailed: "Phân tích bị lỗi, hãy thử lại.",
  analysing: "Đang phân tích",
  progress: (done, total) => `Khó đang phân tích… ${done}/${total}`,
  moonShot: "Bạn đã bắn trăng, kết quả tốt nhất có thể: không quyết định nào làm bạn mất điểm.",
  agrees: (n) => `Khó đồng ý với cả ${n} quyết định của bạn.`,
  differs: (k, n) => `Khó chọn khác bạn ở ${k}/${n} quyết định:`,
  passDiff: (mine, best) => `Chuyền: bạn chuyền ${mine}, Khó chuyền ${best}`,
  playDiff: (n, mine, best) => `Vòng ${n}: bạn đánh ${mine}, Khó đánh ${best}`,
  costMore: (x) => `thêm ${x} điểm`,
  costLess: (x) => `ít hơn ${x} điểm, nhưng Khó tính cả điểm nhà khác`,
  costSame: "điểm như nhau",
  analyseError: "Không phân tích được",
  knewTitle: "Máy đã biết gì",
  knewOpen: "Máy đã biết gì",
  knewAbout: " Ở mỗi lượt của máy: máy thấy những gì, và Khó đoán bài ẩn nằm ở đâu, bên cạnh chỗ chúng thật sự nằm.",
  knewError: "Không tải được phần này",
  knewLoading: "Đang xem lại các lượt của máy…",
  knewNotHard: "Ván này máy chơi ở mức Dễ hoặc Vừa: các mức này không đoán bài ẩn, chỉ đánh theo những gì thấy.",
  knewNonePass: "Máy không chuyền bài ở ván này.",
  knewNoneTrick: "Vòng này máy không đánh lá nào.",
  knewPassed: "chuyền",
  knewPlayed: "đánh",
  knewNothing: "không có",
  knewHand: "Trên tay:",
  knewGave: "Đã chuyền đi:",
  knewGot: (name) => `${name} chuyền cho:`,
  knewTable: "Trên bàn:",
  knewLeads: "chưa có lá nào, máy đánh trước",
  knewPlayedSoFar: (n) => `Đã thấy ${n} lá được đánh ra trong ván.`,
  knewNoChoice: "Chỉ có một cách đánh hợp lý, máy không cần đoán.",
  knewReally: "Thật ra:",
  knewImagined: (n) => `Khó hình dung ${n} cách chia bài ẩn. Trong số đó, tỉ lệ mỗi nhà cầm lá:`,
  knewAllSeen: "Máy đã thấy hết các lá quan trọng.",
  knewCard: "Lá",
  knewRealHere: "Lá này thật sự ở nhà này",
  knewLegend: "✓: nhà thật sự cầm lá đó. Máy chỉ đoán từ những gì nó thấy, nên có khi đoán sai.",
};

// Sharing, the app on the home screen, moving to another device (share.js, pwa.js, transfer.js)
export const A = {
  qrShow: "Mã QR",
  qrRoom: "Mã QR của đường dẫn vào phòng: quét bằng camera điện thoại",
  offline: "Không có kết nối. Trận đấu vẫn được giữ, trang sẽ tự tiếp tục khi có mạng trở lại.",
  close: "Đóng",
  cancel: "Thôi",
  copy: "Sao chép",
  copied: "Đã sao chép",
  share: "Chia sẻ…",
  transferOpen: "Chuyển sang máy khác",
  transferSay: "Mở đường dẫn này trên máy kia, hoặc quét mã QR bằng camera của máy đó. Trận đấu, thống kê và thành tích sẽ chuyển sang máy đó; máy này sẽ bắt đầu lại từ đầu.",
  transferWhen: "Mã dùng được một lần, trong 10 phút.",
  transferQr: "Mã QR của đường dẫn chuyển sang máy khác",
  transferShareText: "Đường dẫn chuyển trận Hearts sang máy này:",
  transferReceive: "Nhận từ máy khác",
  transferType: "Mã chuyển từ máy kia ",
  transferTake: "Nhận",
  transferClaimSay: "Trận đấu, thống kê và thành tích từ máy kia sẽ chuyển sang máy này, thay cho những gì đang có ở đây.",
  movedTitle: "Đã chuyển sang máy khác",
  movedSay: "Trận đấu, thống kê và thành tích của bạn đã được chuyển sang máy khác. Bạn có thể bắt đầu lại từ đầu trên máy này.",
  startAfresh: "Bắt đầu lại",
  transferNet: "Không có kết nối, hãy thử lại khi có mạng.",
};

if (LANG === "en") {
  const en = await import("./i18n-en.js");
  en.install({ SUIT_NAME, SUIT_TITLE, RANK_SPOKEN, SEAT_NAME, MOON_WORDS, PASS_DIR, T, W, R, A, cardSpoken, cardShort });
  document.documentElement.lang = "en";
  en.translatePage(document);
  document.documentElement.classList.remove("lang-wait"); // langwait.js: in English now
}
