"""Points of layout and wording found by a UX review at 1280 x 800 and on a 390 x 844 phone:
the home page's parts, the phone's statistics, an only move in view, the end and seat lines."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def bottom(box: dict[str, float]) -> float:
    return box["y"] + box["height"]


def test_the_game_cards_have_a_heading_of_their_own(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """The games in progress sat between the page's title and the game cards, so that the
    seven cards read as their content (the more so when all they held was one line, "1 game
    in progress started in another browser"). The cards have a heading and a region of
    their own, after the games in progress, whose region holds none of them."""
    elsewhere = table_on(open_page(), live)
    elsewhere.start("tappeto", seed=1)
    here = table_on(open_page(1280, 800), live)
    here.home()
    page = here.page
    resume = page.get_by_role("region", name="Games in progress")
    expect(resume.locator(".elsewhere")).to_be_visible()
    expect(resume.locator(".game")).to_have_count(0)
    catalog = page.get_by_role("region", name="Start a new game")
    expect(catalog.locator(".game")).to_have_count(7)
    heading = page.get_by_role("heading", name="Start a new game", level=2)
    assert bottom(resume.bounding_box()) <= heading.bounding_box()["y"]
    assert bottom(heading.bounding_box()) <= catalog.locator(".game").first.bounding_box()["y"]
    # Each game's title is a heading under the cards' own.
    expect(catalog.get_by_role("heading", name="Gaps", level=3)).to_be_visible()
