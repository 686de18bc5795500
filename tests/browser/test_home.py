"""The home page: whose statistics and games it shows (a browser's own), the games in
progress, the game cards' records and the statistics table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ludoteca.core.registry import all_games
from ludoteca.store.web import SavedGame

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


def finished(
    store: Any,
    room: str,
    game: str,
    key: str,
    won: bool,
    player: str = "sorter",
    score: float = 1.0,
) -> None:
    """A game of ``game`` stored as finished by ``player``, its variant key ``key``."""
    store.create_game(
        SavedGame(
            id=room, game=game, variant=key.split("[")[0], params={}, seed=1, seats=["human"],
            tokens=["t"], player=player, status="playing", moves=[],
        )
    )  # fmt: skip
    store.record_result(room, key, won, score)


def test_a_variant_played_with_options_is_on_its_card_and_rows_go_by_game(
    table: Any, live: Any
) -> None:
    """Gaps finished with options (suits 2, ranks 4) left its card at "Not played yet."
    (its record is stored as gaps[ranks=4,suits=2], and the card matched the variant's
    name exactly); and the statistics listed rows in order of first play (Gaps under
    Domino): they go by game, as the cards do, the variant as declared first."""
    store = live.app.state.rooms.store
    finished(store, "sort1", "domino", "domino", False)
    finished(store, "sort2", "gaps", "gaps[ranks=4,suits=2]", True)
    finished(store, "sort3", "tappeto", "tappeto", False)
    finished(store, "sort4", "gaps", "gaps", False)
    table.home()
    table.name_player("sorter")
    gaps = table.page.locator(".game[data-game=gaps] .mystats").inner_text()
    assert gaps.startswith("Played 1 · won 0")
    heads = table.page.locator(".stat-table .game-line th").all_inner_texts()
    order = [" ".join(head.split()) for head in heads]
    assert order == ["Gaps Standard", "Gaps Standard (ranks 4, suits 2)", "Tappeto Standard",
                     "Domino della Frutta Standard"]  # fmt: skip
    finished(store, "sort5", "acme", "acme[redeals=1]", True)
    table.home()
    acme = table.page.locator(".game[data-game=acme] .mystats").inner_text()
    assert acme.startswith("Standard (redeals 1): Played 1 · won 1")


def test_domino_s_best_reads_as_the_tiles_left(table: Any, live: Any) -> None:
    """docs/rules/domino.md (a score is minus the tiles left): the home page's card and table
    showed Domino's best score as -1; it reads "1 tile left", as `ludoteca stats` says it."""
    store = live.app.state.rooms.store
    finished(store, "left1", "domino", "domino", False, "counter", -3.0)
    finished(store, "left2", "domino", "domino", False, "counter", -1.0)
    finished(store, "left3", "gaps", "gaps", False, "counter", 17.0)
    table.home()
    table.name_player("counter")
    page = table.page
    domino = page.locator(".game[data-game=domino] .mystats").inner_text()
    assert "best 1 tile left" in domino and "-1" not in domino, domino
    gaps = page.locator(".game[data-game=gaps] .mystats").inner_text()
    assert "best score 17" in gaps, gaps
    row = page.locator(".stat-table tbody", has_text="Domino").locator("td").all_inner_texts()
    assert "1 tile left" in row and "-1" not in row, row  # (its streak: -2, two lost)


def test_the_variants_are_named_by_their_titles_where_people_read_them(table: Any) -> None:
    """The variants showed by their keys (no-redeal, coperte, reserve-13) in the game cards'
    menus, the table's title line, the games in progress and the statistics: each reads as
    the game's spec titles it (No redeal, Coperte, 13-card reserve), sent by the server. The
    key stays the notation: the menu's values, the requests, the stored games."""
    page = table.page
    table.home()
    table.name_player("titled")
    for spec in all_games():
        options = page.locator(f".game[data-game={spec.name}] select[name=variant] option")
        assert options.all_inner_texts() == [v.title for v in spec.variants]
        values = options.evaluate_all("nodes => nodes.map((n) => n.value)")
        assert values == [v.name for v in spec.variants]
    table.start("gaps", seed=7, variant="no-redeal")
    expect(page.locator(".title .meta")).to_have_text(re.compile(r"^No redeal · deal 7 · move 0"))
    assert table.room().saved.variant == "no-redeal"
    store = table.live.app.state.rooms.store
    finished(store, "titled1", "scalafrutta", "coperte", True, "titled")
    finished(store, "titled2", "acme", "reserve-13[redeals=1]", False, "titled")
    table.home()
    entry = " ".join(page.locator(".resume li").first.inner_text().split())
    assert entry.startswith("Gaps · No redeal · deal 7 · 0 moves"), entry
    rows = page.locator(".stat-table tbody tr:not(.game-line)").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('td')].slice(0, 2).map(td => td.innerText))"
    )
    assert rows == [["Acme", "13-card reserve (redeals 1)"], ["Scalafrutta", "Coperte"]], rows
    card = page.locator(".game[data-game=acme]")
    card.locator("select[name=variant]").select_option("reserve-13")
    expect(card.locator(".mystats")).to_have_text(re.compile(r"^13-card reserve \(redeals 1\): "))


def test_a_link_to_a_table_says_whether_the_game_exists(table: Any) -> None:
    """A link to a room this browser holds no seat at said "This browser holds no seat at
    that table." whether or not the game exists: an unknown one says it does not exist."""
    page = table.page
    page.goto(table.live.url + "#/room/nosuchgame")
    notice = page.locator(".notice .refused")
    notice.wait_for()
    assert notice.inner_text() == (
        "This game does not exist, or no longer exists: there is no game 'nosuchgame' on this"
        " server."
    )
    table.start("tappeto", seed=1)
    room = table.room_id
    page.evaluate("localStorage.removeItem('ludoteca.seats')")
    page.goto(table.live.url + "#/")
    page.wait_for_selector(".game")
    page.goto(table.live.url + f"#/room/{room}")
    page.wait_for_selector(".notice .refused")
    assert notice.inner_text().startswith("This browser holds no seat at that table: ")


def test_a_game_played_as_an_invited_friend_counts_in_the_friends_statistics(
    open_page: Any, live: Any, table_on: Any
) -> None:
    """A table of two people was counted once, for its creator: the friend who claimed the
    other seat found nothing of it at home. Each browser's home counts the game for its own
    name, won or not as its seat was; the friend's lists it in progress until then."""
    host, friend = table_on(open_page(), live), table_on(open_page(), live)
    host.home()
    host.name_player("the host")
    friend.home()
    friend.name_player("the friend")
    host.start("domino", bots=["human"])
    room_id = host.room_id
    friend.page.goto(host.page.locator(".invites input").first.input_value())
    expect(friend.page).to_have_url(re.compile(rf"#/room/{room_id}$"))  # (claimed)
    room = host.room()
    assert room.saved.players == {0: "the host", 1: "the friend"}
    friend.home()
    expect(friend.page.locator(".resume li")).to_have_count(1)
    assert "counts for" not in friend.page.locator(".resume li").inner_text()
    friend.page.goto(f"{live.url}#/room/{room_id}")
    friend.page.wait_for_selector(".table-page[data-game=domino]")
    for _ in range(120):
        if room.state.is_over:
            break
        mover = host if room.state.current_player == 0 else friend
        mover.wait_turn()
        if mover.over():
            break
        before = mover.ply()
        assert mover.click_move()
        for person in (host, friend):
            person.wait_change(before)
    outcome = room.state.outcome()
    assert outcome is not None
    for seat, person in enumerate((host, friend)):
        person.home()
        won = int(seat in outcome.winners)
        expect(person.page.locator(".game[data-game=domino] .mystats")).to_have_text(
            re.compile(rf"^Played 1 · won {won}")
        )
        assert person.page.locator(".resume").is_hidden()
