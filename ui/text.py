"""The one way to show text on screen.

Streamlit reads Markdown in nearly every text it draws: bodies, labels, captions, messages,
expanders, buttons, help tooltips, metric labels, radio options, st.table cells. Whatever a
user, a file or a link supplied must never be read there as Markdown, HTML, LaTeX, a link, an
image, an entity, an emoji or an icon. So every text a page hands Streamlit is made here:

- `md(text)`: our own words, made inert. Backslash escapes are not enough: Streamlit turns
  `:material/x:`, `:skull:` and `:red[x]` into icons, emoji and colours, and `https://...`,
  `www.` and `a@b.org` into links, after the escapes are read, and decodes `&copy;`. So md()
  escapes every Markdown character (and `&`, `=`), and puts an invisible word joiner where a
  shortcode, a colour or a link would start. Whatever reaches md() shows as written: our
  sentences, and a user's text that slipped into one.
- `literal(value)`: a user's value inside a message or label, as a Markdown code span, whose
  content CommonMark shows character for character (Streamlit rewrites `:material/` even
  there, so that sequence gets a word joiner too). `message("Renamed {} as {}.", old, new)`
  builds a sentence of our words with each user value literal.
- `name_in_text(value)`: a name a user gave (a scenario's, a contact's) in the sentence's own type,
  escaped as md() escapes (no code span: a name mid-sentence is not code); `sentence(...)` is
  message() with each value name_in_text().
- `plain_text(value)` for places that show plain text (st.text, the options of a select box, grid
  cells); `show(text)` draws a user's whole text (notes) as plain text.
- `chart_text(value)` for Plotly labels (Plotly reads a few HTML tags, links among them).

Everywhere, control, bidirectional, zero-width and other invisible characters are shown as a
visible mark (core.names.visible: LF as ␤, U+202E as "[U+202E]"), so a value can neither start
a new block nor reverse or hide the text around it; and every value is capped with a visible
"… (N characters)", so a 9 MB title costs nothing to draw.

Whatever these functions return is a `Markdown` (a str): adding or joining a Markdown with
any other text escapes that text with md(), so a sentence built from pieces stays inert.
`shown(value)` is the gate for a text that travelled (in session state, say): a Markdown as it
is, anything else through md(). tests/test_ui_text.py parses pages/ and ui/ and fails when a
Streamlit call is given text made any other way.
"""
from __future__ import annotations

import html
import re

from core.law.explain import STATUS_WORDS
from core.law.names import visible

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>~&=])")
# Where a shortcode (:skull:, :material/x:, :red[...]) or a link (https://, www., a@b.org) would
# start: a word joiner (U+2060) goes there, so the sequence is no longer one.
_SEQUENCE = re.compile(r"(?<=:)(?=[A-Za-z])|(?<=[A-Za-z])(?=:/)|(?<=@)|(?i:(?<=www))(?=\.)")
_ICON = re.compile(r":(?=material/)", re.IGNORECASE)
JOINER = "\u2060"
MAX_SHOWN = 200        # characters of one user value in a message or label
MAX_TEXT = 5_000       # characters of a user's whole text (notes) shown at once


class Markdown(str):
    """Markdown made by this module: every user value in it literal, our words inert.

    Combined with any other text (`+`, `join`), that text is escaped with md(), so a plain
    string can never bring Markdown into a Markdown."""
    __slots__ = ()

    def __add__(self, other):
        return Markdown(str.__add__(self, shown(other)))

    def __radd__(self, other):
        return Markdown(str.__add__(shown(other), self))

    def join(self, parts) -> "Markdown":
        return Markdown(str.join(self, [shown(p) for p in parts]))


def ours(text: str) -> Markdown:
    """Markdown written in our own code (a constant with bold or a line break, say), taken as is.
    Only for text written in the source: the lint in tests/test_ui_text.py allows ours() of a
    string constant and nothing else."""
    return Markdown(text)


def markup(template: str, *parts) -> Markdown:
    """Our Markdown `template` (written in the source: bold, a colour, a line break) with `{}`
    filled by `parts`, each shown(): markup("**{}**: {}", title, literal(name))."""
    pieces = template.split("{}")
    if len(pieces) != len(parts) + 1:
        raise ValueError(f"markup: {len(pieces) - 1} places for {len(parts)} parts")
    out = pieces[0]
    for part, rest in zip(parts, pieces[1:]):
        out += str.__str__(shown(part)) + rest
    return Markdown(out)


def unmet_words(award) -> Markdown:
    """Beside an award shown large: each requirement not yet met, with its amounts (one line each)."""
    return Markdown("".join(markup(":material/warning: **Not yet met:** {}  \n", u.text) for u in award.unmet))


def shown(value) -> Markdown:
    """A text for a Markdown call: a Markdown as it is; anything else as our words, made inert."""
    return value if isinstance(value, Markdown) else md(value)


def md(text) -> Markdown:
    """Our own words for Markdown: every Markdown, LaTeX or HTML character escaped, shortcodes,
    colours and links broken, hidden characters shown (text with line breaks keeps them)."""
    text = visible(str(text), keep="\n")
    return Markdown(_SPECIAL.sub(r"\\\1", _SEQUENCE.sub(JOINER, text)))


_PLAIN_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ,'’()%/-]*(\(\$\))?[A-Za-z0-9 ,'’()%/-]*")


def plain_label(text: str) -> Markdown:
    """Our own words as an input's label, as they are: the browser takes a text box's or a select
    box's label, unrendered, for its accessible name, so md()'s escapes were read aloud ("Capital
    maximum \\(\\$\\)", issue 48). Only words Markdown shows as they are (letters, digits, spaces,
    commas, apostrophes, parentheses, %, /, a hyphen, one "($)"); ValueError for any other text."""
    if not _PLAIN_LABEL.fullmatch(text):
        raise ValueError(f"plain_label: {text!r} holds a character Markdown would read; use md()")
    return Markdown(text)


def cap(text, limit: int = MAX_SHOWN) -> str:
    """At most `limit` characters, saying how long the whole was."""
    text = str(text)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def plain_text(value, limit: int = MAX_SHOWN, lines: bool = False) -> str:
    """A user's text where Streamlit shows plain text (st.text, select options, grid cells):
    capped, its hidden characters shown (line breaks kept when `lines`)."""
    return visible(cap(value, limit), keep="\n\t" if lines else "")


def literal(text, limit: int = MAX_SHOWN) -> Markdown:
    """User text for inside Markdown (messages, labels, captions): shown exactly as typed."""
    body = _ICON.sub(":" + JOINER, visible(cap(text, limit)))
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * (longest + 1)
    return Markdown(f"{fence} {body} {fence}")   # the spaces keep a leading/trailing backtick apart from the fence


def name_in_text(text, limit: int = MAX_SHOWN) -> Markdown:
    """A name a user gave (a scenario's, an account's, a contact's) in a sentence, in the sentence's
    own type, not a code span: every Markdown, HTML and LaTeX character escaped as md() escapes
    our words, shortcodes and links broken, line breaks and hidden characters shown as marks, capped."""
    return md(visible(cap(text, limit)))


def address_in_text(text, limit: int = MAX_SHOWN) -> Markdown:
    """An account or a contact from sign-in (the provider's claims, the office's settings) in a
    sentence: as name_in_text, but an e-mail address stays whole, so that it copies as it reads
    (the joiner that stops a visitor's text becoming a link would travel into a pasted address)."""
    return Markdown(str(name_in_text(text, limit)).replace("@" + JOINER, "@"))


def sentence(ours_: str, *user, limit: int = MAX_SHOWN) -> Markdown:
    """message() for names: each user value name_in_text(), in the sentence's type:
    sentence("Opened the scenario {}.", name)."""
    parts = ours_.split("{}")
    out = md(parts[0])
    for value, rest in zip(user, parts[1:]):
        out += name_in_text(value, limit) + md(rest)
    return out


def message(ours_: str, *user, limit: int = MAX_SHOWN) -> Markdown:
    """A message of our words (`{}` where user text goes) with each user value literal:
    message("Renamed {} as {}.", old, new)."""
    parts = ours_.split("{}")
    out = md(parts[0])
    for value, rest in zip(user, parts[1:]):
        out += literal(value, limit) + md(rest)
    return out


def error_text(err: Exception) -> Markdown:
    """An error for a Markdown box. A ValidationError's value is the user's: shown literally;
    any other message may quote user text anywhere in it, so it is shown literally whole."""
    from core.law.money import ValidationError
    if isinstance(err, ValidationError) and err.value is not None and not (
            isinstance(err.value, str) and not err.value.strip()):
        return md(f"{err.field}: ") + literal(err.value) + md(f" {err.problem}")
    if isinstance(err, ValidationError) or getattr(err, "ours", False):   # no user text in it
        return md(str(err))
    return literal(str(err), 400)


# A check's status: colour, Material icon and word (core.law.explain.STATUS_WORDS, as the report
# says it). Material icons ship with Streamlit's own font, so they render without an emoji font;
# the word says it, the colour and icon only repeat it.
_LOOK = {"pass": ("green", "check_circle"), "fail": ("red", "cancel"), "waived": ("gray", "remove_circle"),
         "warning": ("orange", "warning"), "not_applicable": ("gray", "remove_circle")}
STATUS = {s: (*look, STATUS_WORDS[s]) for s, look in _LOOK.items()}
STATUS_BADGE = {s: Markdown(f":{colour}[:material/{icon}: {word}]") for s, (colour, icon, word) in STATUS.items()}

_PLAIN_CELL = re.compile(r"[\w $,.%()/+\-–—’'\"]*")


def cell(value) -> Markdown:
    """One cell of st.table, which reads its cells as Markdown: figures and our words
    escaped, anything that could become a link, icon or entity (":", "www.", "@", "&")
    shown literally."""
    text = visible(cap(value))
    if _PLAIN_CELL.fullmatch(text) and "www." not in text.lower():
        return md(text)
    return literal(text)


def table(rows: list[dict], header=md) -> list[dict]:
    """Rows for st.table with every header and cell shown as written. Headers are ours (md);
    header=cell where they hold a user's text (a scenario's name, in a turned table)."""
    return [{header(str(k)): cell(v) for k, v in row.items()} for row in rows]


def show(text, limit: int = MAX_TEXT, **kwargs) -> None:
    """A user's whole text, as plain text (no Markdown at all), capped, hidden characters shown."""
    import streamlit as st
    st.text(plain_text(text, limit, lines=True), **kwargs)


def chart_text(text, limit: int = 60) -> str:
    """A label for a Plotly chart: its HTML-like tags (<a href>, <b>, <br>) shown as text."""
    return html.escape(visible(cap(text, limit)), quote=False)


def ruleset_label(rs, full: bool = True) -> Markdown:
    """A ruleset's name for Markdown: ours as words, a variant's title (a user's) literal."""
    from core.law.rulesets import available
    if rs.id in available() and not rs.id.startswith("imported-"):
        return md(rs.label if full else rs.title)
    return literal(rs.title, 120) + (md(" (variant, not the regulation in force)") if full else "")


def law_caption(rs) -> Markdown:
    """What is said under a page's title: the law the page computes under, in words (its
    fingerprint is on the Rules page and in exports)."""
    from core.law.provisions import LAW_CAPTION
    if rs.is_dated and not rs.is_variant:   # the statute: its numbers are those of the day picked
        day = rs.as_of_date.isoformat() if rs.as_of_date else "today"
        return md(f"{rs.title}, as of {day}: each number as in force that day (its history and sources: Rules page).")
    if not rs.is_variant:
        return md(LAW_CAPTION)
    day = md(f", as of {rs.as_of_date.isoformat()}") if rs.is_dated and rs.as_of_date else md("")   # its dated values' day
    return md("Computed under a policy variant, not the regulation in force: ") + ruleset_label(rs, full=False) + day + md(".")


USER_COLUMNS = ("Scenario", "Application", "Locality")   # table columns whose cells a user wrote


def table_cells(data, user=USER_COLUMNS):
    """Cells for st.table, which reads every cell as Markdown: a user's text literal (as in a
    message), our own text escaped. `data`: a DataFrame or a list of row dicts; a copy is returned."""
    def cell_of(column, value):
        if not isinstance(value, str):
            return value
        return literal(value) if column in user else cell(value)
    if isinstance(data, list):
        return [{k: cell_of(k, v) for k, v in row.items()} for row in data]
    out = data.copy()
    for column in out.columns:
        out[column] = [cell_of(column, v) for v in out[column]]
    return out
