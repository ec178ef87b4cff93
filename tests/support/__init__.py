"""Helpers the tests share (not tests): fixtures for a real Chromium, Hypothesis strategies of
applications, readers of the calculator's custom elements in AppTest, and the project's root."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def worked_examples() -> list[dict]:
    """The worked examples of docs/rules.md, once, as data (tests/cases/worked_examples.json):
    each with its application as a user writes it and the award, binding caps and route."""
    import json
    return json.loads((ROOT / "tests" / "cases" / "worked_examples.json").read_text(encoding="utf-8"))


def project_python_first(env: dict, folder: Path) -> dict:
    """`env` with a folder first on its PATH where `python3` and `python` are the Python running
    the tests (sys.executable): a script the tests call (`#!/usr/bin/env python3`, or deploy/stack's
    `python3 -`) runs with the project's packages, whether or not a virtual environment is active."""
    import sys
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("python3", "python"):
        link = folder / name
        if not link.exists():
            link.symlink_to(sys.executable)
    return {**env, "PATH": f"{folder}:{env.get('PATH', '')}"}


def script_command(path: Path) -> list[str]:
    """How the tests run a script of the project: one whose first line names Python runs under
    sys.executable (its `#!/usr/bin/env python3` could find a Python without the project's
    packages); any other (a shell script) as it is."""
    import sys
    with open(path, "rb") as f:
        first = f.readline()
    return [sys.executable, str(path)] if first.startswith(b"#!") and b"python" in first else [str(path)]


def about(sentences, *words: str) -> str:
    """The one sentence of `sentences` that says each of `words` (an input's label, a cap's name):
    a sentence found by what it says, not by its place in the list, so a new input's own sentence
    among them moves nothing. Fails when none says them, or more than one."""
    said = [s for s in sentences if all(w in s for w in words)]
    assert len(said) == 1, f"{len(said)} sentences say {words!r}: {said or list(sentences)}"
    return said[0]


def step(steps, provision: str):
    """The one step (a dict or an object with `provision`) of that provision."""
    found = [s for s in steps if (s["provision"] if isinstance(s, dict) else s.provision) == provision]
    assert len(found) == 1, f"{len(found)} steps of {provision!r}: {list(steps)}"
    return found[0]


def cites_the_law(p, text: str) -> bool:
    """A ruleset's parameter `p` cites the regulation: its citation is a sentence of the regulation
    (`text`, whitespace aside), or, for the number of an interpretation (a provision of the
    registry with no sentence, whose interpretation says "No sentence of the regulation says
    this"), exactly that provision's title. Nothing looser: an interpretation's parameter may not
    cite anything else, a provision with sentences must cite one of them."""
    from core.law.provisions import PROVISION
    provision = PROVISION.get(p.provision)
    if provision is not None and not provision.sentences \
            and provision.interpretation.startswith("No sentence of the regulation says this"):
        return p.citation == provision.title or " ".join(p.citation.split()) in " ".join(text.split())
    return " ".join(p.citation.split()) in " ".join(text.split())


def in_order(expected, got) -> bool:
    """Every item of `expected` is in `got`, in this order (others may stand between them: a new
    input's own). Fails naming the first missing one."""
    at = 0
    items = list(got)
    for item in expected:
        assert item in items[at:], f"{item!r} not in {items[at:]!r}"
        at = items.index(item, at) + 1
    return True


def same_sentences(got, want) -> bool:
    """`got` says every sentence of `want`, in its order, and nothing more but sentences about an
    amount of the field table that `want` never names (a new input's own: "Each extra $1 of in-kind
    contributions ..."). A wrong, lost or extra sentence about the inputs `want` speaks of fails."""
    from core.law.fields import FIELDS
    in_order(want, got)
    named = " ".join(want).lower()
    others = [f.label.lower() for f in FIELDS if f.kind == "money" and f.label.lower() not in named]
    extra = [s for s in got if s not in want]
    assert all(any(label in s.lower() for label in others) for s in extra), f"not in the expected sentences: {extra}"
    assert len(got) == len(want) + len(extra), f"a sentence said twice: {list(got)}"
    return True
