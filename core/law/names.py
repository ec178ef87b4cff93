"""Names people type (scenarios, variants, portfolio rows, report titles): checked once,
at the edge, for what would make them lie on screen or break a listing.

Refused: control characters (TAB, LF, CR and the rest: they break one-line listings),
Unicode format characters (bidirectional overrides and isolates that reorder what is
shown, zero-width spaces and joiners that make two names look alike), line and paragraph
separators, surrogates and private-use characters. Each refusal names the character.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata

from core.law.money import ValidationError

_BAD_CATEGORIES = {"Cc": "a control character", "Cf": "an invisible formatting character",
                   "Zl": "a line separator", "Zp": "a paragraph separator", "Cs": "a surrogate",
                   "Co": "a private-use character"}
_NOTE_ALLOWED = {"\n", "\t"}   # notes are several lines; names are one
# What is never drawn as it is, wherever text a user, a file or a link supplied is shown: the
# categories above, and unassigned code points. (Names are refused at the edge; text that comes
# in another way, such as a ruleset's edition or a refused value echoed back, is shown with
# each such character as its code, so that it cannot reorder or hide what is around it.)
_HIDDEN = frozenset(_BAD_CATEGORIES) | {"Cn"}
_CONTROL_PICTURES = {"\n": "\u2424", "\x7f": "\u2421"}   # LF as ␤ (not ␊), DEL as ␡


def hidden_character(text: str, allowed: set[str] = frozenset()) -> str | None:
    """Words for the first character that must not be in `text`, or None."""
    if text.isprintable():   # the usual case, in C: no character of those categories (nor of Zs but space)
        return None
    for i, ch in enumerate(text):
        if ch in allowed:
            continue
        kind = _BAD_CATEGORIES.get(unicodedata.category(ch))
        if kind:
            name = unicodedata.name(ch, "")
            return f"contains {kind} (U+{ord(ch):04X}{' ' + name if name else ''}) at position {i + 1}"
    return None


def visible(text, keep: str = "") -> str:
    """`text` with every control, bidirectional, invisible, separator, surrogate, private-use and
    unassigned character shown as a visible mark: C0 controls as their control pictures (LF ␤,
    TAB ␉, NUL ␀), the others as their code ("[U+202E]"). Characters in `keep` (say "\\n\\t" for
    notes) stay as they are. Used wherever user text is shown: screen, charts, reports."""
    text = str(text)
    if text.isprintable():   # the usual case (a printable text holds no control or format character)
        return text
    out = []
    for ch in text:
        if ch in keep:
            out.append(ch)
        elif ch < " " or ch == "\x7f":
            out.append(_CONTROL_PICTURES.get(ch) or chr(0x2400 + ord(ch)))
        elif unicodedata.category(ch) in _HIDDEN:
            out.append(f"[U+{ord(ch):04X}]")
        else:   # anything shown, and the spaces other than U+0020 (no-break, ideographic...)
            out.append(ch)
    return "".join(out)


def check_text(value, field: str, limit: int, *, what: str = "name", multiline: bool = False,
               required: bool = True) -> str:
    """A name (one line) or notes (multiline) as typed, stripped; ValidationError otherwise."""
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise ValidationError(field, value, "must be text")
    if multiline:
        value = value.replace("\r\n", "\n")
    text = value.strip()
    if required and not text:
        raise ValidationError(field, text, f"is empty; give the {what} a name" if what != "text" else "is empty")
    if len(text) > limit:
        raise ValidationError(field, text, f"is {len(text):,} characters long; at most {limit:,} are allowed")
    problem = hidden_character(text, _NOTE_ALLOWED if multiline else set())
    if problem:
        raise ValidationError(field, text, problem)
    return text


def slug(title: str, limit: int = 40) -> str:
    """Lower-case ASCII letters, digits and '-' from a title: 'Café für Año' -> 'cafe-fur-ano'.
    A title with no such letters (for example all Chinese) gets a short hash instead."""
    ascii_text = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii").lower()
    out = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:limit].strip("-")
    return out or hashlib.sha256(title.encode("utf-8")).hexdigest()[:10]


def variant_id(title: str) -> str:
    return f"variant-{slug(title)}"
