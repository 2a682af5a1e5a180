"""The Python snippets of docs/research.md (and the bot registration example of docs/bots.md) run as written."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from obelisk import bots  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLOCK = re.compile(r"^( *)```python\n(.*?)^\1```", re.S | re.M)


def _snippets(text: str) -> list[str]:
    return [textwrap.dedent(match.group(2)) for match in BLOCK.finditer(text)]


RESEARCH = _snippets((DOCS / "research.md").read_text(encoding="utf-8"))


def test_the_page_has_the_snippets() -> None:
    assert len(RESEARCH) >= 4


@pytest.mark.parametrize("index", range(len(RESEARCH)))
def test_research_snippet_runs(index: int) -> None:
    exec(compile(RESEARCH[index], f"docs/research.md snippet {index}", "exec"), {})


def test_bot_registration_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "_KINDS", dict(bots._KINDS))
    text = (DOCS / "bots.md").read_text(encoding="utf-8")
    section = text[text.index("### Your own bot in specs"):]
    namespace: dict = {}
    exec(compile(_snippets(section)[0], "docs/bots.md", "exec"), namespace)
    from obelisk.adapters.gym import make

    env = make("valley", players=2, seat=0, opponents="first")
    _, info = env.reset(seed=0)
    env.step(int(info["action_mask"].nonzero()[0][0]))
    assert "first" in bots.bot_kinds()
