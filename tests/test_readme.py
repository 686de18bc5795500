"""The README's "From Python" example runs as written (a review found it stopped at its
fourth line: `state.check("2S>r1")` named a move the deal does not allow there)."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_from_python_example_runs_as_written() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### From Python", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None, "no python block under 'From Python'"
    names: dict[str, object] = {}
    exec(compile(found.group(1), str(README), "exec"), names)  # (our own README)
    answer = names["answer"]
    assert getattr(answer, "winnable", None) is True
