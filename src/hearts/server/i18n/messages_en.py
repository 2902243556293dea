"""The server's words in English, for a request that asks for it (hearts.server.i18n.lang):
the error messages by code, the rules' refusals, the few messages written where they
are raised (by their Vietnamese text), the seat names and the cards read aloud."""

from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
SUITS = ("clubs", "diamonds", "spades", "hearts")

ERRORS: dict[str, str] = {
    "bad_token": "This session is not valid",
    "stale": "The table has changed, updating",
    "bad_card": "Not a valid card",
    "not_in_hand": "You do not hold this card",
    "not_your_turn": "It is not your turn yet",
    "wrong_phase": "That cannot be done now",
    "match_over": "The match is over",
    "must_follow_suit": "You must follow suit",
    "hearts_not_broken": "Hearts are not broken yet: you may not lead a heart",
    "first_trick_points": "No hearts or queen of spades on the first trick",
    "must_lead_lead_card": "Lead the 2 of clubs to open the first trick",
    "bad_pass": "Choose the right number of different cards to pass",
    "bad_rules": "These rules are not valid",
    "bad_client_seed": "The browser's seed must be 1 to 64 characters of 0-9, a-f",
    "commitment_changed": "That deal was made already: send a seed for the next one",
    "bad_ticket": "This first-deal ticket is not this server's",
    "ticket_expired": "This first-deal ticket has expired: reload the page",
    "ticket_used": "This first-deal ticket was used already",
    "not_computer_turn": "It is your turn",
    "bad_request": "This request is not valid",
    "too_large": "The request is too large",
    "headers_too_large": "The request's headers are too large",
    "not_found": "Not found",
    "method_not_allowed": "This method is not supported",
    "rate_limited": "Sessions are being made too fast, try again in a few minutes",
    "nothing_to_take_back": "There is no card to take back",
    "take_back_off": "Taking back is turned off in the settings",
    "bad_record": "This file is not a saved Hearts hand",
    "internal": "Server error, please try again",
    "moved": "Your match, statistics and achievements were moved to another device",
    "transfer_unknown": "This transfer code is not right",
    "transfer_used": "This transfer code was used already",
    "transfer_expired": "This transfer code has expired (after 10 minutes): make a new one",
    "transfer_limited": "Too many transfer codes tried: wait a minute",
    "unavailable": "The server is briefly unavailable, try again in a few seconds",
    "room_not_found": "This room was not found",
    "room_full": "The room is full",
    "room_started": "The room's match has started: no one else can join",
    "not_in_room": "You have no seat in this room",
    "creator_only": "Only the room's creator can do this",
    "bad_name": "A name has 1 to 20 characters",
    "bad_seat": "There is no such seat",
    "join_limited": "Joining rooms too fast, try again in a few minutes",
    "too_many_sockets": "Too many connections: close some of your open tabs",
    "too_many_polls": "Too many connections from one network: try again in a few seconds",
    "too_many_connections": "Too many connections from one network: try again in a few seconds",
    "analysis_busy": "The server is analysing many hands: try again in a few seconds",
    "hand_in_play": "This hand is still being played: it can be seen once it is over",
    "public_table": "A public table: use Find a table",
    "name_not_allowed": "This name cannot be used at a public table",
    "bad_reaction": "There is no such reaction",
    "reaction_too_soon": "You have just sent a reaction, wait a moment",
    "seek_limited": "Finding tables too fast, try again in a few seconds",
    "react_limited": "Sending reactions too fast, try again in a few seconds",
}

RULE_ERRORS: dict[str, str] = {
    "object": "The rules must be a JSON object",
    "unknown": "There is no rule named {}",
    "players": "Players: 3 to 7",
    "qs_breaks_hearts": "Queen of spades breaks hearts must be true or false",
    "moon": "Not a valid way to score a moon",
    "jd_bonus": "J♦ minus 10 must be true or false",
    "target": "The match ends at 50 to 500 points",
}

#: Messages written where they are raised, by their Vietnamese text.
TEXTS: dict[str, str] = {
    "Bây giờ không phải lúc chuyền bài": "It is not time to pass",
    "Bạn đã chuyền bài rồi": "You have already passed",
    "Tên phải có ít nhất một chữ, số hay ký hiệu nhìn thấy được": (
        "A name needs at least one visible letter, digit or sign"
    ),
    "Tên có quá nhiều dấu chồng lên một chữ": "A name has too many marks stacked on one letter",
    "Bây giờ không phải lúc đánh bài": "It is not time to play",
    "Bây giờ không phải lúc chọn cách tính bắn trăng": "Not the time to choose the moon's scoring",
    "Ván này chưa xong": "This hand is not over",
    "Bây giờ không có gì để gợi ý": "There is nothing to hint now",
    "Ván này đã xong": "This hand is over",
    "Ván này chưa xong hoặc không có": "This hand is not over or does not exist",
    "Chưa phân tích ván này": "This hand has not been analysed",
    "Trang chưa sẵn sàng": "The page is not ready",
    "Điểm ghi trong tệp không khớp với các vòng đã đánh": (
        "The points in the file do not match the tricks played"
    ),
    "Phần chuyền bài không hợp lệ": "The pass is not valid",
    "Bài chia trong tệp không khớp với các hạt giống đã cam kết": (
        "The deal in the file is not the one its committed seeds give"
    ),
}

#: The seats of the four-player table, and the other tables' names after "You".
NAMES = {"S": "You", "W": "West", "N": "North", "E": "East"}
NAMES_AROUND = ("Ann", "Ben", "Cleo", "Dan", "Hal", "Kim")


def card_name(card: int) -> str:
    """``queen of spades``: the card read aloud."""
    return f"{RANKS[card % 13]} of {SUITS[card // 13]}"


def reaction_message(seconds: str) -> str:
    return f"One reaction every {seconds} seconds at most"


def pass_message(count: int) -> str:
    return f"Choose {count} different cards to pass"


def must_follow(suit: int) -> str:
    return f"You must play a {SUITS[suit][:-1]}"


def must_lead(card: int) -> str:
    return f"Lead the {card_name(card)} to open the first trick"


def record_play(code: str, who: str, you: bool, card: int, led: int, lead: int) -> str:
    """Why a hand file's card may not be played, naming the seat whose card it is
    (``who``; ``you``: the first seat's, "You"), for the review's refusal."""
    name = "you" if you else who
    s = "" if you else "s"
    whose, does = ("your", "do") if you else (f"{who}'s", "does")
    what = card_name(card)
    said = {
        "not_in_hand": f"it is {whose} turn, and {name} {does} not hold the {what}",
        "must_follow_suit": (
            f"{name} play{s} the {what} but still hold{s} a {SUITS[led // 13][:-1]}: "
            "the suit led must be followed"
        ),
        "hearts_not_broken": f"{name} lead{s} the {what} before hearts are broken",
        "first_trick_points": (
            f"{name} play{s} the {what} on the first trick, "
            "where no heart and no queen of spades may be played"
        ),
        "must_lead_lead_card": (
            f"{name} open{s} the first trick with the {what}, not the {card_name(lead)}"
        ),
    }
    return said.get(code, f"{name} play{s} the {what}")


def guest(n: int) -> str:
    return f"Guest {n}"


def computer(n: int) -> str:
    return f"Computer {n}"


#: The achievements' names and conditions (hearts.server.records.achievements), by id.
ACHIEVEMENTS: dict[str, tuple[str, str]] = {
    "moon": ("Shoot the moon", "Take all 13 hearts and the queen of spades in one hand"),
    "moon_stopper": (
        "Moon stopper",
        "Someone takes the queen of spades and every other heart; you take 1–3 hearts to stop it",
    ),
    "clean_hand": ("Spotless", "Finish a hand with no heart and no queen of spades"),
    "clean_hand_hard": ("Dodged Hard", "A clean hand (no hearts, no queen) against Hard"),
    "queen_giver": ("Special delivery", "Play the queen of spades on a trick someone else takes"),
    "jack_taker": ("Jack catcher", "Take the J♦ in a match with the J♦ minus 10 rule"),
    "first_match": ("First match", "Play a whole match until someone wins"),
    "first_win": ("First win", "Win a match"),
    "win_hard": ("Beat Hard", "Win a match with every hand played against Hard"),
    "win_under_50": ("Landslide", "Win a match to 100 or more with a total under 50"),
    "no_queen_match": (
        "Queen-free",
        "A whole match to 100 or more without taking the queen of spades once",
    ),
    "comeback": ("Comeback", "Win a match after being last at some point"),
    "no_hints_win": ("On my own", "Win a match without any hint"),
    "checker_clean": (
        "No warning needed",
        "Play a whole match with the play checker on and never be warned",
    ),
    "streak_3": ("Three in a row", "Win 3 matches in a row (abandoned matches do not count)"),
    "matches_10": ("Ten matches", "Play 10 whole matches"),
    "matches_100": ("A hundred matches", "Play 100 whole matches"),
    "moons_5": ("Five moons", "Shoot the moon 5 times"),
    "variants": (
        "Every rule",
        "Finish a match with each rule: 3 players, 5–7 players, queen breaks hearts, "
        "the other moon scoring, J♦ minus 10",
    ),
}
