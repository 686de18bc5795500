"""Points of layout and wording found by a UX review at 1280 x 800 and on a 390 x 844 phone:
the home page's parts, the phone's statistics, an only move in view, the end and seat lines."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from ludoteca.core.registry import find_game
from ludoteca.store.web import SavedGame

pytestmark = pytest.mark.browser


def bottom(box: dict[str, float]) -> float:
    return box["y"] + box["height"]


def open_saved(table: Any, saved: SavedGame) -> None:
    """Store a game and open its seat 1 in this browser, as a person resumes it."""
    store = table.live.app.state.rooms.store
    store.create_game(saved)
    store.push_moves(saved.id, 0, saved.moves)
    table.home()
    token = saved.tokens[0]
    kept = {saved.id: {"seat": 0, "token": token, "tokens": {"0": token}}}
    table.page.evaluate(
        "kept => localStorage.setItem('ludoteca.seats', JSON.stringify(kept))", kept
    )
    table.page.goto(f"{table.live.url}#/room/{saved.id}")
    table.page.wait_for_selector(f".table-page[data-game={saved.game}]")
    table.wait_turn()


def scalafrutta_to_split(room: str) -> tuple[SavedGame, Any]:
    """A single hand of Scalafrutta against a greedy bot, played by each seat's first legal
    move up to where seat 1's split is all it can do, the bot's split made first (deal 1):
    the game to store, and its state."""
    state = find_game("scalafrutta").new_game("mano", seed=1, players=2)
    moves = []
    while not (state.stage == "split" and state.to_move == 0):
        seat, move = state.to_move, state.legal_moves_text()[0]
        state.apply(move)
        moves.append((seat, move))
    assert state.observation(0)["shown_points"][1] > 0  # (the bot has split)
    saved = SavedGame(
        id=room, game="scalafrutta", variant="mano", params={}, seed=1, seats=["human", "greedy"],
        tokens=[f"{room}-token", None], player="player", status="playing", moves=moves,
    )  # fmt: skip
    return saved, state


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


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_split_that_is_the_only_move_is_in_view(
    open_page: Any, live: Any, table_on: Any, width: int, height: int
) -> None:
    """At 1280 x 800 the Scalafrutta split, the only move once the pile is empty, lay under
    the fold below a 630 px board. The board leaves room for the move buttons under it: the
    split is in view with the whole board, unscrolled; on a phone it stays in view, and the
    page no wider than the phone."""
    table = table_on(open_page(width, height, touch=width < 600), live)
    saved, _ = scalafrutta_to_split(f"only-split-{width}")
    open_saved(table, saved)
    page = table.page
    split = page.locator(".actions .move")
    expect(split).to_have_count(1)
    expect(split).to_contain_text("Score ")
    page.wait_for_timeout(300)  # (a layout settled)
    box = split.bounding_box()
    assert box["y"] >= 0 and bottom(box) <= height, box
    if width > 600:
        board = page.locator(".board-wrap").bounding_box()
        assert page.evaluate("scrollY") == 0 and bottom(board) <= box["y"], board
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_gaps_end_says_how_the_deal_ended_in_a_sentence(table: Any) -> None:
    """The Gaps end panel listed its figures as they are named in the outcome ("stuck · in
    sequence 16 · redeals used 1 · redeals allowed 2"). It says them in a sentence, as
    Domino's does: here a deal stopped after a redeal that cost points (penalty 2)."""
    spec = find_game("gaps")
    state = spec.new_state(spec.variant("gaps", {"penalty": "2"}), 4, 1)
    moves = []
    while not ("stop" in state.legal_moves_text() and state.redeals_used == 1):
        move = state.legal_moves_text()[0]
        state.apply(move)
        moves.append((0, move))
    saved = SavedGame(
        id="gaps-stopped", game="gaps", variant="gaps", params={"penalty": "2"}, seed=4,
        seats=["human"], tokens=["gaps-token"], player="player", status="playing", moves=moves,
    )  # fmt: skip
    open_saved(table, saved)
    table.page.locator(".actions .move", has_text="Stop here").click()
    assert state.in_sequence > 1
    expect(table.page.locator(".end-panel .termination")).to_have_text(
        f"You stopped with {state.in_sequence} cards in sequence; 1 of 2 redeals used."
    )
    # Won, and stuck in a variant without redeals (the module's words, as the panel shows them).
    said = table.page.evaluate(
        """async () => {
          const gaps = (await import('/web/games/gaps.js')).default;
          const won = {details: {in_sequence: 48, redeals_used: 1, redeals_allowed: 2}};
          const stuck = {details: {in_sequence: 1, redeals_used: 0, redeals_allowed: 0}};
          return [gaps.ending('won', won), gaps.ending('stuck', stuck)];
        }"""
    )
    assert said == [
        "All 48 cards in sequence; 1 of 2 redeals used.",
        "No move left: 1 card in sequence.",
    ]


DRAWN = """async ([obs, view]) => {
  const { Board } = await import('/web/board.js');
  const module = (await import('/web/games/scalafrutta.js')).default;
  const node = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  document.body.appendChild(node); // drawn for real, to be measured
  module.draw(new Board(node), obs, view);
  const texts = [...node.querySelectorAll('text')].map((t) => t.textContent);
  const box = node.querySelector('g.scene').getBBox();
  node.remove();
  return [texts, box.x + box.width <= node.viewBox.baseVal.width + 0.5];
}"""


def test_a_scalafrutta_seat_line_says_what_its_numbers_are(table: Any) -> None:
    """Right after the status line's "Greedy bot (seat 2) scored …: 118 points", the bot's
    line read "Greedy bot (seat 2): 0 pts · 9 tiles · split 118": which points? Its line says
    its tiles (and in a match its total), and a line under it the split's points, scored when
    the hand ends."""
    saved, state = scalafrutta_to_split("seat-lines")
    open_saved(table, saved)
    obs = state.observation(0)
    tiles, points = obs["captured_count"][1], obs["shown_points"][1]
    texts = table.page.locator("svg.board text").all_text_contents()
    assert f"Greedy bot (seat 2): {tiles} tiles" in texts, texts
    assert f"last split: {points} points, scored when the hand ends" in texts, texts
    assert f"You: {obs['captured_count'][0]} tiles · to play" in texts, texts
    assert not any("pts" in text for text in texts), texts
    # In a match, each seat's total, every line within the board (a finger's board too).
    obs.update(params={**obs["params"], "target": 1001}, totals=[1000, 995], to_move=1)
    view = {"seat": 0, "seats": [{"kind": "human", "name": "human"},
                                 {"kind": "bot", "name": "greedy"}]}  # fmt: skip
    texts, fits = table.page.evaluate(DRAWN, [obs, view])
    assert f"Greedy bot (seat 2): {tiles} tiles · total 995 points · to play" in texts, texts
    assert fits
