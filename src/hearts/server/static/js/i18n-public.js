// The words of play with everyone (public.js, leaderboard.js), Vietnamese first, then
// English: loaded with those modules only, so the first visit does not carry them.
import { LANG, T } from "./i18n.js";

const many = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
// a setting's seconds, as the server sends them (20, 1.5): "20", "1,5"
const secs = (n) => T.decimal(String(Number(n)));

const VI = {
  mode: "Bàn công khai",
  title: "Chơi với mọi người",
  find: "Tìm bàn",
  // the public tables' settings (GET /api/public/table), or null: said without them
  seekAbout: (s) => "Bạn ngồi vào một bàn đang chờ người chơi cùng luật, hoặc mở bàn mới. " + (s
    ? `Bàn bắt đầu khi đủ người hoặc sau ${secs(s.start_seconds)} giây; máy chơi các ghế trống. Mỗi lượt ${secs(s.turn_seconds)} giây.`
    : "Bàn bắt đầu khi đủ người hoặc sau ít giây; máy chơi các ghế trống."),
  nameLabel: "Tên người khác thấy",
  namePlaceholder: "Khách 4821",
  seekFailed: "Không tìm được bàn",
  lobbyTitle: "Bàn chơi với mọi người",
  startsIn: (n) => `Bàn bắt đầu sau ${n} giây`,
  startingNow: "Bàn sắp bắt đầu…",
  waitingHuman: "Đang chờ người chơi…",
  lobbyNote: "Máy chơi các ghế trống khi bàn bắt đầu.",
  queuedTitle: "Chờ vào bàn",
  queued: "Trận ở bàn này đang chơi. Bạn sẽ thay một máy khi ván sau được chia.",
  leaveTable: "Rời bàn",
  leaveAsk: "Rời bàn hẳn? Máy sẽ chơi thay bạn đến hết trận, và trận này tính bạn về chót.",
  // room.js's words where a public table says "bàn" (W's, for a room of friends)
  words: {
    leftSeat: (name, computer) => `${name} đã rời bàn. ${computer} chơi thay đến hết trận`,
    tookOver: (name) => `chơi thay ${name}, người đã rời bàn`,
    closed: "Bàn đã đóng: bấm «Chơi một mình» để về trang chính.",
  },
  notHere: "Bạn không ngồi ở bàn này.",
  reactionsLabel: "Phản ứng nhanh",
  reactions: { like: "👍", wow: "😮", laugh: "😂", sad: "😢", nice: "Hay quá!", sorry: "Xin lỗi", thanks: "Cảm ơn" },
  reactionNames: { like: "Thích", wow: "Ngạc nhiên", laugh: "Cười", sad: "Buồn", nice: "Hay quá!", sorry: "Xin lỗi", thanks: "Cảm ơn" },
  reacted: (name, text) => `${name}: ${text}`,
  // the place among the people alone (the score table ranks every seat)
  rated: (place, people, before, after, change) => `Trong ${people} người chơi ở bàn (không tính máy), bạn xếp thứ ${place}. Điểm xếp hạng: ${before} → ${after} (${change})`,
  hide: "Ẩn",
  hideLabel: (name) => `Ẩn tên và phản ứng của ${name}`,
  unhide: "Hiện lại",
  unhideLabel: "Hiện lại người chơi này",
  board: "Bảng xếp hạng",
  week: "Tuần này",
  all: "Mọi lúc",
  close: "Đóng",
  rank: "Hạng",
  player: "Người chơi",
  rating: "Điểm",
  emptyBoard: "Chưa có ai trên bảng.",
  me: (rank, rating, matches) => `Bạn: ${rank ? `hạng ${rank}` : "không hiện trên bảng"} · ${rating} điểm · ${matches} trận`,
  meLast: (place, change) => ` · trận gần nhất: thứ ${place} (${change})`,
  unrated: "Bạn chưa có điểm xếp hạng: chơi hết một trận ở bàn công khai có ít nhất hai người.",
  keepOff: "Không hiện tôi trên bảng xếp hạng",
  boardFailed: "Không tải được bảng xếp hạng",
  boardAbout: "Điểm xếp hạng so bạn với những người chơi khác cùng bàn (không tính máy): xếp trên họ thì điểm thường lên, xếp dưới thì xuống. Điểm tính thận trọng: người mới bắt đầu từ 0 và lên dần qua từng trận, khi đã rõ bạn chơi giỏi đến đâu. Chỉ tính trận có từ hai người trở lên.",
};


const EN = {
  mode: "Public table",
  title: "Play with everyone",
  find: "Find a table",
  seekAbout: (s) => "You sit at a table waiting for players with the same rules, or a new one opens. " + (s
    ? `It starts when full or after ${secs(s.start_seconds)} seconds; computers play the empty seats. ${secs(s.turn_seconds)} seconds per turn.`
    : "It starts when full or after a few seconds; computers play the empty seats."),
  nameLabel: "Name others see",
  namePlaceholder: "Guest 4821",
  seekFailed: "No table found",
  lobbyTitle: "Table with everyone",
  startsIn: (n) => `The table starts in ${n} s`,
  startingNow: "The table is starting…",
  waitingHuman: "Waiting for players…",
  lobbyNote: "Computers play the empty seats when the table starts.",
  queuedTitle: "Waiting for a seat",
  queued: "A match is on at this table. You take a computer's seat when the next hand is dealt.",
  leaveTable: "Leave the table",
  leaveAsk: "Leave for good? A computer plays for you to the end, and this match counts as last place for you.",
  words: {
    leftSeat: (name, computer) => `${name} left the table. ${computer} plays their seat to the end of the match`,
    tookOver: (name) => `playing for ${name}, who left`,
    closed: "The table is closed: press «Play alone» to go back to the main page.",
  },
  notHere: "You are not seated at this table.",
  reactionsLabel: "Quick reactions",
  reactions: { nice: "Nice one!", sorry: "Sorry", thanks: "Thanks" },
  reactionNames: { like: "Like", wow: "Wow", laugh: "Laugh", sad: "Sad", nice: "Nice one!", sorry: "Sorry", thanks: "Thanks" },
  rated: (place, people, before, after, change) => `Among the ${people} people at the table (computers not counted), you placed ${place}. Rating: ${before} → ${after} (${change})`,
  hide: "Hide",
  hideLabel: (name) => `Hide ${name}'s name and reactions`,
  unhide: "Show",
  unhideLabel: "Show this player again",
  board: "Leaderboard",
  week: "This week",
  all: "All time",
  close: "Close",
  rank: "Rank",
  player: "Player",
  rating: "Rating",
  emptyBoard: "Nobody on the board yet.",
  me: (rank, rating, matches) => `You: ${rank ? `rank ${rank}` : "kept off the board"} · rating ${rating} · ${many(matches, "match")}`.replace("matchs", "matches"),
  meLast: (place, change) => ` · last match: place ${place} (${change})`,
  unrated: "You have no rating yet: finish a match at a public table with at least two people.",
  keepOff: "Keep me off the leaderboard",
  boardFailed: "The leaderboard did not load",
  boardAbout: "Your rating compares you with the other people at your table (computers not counted): finish above them and it usually rises, below them and it falls. It is careful: a new player starts at 0 and climbs match by match, as it becomes clear how well you play. Only matches with two people or more count.",
};

export const P = LANG === "en" ? { ...VI, ...EN, reactions: { ...VI.reactions, ...EN.reactions } } : VI;

// A rating to two decimals, with a real minus sign (a rating can be below zero), and
// its change with its sign always shown.
export function rating(x) {
  return (x < 0 ? "−" : "") + T.decimal(Math.abs(Number(x)).toFixed(2));
}
export function ratingChange(x) {
  return (x >= 0 ? "+" : "−") + T.decimal(Math.abs(Number(x)).toFixed(2));
}
