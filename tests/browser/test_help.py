"""The rules ("Luật chơi") tell of what the page does (issue 56, item 10): a section of its own
for Chơi với mọi người (the rating counts only real people), Gợi ý, Cảnh báo nước
đi, Đi lại, Xem lại / Phân tích, Chuyển sang máy khác and the hand's commitment,
each named with the words of the page's own control; and "Cam kết là gì?" beside
"Cam kết của ván: …" opens the rules at the commitment's section. In Vietnamese and
in English (static/help.vi.html, help.en.html)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from table_page import open_table, set_language

pytestmark = pytest.mark.browser

# the page's own words for each part, read from its controls
LABELS_JS = """() => {
    const text = (sel) => document.querySelector(sel).textContent.trim();
    return {
        public: text('#public-open'),
        hint: text('#hint-button'),
        checker: document.querySelector('#checker-setting').closest('label').textContent.trim(),
        take_back: text('#take-back-button'),
        review: text('#review-open'),
        transfer: [...document.querySelectorAll('#stats-panel .coach-row button')].at(-1)
            .textContent.trim(),
        commitment: text('#fairness').split(':')[0],
    };
}"""

# the rules' sections (a heading and what follows it, up to the next heading or the
# folded parts: tips, the computers, the questions)
SECTIONS_JS = """() => [...document.querySelectorAll('#help .help-body > h3')].map((h) => {
    let text = h.textContent;
    for (let n = h.nextElementSibling; n && !n.matches('h3, details'); n = n.nextElementSibling)
        text += ' ' + n.textContent;
    return text.replace(/\\s+/g, ' ');
})"""

# where the section opened at lies: inside the dialog's view, below its title's bar
IN_VIEW_JS = """() => {
    const d = document.querySelector('dialog#help'), at = d.querySelector('#help-fair');
    const top = d.querySelector('.help-top').getBoundingClientRect();
    const r = at.getBoundingClientRect(), view = d.getBoundingClientRect();
    return {scrolled: d.scrollTop, below_title: r.top >= top.bottom - 1,
            in_view: r.bottom <= view.bottom};
}"""

VIETNAMESE = r"[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]"

WORDS = {
    "vi": {"analyse": "Phân tích", "not_computers": "không tính máy", "what": "Cam kết là gì?"},
    "en": {
        "analyse": "Analyse",
        "not_computers": "not the computers",
        "what": "What is a commitment?",
    },
}


def test_the_rules_tell_of_every_part_of_the_page(page: Page, artifacts: Path) -> None:
    open_table(page)
    for lang in ("vi", "en"):
        if lang == "en":
            set_language(page, "en")
        words = WORDS[lang]
        # the transfer's button comes after the first card (ondemand.js)
        expect(page.locator("#stats-panel .coach-row button")).to_have_count(2)
        expect(page.locator("#fairness")).to_be_visible()
        labels = page.evaluate(LABELS_JS)
        page.locator("#help-button").click()
        expect(page.locator("#help")).to_be_visible()
        sections: list[str] = page.evaluate(SECTIONS_JS)
        for part, label in [*labels.items(), ("analyse", words["analyse"])]:
            assert label and any(label in s for s in sections), (lang, part, label)
        public = next(s for s in sections if labels["public"] in s)
        assert words["not_computers"] in public, public  # the rating: real people only
        if lang == "en":
            shown = page.locator("#help").inner_text()
            assert not re.search(VIETNAMESE, shown, re.I), shown
        page.keyboard.press("Escape")
        expect(page.locator("#help-button")).to_be_focused()

        # beside the commitment, what it is: the rules open at its section
        what = page.locator("#fairness-help")
        expect(what).to_be_visible()
        expect(what).to_have_text(words["what"])
        line, link = page.locator("#fairness").bounding_box(), what.bounding_box()
        assert line and link and 0 <= link["y"] - (line["y"] + line["height"]) < 12, (line, link)
        page.screenshot(path=str(artifacts / f"help-commitment-{lang}.png"))
        what.click()
        expect(page.locator("#help-fair")).to_be_focused()
        got = page.evaluate(IN_VIEW_JS)
        assert got["scrolled"] > 0 and got["below_title"] and got["in_view"], got
        page.screenshot(path=str(artifacts / f"help-fair-{lang}.png"))
        page.keyboard.press("Escape")
        expect(what).to_be_focused()
