"""Who is using the dashboard.

Sign-in is on when `.streamlit/secrets.toml` has an `[auth]` section (Streamlit's native OpenID
Connect: st.login, st.user, st.logout). Then a visitor who has not signed in sees only a
"Sign in" button, and every change is made as the signed-in user's email (else their subject).
Without `[auth]` the app is for one person on their own machine: every change is made as `local`.
Administrators, who may change any scenario: `[library] administrators = ["a@agency.gov", ...]`.
"""
from __future__ import annotations

import streamlit as st

from core.scenarios import LOCAL
from ui.text import plain_text


def _secrets_section(name: str) -> dict:
    try:
        return dict(st.secrets.get(name) or {})
    except (FileNotFoundError, OSError):
        return {}
    except Exception:  # a secrets file that does not parse: Streamlit reports it on st.login; no section here
        return {}


def enabled() -> bool:
    return bool(_secrets_section("auth"))


def signed_in() -> bool:
    return enabled() and bool(st.user.is_logged_in)


def actor() -> str:
    """Who changes are recorded as: the signed-in user's email, else their subject; else `local`."""
    if not enabled():
        return LOCAL
    if not st.user.is_logged_in:   # never reached by a page: the gate in dashboard.py stops first
        raise PermissionError("not signed in")
    return str(st.user.get("email") or st.user.get("sub"))


def display_name() -> str:
    if not enabled():
        return LOCAL
    name, email = st.user.get("name"), st.user.get("email")
    return f"{name} ({email})" if name and email and name != email else str(name or email or st.user.get("sub"))


def admins() -> tuple[str, ...]:
    found = _secrets_section("library").get("administrators") or []
    return tuple(str(a) for a in found) if isinstance(found, (list, tuple)) else ()


def sign_in_screen() -> None:
    """All a visitor who has not signed in sees: no calculator, no scenario names."""
    st.title("Senior center capital grants")
    st.write("Sign in with your agency account to use the grant calculator and the shared scenario library.")
    if st.button("Sign in", type="primary", key="w:sign_in", icon=":material/login:"):
        st.login()


def gate() -> None:
    """Stop here, showing only the sign-in screen, unless sign-in is off or the visitor has signed in.
    One hidden page whatever the address, so no other page's name or content is sent."""
    if not enabled() or st.user.is_logged_in:
        return
    st.navigation([st.Page(sign_in_screen, title="Sign in", url_path="sign-in", default=True)],
                  position="hidden").run()
    st.stop()


def account_box() -> None:
    """In the sidebar: who is signed in, and Sign out (nothing without sign-in)."""
    if not signed_in():
        return
    st.caption("Signed in as")
    st.text(plain_text(display_name()))
    if st.button("Sign out", key="w:sign_out", icon=":material/logout:"):
        st.logout()
