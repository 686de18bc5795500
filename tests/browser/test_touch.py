"""A phone (a touch screen, a finger for a pointer): the page says "tap" where it says
"click" to a mouse."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def rules_text(page: Any, title: str) -> str:
    page.locator(".tools [data-act=rules]").click()
    page.wait_for_selector(f"#rules-title:has-text('{title}')")
    text: str = page.locator("#rules-body").inner_text()
    page.keyboard.press("Escape")
    return text


def test_a_finger_is_told_to_tap_and_a_mouse_to_click(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """On a phone the status line said "click a lit arrow", the rules' part on the web page
    "Click a card that can move": a finger taps."""
    phone = table_on(open_page(390, 844, touch=True), live)
    phone.start("scalafrutta", seed=7, bots=["greedy"])
    phone.wait_turn()
    expect(phone.page.locator(".status")).to_have_text("Insert 1 banana: tap a lit arrow.")
    phone.start("gaps", seed=7)
    phone.wait_turn()
    text = rules_text(phone.page, "Gaps")
    assert "Tap a card that can move" in text
    assert "tap the 2, then one of the lit gaps" in text
    assert not re.search("click", text, re.IGNORECASE), text

    mouse = table_on(open_page(), live)
    mouse.start("scalafrutta", seed=7, bots=["greedy"])
    mouse.wait_turn()
    expect(mouse.page.locator(".status")).to_have_text("Insert 1 banana: click a lit arrow.")
    mouse.start("gaps", seed=7)
    mouse.wait_turn()
    assert "Click a card that can move" in rules_text(mouse.page, "Gaps")
