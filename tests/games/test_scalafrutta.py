"""Scalafrutta rules, one test per rule of the seed (``004_e179c823a12ff168.txt``, SCALAFRUTTA)
or of RULES.md's Scalafrutta rulings."""

from __future__ import annotations

import pytest

from ludoteca.core.errors import IllegalMoveError, NotationError
from ludoteca.core.registry import find_game
from ludoteca.core.tiles import ALL_TILES, Tile
from ludoteca.games._scalafrutta_split import best_split
from ludoteca.games.scalafrutta import Insert, ScalafruttaState, Split

SPEC = find_game("scalafrutta")


def build(
    square: str,
    pile: str = "",
    held: tuple[str, ...] = ("", ""),
    stage: str = "insert P1 last P2",
    *,
    hand: str = "hand 1 first P1 phase 0",
    totals: str | None = None,
    variant: str = "scalafrutta",
    seed: int = 1,
    fill: bool = True,
) -> ScalafruttaState:
    """A position from its parts; with ``fill`` the tiles not named end the draw pile."""
    cells = square.split()
    rows = " / ".join(" ".join(cells[i : i + 3]) for i in (0, 3, 6))
    named = set(cells) | set(pile.split()) | {t for h in held for t in h.split()}
    rest = [str(t) for t in ALL_TILES if str(t) not in named] if fill else []
    text = " | ".join(
        [
            f"players {len(held)} seed {seed}",
            hand,
            stage,
            f"square {rows}",
            f"pile {' '.join(pile.split() + rest) or '-'}",
            f"held {' ; '.join(h or '-' for h in held)}",
            f"shown {' ; '.join('-' for _ in held)}",
            f"totals {totals or ' '.join('0' for _ in held)}",
            "hands -",
        ]
    )
    state = SPEC.from_position(text, SPEC.variant(variant))
    assert isinstance(state, ScalafruttaState)
    return state


def held(state: ScalafruttaState, seat: int) -> set[str]:
    return {str(Tile.from_index(t)) for t in range(36) if state.held[seat] >> t & 1}


def square(state: ScalafruttaState) -> list[str]:
    return [str(Tile.from_index(t)) for t in state.square]


GRID = "1M 2M 3M 4P 5P 6P 1C 2C 3C"


def test_setup() -> None:
    """Seed: 9 tiles face up in the square, the rest face down (RULES.md: 27 in the draw
    pile); RULES.md: the first player is chosen by the seed, the same seed deals the same."""
    firsts = set()
    for seed in range(12):
        state = SPEC.new_game("scalafrutta", seed, 3)
        assert isinstance(state, ScalafruttaState)
        assert len(state.square) == 9 and len(state.pile) == 27
        assert sorted(state.square + state.pile) == list(range(36))
        assert state.current_player == state.first
        assert SPEC.new_game("scalafrutta", seed, 3).position() == state.position()
        firsts.add(state.first)
    assert firsts == {0, 1, 2}


def test_matching_insertions_only() -> None:
    """Seed: the drawn tile goes in next to a tile of the same number or of the same fruit in
    sequence ("il 4 banane ... in corrispondenza di un altro 4 oppure del 3 o del 5 banane");
    RULES.md: only those insertions are allowed when one exists."""
    state = build(GRID, pile="4M")
    assert set(state.legal_moves_text()) == {"L2", "R1", "T3"}
    with pytest.raises(IllegalMoveError, match="4M does not match 1M at the left of row 1"):
        state.apply("L1")


def test_pushing_a_row_and_a_column() -> None:
    """RULES.md: the inserted tile pushes its row or column one step; the tile pushed out
    of the far side is the mover's (seed: "diventa proprietà del giocatore")."""
    state = build(GRID, pile="4M")
    state.apply("R1")
    assert square(state)[:3] == ["2M", "3M", "4M"]
    assert held(state, 0) == {"1M"} and state.current_player == 1
    state = build(GRID, pile="4M")
    state.apply("T3")
    assert [square(state)[i] for i in (2, 5, 8)] == ["4M", "3M", "6P"]
    assert held(state, 0) == {"3C"}


def test_no_match_gives_the_tile_to_a_chosen_opponent() -> None:
    """Seed: with no tile to match, the drawn tile goes in anywhere and the tile pushed out
    goes to an opponent of the mover's choice."""
    state = build(GRID, pile="5M", held=("", "", ""), stage="insert P1 last P3")
    moves = state.legal_moves_text()
    assert len(moves) == 24 and {"L1>P2", "B3>P3"} <= set(moves)
    # The refusals name the moves there are (the example read `L1>P?`, which no one can type).
    with pytest.raises(IllegalMoveError, match=r"matches nowhere: .* \(L1>P2 or L1>P3\)$"):
        state.apply("L1")
    with pytest.raises(IllegalMoveError, match=r"must go to an opponent \(L1>P2 or L1>P3\)$"):
        state.apply("L1>P1")
    state.apply("B2>P3")
    assert held(state, 2) == {"2M"} and held(state, 0) == set()


def test_with_one_opponent_the_gift_needs_no_name() -> None:
    """Seed: with no tile to match, the tile pushed out goes to an opponent of the mover's
    choice. Ruling (docs/rules/scalafrutta.md, "Gift with 2 players"): with one opponent
    there is no choice, so `L1` alone is read as `L1>P2` (for P1; `L1>P1` for P2), the move's
    text. It was refused, "say who gets the pushed-out tile, e.g. L1>P?"."""
    for mover, stage in ((0, "insert P1 last P2"), (1, "insert P2 last P1")):
        state = build(GRID, pile="5M", stage=stage)
        opponent = f"P{2 - mover}"
        assert f"L1>{opponent}" in state.legal_moves_text()
        move = state.apply("l1")
        assert state.move_text(move) == f"L1>{opponent}"
        assert held(state, 1 - mover) == {"3M"} and held(state, mover) == set()
    state = build(GRID, pile="5M")
    with pytest.raises(IllegalMoveError, match=r"must go to an opponent \(L1>P2\)$"):
        state.apply("L1>P1")
    # Built by hand, the move without a receiver is still refused, naming the one there is.
    with pytest.raises(IllegalMoveError, match=r"matches nowhere: .* \(L1>P2\)$"):
        state.apply(Insert("L", 1))
    # Where an insertion matches, `L2` is the mover's capture as before.
    state = build(GRID, pile="4M")
    assert state.move_text(state.apply("L2")) == "L2"
    assert held(state, 0) == {"6P"}


def test_no_gift_when_a_match_exists() -> None:
    """Seed: the pushed-out tile goes to an opponent only when nothing matches."""
    state = build(GRID, pile="4M")
    with pytest.raises(IllegalMoveError, match="yours to keep"):
        state.apply("R1>P2")


LAST_TILE = dict(
    square="1C 2C 3C 4C 5C 6C 1U 2U 3U",
    pile="4U",
    held=(
        "1M 2M 3M 4M 5M 1P 1F 1B 2F 2B 3F",
        "6M 2P 3P 4P 5P 6P 4F 5F 6F 3B 4B 5B 6B 5U 6U",
    ),
    fill=False,
)


def test_empty_pile_starts_the_combination_phase() -> None:
    """Seed: when the tiles run out every player combines, starting with the last to play;
    tiles outside combinations go back face down and play resumes with the next player."""
    state = build(**LAST_TILE)  # type: ignore[arg-type]
    state.apply("R3")
    assert state.stage == "split" and state.queue == [0, 1] and state.current_player == 0
    with pytest.raises(IllegalMoveError, match="combination phase"):
        state.apply("L1")
    state.apply("split best")
    assert state.current_player == 1
    state.apply("split best")
    # P1 keeps 1M-5M, 1F-2F-3F and 1P-1B-1U (its new 1U); P2 keeps 2P-6P, 3B-6B, 4F-6F.
    back = {"2B", "6M", "5U", "6U"}
    assert state.stage == "insert" and state.phase == 1
    assert {str(Tile.from_index(t)) for t in state.pile} == back
    assert state.current_player == 1  # the next after P1, who played last


def test_reshuffle_is_seeded_by_the_phase() -> None:
    """Seed: the tiles outside combinations "vengono rovesciate e rimesse in gioco"; RULES.md:
    every deal comes from a seed (docs, rule 5: shuffled from the seed, hand and phase), so
    the same seed and moves replay exactly, and another seed shuffles them otherwise."""
    orders = []
    for seed in (1, 1, 2, 3):
        state = build(**LAST_TILE, seed=seed)  # type: ignore[arg-type]
        for move in ("R3", "split best", "split best"):
            state.apply(move)
        orders.append(state.pile)
    assert orders[0] == orders[1]
    assert orders[0] != orders[2] or orders[0] != orders[3]


FULL_RUNS = dict(
    square="6M 6P 6C 6U 6F 1B 2B 3B 4B",
    held=("1M 2M 3M 4M 5M 1P 2P 3P 4P 5P 1C 2C 3C 4C 5C", "1U 2U 3U 4U 5U 1F 2F 3F 4F 5F"),
    stage="split P1 P2 last P1",
    fill=False,
)


def test_hand_ends_when_few_tiles_go_back() -> None:
    """Seed: the hand ends when fewer than 4 tiles (2 players) go back; each player scores
    its combinations (5-tile runs: 200 + 15 each)."""
    state = build(**FULL_RUNS)  # type: ignore[arg-type]
    state.apply("split best")
    state.apply("split best")
    assert state.hands == [((645, 430), "combinations")]
    assert state.totals == [645, 430]
    assert state.hand == 2 and state.first == 1 and state.current_player == 1
    assert len(state.square) == 9 and len(state.pile) == 27 and state.held == [0, 0]


def test_threshold_grows_with_the_players() -> None:
    """Seed: "meno di 4 (2 giocatori) o meno di 5 (3 giocatori) o meno di 6 (4 giocatori)":
    5 tiles going back end a 4-player hand but not a 2-player one."""
    seats = ("1M 2M 3M 4M 5M 1P 2P 3P 4P 5P", "2C 3C 4C 5C 1U 2U 3U 4U 5U", "1B 2B 3B", "")
    for players, ends in ((2, False), (4, True)):
        held = seats if players == 4 else (seats[0], f"{seats[1]} {seats[2]}")
        order = " ".join(f"P{s + 1}" for s in range(players))
        state = build(
            "6M 6P 6C 6U 1F 2F 3F 4F 5F",
            held=held,
            stage=f"split {order} last P1",
            fill=False,
        )
        for _ in range(players):
            state.apply("split best")
        # 1C 6F 4B 5B 6B go back: a new draw pile of 5 (2 players) or the next hand (4).
        assert len(state.hands) == (1 if ends else 0)
        assert ends or (state.stage == "insert" and len(state.pile) == 5)


def test_single_hand_and_the_winner() -> None:
    """RULES.md: the highest total wins; variant ``mano`` plays one hand."""
    state = build(**FULL_RUNS, variant="mano")  # type: ignore[arg-type]
    state.apply("split best")
    state.apply("split best")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (645.0, 430.0)
    assert outcome.termination == "single hand" and state.legal_moves() == []


def test_once_the_game_is_over_split_best_says_so_as_every_move_does() -> None:
    """RULES.md, ``mano`` plays one hand (docs/rules/scalafrutta.md): once it is over,
    ``split best`` was refused as "combinations are made only in a combination phase", where
    every other move says the game is over."""
    state = build(**FULL_RUNS, variant="mano")  # type: ignore[arg-type]
    state.apply("split best")
    state.apply("split best")
    assert state.is_over
    for move in ("split best", "Split  BEST", "split none", "L1"):
        with pytest.raises(IllegalMoveError, match=r"^[^:]*: the game is over$"):
            state.apply(move)


def test_match_to_1001_highest_total_wins() -> None:
    """Seed: the winner reaches 1001 over several hands; when several pass 1001 in the same
    hand, the one with more points wins."""
    state = build(**FULL_RUNS, totals="400 900")  # type: ignore[arg-type]
    state.apply("split best")
    state.apply("split best")
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (1045.0, 1330.0)
    assert outcome.winners == (1,) and outcome.termination == "target reached"


def test_equal_highest_totals_share_the_win() -> None:
    """Seed: "vince naturalmente chi ha più punti"; docs ruling: equal highest totals share
    the win, in a match (both past 1001) and in a single hand."""
    state = build(**FULL_RUNS, totals="400 615")  # type: ignore[arg-type]
    state.apply("split best")
    state.apply("split best")
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (1045.0, 1045.0)
    assert outcome.winners == (0, 1) and outcome.termination == "target reached"
    state = build(**FULL_RUNS, totals="0 215", variant="mano")  # type: ignore[arg-type]
    state.apply("split best")
    state.apply("split best")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)


def test_scalafrutta_ends_the_hand_at_once() -> None:
    """Seed, "Scalafrutta": holding all six tiles of one fruit ends the hand at once; that
    player scores 500, the others 0."""
    state = build("1C 2C 6B 4C 5C 6C 1U 2U 3U", pile="1M", held=("1B 2B 3B 4B 5B", "2M"))
    state.apply("L1")
    assert state.hands == [((500, 0), "scalafrutta")] and state.hand == 2
    state = build(
        "1C 2C 6B 4C 5C 6C 1U 2U 3U",
        pile="1M",
        held=("1B 2B 3B 4B 5B", "2M"),
        variant="mano",
    )
    state.apply("L1")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (500.0, 0.0)


def test_a_gift_can_complete_the_receivers_fruit() -> None:
    """Seed: the opponent who receives the tile owns it; RULES.md: holding all six of a
    fruit (however they came) is the Scalafrutta."""
    grid = "1M 2M 6B 4P 5P 6P 1C 2C 3C"
    state = build(grid, pile="5M", held=("", "1B 2B 3B 4B 5B"), variant="mano")
    assert "L1" not in state.legal_moves_text()
    state.apply("L1>P2")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_split_choices() -> None:
    """RULES.md: a person may choose any valid split; bots and the suggestion use the split
    of highest points (``split best``, the move legal_moves offers)."""
    state = build(**FULL_RUNS)  # type: ignore[arg-type]
    best = state.legal_moves()
    assert best == [state.parse_move("split best")]
    assert isinstance(best[0], Split) and best[0].points == best_split(state.held[0])[0]
    cases = {
        "split 1M-2M-3M-4M-5M 1M-1P-1C": "1M is in two combinations",
        "split 1U-2U-3U": "1U is not among P1's tiles",
        "split 1M-2M-4M": "1M-2M-4M is not a combination (3-6 of one number, or 3-5 of",
    }
    for move, reason in cases.items():
        assert (state.why_illegal(state.parse_move(move)) or "").startswith(reason)
    state.apply("split 1M-2M-3M 1P-2P-3P")
    assert held(state, 0) == {"1M", "2M", "3M", "1P", "2P", "3P"}
    assert state.shown[0] == ((0, 1, 2), (6, 7, 8))


def test_split_none_sends_everything_back() -> None:
    """Seed: tiles outside any combination go back; a split with no combination is valid."""
    state = build(**FULL_RUNS)  # type: ignore[arg-type]
    state.apply("split none")
    state.apply("split best")
    assert state.stage == "insert" and len(state.pile) == 2 + 15 and state.held[0] == 0


def test_a_bare_split_is_refused_as_incomplete() -> None:
    """Notation (docs/rules/scalafrutta.md): a split is `split best`, `split none` or a list of
    combinations. A bare `split` was read as `split none` and threw back every tile unasked."""
    state = build(**FULL_RUNS)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"incomplete.*'split best', 'split none'"):
        state.parse_move("split")
    assert state.parse_move("split none") == Split(())


def test_phase_limit() -> None:
    """RULES.md ruling (docs): a hand also ends after ``max_phases`` combination phases."""
    variant = SPEC.variant("mano", {"max_phases": "1"})
    state = build(**LAST_TILE)  # type: ignore[arg-type]
    state = SPEC.from_position(state.position(), variant)  # type: ignore[assignment]
    for move in ("R3", "split best", "split best"):
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.details["endings"] == ["phase-limit"]
    assert outcome.scores == (215 + 56 + 28, 220 + 118 + 65)


@pytest.mark.parametrize("text", ["X1", "L4", "L1>P9", "split 1M-2Z", "L1 > Q2", ""])
def test_bad_move_notation(text: str) -> None:
    """Notation: malformed moves raise NotationError with one line naming the problem."""
    with pytest.raises(NotationError):
        build(GRID, pile="4M").parse_move(text)


def test_move_notation_round_trips() -> None:
    state = build(GRID, pile="5M", held=("", "", ""), stage="insert P1 last P3")
    for move in state.legal_moves():
        assert state.parse_move(state.move_text(move)) == move
    assert str(state.parse_move("split 5M-3M-4M 2U-2C-2B")) == "split 2C-2U-2B 3M-4M-5M"
    assert state.parse_move("l2 > p3") == state.parse_move("L2>P3")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("pile 4M", "pile 4M 4M"), "twice"),
        (("players 2", "players 5"), "expected"),
        (("| hands -", "| hands 3,4=won"), "scores=ending"),
        (("held ", "held 6B ; "), "twice|parts"),
    ],
)
def test_bad_positions(change: tuple[str, str], message: str) -> None:
    text = build(GRID, pile="4M").position()
    with pytest.raises(NotationError, match=message):
        SPEC.from_position(text.replace(*change, 1), SPEC.default_variant)


def test_missing_tiles_only_during_a_combination_phase() -> None:
    text = build(GRID, pile="4M").position().replace(" 6B", "", 1)
    with pytest.raises(NotationError, match="tiles missing"):
        SPEC.from_position(text, SPEC.default_variant)


def test_a_combination_phase_exactly_when_the_draw_pile_is_empty() -> None:
    """Seed: "terminate le tessere ogni giocatore combina": the players combine when, and
    only when, the draw pile is empty. A position drawing from an empty pile was read, and
    its first legal-move query crashed (IndexError); one combining beside a draw pile was
    read, and the pile's tiles vanished when the phase ended (the tiles going back replaced
    the pile)."""
    text = build(**LAST_TILE).position()  # type: ignore[arg-type]
    assert "insert P1 last P2" in text and "| pile 4U |" in text
    drawing = text.replace("| pile 4U |", "| pile - |").replace("held ", "held 4U ", 1)
    with pytest.raises(NotationError, match="draw pile is empty"):
        SPEC.from_position(drawing, SPEC.default_variant)
    combining = text.replace("insert P1 last P2", "split P1 P2 last P1")
    with pytest.raises(NotationError, match="only when the draw pile is empty"):
        SPEC.from_position(combining, SPEC.default_variant)


def test_undo_across_the_end_of_a_hand() -> None:
    """Undo restores the position even when the move ended a hand and dealt the next one."""
    state = build(**FULL_RUNS)  # type: ignore[arg-type]
    before = state.position()
    state.apply("split best")
    middle = state.position()
    state.apply("split best")
    assert state.hand == 2
    state.undo()
    assert state.position() == middle
    state.undo()
    assert state.position() == before


def test_split_best_outside_a_combination_phase_names_no_hidden_tile() -> None:
    """Hidden information stays hidden: 'split best' typed while tiles were being inserted
    was worked out for seat 0, and the refusal named that split, that is seat 0's captured
    tiles, face down under `coperte`. It is now refused as notation, naming nothing."""
    state = SPEC.new_game(SPEC.variant("coperte", {}), 3, 2)
    assert isinstance(state, ScalafruttaState)
    checked = 0
    for _ in range(200):
        if state.is_over:
            break
        if state.stage == "insert" and state.current_player == 1:
            hidden = state.hidden_from(1)
            with pytest.raises(NotationError) as refused:
                state.apply("split best")
            assert "only in a combination phase" in str(refused.value)
            assert not any(tile in str(refused.value) for tile in hidden)
            checked += 1
        state.apply(state.legal_moves()[0])
    assert checked > 0
