"""The page's messages (a refusal, a hint): where the toast lies, and how long an old one
stays once the game has moved on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ludoteca.core.registry import all_games, find_game

pytestmark = pytest.mark.browser

GAMES = [spec.name for spec in all_games()]

SHOWN = re.compile(r"\bshown\b")

# Il Muro's hint at 1280 x 800 (two lines where the toast was 760 px wide), and a refusal
# long enough for three or four lines on a phone (a Mosaico cell that touches two tiles).
HINT = (
    "Hint: Turn up the tile of column 5 (the strong player's choice, from what you can see,"
    " planned on guesses at the face-down tiles)"
)
LONG = (
    "5 strawberries at row 1, column 5: row 1, column 5 touches 3 bananas and 6 grapes: none"
    " has its number or is in sequence with it, and the set-aside pile is full, so the tile"
    " cannot go aside either"
)

# What the table shows under the title bar, which no message may cover.
PARTS = """() => [...document.querySelectorAll(
    '.title h1, .title .meta, .tools > :not([hidden]), .status, .handed:not([hidden]),'
    + ' .sideways, svg.board')]
  .filter((n) => n.getClientRects().length && getComputedStyle(n).display !== 'none')
  .map((n) => {
    const r = n.getBoundingClientRect();
    return {what: n.className.baseVal ?? (n.className || n.tagName), x: r.x, y: r.y,
            w: r.width, h: r.height};
  })"""

BAR_NAMES = """() => ['.brand', '#where'].map((s) => {
  const r = document.querySelector(s).getBoundingClientRect();
  return {what: s, x: r.x, y: r.y, w: r.width, h: r.height};
}).filter((b) => b.w > 0)"""

LINES = """() => {
  const node = document.getElementById('toast');
  const style = getComputedStyle(node);
  const inner = node.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  return Math.round(inner / parseFloat(style.lineHeight));
}"""


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    return {"x": found["x"], "y": found["y"], "w": found["width"], "h": found["height"]}


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        a["x"] + a["w"] > b["x"] + 0.5
        and b["x"] + b["w"] > a["x"] + 0.5
        and a["y"] + a["h"] > b["y"] + 0.5
        and b["y"] + b["h"] > a["y"] + 0.5
    )


def show(page: Any, text: str, kind: str = "info") -> None:
    """The page's own toast, with that text (the module the page loaded: one instance)."""
    page.evaluate(
        "([text, kind]) => import('/web/ui.js').then((ui) => ui.toast(text, kind))", [text, kind]
    )
    expect(page.locator("#toast")).to_have_text(text)
    page.wait_for_timeout(300)  # (it slides in)


def covered(page: Any, wide: bool) -> list[str]:
    """What the shown toast lies over: the table's parts under the title bar, and where the
    bar has room beside its names (a computer's window), those names too."""
    toast = box(page, "#toast")
    parts = page.evaluate(PARTS) + (page.evaluate(BAR_NAMES) if wide else [])
    assert len(parts) >= 5, parts
    return [f"{part['what']} {part}" for part in parts if overlap(toast, part)]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280x800", "phone"])
@pytest.mark.parametrize("game", GAMES)
def test_a_message_of_several_lines_covers_nothing(
    open_page: Any, live: Any, table_on: Any, game: str, size: tuple[int, int]
) -> None:
    """A two-line toast (Il Muro's hint at 1280 x 800, a Gaps hint on a phone) lay over the
    game's title line (variant, deal, move, counters) for its seconds. It lies in the title
    bar, which grows to hold it where it needs more room: nothing under the bar is covered,
    in every game, at both sizes, and a message of three or four lines neither."""
    phone = size[0] < 600
    table = table_on(open_page(*size, touch=phone), live)
    spec = find_game(game)
    table.start(game, seed=7, bots=None if spec.is_solitaire else ["greedy"])
    table.wait_turn()
    page = table.page
    for text in (HINT, LONG):
        show(page, text)
        assert covered(page, wide=not phone) == [], text
    lines = page.evaluate(LINES)
    assert lines >= (3 if phone else 2), lines  # (the long one: more than the bar holds)
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    # Gone, the title bar is its own size again.
    bar = box(page, "header.top")["h"]
    page.locator("#toast").click()
    expect(page.locator("#toast")).not_to_have_class(SHOWN)
    assert box(page, "header.top")["h"] <= bar
    assert box(page, "header.top")["h"] <= (57 if phone else 41)


def test_il_muro_s_hint_covers_nothing_at_1280_by_800(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """The review's case as it came: H in Il Muro deal 11 after a move, at 1280 x 800."""
    table = table_on(open_page(1280, 800), live)
    table.start("muro", seed=11)
    table.wait_turn()
    assert table.click_move()
    page = table.page
    page.keyboard.press("h")
    expect(page.locator("#toast")).to_have_text(re.compile(r"^Hint: "))
    page.wait_for_timeout(300)
    assert covered(page, wide=True) == []


def refuse(table: Any, game: str) -> None:
    """Deal 7: a click the rules refuse (as test_tables' REFUSALS), said in a red toast."""
    page = table.page
    if game == "mosaico":
        page.locator('svg.board [data-key="1,2"]').click()
    elif game == "muro":  # 1F, top of column 3, does not go on column 1's 6 grapes
        page.locator('svg.board [data-key~="c3"]').click()
        page.locator('svg.board [data-key~="c1"]').click()
    else:  # acme: 3♠ has no move
        page.locator('svg.board [data-key~="3S"]').click()
    expect(page.locator("#toast[data-kind=error]")).to_have_class(SHOWN)


def gone(page: Any) -> None:
    """The toast is put away at once, not after its seconds of reading (4 s at least)."""
    expect(page.locator("#toast")).not_to_have_class(SHOWN, timeout=1000)


@pytest.mark.parametrize("game", ["acme", "mosaico", "muro"])
def test_a_refusal_goes_when_the_next_move_is_played(table: Any, game: str) -> None:
    """A refusal stayed up over the next legal moves for its seconds, reading as if the
    latest move had been refused. It goes as soon as a move is accepted."""
    table.start(game, seed=7)
    table.wait_turn()
    refuse(table, game)
    page = table.page
    legal = {"acme": "stock", "mosaico": "aside", "muro": "c2"}[game]
    if game == "muro":
        page.keyboard.press("Escape")
        page.locator('svg.board [data-key~="c3"]').click()
    page.locator(f'svg.board [data-key~="{legal}"]').click()
    table.wait_ply(1)
    gone(page)


def replaced(page: Any, refusal: str) -> None:
    """The refusal is gone at once: no toast, or the undo's own message in its place."""
    toast = page.locator("#toast")
    expect(toast).not_to_have_text(refusal, timeout=1000)
    expect(page.locator("#toast.shown[data-kind=error]")).to_have_count(0)


def test_a_refusal_goes_when_an_undo_or_a_redo_is_accepted(table: Any) -> None:
    """Acme: a refusal, then U: the refusal stayed, the only message after the undo. It goes
    when the undo is accepted (the undo of a draw says in its place that the game is practice
    now: docs/rules/acme.md, ruling *Practice*), and when a redo is."""
    table.start("acme", seed=7)
    table.wait_turn()
    page = table.page
    page.locator('svg.board [data-key~="stock"]').click()
    table.wait_ply(1)
    refuse(table, "acme")
    refusal = page.locator("#toast").inner_text()
    page.keyboard.press("u")
    table.wait_ply(0)
    replaced(page, refusal)
    expect(page.locator("#toast")).to_have_text(re.compile("practice now"))
    page.locator("#toast").click()
    gone(page)
    refuse(table, "acme")
    page.keyboard.press("y")
    table.wait_ply(1)
    gone(page)
