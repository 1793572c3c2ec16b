"""The code cites documents of the repository only: every ``*.md`` path named in the sources exists."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MARKDOWN_PATH = re.compile(r"[A-Za-z0-9_./-]+\.md\b")


def cited_documents() -> list[tuple[Path, str]]:
    cited = []
    for folder, patterns in (("pyanalyzer", ("*.py",)), ("solver", ("*.py", "*.pyx", "*.pxd")),
                             ("tests", ("*.py",))):
        for pattern in patterns:
            for source in sorted((REPO / folder).rglob(pattern)):
                for name in MARKDOWN_PATH.findall(source.read_text(encoding="utf-8")):
                    cited.append((source, name.lstrip("./")))
    return cited


def test_every_cited_document_is_in_the_repository():
    cited = cited_documents()
    assert any(name == "docs/rules.md" for _, name in cited)  # the rules the code relies on
    missing = [f"{source.relative_to(REPO)} cites {name}" for source, name in cited
               if not ((REPO / name).is_file() or (source.parent / name).is_file())]
    assert not missing, missing
