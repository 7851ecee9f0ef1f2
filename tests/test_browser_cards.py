"""A judge's path to a card on a 390x844 phone, in headless Chromium against `judge serve`:
search a card by a misspelt name, open it, follow "rules it relies on" to the paragraph,
and see there a ruling citing it. Screenshots go to tests/artifacts/ (git-ignored)."""
from __future__ import annotations

from playwright.sync_api import expect

from test_browser import PHONE, browser, open_page, server, shot  # noqa: F401 (fixtures)


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
