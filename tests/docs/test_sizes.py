"""Each production module one idea, read on a screen or two (issue 50): no production Python file
over 400 lines, no function over 50; and docs/architecture.md's picture of the layers is the
code's (every module of core/ named in its package's row, each package of the import contracts
with a row, and the law's forbidden imports said in it)."""
from __future__ import annotations

import ast
import re
import tomllib


from tests.support import ROOT

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 50


def production_files() -> list:
    """Every Python file that ships: the core, the UI, the pages, the dashboard, the harness the tests
    and benchmarks share, the benchmarks, the deploy scripts written in Python."""
    files = [ROOT / "dashboard.py", *sorted((ROOT / "deploy").glob("*.py"))]
    for folder in ("core", "ui", "pages", "harness", "bench"):
        files += sorted(p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)
    return [p for p in files if p.is_file()]


def test_the_production_files_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in production_files()}
    assert {"dashboard.py", "core/law/fields.py", "ui/state.py", "pages/calculator.py", "harness/serve.py"} <= names


def long_files() -> list[str]:
    out = []
    for path in production_files():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_FILE_LINES:
            out.append(f"{path.relative_to(ROOT).as_posix()}: {n} lines")
    return out


def long_functions() -> list[str]:
    out = []
    for path in production_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    out.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno} {node.name}(): {n} lines")
    return out


def test_the_measures_count_what_they_say(tmp_path, monkeypatch):
    """The counting itself: a file of 401 lines and a function of 51 are found, 400 and 50 are not."""
    import tests.docs.test_sizes as sizes
    (tmp_path / "core").mkdir()

    def module(function_lines: int, file_lines: int) -> str:
        lines = ["def f():", *(f"    x{i} = {i}" for i in range(function_lines - 2)), "    return 0"]
        return "\n".join(lines + ["# padding"] * (file_lines - len(lines))) + "\n"
    (tmp_path / "core" / "fits.py").write_text(module(50, 400), encoding="utf-8")
    (tmp_path / "core" / "long.py").write_text(module(51, 401), encoding="utf-8")
    monkeypatch.setattr(sizes, "ROOT", tmp_path)
    assert sizes.long_files() == ["core/long.py: 401 lines"]
    assert sizes.long_functions() == ["core/long.py:1 f(): 51 lines"]


def test_no_production_file_over_400_lines():
    assert not long_files(), "\n".join(long_files())


def test_no_function_over_50_lines():
    assert not long_functions(), "\n".join(long_functions())


# --- the layers' picture --------------------------------------------------------------------

def layer_rows() -> dict[str, str]:
    """docs/architecture.md's table of packages: the package cell (`core/law/`) -> the whole row."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"^\| `([^`]+)` \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


def test_the_layer_table_names_every_module_of_core():
    """Each module and subpackage of core/'s packages is named in its package's row (`name.py`,
    `name/`): a module split, added or renamed changes the table with it."""
    rows = layer_rows()
    missing = []
    for package in sorted(p for p in (ROOT / "core").iterdir() if p.is_dir() and (p / "__init__.py").exists()):
        key = f"core/{package.name}/"
        assert key in rows, f"docs/architecture.md's layer table has no row for {key}"
        for child in sorted(package.iterdir()):
            if child.name.startswith(("_", ".")) or child.name == "__pycache__":
                continue
            name = f"{child.name}/" if child.is_dir() else child.name
            if child.is_dir() or child.suffix in (".py", ".toml"):
                if f"`{name}`" not in rows[key] and f"`{name.rstrip('/')}`" not in rows[key]:
                    missing.append(f"{key}{name}")
    assert not missing, f"not named in docs/architecture.md's layer table: {missing}"


def test_the_layer_table_and_the_import_contracts_agree():
    """Every package the contracts of pyproject.toml name has its row, and what the law may not import
    (the contract) is what its row says it may not."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    rows = layer_rows()
    layered = [name for c in config["contracts"] if c["type"] == "layers"
               for layer in c["layers"] for name in layer.split(" | ")]
    assert layered and all(f"{name.replace('.', '/')}/" in rows for name in layered), layered
    for contract in config["contracts"]:
        if contract["type"] == "forbidden" and contract["source_modules"] == ["core.law"]:
            said = rows["core/law/"].split("|")[3].lower()
            assert all(m.replace("_", "").lower() in said.replace("_", "") for m in contract["forbidden_modules"]), \
                (contract["forbidden_modules"], said)
