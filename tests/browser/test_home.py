"""The home page: whose statistics and games it shows (a browser's own), the games in
progress, the game cards' records and the statistics table."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def stored_name(table: Any) -> str:
    name: str = table.page.evaluate("localStorage.getItem('ludoteca.player')")
    return name


def test_a_fresh_browser_has_a_name_of_its_own(open_page: Any, live: Any, table_on: Any) -> None:
    """Every browser was "player": a friend's fresh browser showed the host's statistics and
    counted the host's games as "started in another browser". Each fresh browser now gets
    a name of its own, and sees nothing of another's."""
    host, friend = table_on(open_page(), live), table_on(open_page(), live)
    host.start("tappeto", seed=1)
    friend.home()
    names = stored_name(host), stored_name(friend)
    assert names[0] != names[1] and all(n.startswith("player ") for n in names)
    assert friend.page.locator(".stats h2").inner_text() == f"Statistics for {names[1]}"
    assert friend.page.locator(".resume").is_hidden()
    assert live.app.state.rooms.store.load_game(host.room_id).player == names[0]


def test_a_browser_that_played_as_player_keeps_that_name(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """A browser that played before under the old default (it holds seats, no name kept)
    keeps "player", with its games and statistics."""
    table = table_on(open_page(), live)
    table.page.goto(live.url + "#/nowhere")
    table.page.evaluate(
        "localStorage.setItem('ludoteca.seats', JSON.stringify({old: {seat: 0, token: 't'}}));"
        "localStorage.removeItem('ludoteca.player')"
    )
    table.page.reload()
    table.page.wait_for_selector(".game")
    assert stored_name(table) == "player"
    assert table.page.locator(".stats h2").inner_text() == "Statistics for player"


def test_a_rename_keeps_the_games_this_browser_holds(table: Any) -> None:
    """Renaming the player hid the whole list of games in progress, though this browser
    held their seats: they are listed still, each saying the name it counts for."""
    table.start("tappeto", seed=1)
    before = stored_name(table)
    table.home()
    table.name_player("Alice")
    entry = table.page.locator(".resume li")
    assert entry.count() == 1
    assert entry.inner_text().split("\n")[0].endswith(f" · counts for {before}")
    table.start("acme", seed=1)
    table.home()
    entries = table.page.locator(".resume li span:first-child").all_inner_texts()
    assert [("Acme" in e, "counts for" in e) for e in entries] == [(True, False), (False, True)]


def test_a_deal_with_no_move_says_so_and_is_counted(table: Any) -> None:
    """Tappeto deal 931454 has no move: its end panel said only "Not this time", and the
    game stayed in progress at 0 moves, never counted. The panel says the deal has no move
    (and offers no replay of it); home counts it and lists nothing in progress."""
    table.home()
    table.name_player("dead deal")
    table.start("tappeto", seed=931454)
    card = table.page.locator(".end-card")
    assert card.locator(".termination").inner_text().startswith("This deal has no move. ")
    assert card.locator("[data-end=restart]").is_hidden()
    table.home()
    assert table.page.locator(".resume").is_hidden()
    assert (
        table.page.locator(".game[data-game=tappeto] .mystats")
        .inner_text()
        .startswith("Played 1 · won 0")
    )
