"""Keys the whole page answers (ui/components/keys.js): Ctrl/Cmd+Z and Ctrl/Cmd+Shift+Z press the
Calculator's Undo and Redo outside text boxes; Enter in the "Law as of" box applies the day typed.
Drawn once per run by dashboard.py; it draws nothing."""
from __future__ import annotations

from ui.components.elements import element

ELEMENT = element("page_keys", "keys", "gk")


def install() -> None:
    ELEMENT(key="page_keys", data=b"{}")
