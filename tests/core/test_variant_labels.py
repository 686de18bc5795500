"""Variant labels: the one results are stored under, and the one people read."""

from __future__ import annotations

import pytest

from ludoteca.core import find_game
from ludoteca.core.game import key_shown, typed_value


@pytest.mark.parametrize(
    ("value", "typed"),
    [
        (2.0, "2"),
        (2.5, "2.5"),
        (2.1234567, "2.1234567"),
        (-1.0, "-1"),
        (True, "true"),
        (False, "false"),
        (None, "none"),
        (13, "13"),
    ],
)
def test_a_value_is_written_as_typed_after_p(value: object, typed: str) -> None:
    """`-p penalty=2` read back as 2.0, and 2.1234567 as 2.12346 (six digits of :g)."""
    assert typed_value(value) == typed


def test_a_stored_label_reads_as_the_title_writes_it() -> None:
    """The stored key keeps Python's writing (penalty=2.0, twos_first=True); `stats` and the
    titles write what was typed, and the key itself is unchanged."""
    spec = find_game("gaps")
    variant = spec.variant("montana", {"penalty": "2", "twos_first": "false", "ranks": "5"})
    stored = spec.variant_label(variant)
    assert stored == "montana[penalty=2.0,twos_first=False,ranks=5]"
    assert key_shown(stored) == spec.variant_shown(variant)
    assert spec.variant_shown(variant) == "montana[penalty=2,twos_first=false,ranks=5]"
    assert key_shown("gaps") == "gaps" and key_shown("odd[") == "odd["
    assert key_shown("acme[redeals=None]") == "acme[redeals=none]"
