"""A phone (a touch screen, a finger for a pointer): the page says "tap" where it says
"click" to a mouse, what it asks a finger to hit is large enough for one, and a table too
wide for a phone held upright asks to turn it."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

KEYED_BOXES = """() => [...document.querySelectorAll('svg.board [data-key]')].map((n) => {
  const r = n.getBoundingClientRect();
  return {key: n.dataset.key, x: r.x, y: r.y, w: r.width, h: r.height,
          target: n.classList.contains('target'), movable: n.classList.contains('movable')};
})"""

MOVED_OR_ASKED = """() => document.querySelector('.table-page').dataset.ply !== '0'
  || !document.querySelector('.chooser').hidden"""


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["x"] + a["w"] > b["x"] + 0.5
        and b["x"] + b["w"] > a["x"] + 0.5
        and a["y"] + a["h"] > b["y"] + 0.5
        and b["y"] + b["h"] > a["y"] + 0.5
    )


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


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_a_finger_s_scalafrutta_arrows_are_large_enough_to_tap(
    open_page: Any, live: Any, table_on: Any, size: tuple[int, int]
) -> None:
    """On a 390 px phone the arrows were 22 x 46 px (left and right) and 46 x 22 (above and
    below), under the 44 px a fingertip needs (25 x 52 held sideways). Each now takes at
    least 44 x 44 px, none overlaps another target, and a tap on its outer part, beside the
    arrow drawn, plays it."""
    table = table_on(open_page(*size, touch=True), live)
    table.start("scalafrutta", seed=7, bots=["greedy"])
    table.wait_turn()
    page = table.page
    page.locator('svg.board [data-key="B3"]').scroll_into_view_if_needed()  # (held sideways)
    boxes = page.evaluate(KEYED_BOXES)
    arrows = [b for b in boxes if re.fullmatch("[LRTB][1-3]", b["key"])]
    assert len(arrows) == 12
    for arrow in arrows:
        assert arrow["w"] >= 44 and arrow["h"] >= 44, arrow
        assert arrow["x"] >= 0 and arrow["x"] + arrow["w"] <= size[0], arrow
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlap(a, b), (a, b)
    left = next(a for a in arrows if a["key"].startswith("L") and a["target"])
    page.touchscreen.tap(left["x"] + 4, left["y"] + left["h"] / 2)
    page.wait_for_function(MOVED_OR_ASKED)


def test_a_gaps_card_is_tapped_anywhere_in_its_cell(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """On a 390 px phone a Gaps card is 25 x 36 px and a finger between two cards touched
    nothing. Each card's and gap's target is now its whole cell: the cells tile the board
    with no space between them, and a tap just above a card's face plays it."""
    table = table_on(open_page(390, 844, touch=True), live)
    table.start("gaps", seed=7)
    table.wait_turn()
    page = table.page
    page.wait_for_timeout(350)  # the deal's fade-in
    cells = page.evaluate(KEYED_BOXES)
    assert len(cells) == 52
    rows = sorted({round(c["y"]) for c in cells})
    assert len(rows) == 4
    by_row = [sorted((c for c in cells if round(c["y"]) == y), key=lambda c: c["x"]) for y in rows]
    for row in by_row:
        assert len(row) == 13
        for a, b in itertools.pairwise(row):
            assert b["x"] <= a["x"] + a["w"] + 0.5, (a, b)
            assert not overlap(a, b), (a, b)
    for above, below in itertools.pairwise(by_row):
        assert below[0]["y"] <= above[0]["y"] + above[0]["h"] + 0.5, (above[0], below[0])
    card = next(c for c in cells if c["movable"])
    page.touchscreen.tap(card["x"] + card["w"] / 2, card["y"] + 0.8)
    page.wait_for_function(MOVED_OR_ASKED)


def test_a_phone_held_upright_is_asked_to_turn_for_gaps(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """Gaps's thirteen columns are 25 x 36 px cards on a phone held upright, 53 x 76 held
    sideways: the page says so, on a finger's screen held upright only, until dismissed."""
    note = ".sideways"
    phone = table_on(open_page(390, 844, touch=True), live)
    phone.start("scalafrutta", seed=7, bots=["greedy"])  # a table that fits upright
    phone.wait_turn()
    expect(phone.page.locator(note)).to_be_hidden()
    phone.start("gaps", seed=7)
    phone.wait_turn()
    expect(phone.page.locator(note)).to_be_visible()
    expect(phone.page.locator(note)).to_contain_text("Turn your phone sideways")
    phone.page.get_by_role("button", name="Dismiss this note").tap()
    expect(phone.page.locator(note)).to_be_hidden()
    phone.start("gaps", seed=8)  # put away for good in this browser
    phone.wait_turn()
    expect(phone.page.locator(note)).to_be_hidden()

    for width, height, touch in [(844, 390, True), (390, 844, False)]:
        other = table_on(open_page(width, height, touch=touch), live)
        other.start("gaps", seed=7)
        other.wait_turn()
        expect(other.page.locator(note)).to_be_hidden()


CHECKBOX_ROWS = """() => [...document.querySelectorAll('.params input[type=checkbox]')]
  .filter((n) => n.getClientRects().length)
  .map((n) => {
    const box = n.getBoundingClientRect();
    const rows = [...n.labels].map((l) => l.getBoundingClientRect())
      .filter((r) => r.left <= box.left && r.right >= box.right
        && r.top <= box.top && r.bottom >= box.bottom);
    const row = rows.sort((a, b) => b.height - a.height)[0];
    return {name: n.getAttribute('aria-label'), box: Math.round(box.height),
            row: row ? Math.round(row.height) : 0,
            left: row ? row.left + 8 : null, y: row ? row.top + row.height / 2 : null};
  })"""
"""Each option's checkbox shown: its own height, and the label row around it (its height,
and a point at its far left, on the words), 0 where no label holds it."""


@pytest.mark.parametrize("size", [(390, 844), (844, 390)])
def test_an_option_s_whole_row_is_a_finger_s_target(
    open_page: Any, live: Any, table_on: Any, size: tuple[int, int]
) -> None:
    """Under Options the checkboxes (Gaps's Twos first, Il Muro's Harder, Domino's May
    start with the 6, Scalafrutta's Hidden captures…) were 24 px, their labels 19 px tall
    beside them: under the 44 px a finger needs. The whole row, the option's name and its
    box, is one label at least 44 px tall, and a tap on the name ticks the box."""
    table = table_on(open_page(*size, touch=True), live)
    table.home()
    page = table.page
    for details in page.locator("details.options").all():
        details.locator("summary").tap()
    rows = page.evaluate(CHECKBOX_ROWS)
    assert len(rows) >= 6, rows
    small = [row for row in rows if row["row"] < 44]
    assert not small, small
    gaps = page.get_by_role("checkbox", name="Twos first of Gaps")
    before = gaps.is_checked()
    row = next(row for row in rows if row["name"] == "Twos first of Gaps")
    page.evaluate("y => window.scrollTo(0, window.scrollY + y - 200)", row["y"])
    row = next(r for r in page.evaluate(CHECKBOX_ROWS) if r["name"] == "Twos first of Gaps")
    page.touchscreen.tap(row["left"], row["y"])
    expect(gaps).to_be_checked(checked=not before)
