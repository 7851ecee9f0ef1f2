"""A judge's path to a card on a 390x844 phone, in headless Chromium against `judge serve`:
search a card by a misspelt name, open it, follow "rules it relies on" to the paragraph,
and see there a ruling citing it. Screenshots go to tests/artifacts/ (git-ignored)."""
from __future__ import annotations

from playwright.sync_api import expect

from test_browser import PHONE, browser, no_sideways_scroll, open_page, server, shot  # noqa: F401 (fixtures)


def test_phone_misspelt_card_to_its_rule_and_the_ruling_there(server, browser):  # noqa: F811
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "/search")
    page.fill("input#q", "govrn the unalined")
    # As you type: the live results show the card panel, before the search is submitted.
    expect(page.locator("#results .cards-answer")).to_contain_text("Govern the Unaligned")
    page.press("input#q", "Enter")
    answer = page.locator(".cards-answer")
    expect(answer).to_contain_text("Govern the Unaligned")
    shot(page, "cards-1-search-phone")
    answer.locator("a.card-hit-name").first.click()
    expect(page.locator("h1")).to_have_text("Govern the Unaligned")
    shot(page, "cards-2-card-phone", full_page=True)
    page.locator(".card-rules a[href$='/p/vekn:resolve-any-block-attempts/2']").first.click()
    expect(page).to_have_url(server.rstrip("/") + "/p/vekn:resolve-any-block-attempts/2")
    rulings = page.locator(".rule-rulings")
    expect(rulings).to_contain_text("RBK who-may-attempt-to-block")
    rulings.scroll_into_view_if_needed()
    shot(page, "cards-3-rule-with-ruling-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways on a phone ({width}px)"
    assert errors == []
    context.close()


def test_phone_a_card_question_shows_the_card_and_its_answering_ruling_before_any_rule_link(server, browser):  # noqa: F811
    """Issue 35: on a 390x844 phone, a question about a card shows the card box with the ruling that answers
    it on the first screen, above the rule paragraphs, with no scrolling; the header links the card list."""
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "/search")
    expect(page.locator("header .site-nav a", has_text="Cards")).to_have_attribute("href", "/cards")
    page.fill("input#q", "can I still play Deflection if I didn't block only because they had too much stealth")
    page.press("input#q", "Enter")
    card = page.locator(".cards-answer .card-hit-name").first
    expect(card).to_contain_text("Deflection")
    ruling = page.locator(".cards-answer li").first
    expect(ruling).to_contain_text("Can be used when failing to block because of stealth")
    shot(page, "cards-4-question-phone")
    assert page.evaluate("window.scrollY") == 0
    box = ruling.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], f"the ruling is below the screen: {box}"
    first_rule = page.locator("ol.hits a").first
    if first_rule.count():
        assert first_rule.bounding_box()["y"] > box["y"], "a rule link comes before the answering ruling"
    no_sideways_scroll(page)
    assert errors == []
    context.close()


def test_phone_rulings_asked_of_a_name_no_card_has_offer_the_closest(server, browser):  # noqa: F811
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "/search?q=rulings+of+Blood+Hunter+Zq&in=rulings")
    note = page.locator(".try-instead")
    expect(note).to_contain_text("No card is named “Blood Hunter Zq”")
    note.locator("a", has_text="the rulings of Blood Hunt").click()
    expect(page.locator(".cards-answer")).to_contain_text("No ruling on Blood Hunt")
    expect(page.locator(".try-instead")).to_have_count(0)
    assert errors == []
    context.close()
