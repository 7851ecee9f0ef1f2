"""The reference browser in real headless Chromium (Debian's, driven by Playwright),
against `judge serve` (two Granian workers) on a free loopback port.

A judge's path: search -> open a result -> follow a cross-reference -> see what
cites it, on a desktop and on a 390x844 phone. Screenshots are written to
tests/artifacts/ (git-ignored) for a human to look at.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from conftest import start_judge_serve

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# An outline step whose text cites another step: "(IV.D.2)".
QUERY = "wait until action resolution to pay cost"
PUBLIC_URL = "https://example.org"  # the server's --public-url: what copied citations must name


@pytest.fixture(scope="module")
def server():
    """`judge serve --port 0 --workers 2 --public-url …` in a subprocess; yields its base URL."""
    proc, url, _ = start_judge_serve("--workers", "2", "--public-url", PUBLIC_URL, wait=90)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def shot(page, name: str, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def open_page(browser, viewport: dict, javascript: bool = True):
    context = browser.new_context(viewport=viewport, java_script_enabled=javascript,
                                  is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} is {width}px wide"


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_search_open_follow_a_reference_see_cited_by(server, browser, viewport, name):
    context, page, errors = open_page(browser, viewport)
    page.goto(server)
    assert page.evaluate("document.activeElement.id") == "q"  # the search box has the focus
    no_sideways_scroll(page)
    page.keyboard.type(QUERY)
    expect(page.locator("#results li.hit").first).to_be_visible()  # results as you type
    shot(page, f"{name}-1-typing")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\?q="))
    first = page.locator("li.hit a.hit-label").first
    expect(first).to_be_visible()
    no_sideways_scroll(page)
    shot(page, f"{name}-2-results")

    first.click()
    page.wait_for_url(re.compile(r"/p/"))
    source = page.url.split("/p/", 1)[1]
    expect(page.locator("button.copy").first).to_be_visible()  # the script shows the copy buttons
    no_sideways_scroll(page)
    shot(page, f"{name}-3-rule")

    page.locator(".rule .text a.xref").first.click()
    page.wait_for_url(lambda url: "/p/" in url and not url.endswith(source))
    cited_by = page.locator("#cited-by")
    cited_by.scroll_into_view_if_needed()
    expect(cited_by.locator(f'a[href="/p/{source}"]')).to_be_visible()
    no_sideways_scroll(page)
    shot(page, f"{name}-4-cited-by")
    assert not errors, errors  # a CSP violation or a script error would show here
    context.close()


def test_tapping_a_term_shows_its_definition(server, browser):
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "p/rb:6.4.6/2")
    term = page.locator(".rule .text a.term").first
    href = term.get_attribute("href")
    term.tap()
    popover = page.locator(".popover")
    expect(popover).to_be_visible()
    expect(popover.locator("a")).to_have_attribute("href", href)
    assert page.url.endswith("/p/rb:6.4.6/2")  # the tap did not navigate away
    shot(page, "phone-5-definition")
    page.keyboard.press("Escape")
    expect(popover).to_have_count(0)
    assert not errors, errors
    context.close()


def test_everything_works_without_javascript(server, browser):
    context, page, _ = open_page(browser, PHONE, javascript=False)
    page.goto(server)
    page.fill("#q", "torpor")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\?q=torpor"))
    expect(page.locator("li.hit").first).to_be_visible()
    page.locator("details.filters > summary").click()  # the filters open without a script
    page.locator("a.facet").first.click()  # facets are plain links
    expect(page.locator("a.facet.active")).to_have_count(1)
    page.locator("li.hit a.hit-label").first.click()
    expect(page.locator("p.cite-text")).to_be_visible()  # the citation is there to select
    for n in range(page.locator("button.copy").count()):
        expect(page.locator("button.copy").nth(n)).to_be_hidden()  # no script, no copy buttons
    shot(page, "phone-6-no-javascript")
    context.close()


@pytest.mark.parametrize("query", ["how much does it cost to contest a title", "can a vampire in torpor vote", "bleed"])
def test_on_a_phone_the_first_hit_is_on_screen_without_scrolling(server, browser, query):
    context, page, _ = open_page(browser, PHONE)
    page.goto(f"{server}/search?q={query.replace(' ', '+')}")
    first = page.locator("li.hit").first
    label, snippet = first.locator("a.hit-label"), first.locator("p.snippet")
    expect(label).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    for part in (label, snippet):
        box = part.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"], f"{query!r}: the first hit ends at {box['y'] + box['height']}px"
    assert snippet.locator("mark").count() >= 1  # the words that answer, marked
    shot(page, f"phone-first-hit-{query.split()[0]}")
    context.close()


def test_the_game_switch_works_without_javascript(server, browser):
    context, page, _ = open_page(browser, PHONE, javascript=False)
    page.goto(server)
    page.fill("#q", "torpor")
    page.select_option("select[name=game]", "rivals")  # the home page's switch
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\?q=torpor&game=rivals"))
    expect(page.locator("nav.game-switch a.active")).to_have_text("Rivals")
    assert all("rivals:" in h for h in page.locator("li.hit a.hit-label").evaluate_all("(a) => a.map(x => x.href)"))
    page.locator("nav.game-switch a", has_text="Both").click()  # the results page's switch: plain links
    page.wait_for_url(re.compile(r"game=all"))
    expect(page.locator("li.hit span.badge.game").first).to_be_visible()
    page.locator("nav.game-switch a", has_text="V:TES").click()
    page.wait_for_url(re.compile(r"game=vtes"))
    assert all("rivals:" not in h for h in page.locator("li.hit a.hit-label").evaluate_all("(a) => a.map(x => x.href)"))
    context.close()


def boxes_overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def inside(box: dict, outer: dict, slack: float = 1.0) -> bool:
    return (box["x"] >= outer["x"] - slack and box["y"] >= outer["y"] - slack
            and box["x"] + box["width"] <= outer["x"] + outer["width"] + slack
            and box["y"] + box["height"] <= outer["y"] + outer["height"] + slack)


def chips_fit(page) -> int:
    """Every filter chip whole on screen, no chip row scrolling sideways; the number of chips."""
    viewport = {"x": 0, "y": 0, "width": page.viewport_size["width"], "height": 10**6}
    rows = page.locator(".facet-group")
    for n in range(rows.count()):
        row = rows.nth(n)
        assert row.evaluate("r => r.scrollWidth <= r.clientWidth"), "a chip row scrolls sideways"
    chips = page.locator("a.facet")
    for n in range(chips.count()):
        assert inside(chips.nth(n).bounding_box(), viewport), chips.nth(n).inner_text()
    return chips.count()


@pytest.mark.parametrize("path, ready", [
    ("glossary", "h1"), ("doc/vekn", "h1"), ("diff?old=rb&new=vekn", "h1"), ("check", "h1"), ("lint", "h1"),
    ("p/vekn:torpor/3", "h1"), ("search?q=bleed", "li.hit"),
])
def test_other_pages_fit_a_phone(server, browser, path, ready):
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + path)
    expect(page.locator(ready).first).to_be_visible()
    no_sideways_scroll(page)
    if page.locator(".facet-group").count():
        if page.locator("details.filters > summary").count():  # search results keep theirs behind one control
            page.locator("details.filters > summary").click()
        assert chips_fit(page) >= 4
    shot(page, "phone-page-" + re.sub(r"\W+", "-", path))
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("ident", ["rb:6.4.6/2", "vekn:bleed/2", "vekn:combat", "flows:IV.D/2?radius=2"])
def test_the_graph_picture_fits_a_phone_with_no_label_over_another(server, browser, ident):
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "graph/" + ident)
    picture = page.locator("svg.graph")
    frame = picture.bounding_box()
    assert frame["width"] <= PHONE["width"] - 20
    labels = [page.locator("svg.graph text").nth(n).bounding_box() for n in range(page.locator("svg.graph text").count())]
    assert len(labels) >= 3
    for n, box in enumerate(labels):
        assert inside(box, frame), f"label {n} leaves the picture"
        assert box["height"] >= 9  # readable, not scaled down to nothing
        for other in labels[n + 1:]:
            assert not boxes_overlap(box, other)
    no_sideways_scroll(page)
    shot(page, "phone-graph-" + re.sub(r"\W+", "-", ident))
    assert not errors, errors
    context.close()


def test_check_page_labels_sit_above_their_controls_and_results_read_as_words(server, browser):
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "check")
    for control in ("#file", "#rules"):
        label = page.locator(f'label[for="{control[1:]}"]').bounding_box()
        field = page.locator(control).bounding_box()
        assert label["y"] + label["height"] <= field["y"] + 1 and abs(label["x"] - field["x"]) < 2, control
    shot(page, "phone-check-form")
    page.fill("#scenario", (ROOT / "scenarios/combat/additional_strikes_before_first_pair.yaml").read_text())
    page.select_option("#rules", "older")
    page.locator(".check-form button[type=submit]").click()
    expectations = page.locator("ul.expectations")
    expect(expectations).to_be_visible()
    text = expectations.inner_text()
    assert "{" not in text and "citing RB §6.4.3" in text
    no_sideways_scroll(page)
    expectations.scroll_into_view_if_needed()
    shot(page, "phone-check-result")
    assert not errors, errors
    context.close()


def test_diff_lists_moved_paragraphs(server, browser):
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "diff?old=rb&new=vekn")
    summary = page.locator("a[href='#moved']")
    said = int(summary.inner_text().split()[0])  # "58 moved"
    summary.click()
    moved = page.locator("details#moved")
    moved.locator("summary").click()
    expect(moved.locator("li").first).to_be_visible()
    assert moved.locator("li").count() == said >= 50
    no_sideways_scroll(page)
    moved.locator("summary").scroll_into_view_if_needed()
    shot(page, "phone-diff-moved")
    assert not errors, errors
    context.close()


PANELS = ["#cited-by", "section.editions", "section.related", "section.terms", "section.refs",
          "header.site", "footer.site", "nav.breadcrumb", "nav.prev-next", "button.copy", ".context-link"]


@pytest.mark.parametrize("ident", ["rb:6.4.6/2", "vekn:bleed", "vekn:torpor/3"])
def test_a_printed_rule_page_is_the_rule_and_its_citation(server, browser, ident):
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "p/" + ident)
    present = [s for s in PANELS if page.locator(s).count()]
    assert {"#cited-by", "section.editions", "section.related", "header.site"} <= set(present)
    for selector in present:
        if selector != "button.copy":
            expect(page.locator(selector).first).to_be_visible()  # on screen...
    page.emulate_media(media="print")
    for selector in present:
        expect(page.locator(selector).first).to_be_hidden()  # ...not on paper
    expect(page.locator("h1").first).to_be_visible()
    expect(page.locator(".text").first).to_be_visible()
    expect(page.locator(".cite-text")).to_be_visible()
    if page.locator(".rule header .badge").count():  # "Editors' draft": what the printed rule is
        expect(page.locator(".rule header .badge")).to_be_visible()
    shot(page, "print-" + re.sub(r"\W+", "-", ident), full_page=True)
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_copy_citation_puts_the_public_address_on_the_clipboard(server, browser, viewport, name):
    context, page, errors = open_page(browser, viewport)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.rstrip("/"))
    ident = "vekn:bleed/2"
    page.goto(server + "p/" + ident)
    forms = {"plain": f"{PUBLIC_URL}/p/{ident}", "markdown": f"]({PUBLIC_URL}/p/{ident})",
             "chat": f"<{PUBLIC_URL}/p/{ident}>"}
    for form, expected in forms.items():
        button = page.locator(f"button.copy[data-format={form}]")
        expect(button).to_be_visible()
        button.click()
        expect(button).to_have_text("Copied")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert expected in copied and "127.0.0.1" not in copied, (form, copied)
        assert "vekn.net/rulebook/4-detailed-turn-sequence#bleed" in copied
    no_sideways_scroll(page)
    page.locator(".cite").scroll_into_view_if_needed()
    shot(page, f"{name}-copied-citation")
    assert not errors, errors
    context.close()


# -- issue 25: each page a judge or an editor uses, on a phone and a laptop ---------------------------
ISSUE_PAGES = [
    ("p/rb:6.4.6/2", ".in-force"),  # an older edition: the rule in force at the top
    ("p/vekn:resolve-any-block-attempts/1", "section.related .reason"),
    ("diff?old=rb&new=vekn", "details.diff-contents"),
    ("diff?old=rivals&new=vekn", "p.error"),
    ("graph", "section.hubs"),
    ("lint", "p.in-paragraph"),
]


@pytest.mark.parametrize("viewport, name", [(DESKTOP, "desktop"), (PHONE, "phone")])
@pytest.mark.parametrize("path, ready", ISSUE_PAGES)
def test_issue_25_pages_fit_the_screen(server, browser, viewport, name, path, ready):
    context, page, errors = open_page(browser, viewport)
    page.goto(server + path)
    expect(page.locator(ready).first).to_be_visible()
    no_sideways_scroll(page)
    if path.startswith("p/rb:"):  # the rule in force comes before the older text, on the first screen
        box, article = page.locator(".in-force").bounding_box(), page.locator("article.rule").bounding_box()
        assert box["y"] < article["y"] and box["y"] < viewport["height"]
    shot(page, f"{name}-issue25-" + re.sub(r"\W+", "-", path))
    assert not [e for e in errors if "400" not in e], errors  # (the bad pair's page is a 400 on purpose)
    context.close()
