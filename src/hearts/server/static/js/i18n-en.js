// The page's words in English: fetched by i18n.js only when the player chose English
// (the Vietnamese page never loads it). install() puts these words into i18n.js's
// tables; translatePage() turns index.html's own text (and its templates') into
// English by the Vietnamese text it has, and puts in the English rules.
const VS = "\uFE0E";
const COUNT = { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six" };
const PASS_DIR = { left: "left", right: "right", across: "across", none: "" };
const LEVEL = { easy: "Easy", medium: "Medium", hard: "Hard" };
const you = (name) => name === "You";
const many = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

const T = {
  subtitle: "Hearts · you and three computers",
  passHint: (dir, to, k) => `Choose ${k} cards to pass ${PASS_DIR[dir]} (to ${to})`,
  passButton: (dir) => `Pass ${PASS_DIR[dir]}`,
  passFull: (k) => `${k} cards chosen. Tap a chosen card to put it back.`,
  waitingPasses: "Waiting for the computers to pass…",
  preparingHard: "Preparing Khó… The first time takes about a minute.",
  received: (from, cards) => `${from} passed you: ${cards}`,
  yourTurn: "Your turn",
  moonChoose: "You shot the moon! Choose the scoring.",
  isPlaying: (name) => `${name} is playing…`,
  tookTrick: (name, pts) => `${name} ${you(name) ? "take" : "takes"} the trick` + (pts ? ` (${pts > 0 ? "+" : "−"}${Math.abs(pts)})` : ""),
  handDone: "Hand over. Press «Deal next hand» to go on.",
  matchDone: "The match is over.",
  noPass: "No passing this hand.",
  heartsBroken: "Hearts are broken",
  queenFell: "The queen of spades has fallen",
  queenTaken: (name) => `${name} ${you(name) ? "take" : "takes"} the queen of spades`,
  queenTakenShort: (name) => `${name} ${you(name) ? "take" : "takes"} Q♠${VS}`,
  queenFellShort: `Q♠${VS} has fallen`,
  moon: (name) => `${name} shot the moon!`,
  winner: (name, pts) => (you(name) ? `You win the match with ${pts} points!` : `${name} wins the match with ${pts} points.`),
  handPoints: (n) => `Points of hand ${n}`,
  matchOverTitle: "Match over",
  handsPlayed: (n) => (n === 1 ? "1 hand" : `${n} hands`),
  moons: (list) => `Moons: ${list}`,
  bestWorst: (best, worst) => `Your best hand: ${best} · worst: ${worst}`,
  autoFinished: "The last tricks were played automatically: the points could no longer change.",
  wait: "Waiting for the computers…",
  notYourTurn: "It is not your turn yet",
  netError: "Lost the connection to the server. Trying again…",
  kept: "Your match as kept, to look at only: play goes on when the connection returns.",
  error: "Something went wrong.",
  locale: "en-GB",
  decimal: (x) => String(x),
  spoken: (rank, suit) => `${rank} of ${suit}`,
  points: (n) => (n === 1 || n === "1" ? "1 point" : `${n} points`),
  rules: {
    players: (n) => `${n} players`,
    qsBreaks: " breaks hearts",
    moonMinus: "moon −26",
    moonChoose: "moon: shooter chooses",
    target: (n) => `to ${n}`,
    defaultFor: (n) => `${n} players, default rules`,
  },
  level: LEVEL,
  chosen: (k, n) => `${k}/${n} chosen`,
  receivedFrom: (name) => `From ${name}: `,
  passedTo: (name) => `Passed to ${name}: `,
  cantPick: "You cannot choose this card",
  cantPlay: "You cannot play this card",
  tookBack: "Card taken back",
  checkerTitle: "Play checker",
  checkerKeep: "Play it anyway",
  minusForYou: "Minus 26 for you",
  totalsAfter: (how, list) => `${how}: totals ${list}`,
  removed: (cards, each) => `Without the ${cards}; ${each} cards each.`,
  fullDeck: "All 52 cards, 13 each.",
  badTarget: (min, max) => `The match ends at ${min} to ${max} points`,
  roomTitle: "Play with friends",
  makeRoom: "Make the room",
  roomFailed: "Could not make the room",
  unlocked: "Unlocked",
  locked: "Locked",
  statsLine: (played, won, rate, hands, moons) => `${many(played, "match")}`.replace("matchs", "matches") + ` · ${won} won` + (rate === null ? "" : ` (${rate}%)`) + ` · ${many(hands, "hand")} · ${many(moons, "moon")}`,
  levelLine: (word, hands, avg) => (hands ? `${word}: ${many(hands, "hand")}, mean ${avg} points/hand` : `${word}: 0 hands`),
  toastTitle: "Achievement unlocked",
  noQueen: `Nobody took the Q♠${VS} this match`,
  queenMost: (who, n) => `Took the Q♠${VS} most: ${who} (${n} ${n === 1 ? "time" : "times"})`,
  noneUnlocked: "No new achievement this match",
  unlockedTitle: "Unlocked this match:",
  trickN: (n) => `Trick ${n}`,
  leads: (name) => `${name} ${you(name) ? "lead" : "leads"}`,
  takes: (name) => `${name} ${you(name) ? "take" : "takes"}`,
  moonTag: "moon",
  moonTagMinus: "moon −26",
  targetLine: (n) => `The match ends when someone reaches ${n} points; the lowest total wins.`,
  rulesOfMatch: (line) => `This match's rules: ${line}`,
  byRules: "By rules:",
  defaultRules: "Default rules",
  rulesRow: (rules, played, won, best) => `${rules}: ${played} matches, ${won} won, lowest ${best}`,
  statsText: (played, won, hands, moons) => `Played ${many(played, "match").replace("matchs", "matches")}, won ${won} · ${many(hands, "hand")} · ${many(moons, "moon")}`,
  takeBackMatches: (n) => ` · ${n} matches with a take-back`,
  checkerStats: (asked, plays) => ` · play checker warned ${asked} of ${plays} cards`,
  bestTotal: (best) => `Lowest total at the end of a match: ${best}`,
  totalTitle: "Total points",
  cardsInHand: "Cards in hand",
  rulesBadge: "This match's rules",
  handPointsTitle: (n) => `Points this hand: ${n}`,
  takenSoFar: (n) => `Taken ${n} points this hand`,
  receives: (k) => `gets your ${k} cards`,
  playing: "playing…",
  cardsCount: (n) => many(n, "card"),
  moonMinusLine: (who, isYou) => `minus 26 for ${isYou ? "you" : who}, the others 0 points`,
  moonAddLine: (who, others) => `${who} 0 points, ${others} +26 each`,
  othersCount: (n) => `the ${COUNT[n] || n} others`,
  chose: (who, isYou) => (isYou ? "You chose" : `${who} chose`),
  hintsUsed: (n) => (n ? `${n} ${n === 1 ? "hint" : "hints"} used this match` : "No hints used this match"),
  handN: (n) => `hand ${n}`,
  lastTrickTitle: (n, who, pts) => `Trick ${n}: ${who} ${you(who) ? "take" : "takes"} it, ${pts} points`,
  fair: {
    committed: (c) => `This hand's commitment: ${c}`,
    ok: "This hand was dealt exactly as committed",
    bad: "Warning: this hand was NOT dealt as committed:",
    unchecked: "This hand cannot be checked (no seed from the browser)",
    problem: (p) => ({
      commitment: "the server's seed does not match its commitment",
      promised: "the commitment is not the one announced before the deal",
      seed: "this browser's seed is missing",
      mine: "the cards you were dealt differ from the recomputed deal",
    })[p] || `seat ${p.slice(5)}'s cards differ from the recomputed deal`,
    details: (c, s, seeds, mine) => `Commitment ${c} · server seed ${s} · browser seeds ${seeds.join(", ")}`
      + (mine ? ` (yours: ${mine})` : ""),
  },
};

const W = {
  mode: "Friends' room",
  title: "Hearts – play with friends",
  shareText: "Come and play Hearts with me:",
  waitFor: (names) => `Waiting for ${names} to play…`,
  waitPass: (names) => `Passed. Waiting for ${names} to pass…`,
  waitMoon: (names) => `Waiting for ${names} to choose the moon's scoring…`,
  theShooter: "the shooter",
  waitAll: "Waiting for everyone to pass…",
  passedOne: (name) => `${name} passed`,
  allPassed: "Everyone has passed",
  auto: "(automatic)",
  autoPassed: (name) => `${name} is away: the computer passed instead (automatic)`,
  secondsLeft: (n) => `${n} s left`,
  handDone: "Hand over. Press «Deal next hand» to go on.",
  wait: "One moment…",
  netDown: "Connection lost, reconnecting…",
  starting: "Waiting for the room's creator to press «Start»…",
  youStart: "Computers play the empty seats. Press «Start» when everyone is in.",
  leaveAsk: "Leave the room? A computer plays for you to the end of the match.",
  gone: {
    room_not_found: "This room was not found. The link may be wrong.",
    room_full: "The room is full.",
    room_started: "This room's match has started: no one else can join.",
    match_over: "This room's match is over.",
  },
  copied: "Copied",
  copyFailed: "Select the link and copy it",
  around: { S: "You", W: "Left", N: "Across", E: "Right" },
  you: "You",
  seatN: (n) => `Seat ${n}`,
  emptySeat: "Empty seat",
  creator: "creator",
  connected: "connected",
  disconnected: "disconnected",
  computer: (level) => `${level} computer`.trim(),
  emptyTag: "a computer plays if nobody comes",
  remove: "Remove",
  removeLabel: (name) => `Remove ${name} from the room`,
  leave: "Leave the room",
  cancel: "Cancel",
  alone: "Play alone",
  leftSeat: (name, computer) => `${name} left the room. ${computer} plays their seat to the end of the match`,
  tookOver: (name) => `playing for ${name}, who left`,
  insteadOf: (name) => `for ${name}`,
  newHost: (name) => `${name} is the room's creator now`,
  youHost: "You are the room's creator now",
  closed: "The room is closed: press «Play alone» to go back to the main page.",
  guest: (n) => `Guest ${n}`,
  inRoom: (who, humans, seats, about) => `In the room: ${who} (${humans}/${seats} players). ${about}.`,
  about: (rules, level, turn) => `${rules} · ${level} computers · ${turn}`,
  perTurn: (n) => `${n} s per turn`,
  noLimit: "no time limit",
  choosing: "choosing cards…",
  passed: "passed",
};

const R = {
  title: "Review a hand",
  close: "Close",
  pickHand: "Choose a hand of this match",
  handN: (n) => `Hand ${n}`,
  openFile: "Open a hand file",
  download: "Download",
  noHand: "No hand of this match is over yet. Open a hand file (hearts-hand/1) to review it.",
  loadFailed: "Could not load this hand",
  readFailed: "Could not read the file",
  badFile: "This file is not a saved Hearts hand",
  recordWhy: (w, card, seat) => {
    const where = w.part === "deal" ? `the cards dealt to ${seat(w.seat)}` : w.part === "passes" ? `the cards ${seat(w.seat)} passes` : "the cards played";
    const say = {
      not_json: () => "the file is not JSON",
      not_object: () => "its content is not a JSON object",
      unknown_fields: () => `unknown fields: ${(w.fields || []).join(", ")}`,
      missing_field: () => `the field “${w.field}” is missing`,
      format: () => "it is not in the hearts-hand/1 format",
      rules: () => "the rules written in the file are not valid",
      hand_number: () => "the hand's number must be a positive whole number",
      pass_direction: () => "the pass direction is not valid",
      points: () => "the points must give a whole number for each player",
      deal_seats: () => "the deal must have exactly the table's seats",
      not_cards: () => `${where} must be a list of cards`,
      unknown_card: () => `${where} include a card that does not exist: “${w.card}”`,
      dealt_twice: () => `the ${card(w.card)} is dealt twice`,
      not_in_deck: () => `the ${card(w.card)} is not in this table's deck`,
      hand_size: () => `${seat(w.seat)} is dealt ${w.count} cards, not ${w.size}`,
      passes_object: () => "the passes are not valid",
      passes_seats: () => "the passes name a seat that is not at the table",
      passes_none: () => "the hand has no pass, yet the file passes cards",
      pass_count: () => `${seat(w.seat)} must pass ${w.count} different cards`,
      not_held: () => `${seat(w.seat)} passes ${(w.cards || []).map(card).join(" ")}, which it does not hold`,
      fairness: () => "the seeds of the deal (fairness) are not valid",
    }[w.code];
    return say ? say() : "";
  },
  first: "« First", firstLabel: "To the start of the hand",
  prev: "◀ Back", prevLabel: "Previous trick",
  next: "Next ▶", nextLabel: "Next trick",
  last: "Last »", lastLabel: "To the end of the hand",
  toTrick: "Go to trick",
  passStep: "Pass", passStepLabel: "Start of the hand: the pass",
  trickN: (n) => `Trick ${n}`,
  notDone: "not over",
  passing: (dir) => ` · pass ${PASS_DIR[dir]}`,
  noPassing: " · no passing",
  points: (n) => `${n} points`,
  passTo: (name, cards) => `Passed to ${name}: ${cards}`,
  caption: (n, leader) => `Trick ${n}: ${leader} ${you(leader) ? "lead" : "leads"}`,
  tookIt: (name, pts) => ` · ${name} ${you(name) ? "take" : "takes"} the trick (${pts} points)`,
  noPassCaption: "Start of the hand: no passing this hand.",
  passCaption: "Start of the hand: the deal and the cards passed.",
  analyse: "Analyse",
  analyseAbout: " Hard looks again at each of your decisions, knowing only what you knew then.",
  analyseFailed: "The analysis failed, try again.",
  analysing: "Analysing",
  progress: (done, total) => `Hard is analysing… ${done}/${total}`,
  moonShot: "You shot the moon, the best result there is: none of your decisions cost you points.",
  agrees: (n) => `Hard agrees with all ${n} of your decisions.`,
  differs: (k, n) => `Hard chose otherwise in ${k}/${n} decisions:`,
  passDiff: (mine, best) => `Pass: you passed ${mine}, Hard passes ${best}`,
  playDiff: (n, mine, best) => `Trick ${n}: you played ${mine}, Hard plays ${best}`,
  costMore: (x) => `${x} more points`,
  costLess: (x) => `${x} fewer points, but Hard weighs the others' points too`,
  costSame: "the same points",
  analyseError: "Could not analyse",
  knewTitle: "What the computer knew",
  knewOpen: "What the computer knew",
  knewAbout: " At each computer turn: what it could see, and where Hard guessed the hidden cards were, beside where they really were.",
  knewError: "Could not load this",
  knewLoading: "Going over the computers' turns…",
  knewNotHard: "The computers played this hand at Easy or Medium: those levels do not guess the hidden cards, they play on what they see.",
  knewNonePass: "The computers did not pass this hand.",
  knewNoneTrick: "No computer played a card in this trick.",
  knewPassed: "passed",
  knewPlayed: "played",
  knewNothing: "none",
  knewHand: "In hand:",
  knewGave: "It passed:",
  knewGot: (name) => `Passed by ${name}:`,
  knewTable: "On the table:",
  knewLeads: "nothing yet, it leads",
  knewPlayedSoFar: (n) => `It had seen ${n} cards played in the hand.`,
  knewNoChoice: "Only one sensible card: nothing to guess.",
  knewReally: "Really:",
  knewImagined: (n) => `Hard imagined ${n} deals of the hidden cards. In them, how often each player held the card:`,
  knewAllSeen: "It had seen every card that matters.",
  knewCard: "Card",
  knewRealHere: "This player really held the card",
  knewLegend: "✓: who really held the card. The computer only guesses from what it sees, so it is sometimes wrong.",
};

// index.html's own words, by their Vietnamese text (text and aria-label, title,
// placeholder); the rules dialog is HELP below.
const PAGE = {
  "Hearts – chơi bài với ba máy": "Hearts – play cards with three computers",
  "Chơi với máy": "Against computers",
  "Độ khó của máy": "Computers' level",
  "Dễ": "Easy", "Vừa": "Medium", "Khó": "Hard",
  "Chơi nhanh": "Quick play",
  "Âm thanh": "Sound",
  "Trận mới": "New match",
  "Chơi với bạn bè": "Play with friends",
  "Chơi với mọi người": "Play with everyone",
  "Luật chơi": "Rules",
  "Bàn chơi": "Table",
  "Cơ đã bị phá": "Hearts are broken",
  "Đầm bích đã ra": "The queen of spades has fallen",
  "Vòng trước": "Last trick",
  "Các lá trên bàn": "Cards on the table",
  "Bấm để đóng": "Click to close",
  "Chạm để đóng": "Tap to close",
  "Bạn bắn trăng!": "You shot the moon!",
  "Chọn cách tính điểm ván này:": "Choose how this hand scores:",
  "Gợi ý": "Hint",
  "Đánh lá này": "Play this card",
  "Đi lại": "Take back",
  "Chuyền sang trái": "Pass left",
  "Xem lại ván": "Review hand",
  "Chia ván mới": "Deal next hand",
  "Thử lại": "Try again",
  "Bài trên tay bạn": "Your hand",
  "Người chơi": "Players",
  "Về bàn": "Back to the table",
  "Các vòng trong ván": "Tricks this hand",
  "Chưa có vòng nào.": "No trick yet.",
  "Bảng điểm": "Scores",
  "Ván": "Hand",
  "Tổng": "Total",
  "Chưa xong ván nào.": "No hand finished yet.",
  "Thành tích": "Achievements",
  "Cho đi lại": "Allow take-backs",
  "Cảnh báo nước đi": "Play checker",
  "Xem lại, mở tệp ván": "Review, open a hand file",
  "Các bảng": "Panels",
  "Các vòng": "Tricks",
  "Đóng": "Close",
  "Số người chơi": "Players",
  "Đầm bích phá cơ": "Queen of spades breaks hearts",
  "Bắn trăng": "Shooting the moon",
  "Cộng 26 cho ba nhà kia": "Plus 26 for the three others",
  "Trừ 26 cho người bắn": "Minus 26 for the shooter",
  "Người bắn tự chọn": "The shooter chooses",
  ["J♦" + VS + " trừ 10 điểm"]: "J♦" + VS + " minus 10 points",
  "Trận kết thúc khi có người đạt": "The match ends when someone reaches",
  "điểm (50–500)": "points (50–500)",
  "Luật mặc định": "Default rules",
  "Bắt đầu trận mới": "Start a new match",
  "Bỏ trận đang chơi?": "Abandon the match in play?",
  "Bỏ và chơi trận mới": "Abandon it and start anew",
  "Thôi": "Cancel",
  "Thời gian mỗi lượt": "Time per turn",
  "15 giây": "15 s", "30 giây": "30 s", "1 phút": "1 min", "2 phút": "2 min",
  "không giới hạn": "no limit",
  "Hết giờ mà người chơi chưa đánh, máy Vừa đánh thay lượt đó.": "When a player's time runs out, a Medium computer plays that turn.",
  "Tên của bạn": "Your name",
  "Khách 1": "Guest 1",
  "Phòng chơi với bạn bè": "Room with friends",
  "Gửi đường dẫn này cho bạn bè để vào phòng:": "Send this link to your friends to join the room:",
  "Sao chép": "Copy",
  "Chia sẻ…": "Share…",
  "Chỗ ngồi": "Seats",
  "Bắt đầu": "Start",
  "Rời phòng": "Leave the room",
  "Vào phòng chơi với bạn bè": "Join a room with friends",
  "Tên hiển thị (tối đa 20 ký tự)": "Your name (up to 20 characters)",
  "Vào phòng": "Join",
  "Chơi một mình": "Play alone",
};

// [tag, attributes, ...children]; a child is such a list or a text (textContent).
const HELP = [
  "div", {"class":"help-body"},
  ["div",{"class":"help-top"},["h2",{"id":"help-h"},"Rules"],["button",{"type":"button","id":"help-close","class":"ghost"},"Close"]],
  ["p",{},"Hearts is a trick-taking game for four, the other way round from most: the fewer points you take, the better. Each heart you take is 1 point and the queen of spades is 13, so a hand is about ducking, slipping under with low cards and \"sending\" the dangerous cards to someone else. Here you play with three computers, hand after hand, until someone reaches 100 points."],
  ["h3",{},"The rules of Hearts"],
  ["ul",{},["li",{},"Four players, 13 cards each from a 52-card deck. You sit at the bottom, West on your left, North across, East on your right. Play goes clockwise, to the left."],["li",{},"At the start of each hand everyone passes 3 cards: to the left in the first hand, to the right in the second, across in the third, no passing in the fourth. Then it starts again."],["li",{},"Whoever holds the 2 of clubs leads it to open the first trick."],["li",{},"If you hold a card of the suit led, you must follow suit. Only when you have none may you play any card."],["li",{},"The highest card of the suit led takes the trick; the ace is highest. Hearts has no trumps: a card of another suit never wins. Whoever takes the trick leads the next."],["li",{},"On the first trick nobody may play a heart or the queen of spades, unless they hold nothing else."],["li",{},"You may not lead a heart until hearts are \"broken\", that is until someone has played a heart on an earlier trick. Unless you hold only hearts."],["li",{},"At the end of the hand each heart taken is 1 point and the queen of spades 13: 26 points in all."]],
  ["h3",{},"Optional rules for a new match"],
  ["p",{},"Press \"New match\" to choose the match's rules. They stay until the match ends and show briefly in the table's corner when they differ from the default. \"Default rules\" are four players, the queen of spades does not break hearts, a moon adds 26 to the three others, the J♦\uFE0E scores nothing, up to 100 points."],
  ["ul",{},["li",{},["b",{},"3 to 7 players."]," To deal evenly a few low cards leave the deck: 3 players without the 2 of diamonds (17 cards each); 5 without the 2 of diamonds and the 2 of clubs (10 each, the 3 of clubs opens); 6 without the 2 and 3 of diamonds and the 3 and 4 of clubs (8 each); 7 without the 2 and 3 of diamonds and the 3 of clubs (7 each). The lowest club left in the deck opens the first trick."],["li",{},["b",{},"Passing."]," Always 3 cards. Four players: left, right, across, none. Three players: left, right, none. Five to seven players: left, right, and again. The pass button names the direction."],["li",{},["b",{},"Queen of spades breaks hearts."]," When on, playing the queen of spades breaks hearts, like a heart."],["li",{},["b",{},"Shooting the moon."]," \"Plus 26 for the three others\" (the default): the shooter 0, everyone else +26. \"Minus 26 for the shooter\": the shooter −26, the others 0. \"The shooter chooses\": when you shoot the moon, the page asks which and shows the totals after each; a computer chooses for itself, and the hand's result says what it chose."],["li",{},["b",{},"J♦\uFE0E minus 10 points."]," Whoever takes the J♦\uFE0E gets 10 points off that hand. A moon still counts only the hearts and the queen of spades."],["li",{},["b",{},"The match ends"]," at 50 to 500 points (100 by default)."]],
  ["h3",{},"What is shooting the moon?"],
  ["p",{},"If one player takes all 13 hearts and the queen of spades in the same hand, they have \"shot the moon\". Instead of 26 points they get 0, and the three others get 26 each."],
  ["p",{},"It is a big gamble: it needs strong cards in several suits, and if anyone else takes a single heart you are left with nearly all 26 points."],
  ["h3",{},"When does the match end?"],
  ["p",{},"Hands follow one another until a hand ends with at least one player at 100 points or more. Then the lowest total wins. If two or more tie for the lowest, one more hand is played."],
  ["h3",{},"Playing on this page"],
  ["ul",{},["li",{},"At the start of a hand, tap the 3 cards to pass and press the pass button. A chosen card rises; tap it again to put it back."],["li",{},"On your turn, tap a card to play it. A card you may not play is dimmed and crossed out, so you see at once which cards are legal."],["li",{},"Cards passed to you have a yellow bar under them until the end of the first trick."],["li",{},"After each trick the cards stay on the table a moment, the winning card highlighted. The \"Tricks this hand\" panel lists each trick: who led, who took it."],["li",{},"At the end of the hand its points show on the table. Press \"Deal next hand\" to go on. The score table keeps every hand of the match."],["li",{},"Choose Easy, Medium or Hard for the computers, and turn on \"Quick play\" to wait less. The match in play is saved in this browser: close the page and open it again to go on."],["li",{},"Keyboard: the arrow keys move between cards, Enter or Space chooses or plays a card."],["li",{},"Play with friends: press «Play with friends», choose the rules, the computers' level and the time per turn, then send the room's link to your friends. The creator presses «Start» when everyone is in; computers play the empty seats. When a player is away past their turn's time, a Medium computer plays that turn, marked «(automatic)». Close the page and open the link (or the main page) again to come back to your seat."]],
  ["details",{},["summary",{},"Tips"],["ul",{},["li",{},"Pass the cards hardest to get rid of: the queen, king and ace of spades if you have few low spades, and high hearts."],["li",{},"Try to run out of one suit early, often clubs or diamonds. Then each time that suit is led you can throw away a dangerous card."],["li",{},"Keep a few low cards. A 2 or a 3 lets you slip under a trick full of hearts late in the hand."],["li",{},"If you do not hold the queen of spades, lead low spades to force her out."],["li",{},"Count the hearts and remember who is out of which suit: you will know when taking a trick is safe, and when someone is going for the moon."],["li",{},"If one player has taken every point so far, take a heart yourself to stop their moon. One point is far better than 26."]]],
  ["details",{},["summary",{},"About the computers"],["p",{},"A computer knows only what a real player at the table knows: its own hand, the cards it passed and was passed, and every card played. It never sees your cards or anyone else's."],["p",{},"Easy plays loosely, good for learning the rules. Medium plays like a careful player. Hard remembers every card played and who is out of which suit, imagines many ways the hidden cards may lie, plays each out in its head and chooses the best card."]],
  ["details",{},["summary",{},"Questions"],["dl",{},["dt",{},"Is the queen of spades a heart?"],["dd",{},"No. She is a spade and follows spades like any other. She is just worth 13 points, so everyone wants to pass her or throw her to someone else."],["dt",{},"Does playing the queen of spades break hearts?"],["dd",{},"Not here: only a heart breaks hearts, unless you turn on that optional rule for a new match."],["dt",{},"Why no hearts on the first trick?"],["dd",{},"The first trick is kept \"clean\" so nobody is unlucky before playing a card. If you hold only hearts and the queen of spades you may still play them."],["dt",{},"How does a moon score?"],["dd",{},"The player who takes all 26 points gets 0 that hand and the three others get 26 each. A moon can turn a match around, so watch for a player taking every heart."],["dt",{},"Who wins when someone reaches 100?"],["dd",{},"When a hand ends with someone at 100 or more, the match is over and the lowest total wins. If two or more tie for the lowest, one more hand is played."],["dt",{},"Do the computers cheat?"],["dd",{},"No. Each computer gets only the part of the table its seat may see, and the game's automatic tests check that its choices never change when the hidden cards are dealt differently."],["dt",{},"Does the computer look at my cards?"],["dd",{},"No, and the game checks it every time it is changed. Its automatic tests take hundreds of positions from every part of a hand: the pass, the first trick, the middle, the end. In each, they keep everything the computer may see (its own cards, what it passed and was passed, every card played) and deal again at random every card it cannot see, yours included. A computer that peeked would change its card with the new deal. Each run re-deals 720 times for Easy, 720 for Medium and 96 for Hard (16 of them at the very Hard you play against): the computer always chooses the same card. The hint, the analysis and Hard's guesses about the hidden cards are checked the same way. See for yourself: after a hand, open «Review a hand» and press «What the computer knew» to see what each computer saw and where Hard guessed the high cards were, beside where they really were. It guesses, sometimes wrongly, but never knows."],["dt",{},"Is there betting or chips?"],["dd",{},"No. Hearts here is played for points only: no bets, no chips, no prizes."],["dt",{},"Can I play Hearts online with friends?"],["dd",{},"Yes. Press «Play with friends», choose the rules and send the room's link to your friends. Each plays in their own browser; computers play the empty seats. Matches and achievements are kept in this browser, with no account."]]],
];

// Replace each entry of the target objects (nested tables one level down).
// share.js, pwa.js, transfer.js
const A = {
  qrShow: "QR code",
  qrRoom: "QR code of the room's link: scan it with a phone's camera",
  offline: "No connection. Your match is kept; the page carries on by itself when the connection returns.",
  close: "Close",
  cancel: "Cancel",
  copy: "Copy",
  copied: "Copied",
  share: "Share…",
  transferOpen: "Move to another device",
  transferSay: "Open this link on the other device, or scan the QR code with its camera. Your match, statistics and achievements move there; this device starts afresh.",
  transferWhen: "The code works once, for 10 minutes.",
  transferQr: "QR code of the link that moves your progress to another device",
  transferShareText: "The link that moves my Hearts match to this device:",
  transferReceive: "Receive from another device",
  transferType: "Transfer code from the other device ",
  transferTake: "Receive",
  transferClaimSay: "The match, statistics and achievements of the other device move to this one, in place of what is here.",
  movedTitle: "Moved to another device",
  movedSay: "Your match, statistics and achievements were moved to another device. You can start afresh on this one.",
  startAfresh: "Start afresh",
  transferNet: "No connection: try again once you are online.",
};

export function install(t) {
  const put = (into, from) => {
    for (const [k, v] of Object.entries(from)) {
      if (v && typeof v === "object" && into[k] && typeof into[k] === "object") put(into[k], v);
      else into[k] = v;
    }
  };
  put(t.SUIT_NAME, { C: "clubs", D: "diamonds", S: "spades", H: "hearts" });
  put(t.SUIT_TITLE, { C: "Clubs", D: "Diamonds", S: "Spades", H: "Hearts" });
  put(t.RANK_SPOKEN, { J: "jack", Q: "queen", K: "king", A: "ace" });
  put(t.SEAT_NAME, { S: "You", W: "West", N: "North", E: "East" });
  put(t.MOON_WORDS, {
    add_to_others: (others) => `Plus 26 for the ${COUNT[others] || others} others`,
    subtract_from_self: () => "Minus 26 for the shooter",
    shooter_chooses: () => "The shooter chooses",
  });
  put(t.PASS_DIR, PASS_DIR);
  put(t.T, {
    ...T,
    played: (name, card) => `${name} ${you(name) ? "play" : "plays"} the ${t.cardSpoken(card)}`,
    yourLead: (card) => `Your turn: open the first trick with the ${t.cardSpoken(card)}`,
    checkerPlay: (card) => `Play ${t.cardShort(card)}`,
  });
  put(t.W, { ...W, autoPlayed: (name, card) => `${name} is away: the computer played ${t.cardShort(card)} instead (automatic)` });
  put(t.R, R);
  put(t.A, A);
}

function translateNode(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const key = n.nodeValue.trim();
    if (key && PAGE[key]) n.nodeValue = n.nodeValue.replace(key, PAGE[key]);
  }
  for (const e of root.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const a of ["aria-label", "title", "placeholder"]) {
      const v = e.getAttribute(a);
      if (v && PAGE[v]) e.setAttribute(a, PAGE[v]);
    }
  }
  for (const tpl of root.querySelectorAll("template")) translateNode(tpl.content);
}

// The English rules are built as nodes, never parsed from an HTML string.
function build(doc, node) {
  if (typeof node === "string") return doc.createTextNode(node);
  const [tag, attributes, ...children] = node;
  const element = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) element.append(build(doc, child));
  return element;
}

export function translatePage(doc) {
  doc.title = PAGE[doc.title] || doc.title;
  const help = doc.getElementById("help-template");
  if (help) help.content.replaceChildren(build(doc, HELP));
  translateNode(doc);
}
