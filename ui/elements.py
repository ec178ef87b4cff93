"""The app's own custom elements (Streamlit components v2, no iframe): ui/<stem>.js and
ui/<stem>.css, the script after ui/component_common.js (helpers every element's script uses)."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

_HERE = Path(__file__).parent


def element(name: str, stem: str, root_class: str):
    """The component `name`, drawn into <div class=root_class>, from ui/<stem>.js and .css."""
    js = (_HERE / "component_common.js").read_text() + "\n" + (_HERE / f"{stem}.js").read_text()
    return st.components.v2.component(name, html=f'<div class="{root_class}"></div>',
                                      css=(_HERE / f"{stem}.css").read_text(), js=js, isolate_styles=False)
