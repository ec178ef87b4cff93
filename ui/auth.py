"""Who is using the dashboard, and whether they may.

Sign-in is on when `.streamlit/secrets.toml` has an `[auth]` section (Streamlit's native OpenID
Connect: st.login, st.user, st.logout). Then a visitor who has not signed in sees only a
"Sign in" button, on whatever address they opened, and comes back to that address once signed
in (ui/addresses.py). Who may come in: `[library] allowed_domains` and `allowed_users`
(core/store/access.py); anyone else sees one page saying who they are signed in as, that this account
may not use the dashboard, whom to ask, and Sign out. Every change is made as the signed-in
user's email (else their subject). Without `[auth]` the app is for one person on their own
machine: every change is made as `local`. Administrators, who may change any scenario (and are
always let in): `[library] administrators = ["a@agency.gov", ...]`.

What Streamlit 1.67 does with a sign-in (read in its source, streamlit/web/server/starlette/
starlette_auth_routes.py, and tried here): the identity is kept in the browser in a signed,
HttpOnly cookie (`_streamlit_user`, SameSite=Lax) set for 30 days from the moment of signing
in; it is not renewed while the app is used, and the identity provider's token lifetime is
not checked against it. A session reads the cookie once, when it opens. st.logout deletes that
cookie and the tokens cookie and, when the provider announces an `end_session_endpoint`,
sends the browser there so the provider's own session ends too; other tabs already open stay
signed in until they are reloaded.
"""
from __future__ import annotations

import logging

import streamlit as st

from core.store.access import Access, AccessConfigError, from_section
from core.store.basics import LOCAL   # not core.store.model: SQLAlchemy loads after the award (issue 53)
from ui import addresses
from ui.text import address_in_text, literal, md, plain_text

_LOG = logging.getLogger(__name__)
LIFETIME_DAYS = 30   # Streamlit 1.67: AUTH_COOKIE_MAX_AGE_SECONDS
STAYS = f"Once signed in, you stay signed in on this browser for {LIFETIME_DAYS} days or until you sign out."
SIGN_OUT_NOTE = "Sign out ends the sign-in on this browser, and at your identity provider if it allows."


def _secrets_section(name: str) -> dict:
    try:
        return dict(st.secrets.get(name) or {})
    except (FileNotFoundError, OSError):
        return {}
    except Exception:  # a secrets file that does not parse: Streamlit reports it on st.login; no section here
        return {}


def _library_section():
    """[library] as written (None when absent), for core.store.access to check."""
    try:
        value = st.secrets.get("library")
    except Exception:   # no secrets file, or one that does not parse (see _secrets_section)
        return None
    if value is None:
        return None
    try:
        return value.to_dict() if hasattr(value, "to_dict") else value
    except Exception:
        return value


def enabled() -> bool:
    return bool(_secrets_section("auth"))


def signed_in() -> bool:
    return enabled() and bool(st.user.is_logged_in)


def access() -> Access:
    """Who may come in and who administers the library; AccessConfigError names a bad key."""
    return from_section(_library_section())


def actor() -> str:
    """Who changes are recorded as: the signed-in user's email, else their subject; else `local`."""
    if not enabled():
        return LOCAL
    if not st.user.is_logged_in:   # never reached by a page: the gate in dashboard.py stops first
        raise PermissionError("not signed in")
    return str(st.user.get("email") or st.user.get("sub"))


def person(who: str) -> str:
    """Who saved or changed something, as the page says it: 'you (this computer)' for the one
    person of a dashboard without sign-in, 'you (ann@...)' for the one signed in."""
    if who == LOCAL and not enabled():
        return "you (this computer)"
    return f"you ({who})" if signed_in() and who == actor() else who


def display_name() -> str:
    if not enabled():
        return LOCAL
    name, email = st.user.get("name"), st.user.get("email")
    return f"{name} ({email})" if name and email and name != email else str(name or email or st.user.get("sub"))


def admins() -> tuple[str, ...]:
    try:
        return access().administrators
    except AccessConfigError:   # said on every page by the gate; nobody administers a broken list
        return ()


# -- the screens shown instead of the dashboard --------------------------------------------------
def sign_in_screen() -> None:
    """All a visitor who has not signed in sees: no calculator, no scenario names."""
    st.title("Senior center capital grants")
    st.write("Sign in with your agency account to use the grant calculator and the shared scenario library.")
    if st.button("Sign in", type="primary", key="w:sign_in", icon=":material/login:"):
        st.login()
    st.caption(STAYS)


def refusal_screen(rules: Access) -> None:
    """All a signed-in user who may not come in sees: who they are, that they may not, whom to ask."""
    st.title("This account may not use the dashboard")
    st.markdown(md("You are signed in as ") + address_in_text(display_name())
                + md(". This account is not among those allowed to use the grant dashboard."))
    ask = rules.whom_to_ask()
    if ask:
        st.markdown(md("To be let in, ask ") + md(", or ").join(address_in_text(a) for a in ask)
                    + md(", naming the account above."))
    else:
        st.markdown(md("To be let in, ask the office that runs this dashboard, naming the account above."))
    st.write("If you meant to use another account, sign out and sign in with that one.")
    sign_out_button()


def config_error_screen(err: AccessConfigError) -> None:
    """Signed in, but the list of who may come in cannot be read: nobody comes in (said, and logged)."""
    st.title("The dashboard cannot check who may use it")
    st.markdown(md("Its settings are wrong, so nobody is let in until they are corrected: ") + literal(str(err), 400)
                + md(". Ask the dashboard's administrators to correct .streamlit/secrets.toml."))
    sign_out_button()


def sign_out_button() -> None:
    if st.button("Sign out", key="w:sign_out", icon=":material/logout:"):
        st.logout()
    st.caption(SIGN_OUT_NOTE)


def _only(screen, pages: list, title: str) -> None:
    """`screen` on every address, the app's own page names and unknown ones alike, in one hidden
    navigation (so no other page's name or content is sent); then stop."""
    known = {p.url_path for p in pages}
    shown = [st.Page(screen, title=title, url_path=p.url_path or "home", default=not p.url_path)
             for p in pages]
    shown += addresses.missing_pages(known, screen=screen, title=title)
    here = st.navigation(shown, position="hidden")
    st.set_page_config(page_title=f"{title} · Senior center capital grants")
    if screen is sign_in_screen:
        addresses.remember(here.url_path, missing=here.url_path not in known)
    else:
        addresses.forget(now=True)
    here.run()
    st.stop()


def navigation(pages: list):
    """dashboard.py's one call: the page to run, after sign-in and who may come in.

    Without [auth]: the app's pages, plus a page in words for an address naming none of them.
    With it: a visitor not signed in sees the sign-in screen, and a signed-in user who may not
    come in the refusal, on every address; a signed-in user who may is taken back to the
    address they asked for before signing in."""
    known = {p.url_path for p in pages}
    home = next(p for p in pages if not p.url_path)   # the default page
    if enabled():
        if not st.user.is_logged_in:
            _only(sign_in_screen, pages, "Sign in")
        try:
            rules = access()
        except AccessConfigError as err:
            _LOG.error("sign-in: %s", err)
            _only(lambda e=err: config_error_screen(e), pages, "Cannot check access")
        if not rules.allows(st.user.get("email"), st.user.get("email_verified")):
            _only(lambda: refusal_screen(rules), pages, "No access")
    back = addresses.comeback(known) if enabled() else None
    extra = addresses.missing_pages(known, home)
    page = st.navigation(pages + extra)
    addresses.go(back, pages + extra)
    addresses.forget()
    return page


def account_box() -> None:
    """In the sidebar: who is signed in, and Sign out (nothing without sign-in)."""
    if not signed_in():
        return
    st.caption("Signed in as")
    st.text(plain_text(display_name()))
    sign_out_button()
