"""Cards and tiles: notation (RULES.md, "Notation shared by all games") round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludoteca.core import ALL_TILES, FULL_DECK, Card, NotationError, Tile
from ludoteca.core.errors import shown


@given(st.sampled_from(FULL_DECK))
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card
    assert Card.from_index(card.index) == card


def test_deck_and_tiles_are_complete() -> None:
    """RULES.md: 52 cards; 36 tiles, numbers 1-6 in six fruits M P C U F B."""
    assert len(set(FULL_DECK)) == 52
    assert len(set(ALL_TILES)) == 36
    assert {str(t)[1] for t in ALL_TILES} == set("MPCUFB")


def test_ten_reads_as_t() -> None:
    assert str(Card.parse("10H")) == "TH"
    assert Card.parse("TH").symbol == "10♥"


@pytest.mark.parametrize("text", ["", "1H", "TX", "AHH", "11C", "KK"])
def test_bad_card_notation_says_what_is_expected(text: str) -> None:
    with pytest.raises(NotationError, match="is not a card"):
        Card.parse(text)


@given(st.sampled_from(ALL_TILES))
def test_tile_notation_round_trips(tile: Tile) -> None:
    assert Tile.parse(str(tile)) == tile
    assert Tile.from_index(tile.index) == tile


@pytest.mark.parametrize("text", ["", "0M", "7B", "4X", "44"])
def test_bad_tile_notation(text: str) -> None:
    with pytest.raises(NotationError, match="is not a tile"):
        Tile.parse(text)


def test_tile_matching() -> None:
    """Seed (Scalafrutta): 4 banane goes next to another 4, or to the 3 or 5 of bananas."""
    four_b = Tile.parse("4B")
    assert four_b.matches(Tile.parse("4M"))
    assert four_b.matches(Tile.parse("3B")) and four_b.matches(Tile.parse("5B"))
    assert not four_b.matches(Tile.parse("5M"))
    assert not four_b.matches(Tile.parse("6B"))


def test_an_error_repeats_long_text_by_its_start_and_end() -> None:
    assert shown("  7H  ") == "7H"
    assert shown("a\nb") == "a b"
    long = "A" * 100 + "Z" * 10
    assert len(shown(long)) == 40 and shown(long).startswith("A" * 29 + "…")
    assert shown(long).endswith("Z" * 10)
    with pytest.raises(NotationError, match=r"^'X{29}…X{10}' is not a card"):
        Card.parse("X" * 500)
