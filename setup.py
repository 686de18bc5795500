"""The build's one hook: a wheel carries the rules documents, ``docs/rules/*.md``, as
``ludoteca/rules/*.md``, where :mod:`ludoteca.rules_docs` looks when no checkout is around.

``docs/rules/`` stays their one source (package data can only take files from inside
``src/ludoteca``); an sdist carries them too (``MANIFEST.in``), so it can build the wheel.
Everything else about the package is in ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.errors import FileError

RULES = Path(__file__).resolve().parent / "docs" / "rules"


class BuildPyWithRules(build_py):
    """``build_py``, then a copy of each rules document into the built package."""

    def run(self) -> None:
        super().run()
        for source, target in self._rules():
            self.mkpath(str(target.parent))
            self.copy_file(str(source), str(target))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *(str(t) for _, t in self._rules())]

    def _rules(self) -> list[tuple[Path, Path]]:
        if self.editable_mode:
            return []  # an editable install reads docs/rules/ in place, as a checkout does
        sources = sorted(RULES.glob("*.md"))
        if not sources:
            raise FileError(f"no rules documents in {RULES}: a wheel without them shows none")
        target = Path(self.build_lib) / "ludoteca" / "rules"
        return [(source, target / source.name) for source in sources]


setup(cmdclass={"build_py": BuildPyWithRules})
