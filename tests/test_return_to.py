"""The address kept through sign-in (ui/addresses.py), without a browser: only this app's own pages
and known query parameters come back; nothing can name another host. And the facts of
Streamlit 1.67 the docs and the screens state (docs/deploy-signin.md)."""
import pytest

from ui import addresses, auth

KNOWN = {"", "compare", "sensitivity", "portfolio", "rules"}


@pytest.mark.parametrize("address,kept", [
    ({"page": "compare", "query": {"present": "1"}}, {"page": "compare", "query": {"present": "1"}}),
    ({"page": "", "query": {"eligible_cost": "1450000", "project_type": "renovation", "f_reference": "prior_grant",
                            "ruleset": "regulation"}}, "same"),
    ({"page": "rules"}, {"page": "rules", "query": {}}),
    ({"missing": "nonexistent", "query": {}}, "same"),
    ({"missing": "x y", "query": {"present": "1"}}, "same"),            # an unknown name, said in words after
    # never anywhere else
    ({"page": "https://evil.example/", "query": {}}, None),
    ({"page": "//evil.example", "query": {}}, None),
    ({"page": "javascript:alert(1)", "query": {}}, None),
    ({"missing": "//evil.example", "query": {}}, None),
    ({"missing": "a/b", "query": {}}, None),
    ({"missing": "compare", "query": {}}, None),                       # a real page is not "missing"
    ({"missing": "x" * 101, "query": {}}, None),
    ({"missing": "line\nbreak", "query": {}}, None),
    ({"page": "compare", "missing": "x", "query": {}}, None),
    ({"page": "compare", "query": {}, "url": "https://evil.example/"}, None),
    ({"page": "admin", "query": {}}, None),
    ({"page": None, "query": {}}, None),
    # only known query parameters, short texts
    ({"page": "", "query": {"next": "https://evil.example/"}}, None),
    ({"page": "", "query": {"eligible_cost": 1450000}}, None),
    ({"page": "", "query": {"eligible_cost": "1" * 201}}, None),
    ({"page": "", "query": ["eligible_cost"]}, None),
    ("compare", None),
    (None, None),
    ([], None),
])
def test_only_this_apps_own_addresses_come_back(address, kept):
    assert addresses.clean(address, KNOWN) == (address if kept == "same" else kept)


def test_every_query_parameter_the_app_reads_is_known():
    """The inputs, the readings, the ruleset and presentation mode: a link's whole state."""
    from core.law.fields import FIELDS
    from core.law.readings import READING_IDS
    assert {f.name for f in FIELDS if f.group != "considerations"} | set(READING_IDS) | {"ruleset", "present"} \
        == addresses.KNOWN_PARAMS


def test_the_kept_address_is_signed_and_short_lived():
    from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
    value = addresses._serializer().dumps({"page": "compare", "query": {}})
    assert addresses._serializer().loads(value, max_age=addresses.MAX_AGE) == {"page": "compare", "query": {}}
    with pytest.raises(BadSignature):   # another secret, or the auth cookie's own salt, does not read it
        URLSafeTimedSerializer(addresses._secret(), salt="_streamlit_user").loads(value)
    with pytest.raises(SignatureExpired):
        addresses._serializer().loads(value, max_age=-1)
    assert addresses.MAX_AGE == 600


def test_what_streamlit_does_with_a_sign_in_is_what_the_docs_say():
    """Streamlit 1.67's auth routes: the identity cookie lives 30 days from signing in (the screens
    say so), the callback always lands on the app's root (so the address needs keeping), and
    st.logout clears both cookies and goes to the provider's end_session_endpoint when it has one."""
    import inspect

    from streamlit.web.server.starlette import starlette_auth_routes as routes
    from streamlit.web.server.starlette.starlette_server_config import AUTH_COOKIE_MAX_AGE_SECONDS
    assert AUTH_COOKIE_MAX_AGE_SECONDS == auth.LIFETIME_DAYS * 24 * 3600 == 30 * 24 * 3600
    assert f"{auth.LIFETIME_DAYS} days" in auth.STAYS
    callback = inspect.getsource(routes._auth_callback)
    assert "_redirect_to_base_clearing_invalid_cookies(request, base_url)" in callback
    assert "state" in callback and "next" not in callback          # nothing of the address travels back
    logout = inspect.getsource(routes._auth_logout)
    assert "_get_provider_logout_url" in logout and "_clear_auth_cookie" in logout
    assert routes._AUTH_COOKIE_NAMES == ("_streamlit_user", "_streamlit_user_tokens")
    assert "end_session_endpoint" in inspect.getsource(routes._get_provider_logout_url)


def test_the_page_asked_for_is_where_streamlit_keeps_it():
    """ui/addresses.py reads the page a run was asked for from the session's pages manager (not a
    public API of Streamlit 1.67): an upgrade that moves it fails here, not silently on screen."""
    from streamlit.runtime.pages_manager import PagesManager
    pm = PagesManager("dashboard.py")
    pm.set_script_intent("", "nonexistent")
    assert (pm.intended_page_script_hash, pm.intended_page_name) == ("", "nonexistent")
