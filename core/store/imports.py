"""Reading and importing a library file, in a child process when it is large.

Reading 5,000 scenarios takes seconds of CPU, and writing 10,000 with their history about a
second; in the server's own process that time (and its lock on Python) is taken from every
other session. A file larger than APART_BYTES is read, or imported, by `python -m
core.store.imports` at a lower priority, and its answer (or refusal) comes back here.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from dataclasses import dataclass

from core.law.inputs import InputError, parse_json
from core.law.money import ValidationError
from core.store.db import ROOT
from core.store.fileformat import EXPORT_FORMAT, EXPORT_VERSION, parse_export
from core.store.model import LOCAL, NotAllowed, Scenario, ScenarioError, ScenarioExists
from core.store.repository import ScenarioStore
from core.store.variants import parse_variants
from core.store.verify import relabelled

APART_BYTES = 256 * 1024


def read_export(raw: bytes, source: str) -> tuple[list[Scenario], list[str]]:
    """A library export (or a JSON array of applications with names) as bytes -> every valid
    scenario and an error per bad one; InputError when the file as a whole cannot be read."""
    good, errors, _ = read_library(raw, source)
    return good, errors


def read_library(raw: bytes, source: str) -> tuple[list[Scenario], list[str], list]:
    """read_export, with the export's kept variants (checked rulesets) and their errors too."""
    data = parse_json(raw, source)
    good, errors = parse_export(data)
    readable = isinstance(data, dict) and data.get("format") == EXPORT_FORMAT and \
        type(data.get("version")) is int and data.get("version") == EXPORT_VERSION
    kept, bad = parse_variants(data.get("variants")) if readable else ([], [])
    return good, errors + bad, kept


@dataclass(frozen=True)
class Preview:
    """What a page shows of a file before importing it: the valid scenarios' names, the notes
    of rulesets relabelled as variants, and an error per bad scenario. Not the scenarios
    themselves: 10,000 of them took the server 80 ms of its lock on Python to take back from
    the child process, a stall for every other session (issue 30)."""
    names: tuple[str, ...]
    relabelled: tuple[tuple[str, str], ...]    # (scenario name, what its ruleset claimed and is)
    errors: tuple[str, ...]
    variants: tuple[str, ...] = ()             # the kept variants' titles (a library export's)


def preview(raw: bytes, source: str) -> Preview:
    """read_export, summed up; InputError when the file as a whole cannot be read."""
    good, errors, kept = read_library(raw, source)
    return Preview(tuple(sc.name for sc in good),
                   tuple((sc.name, note) for sc in good if (note := relabelled(sc.ruleset_data))), tuple(errors),
                   tuple(rs.title for rs in kept))


def preview_apart(raw: bytes, source: str, timeout: float = 300) -> Preview:
    """preview, in a child process at a lower priority when the file is large."""
    if len(raw) <= APART_BYTES:
        return preview(raw, source)
    return _apart(["preview", source], raw, source, timeout)


def import_export(raw: bytes, source: str, url: str, admins=(), overwrite: bool = False,
                  actor: str = LOCAL) -> int:
    """Read a file (read_export) and import its valid scenarios as `actor`: all or nothing."""
    good, _, kept = read_library(raw, source)
    store = ScenarioStore(url, admins=admins)
    try:
        return store.import_scenarios(good, overwrite=overwrite, actor=actor, variants=kept)
    finally:
        store.dispose()


def import_export_apart(raw: bytes, source: str, url: str, admins=(), overwrite: bool = False,
                        actor: str = LOCAL, timeout: float = 300) -> int:
    """import_export, in a child process at a lower priority when the file is large."""
    if len(raw) <= APART_BYTES:
        return import_export(raw, source, url, admins, overwrite, actor)
    argv = ["import-export", source, url, actor, "overwrite" if overwrite else "keep", *admins]
    return _apart(argv, raw, source, timeout)


def _apart(argv: list[str], raw: bytes, source: str, timeout: float):
    """Run `python -m core.store.imports ARGV` with `raw` on its stdin; its answer, or its refusal
    raised here as the same kind of error."""
    child = subprocess.Popen([sys.executable, "-m", "core.store.imports", *argv], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = child.communicate(raw, timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise InputError(f"{source}: this took more than {timeout:.0f} seconds; split it into smaller files") from None
    if child.returncode != 0:
        lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
        raise InputError(f"{source}: could not be read ({(lines[-1] if lines else f'status {child.returncode}')[:200]})")
    kind, *payload = pickle.loads(out)   # written by our own child process, never by a user
    if kind == "refused":
        error = {"InputError": InputError, "ScenarioExists": ScenarioExists, "NotAllowed": NotAllowed,
                 "ValidationError": ScenarioError}.get(payload[0], ScenarioError)
        raise error(payload[1])
    return payload[0] if len(payload) == 1 else tuple(payload)


def _child_main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("preview", "import-export") or (argv[0] == "preview" and len(argv) != 2) \
            or (argv[0] == "import-export" and len(argv) < 5):
        print("usage: python -m core.store.imports preview SOURCE < file\n"
              "       python -m core.store.imports import-export SOURCE URL ACTOR overwrite|keep [ADMIN...] < file",
              file=sys.stderr)
        return 2
    try:
        os.nice(10)   # below the server: the sessions it serves come first
    except OSError:
        pass
    from core.store import imports   # run as __main__: the objects sent back must be this module's own
    raw = sys.stdin.buffer.read()
    try:
        if argv[0] == "preview":
            result = ("preview", imports.preview(raw, argv[1]))
        else:
            _, source, url, actor, mode, *admins = argv
            result = ("imported", imports.import_export(raw, source, url, admins, mode == "overwrite", actor))
    except (InputError, ScenarioError, ValidationError) as exc:
        result = ("refused", type(exc).__name__, str(exc))
    sys.stdout.buffer.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
