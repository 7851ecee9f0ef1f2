"""The scenario builder of /check in headless Chromium on a 390x844 phone: the rulebook's Sarah/Belinde
worked example (scenarios/examples/sarah_belinde_dowager.yaml is its file form) built without typing YAML,
replayed, and its permalink opened in a new page showing the same trace. (The builder without JavaScript:
tests/test_web_builder.py.)"""
from __future__ import annotations

import json
import urllib.request
from urllib.parse import unquote

import yaml
from playwright.sync_api import expect

from test_browser import PHONE, browser, no_sideways_scroll, open_page, server, shot  # noqa: F401 (fixtures)
from judge.engine.limits import DEFAULT as DEFAULT_LIMITS
from judge.web.permalinks import decode_permalink
from web_pages import ROOT

EXAMPLE = ROOT / "scenarios/examples/sarah_belinde_dowager.yaml"
METHUSELAHS = [("Sarah", "20"), ("Alexis", "15"), ("Bob", ""), ("Carol", ""), ("Dave", "")]
MINIONS = [("Belinde", "Sarah", "5", "3"), ("The Dowager", "Sarah", "6", "4"), ("Carna", "Alexis", "4", "2"),
           ("Mazz", "Dave", "5", "3")]
# Each event as the builder's form of it: the kind of event, then its fields.
EVENTS = [("bleed", {"ev_bleed": "Belinde", "ev_target": "Alexis", "ev_amount": "1"}),
          ("decline", {"ev_decline": "Alexis"}),
          ("recruit", {"ev_recruit": "Underbridge Stray", "ev_by": "The Dowager", "ev_life": "1", "ev_stealth": "1",
                       "ev_cost.blood": "1"}),
          ("block", {"ev_block": "Carna"}),
          ("pass", {"ev_pass": "Sarah"}),
          ("decline", {"ev_decline": "Alexis"}),
          ("decline", {"ev_decline": "Dave"})]


def test_phone_builds_the_sarah_belinde_example_and_its_permalink_shows_the_same_trace(server, browser):  # noqa: F811
    context, page, errors = open_page(browser, PHONE)
    page.goto(server + "/check")
    no_sideways_scroll(page)
    for n, (name, pool) in enumerate(METHUSELAHS, 1):
        page.fill("#player", name)
        page.fill("#player_pool", pool)
        page.click("#add-player")
        expect(page.locator("#built-players li")).to_have_count(n)
    for n, (name, controller, capacity, blood) in enumerate(MINIONS, 1):
        page.fill("#minion", name)
        page.select_option("#controller", controller)
        page.fill("#minion_capacity", capacity)
        page.fill("#minion_blood", blood)
        page.click("#add-minion")
        expect(page.locator("#built-minions li")).to_have_count(n)
    shot(page, "phone-builder-1-table", full_page=True)
    for n, (form, fields) in enumerate(EVENTS, 1):
        page.select_option("#event_form", form)  # the script shows the form's fields at once
        for field, value in fields.items():
            page.locator(f'input[name="{field}"]').fill(value)
        page.click("#add-event")
        expect(page.locator("#built-events li")).to_have_count(n)
        expect(page.locator("#verdict")).to_have_text("replayed")  # the replay after each event
    no_sideways_scroll(page)
    shot(page, "phone-builder-2-replayed", full_page=True)
    trace = page.locator("ol.trace").inner_text()
    assert "Alexis burns 1 pool (14 left)" in trace and "Carna" in trace and "Underbridge Stray" in trace
    assert page.locator("ol.trace ul.quotes q").count() > 5  # each citation's sentence, quoted

    # The built scenario is the worked example: with the file's expectations added, it replays as expected.
    link = page.locator("#permalink").get_attribute("href")
    built = yaml.safe_load(decode_permalink(unquote(link.split("s=", 1)[1]), DEFAULT_LIMITS))
    built["expect"] = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))["expect"]
    request = urllib.request.Request(server + "/api/check", data=yaml.safe_dump(built).encode("utf-8"),
                                     headers={"Content-Type": "text/yaml"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert json.load(answer)["verdict"] == "as expected"

    # Its permalink, opened in a new page, reloads it and shows the same trace.
    other = context.new_page()
    other.goto(server + link)
    expect(other.locator("#verdict")).to_have_text("replayed")
    assert other.locator("ol.trace").inner_text() == trace
    expect(other.locator("#built-events li")).to_have_count(len(EVENTS))
    shot(other, "phone-builder-3-permalink")
    assert not errors, errors
    context.close()
