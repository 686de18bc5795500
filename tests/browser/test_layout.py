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


def test_a_variant_in_the_statistics_takes_one_line_on_a_phone(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """On a 390 px phone the variant under the game's name, in the narrow first column,
    wrapped onto three lines ("gaps", "(ranks", "5)"). Each variant reads on one line, with
    every column in view and no page wider than the phone."""
    from ludoteca.store.web import SavedGame

    table = table_on(open_page(390, 844), live)
    store = live.app.state.rooms.store
    played = [
        ("gaps", "gaps[ranks=5]"),
        ("gaps", "montana[penalty=2.0,twos_first=False]"),
        ("domino", "domino"),
        ("gaps", "addiction"),
    ]
    for i, (game, key) in enumerate(played):
        variant = key.split("[")[0]
        saved = SavedGame(f"v{i}", game, variant, {}, i, ["human"], ["t"], "narrow", "", [])
        store.create_game(saved)
        assert store.record_result(saved.id, key, i % 2 == 0, 12.5, {"redeals_used": i})
    table.home()
    table.name_player("narrow")
    page = table.page
    variants = page.locator(".stat-table .variant-under:visible")
    expect(variants).to_have_count(len(played))
    assert "gaps (ranks 5)" in variants.all_inner_texts()
    lines = variants.evaluate_all(
        """nodes => nodes.map((n) => n.getBoundingClientRect().height
             / parseFloat(getComputedStyle(n).fontSize))"""
    )
    assert all(height < 2 for height in lines), lines  # (one line: about 1.2 font sizes)
    expect(page.locator(".stat-table thead th:visible").last).to_have_text("Redeals used")
    widths = page.evaluate(
        """() => [document.querySelector('.stat-table').scrollWidth,
                  document.querySelector('.stats-body').clientWidth,
                  document.documentElement.scrollWidth]"""
    )
    assert widths[0] <= widths[1] and widths[2] <= 390, widths
