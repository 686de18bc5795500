"""The others' moves on the board: what the bots (or other people) did since this seat's last
move is marked on the pieces it placed or changed, only where the seat sees them face up, and
the marks go when the person moves. An undo against bots says what it took back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from ludoteca.games.scalafrutta import CELLS
from ludoteca.server.rooms import Room, replay

pytestmark = pytest.mark.browser

MARKED = "svg.board .just-played"


def marked(page: Any) -> list[str]:
    """The ids of the pieces the board marks, as a person sees them: each with its ring."""
    found: list[str] = page.locator(MARKED).evaluate_all(
        "ns => ns.filter(n => n.querySelector('.played-mark')).map(n => n.dataset.id)"
    )
    return found


def since_mine(room: Room, seat: int = 0) -> list[tuple[int, int, str]]:
    """The others' moves since ``seat``'s last one: (ply, seat, move)."""
    moves = []
    for ply in range(len(room.moves) - 1, -1, -1):
        by, move = room.moves[ply]
        if by == seat:
            break
        moves.append((ply, by, move))
    return moves[::-1]


def domino_tiles_played(room: Room) -> set[str]:
    """The tiles the others placed or blocked since seat 0's last move."""
    tiles = set()
    for _, _, move in since_mine(room):
        if "@r" in move:
            tiles.add(move.split("@r")[0])
        elif move.startswith("block "):
            tiles.add(move[6:])
    return tiles


def test_a_bots_domino_tile_is_marked_until_the_person_moves(
    open_page: Any, tmp_path: Path, live_server: Any, table_on: Any
) -> None:
    """Deal 5: the bot opens with 1 apple. On the person's turn that tile carries the mark
    (a ring, and its label says so), and nothing else does; once the person has moved the
    mark is gone (the bot waits a second here before it answers); after the bot's answer
    its tile is marked instead."""
    slow = live_server(tmp_path / "slow.sqlite3", bot_delay=1.5).start()
    try:
        table = table_on(open_page(), slow)
        table.start("domino", seed=5, bots=["greedy"])
        table.wait_turn()
        page = table.page
        assert since_mine(table.room()) == [(0, 1, "1M@r0")]
        expect(page.locator(MARKED)).to_have_count(1)
        assert marked(page) == ["1M"]
        label = page.locator(f"{MARKED}").get_attribute("aria-label")
        assert label == "1 apple on the table, just played", label
        ply = table.ply()
        assert table.click_move()
        table.wait_ply(ply + 1)
        # The person's own move: nothing marked (the bot has not answered yet).
        assert table.room().moves[-1][0] == 0
        assert marked(page) == []
        table.wait_turn()
        played = domino_tiles_played(table.room())
        assert played, since_mine(table.room())  # (deal 5: the bot places a tile)
        assert sorted(marked(page)) == sorted(played)
    finally:
        slow.stop()


def test_every_bots_reply_is_marked_and_no_hidden_tile(table: Any) -> None:
    """Two bots: each one's tile placed since the person's move is marked, and only those;
    the marks are all on tiles face up on the table (or blocked there, shown to all), never
    on a face-down tile of a hand nor on a tile the seat may not see."""
    table.start("domino", seed=11, bots=["greedy", "greedy"])
    page = table.page
    checked = 0
    for _ in range(5):
        table.wait_turn()
        if table.over():
            break
        room = table.room()
        played = domino_tiles_played(room)
        on_table = {t["tile"] for t in room.state.observation(0)["table"]}
        assert played <= on_table
        assert sorted(marked(page)) == sorted(played), since_mine(room)
        checked += len(played)
        hidden = room.state.hidden_from(0)
        assert not set(marked(page)) & hidden
        # Every marked piece is one drawn with its id; no face-down hand tile is marked.
        assert page.locator(MARKED).count() == len(played)
        assert page.locator(f"{MARKED}:not([data-id])").count() == 0
        assert table.click_move()
    assert checked >= 3


def scalafrutta_expected(room: Room) -> set[str]:
    """The tiles the bot's insertions since seat 0's last move pushed in (still in the
    square) or out (to captures that seat 0 sees face up), from the engine."""
    now = room.state.observation(0)
    square = {t for row in now["square"] for t in row}
    expected = set()
    for ply, by, move in since_mine(room):
        moves = [m for _, m in room.moves]
        players = len(room.saved.seats)
        before = replay(room.spec, room.variant, room.saved.seed, players, moves[:ply])
        after = replay(room.spec, room.variant, room.saved.seed, players, moves[: ply + 1])
        entry, _, exit_ = CELLS[move[0], int(move[1])]
        pushed_in = str(after.observation(0)["square"][entry // 3][entry % 3])
        pushed_out = str(before.observation(0)["square"][exit_ // 3][exit_ % 3])
        to = int(move.split(">P")[1]) - 1 if ">" in move else by
        if pushed_in in square:
            expected.add(pushed_in)
        if pushed_out in (now["captured"][to] or []):
            expected.add(pushed_out)
    return expected


@pytest.mark.parametrize("variant", ["scalafrutta", "coperte"])
def test_a_bots_scalafrutta_insertion_is_marked_where_it_is_seen(table: Any, variant: str) -> None:
    """The tile the bot pushed into the square is marked, and the tile it pushed out where
    it went: in its captures (face up in the standard game; under `coperte` they are face
    down to the person, and nothing there is marked) or in the person's, as a gift."""
    table.start("scalafrutta", seed=7, variant=variant, bots=["random"])
    page = table.page
    kept_hidden = 0
    for turn in range(4):
        table.wait_turn()
        room = table.room()
        if turn > 0:  # (seat 0 plays first in deal 7)
            expected = scalafrutta_expected(room)
            assert sorted(marked(page)) == sorted(expected), since_mine(room)
            assert expected
            # Only faces are marked: never a face-down tile (the pile, hidden captures).
            assert page.locator(f"{MARKED} .tile-back").count() == 0
            assert not set(marked(page)) & room.state.hidden_from(0)
            kept_hidden += len(expected) == 1
        assert table.click_move()
    if variant == "coperte":
        assert kept_hidden >= 1  # (a tile the bot captured lies face down: not marked)


def test_an_undo_against_bots_says_it_took_back_their_replies(table: Any) -> None:
    """Undo takes back the person's move and the bots' replies to it; the page says so,
    where it only showed the board of an earlier turn. The bots placed tiles of their hidden
    hands: the game is practice from then on (docs/rules/domino.md, ruling *Practice*),
    which the same toast says, once, and the title marks, with what it means for a screen
    reader."""
    table.start("domino", seed=11, bots=["greedy", "greedy"])
    table.wait_turn()
    assert table.click_move()
    table.wait_turn()
    replies = len(since_mine(table.room()))
    assert replies >= 2
    page = table.page
    assert page.locator(".title .practice").is_hidden()
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#toast")).to_have_text(
        f"Took back your move and the bots' {replies} replies. You took back a move that"
        " showed hidden tiles: this game is practice now and won't count in your statistics."
    )
    mark = page.get_by_role("note", name="Practice: a move that showed hidden tiles")
    expect(mark).to_be_visible()
    assert mark.inner_text().lower() == "practice"
    assert table.room().practice


FADES = """() => {
  window.__fades = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    const animation = animate.call(this, frames, options);
    if (Array.isArray(frames) && frames.some((f) => 'opacity' in f)) {
      window.__fades.push({ node: this, animation });
    }
    return animation;
  };
}"""
"""Keeps every opacity animation the page starts, with the node it fades."""

VEILED = """() => window.__fades
  .filter(({ node, animation }) => node.classList.contains('just-played')
    && node.isConnected && animation.playState !== 'idle')
  .map(({ node }) => node.dataset.id)"""
"""The marked pieces that faded in (shown through the felt a while) rather than whole."""


@pytest.mark.parametrize(("game", "seed"), [("scalafrutta", 7), ("domino", 5)])
def test_a_piece_just_played_is_framed_not_veiled(table: Any, game: str, seed: int) -> None:
    """The bot's tile pushed into the Scalafrutta square (or placed on the Domino table) is
    new to this seat: it faded in, and its mark with it, so that for a while it lay under a
    grey veil of felt and read as a disabled tile. A marked piece is shown whole at once;
    only its frame fades in, which draws no fill over the piece."""
    table.page.add_init_script(f"({FADES})()")
    table.start(game, seed=seed, bots=["random" if game == "scalafrutta" else "greedy"])
    table.wait_turn()
    page = table.page
    count = (
        "() => window.__fades.filter(({ node }) => node.classList.contains('just-played')).length"
    )
    # A bot's piece is new to the board only if it is placed while the page shows the table
    # (a bot that moved before the page first drew it shows its tile whole, unmarked as new):
    # play until a reply of the bot's places one, a few turns at most.
    faded = 0
    for _ in range(6):
        assert table.click_move()
        table.wait_turn()
        faded = page.evaluate(count)
        if faded:
            break
    assert faded, "no marked piece was new to the board: the test shows nothing"
    page.wait_for_function("() => document.querySelector('svg.board .just-played')")
    assert page.evaluate(VEILED) == []
    fills = page.locator(".played-mark rect").evaluate_all(
        "ns => ns.map(n => getComputedStyle(n).fill)"
    )
    assert fills and set(fills) == {"none"}


ROOM_IN_THE_FRAME = """n => {
  // The ink of the tile's number (measured as drawn, in the tile's units) against the
  // inner edge of the frame of a piece just played, in screen pixels.
  const text = n.querySelector('.tile-number');
  const inner = n.querySelector('.played-mark .inner');
  const ctx = document.createElement('canvas').getContext('2d');
  const style = getComputedStyle(text);
  ctx.font = `${style.fontWeight} ${text.getAttribute('font-size')}px ${style.fontFamily}`;
  const ink = ctx.measureText(text.textContent);
  const x = Number(text.getAttribute('x')) - ink.actualBoundingBoxLeft;
  const y = Number(text.getAttribute('y')) - ink.actualBoundingBoxAscent;
  const stroke = parseFloat(getComputedStyle(inner).strokeWidth);
  const edge = Number(inner.getAttribute('x')) + stroke / 2;
  const scale = n.getScreenCTM().a;
  return { id: n.dataset.id, left: (x - edge) * scale, top: (y - edge) * scale };
}"""


def test_a_small_tile_just_played_has_room_around_its_number(table: Any) -> None:
    """A tile pushed out to a seat's captures (30 units, not 60) is marked with a frame
    inside its edge; its number lay against that frame (Greedy bot: 4 bananas). Its ink
    keeps 2.5 px at least from the frame's inner edge, above and at the left."""
    table.start("scalafrutta", seed=7, bots=["random"])
    table.wait_turn()
    assert table.click_move()
    table.wait_turn()
    page = table.page
    small = [
        page.locator(MARKED).nth(i).evaluate(ROOM_IN_THE_FRAME)
        for i in range(page.locator(MARKED).count())
        if page.locator(MARKED).nth(i).locator(".face").get_attribute("width") == "28"
    ]
    assert small, "no small tile marked"
    for room in small:
        assert room["left"] >= 2.5 and room["top"] >= 2.5, room
