"""Golden files keyed by content (tests/law/test_golden.py, issue 50): a golden records what the law
says (the award, the binding caps, the route, every sentence and number) and the names the house
knew when it was written (`known`: the fields, the sources of funds, the caps, provisions, checks,
steps and parameters). A result matches its golden when

- every value the golden records is there, equal: a sentence is found by what it says, so a
  changed word or number, a lost sentence or a dropped key fails;
- the ruleset's fingerprint (`version`) is not compared: a number elsewhere in the ruleset (a new
  cap's parameter) changes the fingerprint and no result;
- and all the result has beyond the golden is a name added since (`known` lacks it): a new
  field's key and value, a new cap's entry, a sentence about a new input, a list of funds that
  names a new one ("Federal, State, local and in-kind funds"). Nothing else may be extra.

So a new cap that changes no award, or a new input that defaults to nothing, rewrites no golden
file; `UPDATE_GOLDEN=1` rewrites only the files whose content changed."""
from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from tests.support import ROOT

UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
KNOWN = "known"   # the golden's record of the names it knew


def _registry() -> dict:
    return tomllib.loads((ROOT / "core" / "law" / "provisions.toml").read_text(encoding="utf-8"))


def known_now() -> dict[str, list[str]]:
    """The names the house has: the field table's and the registry's."""
    from core.law.fields import FIELDS
    reg = _registry()
    return {"fields": [f.name for f in FIELDS], "funds": [f.funds for f in FIELDS if f.funds],
            **{part: list(reg.get(part, {})) for part in ("caps", "provisions", "checks", "steps", "parameters")}}


def _words_of_new(new: dict[str, set]) -> tuple[set[str], list[str]]:
    """The ids added since a golden was written, and the words people read for them (labels, titles,
    a source of funds' key), longest first."""
    from core.law.fields import FIELD
    reg = _registry()
    ids = set().union(*new.values()) if new else set()
    words: set[str] = set()
    for name in new.get("fields", ()):
        if name in FIELD:
            words |= {FIELD[name].label, name.replace("_", " ")} | ({FIELD[name].funds} if FIELD[name].funds else set())
    words |= set(new.get("funds", ()))
    for part in ("caps", "provisions", "checks", "parameters"):
        for name in new.get(part, ()):
            entry = reg.get(part, {}).get(name, {})
            words |= {entry[k] for k in ("title", "label") if isinstance(entry, dict) and isinstance(entry.get(k), str)}
    words = {w.lower() for w in words if w}
    return ids, sorted(words, key=len, reverse=True)


# A sentence's words and numbers, without its punctuation and the words that join a list: a list of
# funds that gained one ("Federal, State, local and in-kind funds") reads as the old one
# ("Federal, State and local funds") once the new one's words are taken out.
_TOKEN = re.compile(r"\$?\d[\d,.]*\d|\$?\d|[\w$%'’-]+")
_JOINERS = {"and", "or"}


def _tokens(text: str, drop: list[str]) -> list[str]:
    low = text.lower()
    for w in drop:
        low = re.sub(rf"(?<![\w-]){re.escape(w)}(?![\w-])", " ", low)
    return [t for t in _TOKEN.findall(low) if t not in _JOINERS]


class Match:
    """One comparison of a result with its golden, given the names added since it was written."""

    def __init__(self, known: dict | None):
        now = known_now()
        self.new = {part: set(names) - set((known or {}).get(part, names)) for part, names in now.items()}
        self.ids, self.words = _words_of_new(self.new)

    def _about_new(self, value) -> bool:
        """A list's item that is about a name added since: a dict naming it as its id or provision, a
        sentence saying its words."""
        if isinstance(value, dict):
            return any(value.get(k) in self.ids for k in ("id", "provision", "field", "cap"))
        if isinstance(value, str) and self.words:
            low = value.lower()
            return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", low) for w in self.words)
        return False

    def same_text(self, got: str, want: str) -> bool:
        return got == want or (bool(self.words) and _tokens(got, self.words) == _tokens(want, self.words)
                               and self._about_new(got))

    def differences(self, got, want, where: str = "") -> list[str]:
        """Where `got` departs from `want`, as readable lines (none: it matches)."""
        if isinstance(want, dict) and isinstance(got, dict):
            out = []
            for k, v in want.items():
                if k == KNOWN:
                    continue
                if k not in got:
                    out.append(f"{where}.{k}: missing (the golden has {json.dumps(v)[:200]})")
                elif k == "version" and isinstance(v, str):
                    continue   # the ruleset's fingerprint: not what the law says
                else:
                    out += self.differences(got[k], v, f"{where}.{k}")
            out += [f"{where}.{k}: not in the golden ({json.dumps(got[k])[:200]})"
                    for k in got if k not in want and k not in self.ids]
            return out
        if isinstance(want, list) and isinstance(got, list):
            if len(got) != len(want):
                kept = [g for g in got if not (self._about_new(g) and not any(self._equal(g, w) for w in want))]
                if len(kept) != len(got):
                    return self.differences(kept, want, where)
                missing = [w for w in want if not any(self._equal(g, w) for g in got)]
                extra = [g for g in got if not any(self._equal(g, w) for w in want)]
                return [f"{where}: {len(got)} items, the golden {len(want)}; missing {json.dumps(missing)[:600]}; "
                        f"not in the golden {json.dumps(extra)[:600]}"]
            return [d for i, (g, w) in enumerate(zip(got, want)) for d in self.differences(g, w, f"{where}[{i}]")]
        if isinstance(want, str) and isinstance(got, str):
            return [] if self.same_text(got, want) else [f"{where}: {got!r}, the golden {want!r}"]
        return [] if got == want and type(got) is type(want) else [f"{where}: {got!r}, the golden {want!r}"]

    def _equal(self, got, want) -> bool:
        return not self.differences(got, want)


def differences(got, golden, known: dict | None = None) -> list[str]:
    """Where a result departs from a golden file's content (`golden` as loaded, with its `known`; or
    a part of one, with the file's `known` given)."""
    return Match(known or (golden.get(KNOWN) if isinstance(golden, dict) else None)).differences(got, golden)


def check(path: Path, got) -> None:
    """`got` (a JSON-able dict) matches the golden file at `path`; with UPDATE_GOLDEN=1 the file is
    rewritten first, but only when its content changed (a new name alone rewrites nothing)."""
    want = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    if UPDATE and (want is None or differences(got, want)):
        want = {**got, KNOWN: known_now()}
        path.write_text(json.dumps(want, indent=2) + "\n", encoding="utf-8")
    assert want is not None, f"{path.name} missing: run with UPDATE_GOLDEN=1 once and review it"
    diff = differences(got, want)
    assert not diff, f"{path.name} differs from the result (a deliberate change: UPDATE_GOLDEN=1, review the diff):\n" \
        + "\n".join(diff[:20])
