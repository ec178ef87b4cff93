"""The one way to show text on screen.

Our own sentences are Markdown: `md()` escapes what Markdown would interpret in them
($ starts LaTeX, * and _ emphasis...).

User text (names, notes, titles, file names, values from a link) is never interpreted.
Backslash escapes are not enough for it: Streamlit turns `:material/x:` into an icon and
`https://...` into a link after the escapes are read, and decodes `&copy;`. So user text
inside a message or label is written with `literal()`, a Markdown code span, whose content
CommonMark shows character for character: no link, image, heading, entity, maths, colour,
emoji or icon. Streamlit rewrites `:material/` even there, so that one sequence gets an
invisible word joiner after its colon. Line breaks and other control characters are shown
as their visible symbols (␤), so a value cannot start a heading or a new block. Whole
texts a user wrote (notes) go through `show()`, which is `st.text`: no Markdown at all.
Chart labels go through `chart_text()`: Plotly reads a few HTML tags (links among them).

Every path caps the length with a visible "… (N characters)", so a 9 MB title costs
nothing to draw.
"""
from __future__ import annotations

import html
import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>~])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_ICON = re.compile(r":(?=material/)", re.IGNORECASE)
MAX_SHOWN = 200        # characters of one user value in a message or label
MAX_TEXT = 5_000       # characters of a user's whole text (notes) shown at once

# A check's status: colour, Material icon and word. Material icons ship with Streamlit's own
# font, so they render without an emoji font; the word says it, the colour and icon only repeat it.
STATUS = {"pass": ("green", "check_circle", "Pass"), "fail": ("red", "cancel", "Fail"),
          "waived": ("gray", "remove_circle", "Waived"), "warning": ("orange", "warning", "Warning"),
          "not_applicable": ("gray", "remove_circle", "Not applicable")}
STATUS_BADGE = {s: f":{colour}[:material/{icon}: {word}]" for s, (colour, icon, word) in STATUS.items()}


def md(text: str) -> str:
    """Escape every Markdown/LaTeX/HTML-significant character of our own `text`."""
    return _SPECIAL.sub(r"\\\1", text)


def cap(text, limit: int = MAX_SHOWN) -> str:
    """At most `limit` characters, saying how long the whole was."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _visible(text: str) -> str:
    """Control characters as their visible symbols: LF -> ␤, TAB -> ␉, CR -> ␍."""
    def symbol(m):
        ch = m.group()
        return "\u2424" if ch == "\n" else "\u2421" if ch == "\x7f" else chr(0x2400 + ord(ch))
    return _CONTROL.sub(symbol, text)


def literal(text, limit: int = MAX_SHOWN) -> str:
    """User text for inside Markdown (messages, labels, captions): shown exactly as typed."""
    body = _ICON.sub(":\u2060", _visible(cap(text, limit)))
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {body} {fence}"   # the spaces keep a leading/trailing backtick apart from the fence


def message(ours: str, *user, limit: int = MAX_SHOWN) -> str:
    """A message of our words (`{}` where user text goes) with each user value literal:
    message("Renamed {} as {}.", old, new)."""
    parts = ours.split("{}")
    out = md(parts[0])
    for value, rest in zip(user, parts[1:]):
        out += literal(value, limit) + md(rest)
    return out


def error_text(err: Exception) -> str:
    """An error for a Markdown box. A ValidationError's value is the user's: shown literally;
    any other message may quote user text anywhere in it, so it is shown literally whole."""
    from core.law.money import ValidationError
    if isinstance(err, ValidationError) and err.value is not None and not (
            isinstance(err.value, str) and not err.value.strip()):
        return md(f"{err.field}: ") + literal(err.value) + md(f" {err.problem}")
    if isinstance(err, ValidationError):
        return md(str(err))
    return literal(str(err), 400)


_PLAIN_CELL = re.compile(r"[\w $,.%()/+\-–—’'\"]*")


def cell(value) -> str:
    """One cell of st.table, which reads its cells as Markdown: figures and our words
    escaped, anything that could become a link, icon or entity (":", "www.", "@", "&")
    shown literally."""
    text = _visible(cap(value))
    if _PLAIN_CELL.fullmatch(text) and "www." not in text.lower():
        return md(text)
    return literal(text)


def table(rows: list[dict]) -> list[dict]:
    """Rows for st.table with every header and cell shown as written."""
    return [{md(str(k)): cell(v) for k, v in row.items()} for row in rows]


def show(text, limit: int = MAX_TEXT, **kwargs) -> None:
    """A user's whole text, as plain text (no Markdown at all), capped."""
    import streamlit as st
    st.text(cap(text, limit), **kwargs)


def chart_text(text, limit: int = 60) -> str:
    """A label for a Plotly chart: its HTML-like tags (<a href>, <b>, <br>) shown as text."""
    return html.escape(cap(text, limit), quote=False)


def ruleset_label(rs, full: bool = True) -> str:
    """A ruleset's name for Markdown: ours as words, a variant's title (a user's) literal."""
    from core.law.rulesets import available
    if rs.id in available() and not rs.id.startswith("imported-"):
        return md(rs.label if full else rs.title)
    return literal(rs.title, 120) + (md(" (variant, not the regulation in force)") if full else "")


USER_COLUMNS = ("Scenario", "Application", "Locality")   # table columns whose cells a user wrote


def table_cells(data, user=USER_COLUMNS):
    """Cells for st.table, which reads every cell as Markdown: a user's text literal (as in a
    message), our own text escaped. `data`: a DataFrame or a list of row dicts; a copy is returned."""
    def shown(column, value):
        if not isinstance(value, str):
            return value
        return literal(value) if column in user else cell(value)
    if isinstance(data, list):
        return [{k: shown(k, v) for k, v in row.items()} for row in data]
    out = data.copy()
    for column in out.columns:
        out[column] = [shown(column, v) for v in out[column]]
    return out
