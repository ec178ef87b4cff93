"""What Streamlit would read as Markdown in a text: the check behind every 'shown as typed' test."""
from __future__ import annotations

import re


def interpreted(markdown: str) -> list[str]:
    """What Streamlit would read in `markdown` outside code spans: links, images, entities,
    maths, shortcodes, colours, HTML, emphasis."""
    outside = re.sub(r"(`+) .*? \1", "", markdown, flags=re.S)
    found = []
    for name, pattern in {"link or image": r"(?<!\\)\]\(", "autolink": r"https?://|www\.|@[a-z]",
                          "entity": r"(?<!\\)&#?\w+;", "maths": r"(?<!\\)\$", "shortcode": r":[a-z]",
                          "html": r"(?<!\\)<[a-z]", "emphasis": r"(?<!\\)\*\*"}.items():
        if re.search(pattern, outside):
            found.append(name)
    return found
