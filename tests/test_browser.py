"""The reference browser in real headless Chromium (Debian's, driven by Playwright),
against `judge serve` (waitress) on a free loopback port.

A judge's path: search -> open a result -> follow a cross-reference -> see what
cites it, on a desktop and on a 390x844 phone. Screenshots are written to
tests/artifacts/ (git-ignored) for a human to look at.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# An outline step whose text cites another step: "(IV.D.2)".
QUERY = "wait until action resolution to pay cost"


@pytest.fixture(scope="module")
def server():
    """`judge serve --port 0` in a subprocess; yields its base URL."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", "from judge.commands.serve import serve; serve()",
                             "--host", "127.0.0.1", "--port", "0"],
                            cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    url, seen, deadline = None, [], time.monotonic() + 90
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"serving on (http://\S+/)", line)
        if found:
            url = found.group(1)
            break
    if url is None:
        proc.kill()
        pytest.fail("judge serve did not start:\n" + "".join(seen))
    # Keep draining its log: a full pipe would block the server.
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


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
    expect(page.locator("button.copy")).to_be_visible()  # the script shows the copy button
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
    page.locator("a.facet").first.click()  # facets are plain links
    expect(page.locator("a.facet.active")).to_have_count(1)
    page.locator("li.hit a.hit-label").first.click()
    expect(page.locator("p.cite-text")).to_be_visible()  # the citation is there to select
    expect(page.locator("button.copy")).to_be_hidden()
    shot(page, "phone-6-no-javascript")
    context.close()


@pytest.mark.parametrize("path", ["glossary", "doc/vekn", "graph/rb:6.4.6/2", "diff?old=s6&new=vekn", "check", "lint"])
def test_other_pages_fit_a_phone(server, browser, path):
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + path)
    expect(page.locator("h1").first).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "phone-page-" + re.sub(r"\W+", "-", path))
    assert not errors, errors
    context.close()
