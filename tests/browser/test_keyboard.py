"""Playing by the keyboard alone: where the focus goes when a game opens and as it goes on,
and the ring that shows it on a piece."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

ON_A_PIECE = """() => {
  const node = document.activeElement;
  return node.closest('svg.board [data-key]') !== null && node.getAttribute('tabindex') === '0';
}"""

RING = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (colour) => {
    const [r, g, b] = colour.map((c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  const piece = document.activeElement.closest('[data-key]');
  const ring = piece.querySelector('.focus-ring');
  if (!ring || getComputedStyle(ring).display === 'none') return null;
  const felt = [...getComputedStyle(document.querySelector('.board-wrap')).backgroundImage
    .matchAll(/rgba?\\([^)]*\\)/g)].map((m) => rgb(m[0]));
  const face = rgb(getComputedStyle(piece.querySelector('.face, .slot-rect')).fill);
  const outer = rgb(getComputedStyle(ring.querySelector('.outer')).stroke);
  const inner = rgb(getComputedStyle(ring.querySelector('.inner')).stroke);
  const ringBox = ring.getBoundingClientRect();
  const faceBox = piece.querySelector('.face, .slot-rect').getBoundingClientRect();
  return {
    felt: Math.min(...felt.map((f) => ratio(outer, f))),
    piece: ratio(inner, face),
    outside: ringBox.width > faceBox.width + 4 && ringBox.height > faceBox.height + 4,
  };
}"""
"""The ring on the focused piece, where it shows: the contrast of its outer line against
the felt's colours, of its inner line against the piece's face, and whether it lies around
the piece (not on its face)."""

BODY_SEEN = """() => {
  window.bodyFocused = [];
  new MutationObserver(() => window.bodyFocused.push(document.activeElement.tagName))
    .observe(document.querySelector('.table-page'), {attributes: true,
                                                      attributeFilter: ['data-ply']});
}"""
"""From now on, where the focus is each time the table shows a new position."""


def play_by_keyboard(table: Any, game: str, seed: int, bots: list[str] | None = None) -> None:
    """From the home page: Tab to the game's Play button and press Enter."""
    table.home()
    page = table.page
    card = page.locator(f".game[data-game={game}]")
    for i, bot in enumerate(bots or []):
        rows = card.locator(".seat-list select")
        while rows.count() < i + 1:
            card.locator(".add-seat").click()
        rows.nth(i).select_option(bot)
    card.locator("input[name=seed]").fill(str(seed))
    card.locator("input[name=seed]").focus()
    page.keyboard.press("Tab")
    expect(card.locator("button.play")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_selector(f".table-page[data-game={game}]")
    table.wait_turn()


@pytest.mark.parametrize("game", ["gaps", "muro", "tappeto"])
def test_a_game_opened_by_the_keyboard_has_the_focus_on_its_board(table: Any, game: str) -> None:
    """After Play the focus stayed on the page's body: Tab went through Undo, Redo, Hint,
    Restart, Rules and Home before the first card. It is on the first piece that can move,
    with a ring around it that reads at 3:1 at least against the felt and the piece (it
    showed only as a white edge on a white card, computed outline none)."""
    play_by_keyboard(table, game, 7)
    page = table.page
    page.wait_for_function(ON_A_PIECE)
    ring = page.evaluate(RING)
    assert ring is not None, "no ring on the focused piece"
    assert ring["felt"] >= 3 and ring["piece"] >= 3, ring
    assert ring["outside"], ring
    # Enter plays from there, as on any piece.
    before = table.ply()
    page.keyboard.press("Enter")
    if table.ply() == before and page.locator("svg.board .target").count():
        page.wait_for_function(ON_A_PIECE)
        page.keyboard.press("Enter")
    table.wait_change(before)


def test_a_mouse_s_focus_shows_no_ring(table: Any) -> None:
    """The ring is the keyboard's (:focus-visible): a game opened with the mouse has the
    focus on its board too, and shows none."""
    table.start("gaps", seed=7)
    table.wait_turn()
    page = table.page
    page.wait_for_function(ON_A_PIECE)
    assert page.evaluate(RING) is None
    page.locator("svg.board .movable").first.click()
    assert page.evaluate(RING) is None


def test_the_focus_stays_on_the_board_while_the_bots_play(table: Any) -> None:
    """Scalafrutta against two bots: after a move made by the keyboard the focus fell to the
    page's body while the bots played (the drawn tile it was on went), and Tab started
    again from the top. It stays on the board, and is on a piece again on your turn."""
    play_by_keyboard(table, "scalafrutta", 7, bots=["greedy", "greedy"])
    page = table.page
    page.wait_for_function(ON_A_PIECE)
    page.evaluate(BODY_SEEN)
    for _ in range(2):  # two moves of yours, each with the bots' replies after it
        before = table.ply()
        for _ in range(20):
            if page.evaluate("document.activeElement.classList.contains('target')"):
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        chooser = page.locator(".chooser:not([hidden])")
        page.wait_for_function(
            "ply => document.querySelector('.table-page').dataset.ply !== ply"
            " || !document.querySelector('.chooser').hidden",
            arg=str(before),
        )
        if chooser.count():
            expect(chooser.locator("button").first).to_be_focused()
            page.keyboard.press("Enter")
        table.wait_change(before)
        table.wait_turn()
        page.wait_for_function(ON_A_PIECE)
    seen = page.evaluate("window.bodyFocused")
    assert len(seen) >= 4 and "BODY" not in seen, seen
