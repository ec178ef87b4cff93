"""ui/text.py, the one way text reaches the screen (issue 30, finding 1 and the rule behind it):
its helpers, and a lint that parses pages/, ui/ and dashboard.py and fails when a Streamlit
call that reads Markdown (or shows plain text) is given text made any other way."""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.text import interpreted
from ui.text import (JOINER, Markdown, cell, chart_text, error_text, literal, markup, md, message, name_in_text, ours, plain_text,
                     sentence, shown)

# -- the lint ---------------------------------------------------------------------------------

# Streamlit calls whose text is read as Markdown: which positional arguments, and every keyword
# below. (label=, help= tooltips, body=, a radio's captions, a spinner's text...)
MARKDOWN_CALLS = {name: (0,) for name in (
    "markdown", "caption", "warning", "error", "info", "success", "toast", "title", "header", "subheader",
    "expander", "popover", "button", "download_button", "link_button", "form_submit_button", "metric",
    "text_input", "text_area", "number_input", "selectbox", "multiselect", "radio", "checkbox", "toggle",
    "slider", "select_slider", "file_uploader", "date_input", "time_input", "color_picker", "spinner",
    "status", "chat_input", "pills", "segmented_control", "feedback", "write", "latex", "badge")}
MARKDOWN_CALLS["page_link"] = (1,)
MARKDOWN_KEYWORDS = {"label", "body", "help", "captions", "text"}
PLAIN_CALLS = {"text": (0,), "Column": (0,), "TextColumn": (0,), "NumberColumn": (0,), "CheckboxColumn": (0,),
               "SelectboxColumn": (0,)}
PLAIN_KEYWORDS = {"placeholder", "format_func"}
# st.radio's options are Markdown too: its format_func must give Markdown.
MARKDOWN_OPTIONS = {"radio", "pills", "segmented_control"}

# What makes text safe: for Markdown, the helpers of ui/text.py (each returns an inert Markdown);
# for plain text, plain_text() and our figures.
MARKDOWN_HELPERS = {"md", "literal", "name_in_text", "address_in_text", "sentence", "message", "error_text", "ruleset_label", "law_caption", "cell", "table", "table_cells",
                    "shown", "markup", "ours", "plain_label"}
PLAIN_HELPERS = {"plain_text", "str", "int", "len", "chart_text"}
MARKDOWN_TABLES = {"STATUS_BADGE"}       # constant tables of Markdown made by ui/text.py
BUILTIN_HELPERS = {"str", "int", "len"}   # figures, for plain text (no Markdown is read there)
NOT_STREAMLIT = {"re", "html", "json", "os", "np", "pd", "self", "logging", "parts", "out", "lines"}

# Every file that draws (ui/text.py itself is where the helpers are made).
SOURCES = sorted(p for p in [ROOT / "dashboard.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").glob("*.py")]
                 if p != ROOT / "ui" / "text.py")


class Module:
    """One source file: its assignments and functions, for a little data flow."""

    def __init__(self, path: Path):
        self.path = path
        self.tree = ast.parse(path.read_text(), str(path))
        self.assigned: dict[str, list] = {}
        self.functions: dict[str, ast.AST] = {}
        # the helpers this file takes from ui/text.py: a function of the same name from anywhere else
        # (core.money's plain, say) is not one
        imports = [(n.module, a.asname or a.name) for n in ast.walk(self.tree) if isinstance(n, ast.ImportFrom)
                   for a in n.names]
        self.from_ui_text = ({name for module, name in imports if module == "ui.text"}
                             - {name for module, name in imports if module != "ui.text"})
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    self._bind(t, node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                self._bind(node.target, node.value)
            elif isinstance(node, (ast.For, ast.comprehension)):
                self._bind(node.target, None)
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, None)
            elif isinstance(node, (ast.FunctionDef, ast.Lambda)):
                args = node.args
                for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                    if a is not None:
                        self.assigned.setdefault(a.arg, []).append(None)
                if isinstance(node, ast.FunctionDef):
                    self.functions[node.name] = node
            elif isinstance(node, ast.ExceptHandler) and node.name:
                self.assigned.setdefault(node.name, []).append(None)
            elif isinstance(node, ast.NamedExpr):
                self._bind(node.target, node.value)

    def _bind(self, target, value) -> None:
        if isinstance(target, ast.Name):
            self.assigned.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:   # unpacked: the parts are not known to be safe
                self._bind(t, None)

    def returns(self, name: str) -> list:
        fn = self.functions[name]
        return [n.value for n in ast.walk(fn) if isinstance(n, ast.Return)]

    # -- is an expression safe for Markdown ("md") or for plain text ("plain")? ----------------
    def safe(self, node, kind: str, seen=frozenset()) -> bool:
        if node is None:
            return False
        if isinstance(node, ast.Constant):
            return isinstance(node.value, (str, int, float, type(None)))
        if isinstance(node, ast.JoinedStr):
            return all(self.safe(v, kind, seen) for v in node.values)
        if isinstance(node, ast.FormattedValue):
            return node.conversion == -1 and self.safe(node.value, kind, seen) and (
                node.format_spec is None or self.safe(node.format_spec, kind, seen))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            if kind == "md" and (self.is_markdown(node.left, seen) or self.is_markdown(node.right, seen)):
                return True                      # Markdown + text: the text is escaped (ui.text.Markdown)
            return self.safe(node.left, kind, seen) and self.safe(node.right, kind, seen)
        if isinstance(node, ast.IfExp):
            return self.safe(node.body, kind, seen) and self.safe(node.orelse, kind, seen)
        if isinstance(node, ast.Call):
            return self.safe_call(node, kind, seen)
        if isinstance(node, ast.Name):
            if kind == "plain" and node.id.isupper():
                return True                      # our own constants, shown as plain text
            if node.id in seen:
                return True                      # a cycle: decided by the other assignments
            values = self.assigned.get(node.id)
            return bool(values) and all(self.safe(v, kind, seen | {node.id}) for v in values)
        if isinstance(node, ast.Subscript):
            root = node.value
            if isinstance(root, ast.Name) and root.id in MARKDOWN_TABLES:
                return True
            return kind == "plain" and self.constant_rooted(node)
        if isinstance(node, ast.Attribute):
            return kind == "plain" and self.constant_rooted(node)
        if isinstance(node, ast.Lambda):
            return self.safe(node.body, kind, seen)
        return False

    def is_markdown(self, node, seen=frozenset()) -> bool:
        """Is this expression a ui.text.Markdown (whatever is added to it or joined by it is escaped)?"""
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                if func.id in ("ours", "markup"):
                    return self.safe_call(node, "md", seen)
                if func.id in MARKDOWN_HELPERS - {"table", "table_cells"} and func.id in self.from_ui_text \
                        and func.id not in self.functions and func.id not in self.assigned:
                    return True
                if func.id in self.functions and func.id not in seen:
                    returns = self.returns(func.id)
                    return bool(returns) and all(self.is_markdown(r, seen | {func.id}) for r in returns)
            if isinstance(func, ast.Attribute) and func.attr == "join":
                return self.is_markdown(func.value, seen)
            return False
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.is_markdown(node.left, seen) or self.is_markdown(node.right, seen)
        if isinstance(node, ast.IfExp):
            return self.is_markdown(node.body, seen) and self.is_markdown(node.orelse, seen)
        if isinstance(node, ast.Subscript):
            return isinstance(node.value, ast.Name) and node.value.id in MARKDOWN_TABLES
        if isinstance(node, ast.Name):
            if node.id in seen:
                return True
            values = self.assigned.get(node.id)
            return bool(values) and all(self.is_markdown(v, seen | {node.id}) for v in values)
        return False

    @staticmethod
    def constant_rooted(node) -> bool:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return isinstance(node, ast.Name) and node.id.isupper()

    def safe_call(self, node: ast.Call, kind: str, seen) -> bool:
        func = node.func
        helpers = MARKDOWN_HELPERS | (PLAIN_HELPERS if kind == "plain" else set())
        if isinstance(func, ast.Name):
            if func.id in ("ours", "markup"):    # Markdown written in the source: a string constant only
                return func.id in self.from_ui_text and bool(node.args) and isinstance(
                    node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
            if func.id in helpers and func.id in self.from_ui_text | BUILTIN_HELPERS and func.id not in \
                    self.functions and func.id not in self.assigned:
                return True                      # (a helper of ui/text.py, not a function of the same name)
            if func.id in self.functions and func.id not in seen:
                returns = self.returns(func.id)
                return bool(returns) and all(self.safe(r, kind, seen | {func.id}) for r in returns)
            return False
        if isinstance(func, ast.Attribute):
            if func.attr == "join":              # Markdown.join escapes every part that is not Markdown
                return self.is_markdown(func.value, seen)
            if func.attr in ("strip", "lower", "capitalize", "upper") and kind == "plain":
                return self.safe(func.value, kind, seen)
            if func.attr == "get" and kind == "plain":   # PROJECT_TYPES.get as a format_func, say
                return self.constant_rooted(func.value)
            if isinstance(func.value, ast.Name) and func.value.id in ("text", "ui_text") and func.attr in helpers:
                return True
        return False


def _calls(module: Module):
    for node in ast.walk(module.tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        receiver = node.func.value
        if isinstance(receiver, ast.Name) and receiver.id in NOT_STREAMLIT:
            continue
        yield node.func.attr, node


def violations(module: Module) -> list[str]:
    out = []

    def check(arg, kind, what, node):
        if arg is not None and not module.safe(arg, kind):
            out.append(f"{module.path.relative_to(ROOT)}:{node.lineno}: {what} gets {ast.unparse(arg)[:90]!r}, "
                       f"which is not made by ui/text.py ({'md, literal, message...' if kind == 'md' else 'plain_text'})")

    for name, node in _calls(module):
        for table, keywords, kind in ((MARKDOWN_CALLS, MARKDOWN_KEYWORDS, "md"), (PLAIN_CALLS, PLAIN_KEYWORDS, "plain")):
            if name not in table:
                continue
            for i in table[name]:
                if i < len(node.args) and not isinstance(node.args[i], ast.Starred):
                    check(node.args[i], kind, f"{name}()", node)
            for kw in node.keywords:
                if kw.arg in MARKDOWN_KEYWORDS and name in MARKDOWN_CALLS:
                    check(kw.value, "md", f"{name}({kw.arg}=)", node)
                elif kw.arg in PLAIN_KEYWORDS and name in MARKDOWN_CALLS | PLAIN_CALLS:
                    option_kind = "md" if (kw.arg == "format_func" and name in MARKDOWN_OPTIONS) else "plain"
                    check(kw.value, option_kind, f"{name}({kw.arg}=)", node)
    return sorted(set(out))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_text_streamlit_shows_is_made_by_ui_text(path):
    """A string constant (our own Markdown), or text made by ui/text.py; nothing else."""
    found = violations(Module(path))
    assert not found, "\n".join(found)


def test_the_lint_catches_the_slips_of_issue_30():
    """Each way user text reached the screen in issue 30 fails the lint."""
    import textwrap
    slips = {
        "st.expander(f'Numbers behind “{title}”')": True,                    # finding 1
        "st.warning(f'The link value {raw[:40]!r} was not understood')": True,  # finding 2
        "st.session_state['e'] = f'Not replaced: {md(str(err))}'\nst.error(st.session_state['e'])": True,
        "st.caption(md('Ruleset: ') + rs.edition)": False,                   # Markdown + str: escaped at run time
        "st.caption(rs.edition)": True,
        "st.button(label=name)": True, "st.toggle('On', help=note)": True,
        "st.text(sc.name)": True, "st.text(plain_text(sc.name))": False,
        "st.selectbox('R', ids, format_func=lambda r: variants[r].label)": True,
        "st.selectbox('R', ids, format_func=lambda r: plain_text(variants[r].label))": False,
        "st.radio('R', ids, format_func=lambda r: plain_text(titles[r]))": True,   # radio options are Markdown
        "st.markdown(', '.join(names))": True, "st.markdown(md(', ').join(names))": False,
        "st.markdown(markup('**{}**', title))": False, "st.markdown(markup(template, title))": True,
        "from core.money import plain as plain_text\nst.text(plain_text(name))": True,   # not ui.text's
        "st.info(ours(note))": True, "st.info(ours('**Saved.**'))": False,
        "x = literal(name)\nst.info(md('Saved ') + x)": False,
        "for x in names:\n    st.info(x)": True,
        "st.metric(FIELD[name].label, 1)": True, "st.metric(md(FIELD[name].label), 1)": False,
    }
    tmp = ROOT / "test-artifacts" / f"lint_probe-{os.getpid()}.py"   # in the tree (violations() names it from the root); one per test process
    try:
        for code, caught in slips.items():
            tmp.write_text("from ui.text import literal, markup, md, ours, plain_text, shown\n" + textwrap.dedent(code)
                           + "\n")
            assert bool(violations(Module(tmp))) is caught, code
    finally:
        tmp.unlink(missing_ok=True)


# -- the helpers ------------------------------------------------------------------------------

HOSTILE = "TOP ![px](https://evil.example/pixel.png) [Board packet](https://evil.example/) $x^2$ **b** &#x202e; " \
          ":material/skull: :red[R] :skull: www.evil.example a@evil.example https://134744072/packet <b>x</b>"


def test_md_makes_any_text_inert():
    out = md(HOSTILE)
    assert interpreted(out) == []
    unescaped = re.sub(r"\\(.)", r"\1", out).replace(JOINER, "")
    assert unescaped == HOSTILE.replace("\u202e", "[U+202E]")      # shown as written


def test_literal_and_message_show_values_exactly_and_hidden_characters_visibly():
    assert interpreted(literal(HOSTILE, 400)) == []
    assert literal("evil\u202etxt.exe") == "` evil[U+202E]txt.exe `"
    assert literal("a\u200bb\u2066c\u2028d\ufeff\x00") == "` a[U+200B]b[U+2066]c[U+2028]d[U+FEFF]\u2400 `"
    said = message("Not saved: {} is taken", "\u202e000,005$")
    assert "\u202e" not in said and "[U+202E]000,005$" in said
    assert isinstance(said, Markdown)


def test_names_are_in_the_sentences_own_type_and_still_inert():
    """A scenario's or a contact's name mid-sentence: no code span (no monospace), every character
    escaped, shown as written; line breaks and hidden characters as marks, and capped."""
    said = sentence("Opened the scenario {}.", HOSTILE)
    assert "`" not in said and interpreted(said) == [] and isinstance(said, Markdown)
    assert said == md("Opened the scenario ") + md(HOSTILE.replace("\u202e", "[U+202E]")) + md(".")
    unescaped = re.sub(r"\\(.)", r"\1", said).replace(JOINER, "")
    assert unescaped == "Opened the scenario " + HOSTILE.replace("\u202e", "[U+202E]") + "."
    assert name_in_text("Fiscal `2027` plan") == "Fiscal \\`2027\\` plan"   # a backtick of the name: escaped, not a span
    assert name_in_text("two\nlines\u202e") == "two\u2424lines\\[U\\+202E\\]"      # no new block, no reversed text
    assert name_in_text("x" * 300, 40).startswith("x" * 40) and "300 characters" in name_in_text("x" * 300, 40)
    # an account or contact from sign-in: an e-mail address copies whole (no joiner after its @); the rest as names
    from ui.text import address_in_text
    assert address_in_text("grants@dhs.example") == "grants@dhs\\.example"
    assert address_in_text("Carol *C* (carol@x.example)") == "Carol \\*C\\* \\(carol@x\\.example\\)"


def test_markdown_mixed_with_plain_text_stays_inert():
    assert interpreted("**" + md("x") + HOSTILE) == []             # str + Markdown: the str escaped
    assert interpreted(md("x") + HOSTILE) == []
    assert interpreted(md(", ").join([HOSTILE, literal(HOSTILE, 400)])) == []
    assert shown(HOSTILE) == md(HOSTILE) and shown(literal("x")) == literal("x")
    assert markup("**{}** ({})", HOSTILE, literal("y")) == "".join(["**", md(HOSTILE), "** (` y `)"])
    assert ours("**Saved.**") == "**Saved.**" and isinstance(ours("x"), Markdown)


def test_error_text_quotes_the_value_literally():
    from core.law.money import ValidationError
    from core.store.model import NotAllowed
    err = ValidationError("Scenario name", "x\u202ey", "contains an invisible formatting character")
    assert error_text(err) == "Scenario name: ` x[U+202E]y ` contains an invisible formatting character"
    owned = NotAllowed("“Board https://134744072/packet :material/skull:” belongs to bob@agency.gov; only ...")
    assert interpreted(error_text(owned)) == []


def test_plain_text_and_chart_labels_show_hidden_characters():
    assert plain_text("a\u202eb\nc") == "a[U+202E]b\u2424c" and plain_text("a\nb", lines=True) == "a\nb"
    assert plain_text("x" * 300) == "x" * 200 + "… (300 characters)"
    assert chart_text("<a href='x'>\u202eb</a>") == "&lt;a href='x'&gt;[U+202E]b&lt;/a&gt;"
    assert cell("\u202e$5") == "` [U+202E]$5 `"


def test_a_presented_table_is_turned_and_its_scenario_names_stay_inert_as_headers():
    """While presenting, two scenarios against every limit (six columns) are turned: a row per
    limit, a column per scenario, the names (a user's) now headers, shown as typed."""
    from ui.charts import turned
    from ui.text import table
    rows = [{"Scenario": HOSTILE, "State grant award": "$600,000", "Held down by": "the program maximum",
             "Program maximum": "$600,000", "State's share of the cost": "$725,000"},
            {"Scenario": "Smaller", "State grant award": "$450,000", "Held down by": "what the project still lacks",
             "Program maximum": "$600,000", "State's share of the cost": "$525,000"}]
    turned_rows = turned(rows)
    assert [r["Measure"] for r in turned_rows] == ["State grant award", "Held down by", "Program maximum",
                                                   "State's share of the cost"]
    assert turned_rows[0] == {"Measure": "State grant award", HOSTILE: "$600,000", "Smaller": "$450,000"}
    shown_rows = table(turned_rows, header=cell)
    assert all(interpreted(h) == [] for h in shown_rows[0])
    assert turned(rows[:1] * 5) == rows[:1] * 5                        # many rows: kept (a chart of 60 applications)
    assert turned([{"Scenario": "A", "Award": "$1"}]) == [{"Scenario": "A", "Award": "$1"}]   # narrow: kept
    assert turned([rows[1], rows[1]]) == [rows[1], rows[1]]           # two of one name: headers would clash
