"""The app's own custom elements (Streamlit components v2, no iframe): ui/<stem>.js and
ui/<stem>.css, each after ui/components/component_common.js or .css (helpers and styles every element uses)."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

_HERE = Path(__file__).parent


def element(name: str, stem: str, root_class: str, scripts: tuple[str, ...] = ()):
    """The component `name`, drawn into <div class=root_class>, from ui/<stem>.js and .css (after
    ui/<script>.js for each of `scripts`: helpers of its own, such as ui/components/live_award.js)."""
    js = "\n".join((_HERE / f"{s}.js").read_text() for s in ("component_common", *scripts, stem))
    css = "\n".join((_HERE / f"{s}.css").read_text() for s in ("component_common", stem))
    return st.components.v2.component(name, html=f'<div class="{root_class}"></div>', css=css, js=js,
                                      isolate_styles=False)
