"""Points of layout and wording found by a UX review at 1280 x 800 and on a 390 x 844 phone:
the home page's parts, the phone's statistics, an only move in view, the end and seat lines,
the contrast of the text on the felt."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ludoteca.core.registry import all_games, find_game
from ludoteca.store.web import SavedGame

pytestmark = pytest.mark.browser

GAMES = [spec.name for spec in all_games()]


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
    # One person in two browsers: the same name in each (a fresh browser has a name of its
    # own), so that a game of the other browser's is listed here.
    elsewhere = table_on(open_page(), live)
    elsewhere.home()
    elsewhere.name_player("Ada")
    elsewhere.start("tappeto", seed=1)
    here = table_on(open_page(1280, 800), live)
    here.home()
    here.name_player("Ada")
    page = here.page
    resume = page.get_by_role("region", name="Games in progress")
    expect(resume.locator(".elsewhere")).to_be_visible()
    catalog = page.get_by_role("region", name="Start a new game")
    expect(resume.get_by_role("region", name="Start a new game")).to_have_count(0)
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
    assert "Standard (ranks 5)" in variants.all_inner_texts()
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
    expect(split).to_contain_text("Split ")
    expect(split).to_be_in_viewport()
    box = split.bounding_box()
    assert box["y"] >= 0 and bottom(box) <= height, box
    if width > 600:
        board = page.locator(".board-wrap").bounding_box()
        assert page.evaluate("scrollY") == 0 and bottom(board) <= box["y"], board
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_same_position_sent_again_does_not_pull_the_page_back(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """The split, the only move, is scrolled into view once a position: on a 375 x 667
    phone it lies under the fold, and the page scrolls to it. Scrolled back up to read the
    board, the page stays there when the same position comes again: here the connection
    drops, and the page reconnects and rejoins by itself (net.js), which sends the state at
    the same move."""
    sockets: list[Any] = []

    def through(page_side: Any) -> None:
        page_side.connect_to_server()  # (every message passes as it is)
        sockets.append(page_side)

    page = open_page(375, 667, touch=True)
    page.route_web_socket(re.compile(r"/ws$"), through)
    table = table_on(page, live)
    saved, _ = scalafrutta_to_split("same-again")
    open_saved(table, saved)
    split = page.locator(".actions .move")
    expect(split).to_be_in_viewport()
    assert page.evaluate("scrollY") > 0  # (scrolled to it, this position's once)
    page.evaluate("scrollTo(0, 0)")
    expect(split).not_to_be_in_viewport()
    ply = table.ply()
    split.evaluate("node => { node.dataset.before = 'yes'; }")  # (drawn anew with the state)
    opened = len(sockets)
    sockets[-1].close()
    page.wait_for_selector("body[data-connection=offline]")
    page.wait_for_selector(".actions .move:not([data-before])")
    assert len(sockets) == opened + 1 and table.ply() == ply
    page.wait_for_timeout(200)
    assert page.evaluate("scrollY") == 0
    expect(split).not_to_be_in_viewport()


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
        f"You stopped with {state.in_sequence} cards in sequence; 1 of 2 redeals used, which"
        f" cost 2 points: score {state.in_sequence} − 2 = {state.in_sequence - 2}."
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


def test_the_gaps_end_says_what_the_redeals_cost(table: Any) -> None:
    """A deal stuck after two redeals at 5 points each scored 2 with 12 cards in sequence,
    and its end panel said only "12 cards in sequence; 2 of 2 redeals used": why 2? The
    sentence says what the redeals cost and the sum; without a penalty it says nothing of
    points."""
    saved, state = played_out("gaps", "gaps-penalty", 4, {"penalty": "5"})
    assert state.redeals_used == 2 and state.running_score == state.in_sequence - 10
    open_saved(table, saved)
    page = table.page
    expect(page.locator(".end-panel .termination")).to_have_text(
        f"No move left and no redeal left: {state.in_sequence} cards in sequence; 2 of 2"
        f" redeals used, which cost 5 points each: score {state.in_sequence} − 10"
        f" = {state.in_sequence - 10}."
    )
    expect(page.locator(".end-panel .scores tbody td").last).to_have_text(
        str(state.in_sequence - 10)
    )
    said = page.evaluate(
        """async (cases) => {
          const gaps = (await import('/web/games/gaps.js')).default;
          return cases.map(([termination, details, scores]) =>
            gaps.ending(termination, {termination, details, scores}));
        }""",
        [
            ["won", {"in_sequence": 48, "redeals_used": 1, "redeals_allowed": 2}, [48]],
            ["stopped", {"in_sequence": 10, "redeals_used": 1, "redeals_allowed": 3}, [9]],
            ["stopped", {"in_sequence": 8, "redeals_used": 2, "redeals_allowed": 2}, [3.6]],
        ],
    )
    assert said == [
        "All 48 cards in sequence; 1 of 2 redeals used.",
        "You stopped with 10 cards in sequence; 1 of 3 redeals used, which cost 1 point:"
        " score 10 − 1 = 9.",
        "You stopped with 8 cards in sequence; 2 of 2 redeals used, which cost 2.2 points"
        " each: score 8 − 4.4 = 3.6.",
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
    """Right after the status line's "Greedy bot (seat 2) split …: 118 points", the bot's
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
    # Once the game is over the split's points are in the scores: no "scored when".
    over = {**view, "outcome": {"winners": [0], "termination": "finished", "details": {}}}
    texts, _ = table.page.evaluate(DRAWN, [obs, over])
    assert f"last split: {points} points" in texts, texts


SPLIT_LINES = """() => {
  const board = document.querySelector('svg.board');
  const box = (node) => node.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const texts = [...board.querySelectorAll('text')];
  const pieces = [...board.querySelectorAll('g.piece')].map(box);
  return texts.filter((t) => t.textContent.startsWith('last split')).map((t) => ({
    px: parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a,
    inside: box(t).left >= box(board).left && box(t).right <= box(board).right,
    alone: !pieces.some((p) => meets(p, box(t)))
      && !texts.some((other) => other !== t && meets(box(other), box(t))),
  }));
}"""


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_a_scalafrutta_last_split_line_is_readable_on_a_phone(
    open_page: Any, live: Any, table_on: Any, width: int, height: int
) -> None:
    """A seat's "last split: 118 points, scored when the hand ends" was 12 units of a board
    drawn at 0.77 of its units on a 390 px phone: 9.2 px. It is at least 12 px at both
    sizes, within the board, and touches neither the seat's line above it nor the tiles
    under it."""
    table = table_on(open_page(width, height, touch=width < 600), live)
    saved, _ = scalafrutta_to_split(f"split-line-{width}")
    open_saved(table, saved)
    lines = table.page.evaluate(SPLIT_LINES)
    assert len(lines) == 1, lines
    assert lines[0]["px"] >= 12 and lines[0]["inside"] and lines[0]["alone"], lines
    assert table.page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_scalafrutta_split_is_told_as_scored_when_the_hand_ends(table: Any) -> None:
    """After a bot's split the status line said it "scored …: 118 points", while its seat's
    line said the split is "scored when the hand ends" (the rules: each player scores their
    last split when the hand ends), and the player's own button said "Score …". The status
    line says the bot split, scored when the hand ends; the button says "Split"; once the
    game is over the points are in the scores, and the status line says no "when"."""
    saved, state = scalafrutta_to_split("split-told")
    open_saved(table, saved)
    page = table.page
    points = state.observation(0)["shown_points"][1]
    expect(page.locator(".status")).to_have_text(
        re.compile(
            rf"^Greedy bot \(seat 2\) split [^:]+: {points} points, scored when the hand ends\."
            r" Your split: choose it below\.$"
        )
    )
    expect(page.locator(".actions .move")).to_have_text(
        re.compile(r"^Split [^:]+: \d+ points \(\d+ tiles? go(es)? back to the pile\)$")
    )
    said = page.evaluate(
        """async () => {
          const module = (await import('/web/games/scalafrutta.js')).default;
          const over = {outcome: {winners: [0], termination: 'finished', details: {}}};
          return [module.describe('split 3M-4M-5M', {}, {}),
                  module.describe('split 3M-4M-5M', {}, over),
                  module.describe('split none', {}, {}),
                  module.label('split none', {captured_count: [4]}, {seat: 0})];
        }"""
    )
    assert said == [
        "split 3 apples, 4 apples, 5 apples: 62 points, scored when the hand ends",
        "split 3 apples, 4 apples, 5 apples: 62 points",
        "split with no combination",
        "Split with no combination (4 tiles go back to the pile)",
    ]


def count(n: int, word: str) -> str:
    """As the page's art.js counts: "1 tile", "2 tiles"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def played_out(
    game: str, room: str, seed: int, params: dict[str, str] | None = None, moves: int = 100_000
) -> tuple[SavedGame, Any]:
    """A solitaire played by its first legal move to its end (or for ``moves`` moves), in
    the standard variant: the game to store, and its state."""
    spec = find_game(game)
    state = spec.new_state(spec.variant(game, params or {}), seed, 1)
    made = []
    while state.outcome() is None and len(made) < moves:
        move = state.legal_moves_text()[0]
        state.apply(move)
        made.append((0, move))
    saved = SavedGame(
        id=room, game=game, variant=game, params=params or {}, seed=seed, seats=["human"],
        tokens=[f"{room}-token"], player="player", status="playing", moves=made,
    )  # fmt: skip
    return saved, state


def ending_said(table: Any, game: str, cases: list[list[Any]]) -> list[str]:
    """The game's table module's words for each [termination, details, observation]."""
    said: list[str] = table.page.evaluate(
        """async ([game, cases]) => {
          const module = (await import(`/web/games/${game}.js`)).default;
          return cases.map(([termination, details, observation]) =>
            module.ending(termination, {termination, details}, {observation}));
        }""",
        [game, cases],
    )
    return said


def test_the_acme_end_says_how_the_deal_ended_in_a_sentence(table: Any) -> None:
    """The Acme end panel listed its figures as the outcome names them ("stuck · cards on
    foundations 8 · reserve left 15 · turns used 3"). It says them in a sentence, as Gaps's
    does, and why the waste could not be turned over again: here the last pass brought no
    card into play, then (one turn allowed) the turn was used."""
    saved, state = played_out("acme", "acme-no-pass", 0)
    assert state.waste and not state.progress and state.turns == 3
    open_saved(table, saved)
    termination = table.page.locator(".end-panel .termination")
    expect(termination).to_have_text(
        "No move left (no card came into play or home on the last pass): "
        f"{state.cards_on_foundations} cards on the foundations, {len(state.reserve)} left in"
        " the reserve; the waste turned over 3 times."
    )
    saved, state = played_out("acme", "acme-no-turn", 0, {"redeals": "1"})
    assert state.waste and state.progress and state.turns == 1
    open_saved(table, saved)
    expect(termination).to_have_text(
        f"No move left and no more turns of the waste: {state.cards_on_foundations} cards on"
        f" the foundations, {len(state.reserve)} left in the reserve; 1 of 1 turn of the"
        " waste used."
    )
    figures = {"cards_on_foundations": 52, "reserve_left": 0, "turns_used": 2}
    single = {"waste": ["5H"], "turns_left": 0, "progress_since_turn": False}
    left = {"cards_on_foundations": 1, "reserve_left": 0, "turns_used": 0}
    assert ending_said(
        table,
        "acme",
        [
            ["won", figures, {"waste": [], "turns_left": None}],
            ["stuck", {**figures, "cards_on_foundations": 40, "turns_used": 0}, single],
            ["stuck", left, {"waste": [], "turns_left": None}],
            ["timed_out", left, {"waste": [], "turns_left": 3}],
        ],
    ) == [
        "All 52 cards on the foundations; the waste turned over twice.",
        "No move left: 40 cards on the foundations, the reserve empty.",
        "No move left: 1 card on the foundations, the reserve empty.",
        "Timed out: 1 card on the foundations, the reserve empty; 0 of 3 turns of the waste used.",
    ]


def test_the_tappeto_end_says_how_the_deal_ended_in_a_sentence(table: Any) -> None:
    """The Tappeto end panel listed "stuck · cards on foundations 8 · reserve left 24", and a
    deal won "cards on foundations 52 · reserve left 0" under "You won!". It says them in a
    sentence, in the rules' words: no carpet card can go up."""
    saved, state = played_out("tappeto", "tappeto-stuck", 0)
    open_saved(table, saved)
    termination = table.page.locator(".end-panel .termination")
    expect(termination).to_have_text(
        f"No carpet card can go up: {state.cards_on_foundations} cards on the foundations,"
        f" {len(state.reserve)} left in the reserve."
    )
    saved, state = played_out("tappeto", "tappeto-won", 1)
    assert state.outcome().won
    open_saved(table, saved)
    expect(table.page.locator(".end-panel h2")).to_have_text("You won!")
    expect(termination).to_have_text("All 52 cards on the foundations.")
    empty = {"cards_on_foundations": 40, "reserve_left": 0}
    assert ending_said(table, "tappeto", [["stuck", empty, {}], ["timed_out", empty, {}]]) == [
        "No carpet card can go up: 40 cards on the foundations, the reserve empty.",
        "Timed out: 40 cards on the foundations, the reserve empty.",
    ]


def test_the_il_muro_end_says_how_the_game_ended_in_a_sentence(table: Any) -> None:
    """The Il Muro end panel listed "resigned · on foundations 0 · face down 30" or "no
    progress · …". It says them in a sentence: giving up, and the moves without progress
    counted to the game's limit."""
    saved, state = played_out("muro", "muro-resigned", 3, moves=3)
    open_saved(table, saved)
    table.page.get_by_role("button", name="Give up this deal").click()
    termination = table.page.locator(".end-panel .termination")
    expect(termination).to_have_text(
        f"You gave up with {count(state.on_foundations, 'tile')} on the new wall and"
        f" {len(state.face_down)} still face down."
    )
    saved, state = played_out("muro", "muro-idle", 0, {"idle_limit": "5"})
    assert state.outcome().termination == "no progress"
    open_saved(table, saved)
    expect(termination).to_have_text(
        f"5 moves in a row without progress: {count(state.on_foundations, 'tile')} on the"
        f" new wall and {len(state.face_down)} still face down."
    )
    assert ending_said(
        table,
        "muro",
        [
            ["won", {"on_foundations": 36, "face_down": 0}, {"idle_limit": 100}],
            ["stuck", {"on_foundations": 1, "face_down": 0}, {"idle_limit": 100}],
            ["no progress", {"on_foundations": 7, "face_down": 1}, {"idle_limit": 1}],
            ["timed_out", {"on_foundations": 7, "face_down": 1}, {"idle_limit": 1}],
        ],
    ) == [
        "All 36 tiles on the new wall.",
        "No move left: 1 tile on the new wall and none face down.",
        "1 move in a row without progress: 7 tiles on the new wall and 1 still face down.",
        "Timed out: 7 tiles on the new wall and 1 still face down.",
    ]


def test_the_mosaico_end_says_how_the_game_ended_in_a_sentence(table: Any) -> None:
    """The Mosaico end panel listed "stuck · placed 33 · set aside 3". It says them in a
    sentence, with the tile on top of the set-aside pile that fits nowhere."""
    saved, state = played_out("mosaico", "mosaico-stuck", 1)
    assert [str(t) for t in reversed(state.aside)] == ["6B", "6P", "5B"]
    open_saved(table, saved)
    termination = table.page.locator(".end-panel .termination")
    expect(termination).to_have_text(
        "Nothing left to draw and no place for 6 bananas, on top of the set-aside pile:"
        " 33 tiles placed, 3 set aside."
    )
    saved, state = played_out("mosaico", "mosaico-one-aside", 0)
    assert [str(t) for t in state.aside] == ["4C"]
    open_saved(table, saved)
    expect(termination).to_have_text(
        "Nothing left to draw and no place for the set-aside 4 watermelons:"
        " 35 tiles placed, 1 set aside."
    )
    assert ending_said(
        table,
        "mosaico",
        [
            ["won", {"placed": 36, "set_aside": 0}, {"aside": []}],
            ["timed_out", {"placed": 1, "set_aside": 0}, {"aside": []}],
        ],
    ) == [
        "All 36 tiles placed: the 6 × 6 square is full.",
        "Timed out: 1 tile placed, 0 set aside.",
    ]


def test_a_ten_in_the_acme_waste_fan_shows_both_digits(table: Any) -> None:
    """Acme's waste fan left each card under the top one a 16-unit strip, so a 10♦ there
    showed '1♦', which reads as a one-rank card. Each index fits its strip now."""
    table.start("acme", seed=7)
    table.wait_turn()
    obs = table.room().state.observation(0)
    obs["waste"] = ["TD", "TS", "5C"]
    clear = table.page.evaluate(
        """async (obs) => {
          const { Board } = await import('/web/board.js');
          const module = (await import('/web/games/acme.js')).default;
          const node = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
          document.body.appendChild(node);
          module.draw(new Board(node), obs, { seat: 0, legal_moves: [] });
          const card = (code) => node.querySelector(`[data-id="${code}"]`);
          const gaps = [['TD', 'TS'], ['TS', '5C']].map(([under, over]) => {
            const index = card(under).querySelector('.card-rank').getBoundingClientRect();
            return card(over).getBoundingClientRect().left - index.right;
          });
          node.remove();
          return gaps;
        }""",
        obs,
    )
    assert all(gap >= 0 for gap in clear), clear


def test_the_mosaico_tile_back_from_the_set_aside_pile_is_shown_once(table: Any) -> None:
    """Once the tile to place came back from the set-aside pile it was drawn twice: as the
    tile to place and still on top of the pile ('aside 1'), and the status line said only
    'Place 6 apples'. The pile shows what lies under it, and the status line says where the
    tile comes from. Deal 1, each first legal move: the 11th tile comes from the pile."""
    state = find_game("mosaico").new_game(seed=1)
    moves = []
    for _ in range(10):
        move = state.legal_moves_text()[0]
        state.apply(move)
        moves.append((0, move))
    obs = state.observation(0)
    assert obs["current_from"] == "aside" and obs["aside"] == ["6M"] == [obs["current"]]
    saved = SavedGame(
        id="mosaico-back", game="mosaico", variant="mosaico", params={}, seed=1,
        seats=["human"], tokens=["mosaico-token"], player="player", status="playing", moves=moves,
    )  # fmt: skip
    open_saved(table, saved)
    page = table.page
    expect(page.locator(".status")).to_have_text(
        "Place 6 apples, from the set-aside pile: click a lit cell."
    )
    assert page.locator('svg.board .piece[data-id="6M"]').count() == 1
    assert "aside 0" in page.locator("svg.board text").all_text_contents()


CONTRAST = """() => {
  const rgba = (text) => {
    const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number);
    return [r, g, b, a];
  };
  const over = ([r, g, b, a], under) => [r, g, b].map((c, i) => c * a + under[i] * (1 - a));
  const luminance = (rgb) => {
    const [r, g, b] = rgb.map((c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  // Every colour of the felt's gradient, as the page computes it (the CSS variables
  // resolved), and of a tile back's pattern.
  const felt = [...getComputedStyle(document.querySelector('.board-wrap')).backgroundImage
    .matchAll(/rgba?\\([^)]*\\)/g)].map((m) => rgba(m[0]).slice(0, 3));
  const back = [...document.querySelectorAll('#back-tiles rect, #back-tiles circle')]
    .map((n) => rgba(getComputedStyle(n).fill).slice(0, 3));
  const found = [];
  for (const text of document.querySelectorAll('svg.board text')) {
    if (!text.textContent.trim()) continue;
    const piece = text.closest('.piece');
    const slot = text.closest('.slot');
    let grounds = felt;
    if (piece) {
      if (!piece.querySelector('.tile-back')) continue; // a face's own ink, on its face
      grounds = back;
    } else if (slot) {
      const fill = rgba(getComputedStyle(slot.querySelector('.slot-rect')).fill);
      grounds = felt.map((colour) => over(fill, colour));
    }
    const ink = rgba(getComputedStyle(text).fill);
    const worst = Math.min(...grounds.map((ground) => ratio(over(ink, ground), ground)));
    const where = piece ? 'back' : slot?.classList.contains('target') ? 'target'
      : slot?.classList.contains('dead') ? 'dead' : slot ? 'slot' : 'felt';
    found.push({ text: text.textContent, where, ratio: worst });
  }
  return found;
}"""
"""Each text of the board that is not a card's or a tile's face: the worst contrast of its
computed colour against the colours under it (the felt's gradient, a place's tint, a tile
back's pattern), and where it lies."""


@pytest.mark.parametrize("game", GAMES)
def test_the_text_on_the_felt_reads_at_four_and_a_half_to_one(table: Any, game: str) -> None:
    """Seat names, pile labels and captions on the felt measured about 4.1:1 against its
    lighter green (the dim labels: Domino's row and column numbers, Il Muro's 0/6), a lit
    place's caption on its yellow 4.3:1 (Scalafrutta's arrows), a dead Gaps gap's cross
    2.7:1. Each reads at 4.5:1 at least (WCAG AA for normal text), at the start and with a
    piece chosen, its targets lit. Gaps deal 1 has dead gaps; the bot opens Domino deal 5
    with 1 apple, blocked here: its number lies on a tile back."""
    spec = find_game(game)
    seed = {"gaps": 1, "domino": 5}.get(game, 7)
    table.start(game, seed=seed, bots=None if spec.is_solitaire else ["greedy"])
    page = table.page
    table.wait_turn()
    if game == "domino":
        page.locator('svg.board [data-key="1M"]').click()
        page.locator(".chooser button").first.click()
        page.wait_for_selector('svg.board .piece[data-id="1M"] .tile-back')
        table.wait_turn()
    measured = page.evaluate(CONTRAST)
    movable = page.locator("svg.board .movable")
    if page.locator("svg.board .target").count() == 0 and movable.count():
        # (a piece whose only move needs no target plays at once: the next board is measured)
        ply = str(table.ply())
        movable.first.click()
        page.wait_for_function(
            "ply => document.querySelector('svg.board .target')"
            " || document.querySelector('.table-page').dataset.ply !== ply",
            arg=ply,
        )
        measured += page.evaluate(CONTRAST)
    low = [(m["text"], m["where"], round(m["ratio"], 2)) for m in measured if m["ratio"] < 4.5]
    assert not low, low
    kinds = {m["where"] for m in measured}
    assert "felt" in kinds or game == "gaps"
    assert {"gaps": "dead", "domino": "back", "scalafrutta": "target"}.get(game, "felt") in kinds


def scalafrutta_to_choose(room: str) -> SavedGame:
    """Three seats of Scalafrutta (you and two greedy bots), deal 1, each seat's first legal
    move up to where yours matches no insertion: each arrow asks who receives the tile."""
    state = find_game("scalafrutta").new_game(seed=1, players=3)
    moves = []
    while not (state.to_move == 0 and any(">" in m for m in state.legal_moves_text())):
        seat, move = state.to_move, state.legal_moves_text()[0]
        state.apply(move)
        moves.append((seat, move))
    return SavedGame(
        id=room, game="scalafrutta", variant="scalafrutta", params={}, seed=1,
        seats=["human", "greedy", "greedy"], tokens=[f"{room}-token", None, None],
        player="player", status="playing", moves=moves,
    )  # fmt: skip


IN_VIEW = """() => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const arrows = [...document.querySelectorAll('svg.board [data-key]')]
    .filter((n) => /^[LRTB][1-3]$/.test(n.dataset.key)).map(box);
  const left = Math.min(...arrows.map((b) => b.x));
  const top = Math.min(...arrows.map((b) => b.y));
  const square = {x: left, y: top, w: Math.max(...arrows.map((b) => b.x + b.w)) - left,
                  h: Math.max(...arrows.map((b) => b.y + b.h)) - top};
  const seats = [...document.querySelectorAll('svg.board text')]
    .filter((t) => / tiles?\\b/.test(t.textContent) && !t.textContent.startsWith('pile')).map(box);
  return {square, seats, chooser: box(document.querySelector('.chooser')),
          height: window.innerHeight, width: window.innerWidth};
}"""
"""Where the square (with its arrows), each seat's line and the menu lie in the window."""


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280x800", "phone"])
def test_the_which_move_menu_leaves_the_square_and_the_seats_in_view(
    open_page: Any, live: Any, table_on: Any, size: tuple[int, int]
) -> None:
    """Scalafrutta with three seats: an arrow where the drawn tile matches nothing asks
    who receives the pushed tile, in a menu that lay centred over the board, on the top of
    the square and the seats' lines it asks about (their tiles and totals, what a player
    weighs). It lies under the board, the square and the seat lines in view with it."""
    table = table_on(open_page(*size, touch=size[0] < 600), live)
    open_saved(table, scalafrutta_to_choose(f"choose{size[0]}"))
    page = table.page
    page.wait_for_function(IDLE_BOARD)
    page.locator('svg.board [data-key="L1"]').click()
    chooser = page.locator(".chooser")
    expect(chooser).to_be_visible()
    expect(chooser.locator("p")).to_have_text("Which move?")
    page.wait_for_timeout(400)  # (its scroll into view, the board's new size)
    found = page.evaluate(IN_VIEW)
    menu = found["chooser"]
    assert len(found["seats"]) == 3, found
    for thing in [found["square"], *found["seats"]]:
        assert not overlaps(menu, thing), (menu, thing)
    for thing in [menu, found["square"], *found["seats"]]:
        assert thing["y"] >= 0 and thing["y"] + thing["h"] <= found["height"] + 0.5, thing
        assert thing["x"] >= 0 and thing["x"] + thing["w"] <= found["width"] + 0.5, thing
    # Chosen: the receiver's move is played.
    chooser.get_by_role("button").first.click()
    table.wait_change(len(scalafrutta_to_choose("again").moves))


IDLE_BOARD = """() => !document.getAnimations().some(a => a.playState === 'running'
  && a.effect?.target?.closest?.('svg.board'))"""


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] + a["w"] > b["x"] + 0.5
        and b["x"] + b["w"] > a["x"] + 0.5
        and a["y"] + a["h"] > b["y"] + 0.5
        and b["y"] + b["h"] > a["y"] + 0.5
    )


ONE_LINE = """() => {
  const title = document.querySelector('.title').getBoundingClientRect();
  const tools = [...document.querySelectorAll('.tools > :not([hidden])')]
    .map((n) => n.getBoundingClientRect());
  return { title: [title.top, title.bottom], tools: tools.map((b) => [b.top, b.bottom]) };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_the_title_line_and_the_toolbar_keep_one_line_at_1280(
    open_page: Any, live: Any, table_on: Any, game: str
) -> None:
    """At 1280 x 800 each game's title line (title, variant, deal, move, its counters) and
    its toolbar share one line: Il Muro's "… moves without progress 0/100" pushed the toolbar
    onto a second line. It says "new wall 0 · no progress 0/100", its tooltip and a screen
    reader the full words; one line still with wide figures (deal 999999, move 250, 36 on
    the new wall, 100/100)."""
    table = table_on(open_page(1280, 800), live)
    spec = find_game(game)
    hidden = spec.max_players > 1
    table.start(game, seed=None if hidden else 999_999)
    page = table.page
    page.wait_for_selector(".tools button")
    meta = page.locator(".title .meta")
    if game == "muro":
        expect(meta).to_have_attribute(
            "title", re.compile(r"0 on the new wall · moves without progress 0/100$")
        )
        seen = meta.locator("[aria-hidden=true]")
        expect(seen).to_have_text(re.compile(r"· new wall 0 · no progress 0/100$"))
        expect(meta.locator(".sr-only")).to_have_text(meta.get_attribute("title") or "")
        widest = "Standard · deal 999999 · move 250 · new wall 36 · no progress 100/100"
        seen.evaluate("(n, text) => { n.textContent = text; }", widest)
    boxes = page.evaluate(ONE_LINE)
    top, below = boxes["title"]
    assert boxes["tools"]
    for tool_top, tool_bottom in boxes["tools"]:
        # On the title's line: each button overlaps it in height, none under it.
        assert tool_top < below and tool_bottom > top, (game, boxes)


ALIGNED = """() => {
  // Each column's text edges in the end panel's table: the heading's and each cell's, the
  // left edge in the first column (names), the right edge in the others (figures).
  const edge = (cell, right) => {
    if (!cell.textContent.trim()) return null;
    const range = document.createRange();
    range.selectNodeContents(cell);
    const box = range.getBoundingClientRect();
    return right ? box.right : box.left;
  };
  const table = document.querySelector('.end-panel .scores');
  const heads = [...table.querySelectorAll('thead th')];
  const rows = [...table.querySelectorAll('tbody tr')].map((r) => [...r.children]);
  return heads.map((th, i) => ({
    head: th.textContent,
    at: edge(th, i > 0),
    cells: rows.map((r) => edge(r[i], i > 0)),
  }));
}"""


def assert_end_columns_aligned(page: Any) -> None:
    page.locator(".end-panel .end-card").wait_for()
    columns = page.evaluate(ALIGNED)
    assert len(columns) >= 2
    for column in columns:
        edges = [at for at in [column["at"], *column["cells"]] if at is not None]
        assert len(edges) >= 2 or column["head"] == "", column
        assert max(edges) - min(edges) <= 1, column


def test_the_end_panel_s_headings_are_aligned_with_their_columns(table: Any) -> None:
    """The end panel's *Score* heading was centred over its column, as were the names and
    the figures, and read as off (Tappeto, Mosaico): names and their heading start at one
    left edge, figures and theirs end at one right edge. In a solitaire (Il Muro given up)
    and at a table with a column of figures besides the score (Domino)."""
    page = table.page
    table.start("muro", seed=3)
    page.get_by_role("button", name="Give up this deal").click()
    assert_end_columns_aligned(page)
    # Domino deal 5 played to its end by each seat's first legal move (the bot wins).
    state = find_game("domino").new_game("domino", seed=5, players=2)
    moves = []
    while state.outcome() is None:
        seat, move = state.current_player, state.legal_moves_text()[0]
        state.apply(move)
        moves.append((seat, move))
    saved = SavedGame(
        id="dominoend", game="domino", variant="domino", params={}, seed=5,
        seats=["human", "greedy"], tokens=["dominoend-token", None], player="player",
        status="playing", moves=moves,
    )  # fmt: skip
    open_saved(table, saved)
    assert_end_columns_aligned(page)
    assert page.locator(".end-panel .scores th").all_inner_texts() == [
        "Player",
        "Tiles left",
        "Score",
    ]
