"""Every terminal board in a 40-column terminal, as ``play`` draws it (in a panel): nothing on
it is cut to "…". Rich cut the cells of a table too wide for the terminal, so Il Muro's
face-up tiles and Mosaico's placed tiles read "…" at 40 columns."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.panel import Panel

from ludoteca.core.registry import all_games
from ludoteca.core.rng import DealRng
from ludoteca.tui.base import renderer_for

NARROW = 40


def _drawn(game: str, observation: dict[str, object], width: int) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(Panel(renderer_for(game)(observation), title=game, expand=False))
    assert isinstance(console.file, io.StringIO)
    return console.file.getvalue()


@pytest.mark.parametrize("game", sorted(spec.name for spec in all_games()))
def test_no_board_is_cut_short_in_a_40_column_terminal(game: str) -> None:
    spec = next(spec for spec in all_games() if spec.name == game)
    for seed in range(2):
        state = spec.new_game(None, seed, spec.min_players)
        rng = DealRng(seed, "narrow")
        for turn in range(200):
            if state.is_over:
                break
            if turn % 5 == 0:
                text = _drawn(game, state.observation(max(state.current_player, 0)), NARROW)
                assert "…" not in text, f"{game} deal {seed} move {turn}:\n{text}"
                assert max(cell_len(line) for line in text.splitlines()) <= NARROW
            state.apply(rng.choice(state.legal_moves()))
