"""The regulation's text, read from docs/regulation.txt: one paragraph or sentence a line, each
with the id this project gives it (A to H; C.1, F.3...). Every sentence the app quotes is read
from here by its id, never pasted; joined with single spaces, the lines are the text as received.
"""
from __future__ import annotations

from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "docs" / "regulation.txt"


def _read(path: Path) -> dict[str, str]:
    sentences = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        sid, tab, text = line.partition("\t")
        if not tab or not text or sid in sentences:
            raise ValueError(f"{path.name}, line {n}: write an id never used before, a tab, then the text")
        sentences[sid] = text
    return sentences


SENTENCES: dict[str, str] = _read(SOURCE)
TEXT = " ".join(SENTENCES.values())   # the regulation as received, character for character


def quote(*ids: str) -> str:
    """The sentences of these ids, joined as the text joins them."""
    return " ".join(SENTENCES[i] for i in ids)


def paragraph(sid: str) -> str:
    """The paragraph letter of a sentence id: 'C.2' -> 'C'."""
    return sid.split(".")[0]
