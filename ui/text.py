"""Safe text for Streamlit: our own sentences go through Markdown, so escape what
Markdown would interpret ($ starts LaTeX, * and _ emphasis...). User text never goes
through Markdown at all: show it with st.text or in dataframes."""
from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>~])")

# Material icons ship with Streamlit's own font, so they render without an emoji font.
STATUS_BADGE = {"pass": ":green[:material/check_circle: Pass]", "fail": ":red[:material/cancel: Fail]",
                "waived": ":gray[:material/remove_circle: Waived]", "warning": ":orange[:material/warning: Warning]",
                "not_applicable": ":gray[:material/remove_circle: Not applicable]"}


def md(text: str) -> str:
    """Escape every Markdown/LaTeX/HTML-significant character of `text`."""
    return _SPECIAL.sub(r"\\\1", text)
