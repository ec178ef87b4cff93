"""Uploaded files are checked on the server too, not only by the browser's size cap."""
from __future__ import annotations

import streamlit as st

from ui.text import literal, md


def upload_bytes(up) -> bytes | None:
    """The upload's bytes, or None with a clear message when it is over the configured cap."""
    if up is None:
        return None
    limit_mb = int(st.get_option("server.maxUploadSize"))
    data = up.getvalue()
    problem = size_problem(len(data), limit_mb, up.name)
    if problem:   # the file name is the user's: shown literally
        st.error(literal(up.name) + md(problem[len(up.name):]), icon=":material/error:")
        return None
    return data


def size_problem(size: int, limit_mb: int, name: str) -> str | None:
    if size > limit_mb * 1024 * 1024:
        return f"{name} is {size / 1024 / 1024:.1f} MB; files of at most {limit_mb} MB are accepted."
    return None
