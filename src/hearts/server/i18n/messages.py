"""The page's words: error codes with their HTTP status and short Vietnamese message,
why a card may not be played now, and the cards read aloud in Vietnamese (the
engine writes cards in SPEC's notation; only the server speaks Vietnamese).

>>> import random
>>> from hearts.hand import HandState
>>> from hearts.rules import Rules
>>> state = HandState.deal(Rules(), 4, random.Random(1))
>>> view = state.view(state.turn)
>>> reason = illegal_reason(view, next(c for c in range(1, 52) if view.hand >> c & 1))
>>> reason.code, reason.message
('must_lead_lead_card', 'Phải đánh 2 nhép mở vòng đầu')
"""

from __future__ import annotations

from dataclasses import dataclass

from hearts.server.i18n import lang, messages_en
from hearts.view import PlayerView

#: The suits and ranks read aloud, in the engine's order (clubs, diamonds, spades, hearts).
SUITS_VI = ("nhép", "rô", "bích", "cơ")
RANKS_VI = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Át")

#: code -> (HTTP status, message).  409: the game is not in a state for this action;
#: 422: a card the rules forbid now; 400: a request that cannot mean anything.
ERRORS: dict[str, tuple[int, str]] = {
    "bad_token": (403, "Phiên chơi không hợp lệ"),
    "stale": (409, "Bàn chơi đã thay đổi, đang cập nhật"),
    "bad_card": (400, "Lá bài không hợp lệ"),
    "not_in_hand": (400, "Bạn không có lá này"),
    "not_your_turn": (409, "Chưa đến lượt bạn"),
    "wrong_phase": (409, "Không làm được việc này lúc này"),
    "match_over": (409, "Trận đã kết thúc"),
    "must_follow_suit": (422, "Phải ra lá cùng chất"),
    "hearts_not_broken": (422, "Cơ chưa bị phá, chưa được ra cơ"),
    "first_trick_points": (422, "Vòng đầu không được đánh cơ hay đầm bích"),
    "must_lead_lead_card": (422, "Phải đánh 2 nhép mở vòng đầu"),
    "bad_pass": (400, "Hãy chọn đúng số lá khác nhau cần chuyền"),
    "bad_rules": (400, "Luật chơi không hợp lệ"),
    "bad_client_seed": (400, "Hạt giống của trình duyệt phải gồm 1 đến 64 ký tự 0-9, a-f"),
    "commitment_changed": (409, "Ván đó đã được chia, hãy gửi hạt giống cho ván sau"),
    "bad_ticket": (400, "Vé chia ván đầu không phải của máy chủ này"),
    "ticket_expired": (409, "Vé chia ván đầu đã hết hạn, hãy tải lại trang"),
    "ticket_used": (409, "Vé chia ván đầu đã được dùng"),
    "not_computer_turn": (409, "Đang đến lượt bạn"),
    "bad_request": (400, "Yêu cầu không hợp lệ"),
    "too_large": (413, "Yêu cầu quá lớn"),
    "headers_too_large": (431, "Phần đầu yêu cầu quá lớn"),
    "not_found": (404, "Không tìm thấy"),
    "method_not_allowed": (405, "Không hỗ trợ cách gọi này"),
    "rate_limited": (429, "Tạo phiên chơi quá nhanh, hãy thử lại sau ít phút"),
    "nothing_to_take_back": (409, "Không có lá nào để đi lại"),
    "take_back_off": (409, "Đi lại đang tắt trong cài đặt"),
    "bad_record": (400, "Tệp này không phải ván bài Hearts đã lưu"),
    "internal": (500, "Lỗi máy chủ, hãy thử lại"),
    # moving to another browser (Chuyển sang máy khác)
    "moved": (410, "Trận đấu, thống kê và thành tích của bạn đã được chuyển sang máy khác"),
    "transfer_unknown": (404, "Mã chuyển không đúng"),
    "transfer_used": (410, "Mã chuyển này đã được dùng"),
    "transfer_expired": (410, "Mã chuyển đã hết hạn (sau 10 phút), hãy tạo mã mới"),
    "transfer_limited": (429, "Thử mã chuyển quá nhiều lần, hãy đợi một phút"),
    "unavailable": (503, "Máy chủ đang tạm gián đoạn, hãy thử lại sau ít giây"),
    # rooms (play with friends)
    "room_not_found": (404, "Không tìm thấy phòng này"),
    "room_full": (409, "Phòng đã đủ người"),
    "room_started": (409, "Trận trong phòng đã bắt đầu, không vào thêm được"),
    "not_in_room": (403, "Bạn không ngồi trong phòng này"),
    "creator_only": (403, "Chỉ chủ phòng mới làm được việc này"),
    "bad_name": (400, "Tên phải có từ 1 đến 20 ký tự"),
    "bad_seat": (400, "Không có ghế này"),
    "join_limited": (429, "Vào phòng quá nhanh, hãy thử lại sau ít phút"),
    "too_many_sockets": (429, "Quá nhiều kết nối, hãy đóng bớt các thẻ đang mở"),
    "too_many_polls": (429, "Quá nhiều kết nối từ cùng một mạng, hãy thử lại sau ít giây"),
    # answered by nginx (deploy/nginx.conf, limit_conn), never by the game
    "too_many_connections": (429, "Quá nhiều kết nối từ cùng một mạng, hãy thử lại sau ít giây"),
    "analysis_busy": (429, "Máy chủ đang phân tích nhiều ván, hãy thử lại sau ít giây"),
    "hand_in_play": (409, "Ván này đang chơi, hết ván mới xem được"),
    # public tables (play with everyone)
    "public_table": (409, "Bàn công khai: hãy dùng Tìm bàn"),
    "name_not_allowed": (400, "Tên này không dùng được ở bàn công khai"),
    "bad_reaction": (400, "Không có biểu cảm này"),
    # the interval is the server's (reaction_message); this is said without it
    "reaction_too_soon": (429, "Bạn vừa gửi biểu cảm, hãy chờ một chút"),
    "seek_limited": (429, "Tìm bàn quá nhanh, hãy thử lại sau ít giây"),
    "react_limited": (429, "Gửi biểu cảm quá nhanh, hãy thử lại sau ít giây"),
}


#: Why a rules object for a new match is refused (``bad_rules``), by the key at fault.
RULE_ERRORS: dict[str, str] = {
    "object": "Luật chơi phải là một đối tượng JSON",
    "unknown": "Không có luật tên {}",
    "players": "Số người chơi phải từ 3 đến 7",
    "qs_breaks_hearts": "Đầm bích phá cơ phải là true hoặc false",
    "moon": "Cách tính bắn trăng không hợp lệ",
    "jd_bonus": "J♦ trừ 10 điểm phải là true hoặc false",
    "target": "Điểm kết thúc trận phải từ 50 đến 500",
}


#: ``bad_name`` for a name that would show as nothing (marks, blanks, fillers).
INVISIBLE_NAME = "Tên phải có ít nhất một chữ, số hay ký hiệu nhìn thấy được"

#: ``bad_name`` for a letter under more marks than any script stacks ("zalgo" text).
MARKS_NAME = "Tên có quá nhiều dấu chồng lên một chữ"


def rule_message(key: str, name: str = "") -> str:
    table = messages_en.RULE_ERRORS if lang.english() else RULE_ERRORS
    return table[key].format(name[:30])


def pass_message(count: int) -> str:
    """``bad_pass`` for a table that passes ``count`` cards."""
    if lang.english():
        return messages_en.pass_message(count)
    return f"Hãy chọn đúng {count} lá khác nhau để chuyền"


def seconds_text(seconds: float) -> str:
    """A setting's seconds as a player reads them: "3", "1,5" (English "1.5")."""
    text = f"{seconds:g}"
    return text if lang.english() else text.replace(".", ",")


def reaction_message(seconds: float) -> str:
    """``reaction_too_soon`` at a table where one reaction a player is allowed every
    ``seconds`` (``--public-reaction-seconds``)."""
    if lang.english():
        return messages_en.reaction_message(seconds_text(seconds))
    return f"Mỗi {seconds_text(seconds)} giây chỉ gửi được một biểu cảm"


def localized(message: str) -> str:
    """A message written where it was raised, in the request's language."""
    return messages_en.TEXTS.get(message, message) if lang.english() else message


@dataclass(frozen=True, slots=True)
class Reason:
    code: str
    message: str


def card_name_vi(card: int) -> str:
    """The card read aloud in Vietnamese, as the page's accessible name.

    >>> from hearts.cards import parse_card
    >>> card_name_vi(parse_card("QS"))
    'Q bích'
    """
    return f"{RANKS_VI[card % 13]} {SUITS_VI[card // 13]}"


def error_status(code: str) -> int:
    return ERRORS.get(code, (400, ""))[0]


def error_message(code: str) -> str:
    if lang.english():
        return messages_en.ERRORS.get(code, messages_en.ERRORS["bad_request"])
    return ERRORS.get(code, (400, ERRORS["bad_request"][1]))[1]


def illegal_reason(view: PlayerView, card: int) -> Reason | None:
    """Why the seat of ``view`` may not play ``card`` now, in one short line (None if
    legal): the rule's code from :meth:`PlayerView.why_illegal`, in the request's
    language (Vietnamese unless English was asked for)."""
    err = view.why_illegal(card)
    if err is None:
        return None
    code = err.code
    if lang.english() and code == "must_follow_suit":
        return Reason(code, messages_en.must_follow(view.trick[0][1] // 13))
    if lang.english() and code == "must_lead_lead_card":
        return Reason(code, messages_en.must_lead(view.rules.lead_card))
    if code == "must_follow_suit":
        led = view.trick[0][1] // 13
        return Reason(code, f"Phải ra lá {SUITS_VI[led]}")
    if code == "must_lead_lead_card":
        return Reason(code, f"Phải đánh {card_name_vi(view.rules.lead_card)} mở vòng đầu")
    return Reason(code, error_message(code))
