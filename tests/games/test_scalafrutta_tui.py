"""The Scalafrutta terminal board shows what the observation holds, and nothing hidden."""

from __future__ import annotations

from rich.console import Console

from ludoteca.core.registry import find_game
from ludoteca.core.tiles import ALL_TILES, Tile
from ludoteca.games.scalafrutta import ScalafruttaState, mask_tiles
from ludoteca.tui.base import renderer_for


def draw(state: ScalafruttaState, seat: int, width: int = 120) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderer_for("scalafrutta")(state.observation(seat)))
    return console.export_text()


def test_board_shows_square_drawn_tile_and_hides_coperte_captures() -> None:
    state = find_game("scalafrutta").new_game("coperte", 3, 2)
    assert isinstance(state, ScalafruttaState)
    for _ in range(10):
        state.apply(state.legal_moves()[0])
    mover = state.current_player
    text = draw(state, mover)
    for tile in state.square:
        assert Tile.from_index(tile).symbol in text
    drawn = Tile.from_index(state.pile[-1])
    assert f"You drew {drawn.symbol} ({drawn})" in text
    assert "L1" in text and "B3" in text and "hidden" in text
    other = draw(state, 1 - mover)
    assert "You drew" not in other
    line = next(row for row in other.splitlines() if row[2:].startswith(f"seat {mover + 1} "))
    assert line.rstrip().endswith("hidden")
    assert not any(Tile.from_index(t).symbol in line for t in mask_tiles(state.held[mover]))


def test_board_shows_the_outcome() -> None:
    state = find_game("scalafrutta").new_game("mano", 2, 2)
    assert isinstance(state, ScalafruttaState)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert "Game over (single hand)" in draw(state, 0)


def test_the_prompt_s_example_is_a_move_the_player_may_make() -> None:
    """Seed, Scalafrutta: the drawn tile must match the tile it pushes (RULES.md: the one
    directly pushed). The prompt's example was always "L1 or T3", often refused; on deals
    0-19 after 0-5 moves it is always one of the legal moves."""
    checked = 0
    for seed in range(20):
        state = find_game("scalafrutta").new_game("mano", seed, 2)
        assert isinstance(state, ScalafruttaState)
        for _ in range(seed % 6):
            state.apply(state.legal_moves()[0])
        mover = state.current_player
        text = " ".join(draw(state, mover).split())
        example = text.split("e.g. ", 1)[1].split(" ")[0]
        assert example in state.legal_moves_text(), (seed, example)
        checked += 1
    assert checked == 20


def _split_stage(held: str) -> ScalafruttaState:
    """P1 to split first, holding ``held``; P2 holds 4C 5C 6C."""
    spec = find_game("scalafrutta")
    state = spec.from_position(
        "players 2 seed 1 | hand 1 first P1 phase 0 | split P1 P2 last P1"
        " | square 1M 2P 3C / 4U 5F 6B / 1P 2C 3U | pile -"
        f" | held {held} ; 4C 5C 6C | shown - ; - | totals 0 0 | hands -",
        spec.variant("scalafrutta"),
    )
    assert isinstance(state, ScalafruttaState)
    return state


def test_the_split_prompt_mentions_only_splits_there_are() -> None:
    """Seed: when the draw pile is empty each player splits their tiles into combinations;
    RULES.md: the suggestion is the split of highest points. With no combination in hand the
    one move is `split none`, yet the prompt offered "'split best' (offered below)" and
    lists of one's own; it now says there is none."""
    state = _split_stage("1B 3M 5U")
    assert state.legal_moves_text() == ["split none"]
    text = " ".join(draw(state, 0).split())
    assert "split best" not in text and "split 3M-4M-5M" not in text
    assert "your tiles make none, so 'split none' (offered below) sends them all back" in text
    state = _split_stage("3M 4M 5M 1B")
    assert state.legal_moves_text() == ["split 3M-4M-5M"]
    assert "'split best' (offered below), 'split none'" in " ".join(draw(state, 0).split())


def test_with_one_opponent_the_prompt_offers_the_short_gift() -> None:
    """Seed: with no tile to match, the tile pushed out goes to an opponent of the mover's
    choice; ruling (docs/rules/scalafrutta.md, "Gift with 2 players"): with one, `L1` alone
    is read as `L1>P2`, and the prompt says so. With two opponents it names one."""
    spec = find_game("scalafrutta")
    rows = "1M 2M 3M / 4P 5P 6P / 1C 2C 3C"
    pile = ["5M"] + [str(t) for t in ALL_TILES if str(t) not in [*rows.split(), "5M"]]
    for players, short in ((2, True), (3, False)):
        nothing = " ; ".join("-" for _ in range(players))
        fields = [
            f"players {players} seed 1",
            "hand 1 first P1 phase 0",
            "insert P1 last P2",
            f"square {rows}",
            f"pile {' '.join(pile)}",
            f"held {nothing}",
            f"shown {nothing}",
            f"totals {' '.join('0' * players)}",
            "hands -",
        ]
        state = spec.from_position(" | ".join(fields), spec.variant("scalafrutta"))
        assert isinstance(state, ScalafruttaState)
        text = " ".join(draw(state, 0).split())
        assert "nothing matches" in text and "e.g. L1>P2" in text
        assert "name the seat that gets the tile pushed out (P2 for seat 2)" in text
        assert ("(or just L1: seat 2 is your one opponent)" in text) == short


def test_in_a_narrow_terminal_the_board_wraps_captures_under_themselves_and_phrases_whole() -> None:
    """At 80 columns (a terminal review) a long list of captures wrapped to the panel's left
    edge, under the players' names, and the status line broke mid-phrase ("combinations: 0
    tiles" / "going back"). Now a player's captures and last split wrap in a column of
    their own, and each phrase of the status line stays on one line."""
    state = find_game("scalafrutta").new_game(None, 5, 3)
    assert isinstance(state, ScalafruttaState)
    while state.stage != "split":
        state.apply(state.legal_moves()[-1])
    for width in (40, 50, 80):
        lines = draw(state, state.current_player, width).splitlines()
        for phrase in (
            f"draw pile: {len(state.pile)} face down",
            f"combination phases {state.phase} of 30",
            f"combinations: {state.observation(0)['returned_count']} tiles going back",
        ):
            assert any(phrase in line for line in lines), (width, phrase, lines)
        first = next(i for i, line in enumerate(lines) if line[2:].startswith("seat 1 "))
        column = lines[first].index("captured")
        rows = lines[first:]
        rows = rows[: next(i for i, row in enumerate(rows) if row[:1] not in (" ", "▶"))]
        assert len(rows) > 3 or width == 80, rows  # (three players, and wrapped lines)
        for row in rows:
            if not row[2:].startswith("seat "):
                assert row[:column].strip() == "" and row[column:].strip(), (width, row)


def test_the_board_names_seats_as_the_narration_does_and_the_rules_say_p2_is_seat_2() -> None:
    """The panel named the players "P2 (strong)", the end "P1 won", the prompt "P2 is your
    one opponent", while the narration said "seat 2 (strong) plays …", as Domino's board
    does. The board says "seat N" too; the moves keep the notation's `P2` (`L1>P2`), which
    the prompt and the rules (shown by `rules`) say is seat 2."""
    from ludoteca.rules_docs import players_part

    state = find_game("scalafrutta").new_game("mano", 2, 3)
    assert isinstance(state, ScalafruttaState)
    observation = {**state.observation(0), "seat_names": ["you", "strong", "greedy"]}
    console = Console(width=120, record=True, color_system=None)
    console.print(renderer_for("scalafrutta")(observation))
    text = console.export_text()
    for seat in ("seat 1 (you)", "seat 2 (strong)", "seat 3 (greedy)"):
        assert seat in text, text
    assert "P1" not in text and "P2 (" not in text
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    ended = " ".join(draw(state, 0).split())
    outcome = state.outcome()
    assert outcome is not None
    assert f"seat {outcome.winners[0] + 1}" in ended.split("Game over", 1)[1], ended
    assert " P1" not in ended.split("Game over", 1)[1]
    found = players_part(find_game("scalafrutta"))
    assert found is not None
    words = " ".join(found[0].split())
    assert "`L2>P3` gives it to seat 3" in words and "`P3` is seat 3" in words
    assert "seat 2 is `P2` in the moves" in words
