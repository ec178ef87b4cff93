"""Sign-in in AppTest: the refusal and settings screens, the address kept through sign-in."""
import pytest
from streamlit.testing.v1 import AppTest

from tests.support import ROOT
from tests.support.text import interpreted
from ui.text import JOINER
from ui import addresses, auth


AUTH = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "test-only-secret-0000",
        "client_id": "x", "client_secret": "y",
        "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration"}


LIBRARY = {"allowed_domains": ["agency.gov"], "allowed_users": ["someone@else.org"],
           "administrators": ["it.admin@contractor.com"]}


def app(user: dict | None, library=LIBRARY, path: str = "") -> AppTest:
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=60)
    at.secrets["auth"] = AUTH
    if library is not None:
        at.secrets["library"] = library
    at.user = {"is_logged_in": False} if user is None else {"is_logged_in": True, **user}
    if path:
        at.switch_page(path)
    return at.run()


def text(at) -> str:
    return "\n".join([e.value for e in at.title] + [e.value for e in at.markdown] + [e.value for e in at.caption]
                     + [str(e.value) for e in at.text])


def shows_the_dashboard(at) -> bool:
    return any(m.label == "State grant award" for m in at.metric) or any(t.value == "State grant calculator"
                                                                         for t in at.title)


@pytest.mark.parametrize("email", ["jane@agency.gov", "JANE@Agency.GOV", "someone@else.org",
                                   "it.admin@contractor.com"])
def test_the_lists_let_in_whom_they_name(email):
    at = app({"email": email, "name": "Jane"})
    assert not at.exception and shows_the_dashboard(at)


@pytest.mark.parametrize("user", [{"email": "carol@outside.example", "name": "Carol Outsider"},
                                  {"email": "jane@agency.gov", "name": "Jane", "email_verified": False},
                                  {"sub": "no-email-claim", "name": "Nobody"}])
def test_anyone_else_sees_only_the_refusal(user):
    at = app(user)
    assert not at.exception and not shows_the_dashboard(at)
    assert [t.value for t in at.title] == ["This account may not use the dashboard"]
    assert "To be let in, ask it.admin@contractor.com, naming the account above." in plain(text(at))
    assert [b.label for b in at.button] == ["Sign out"]
    assert not at.sidebar.children or all(not c.children for c in at.sidebar.children.values())
    assert not at.selectbox and not at.text_input and not at.slider


def plain(markdown: str) -> str:
    """What a reader sees of our inert Markdown: the escapes and word joiners gone."""
    import re
    return re.sub(r"\\(.)", r"\1", markdown).replace(JOINER, "")


def test_without_either_list_every_signed_in_user_comes_in():
    at = app({"email": "anyone@anywhere.example"}, library={"administrators": ["ada@agency.gov"]})
    assert not at.exception and shows_the_dashboard(at)
    at = app({"email": "anyone@anywhere.example"}, library=None)
    assert not at.exception and shows_the_dashboard(at)


def test_the_refusal_names_the_access_contact_and_shows_names_literally():
    hostile = "**Boss** [click](https://evil.example) :material/warning: $x$"
    at = app({"email": "carol@outside.example", "name": hostile},
             library=LIBRARY | {"access_contact": "the IT desk [555-0100](https://evil.example)"})
    sentence = next(m.value for m in at.markdown if m.value.startswith("You are signed in as"))
    ask = next(m.value for m in at.markdown if m.value.startswith("To be let in"))
    # In the sentence's own type (no code span), and still read as nothing but text, but for the
    # account's e-mail address, which stays whole (a mail link at most: it copies as it reads)
    assert "`" not in sentence and "`" not in ask and interpreted(sentence) in ([], ["autolink"]) and interpreted(ask) == []
    assert plain(sentence).startswith(f"You are signed in as {hostile}")
    assert plain(ask) == "To be let in, ask the IT desk [555-0100](https://evil.example), naming the account above."
    assert "it.admin" not in ask


@pytest.mark.parametrize("library,key", [({"allowed_domains": "agency.gov"}, "[library] allowed_domains"),
                                         ({"allowed_users": ["jane"]}, "[library] allowed_users[0]"),
                                         ({"administrators": "ada@agency.gov"}, "[library] administrators")])
def test_settings_that_cannot_be_used_let_nobody_in_and_say_which_key(library, key):
    at = app({"email": "it.admin@contractor.com", "name": "Admin"}, library=library)
    assert not at.exception and not shows_the_dashboard(at)
    assert [t.value for t in at.title] == ["The dashboard cannot check who may use it"]
    assert key in text(at) and "secrets.toml" in text(at).replace("\\", "")
    assert [b.label for b in at.button] == ["Sign out"]


@pytest.mark.parametrize("user", [None, {"email": "carol@outside.example"}])
@pytest.mark.parametrize("path", ["pages/compare.py", "pages/portfolio.py", "pages/rules.py"])
def test_no_page_of_the_dashboard_runs_for_a_visitor_who_may_not(user, path):
    at = app(user, path=path)
    assert not at.exception and not shows_the_dashboard(at)
    assert not [t.value for t in at.title if "Compare" in t.value or "Portfolio" in t.value or "Rules" in t.value]


def test_signed_out_the_sign_in_screen_says_how_long_a_sign_in_lasts():
    at = app(None)
    assert [b.label for b in at.button] == ["Sign in"]
    assert "you stay signed in on this browser for 30 days or until you sign out" in text(at)


KNOWN = {"", "compare", "sensitivity", "portfolio", "rules"}


@pytest.mark.parametrize("address,kept", [
    ({"page": "compare", "query": {"present": "1"}}, {"page": "compare", "query": {"present": "1"}}),
    ({"page": "", "query": {"eligible_cost": "1450000", "project_type": "renovation", "f_reference": "prior_grant",
                            "ruleset": "regulation"}}, "same"),
    ({"page": "rules"}, {"page": "rules", "query": {}}),
    # Compare's comparison: its scenarios in order (one value each), and the baseline's place
    ({"page": "compare", "query": {"scenario": ["As submitted", "With a federal grant"], "baseline": "2"}}, "same"),
    ({"page": "compare", "query": {"scenario": ["x"] * 13}}, None),            # more than a comparison holds
    ({"page": "compare", "query": {"scenario": ["x" * 201]}}, None),
    ({"page": "compare", "query": {"scenario": [1]}}, None),
    ({"page": "compare", "query": {"present": ["1", "1"]}}, None),             # only the scenarios are a list
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
    """The inputs, the readings, the ruleset and the law's day, presentation mode and Compare's scenarios and baseline:
    a link's whole state."""
    from core.law.fields import FIELDS
    from core.law.readings import READING_IDS
    assert {f.name for f in FIELDS if f.group != "considerations"} | set(READING_IDS) | {
        "ruleset", "as_of", "present", "scenario", "baseline", "enter"} == addresses.KNOWN_PARAMS


def test_the_kept_address_is_signed_and_short_lived():
    from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
    value = addresses._serializer().dumps({"page": "compare", "query": {}})
    assert addresses._serializer().loads(value, max_age=addresses.MAX_AGE) == {"page": "compare", "query": {}}
    with pytest.raises(BadSignature):   # another secret, or the auth cookie's own salt, does not read it
        URLSafeTimedSerializer(addresses._secret(), salt="_streamlit_user").loads(value)
    with pytest.raises(SignatureExpired):
        addresses._serializer().loads(value, max_age=-1)
    assert addresses.MAX_AGE == 600


@pytest.mark.parametrize("age, kept", [(0, True), (540, True), (660, False), (86_400 * 30, False)])
def test_a_kept_address_is_read_only_within_its_ten_minutes(age, kept):
    """Issue 36: with the maximum age left out of the read, a cookie signed days ago (or stolen
    from another visit) still sent a fresh sign-in to its address; the browser test of it is
    not in every run (tests/browser/test_signin.py), this one is."""
    import time
    from unittest import mock
    address = {"page": "rules", "query": {"present": "1"}}
    with mock.patch("time.time", return_value=time.time() - age):   # itsdangerous stamps with time.time()
        value = addresses._serializer().dumps(address)
    assert addresses.kept_address(value, KNOWN) == (address if kept else None)
    assert addresses.kept_address(value + "x", KNOWN) is None and addresses.kept_address(None, KNOWN) is None


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


def test_what_streamlits_sign_in_imports_is_pinned_for_a_server():
    """Streamlit 1.67's /auth/login imports Authlib's Starlette client, which imports httpx; the
    tests' venv had httpx only through oidc-provider-mock, so `pip install -r requirements.txt` (the
    container image) failed at every Sign in (issue 36, found in the stack)."""
    import inspect
    import re

    from streamlit.web.server.starlette import starlette_auth_routes as routes
    assert "from authlib.integrations import starlette_client" in inspect.getsource(routes)
    pinned = {re.split(r"[=<>~ ]", line)[0].lower() for line in (ROOT / "requirements.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    assert {"streamlit", "authlib", "httpx", "httpcore"} <= pinned


def test_changes_are_recorded_by_the_signed_in_users_email_not_the_providers_subject(db):
    """Issue 36: with the subject read before the email, every owner and history event said
    "00u1a2b3c4" (the provider's id) instead of the person, and owners no longer matched the
    [library] lists; only a user without an email claim is recorded by subject."""
    from tests.support.pages import save
    at = app({"email": "jane@agency.gov", "sub": "00u1a2b3c4", "name": "Jane"})
    assert not at.exception and shows_the_dashboard(at)
    save(at, "Jane's plan")
    assert not at.exception
    sc = db.get("Jane's plan")
    assert (sc.owner, sc.changed_by) == ("jane@agency.gov", "jane@agency.gov")
    assert [(e.actor, e.action) for e in db.history()] == [("jane@agency.gov", "save")]
    # without the lists, a user the provider gives no email is let in and recorded by subject
    at = app({"sub": "00u9z8y7x6", "name": "No email"}, library={"administrators": ["ada@agency.gov"]})
    save(at, "Subject's plan")
    assert db.get("Subject's plan").owner == "00u9z8y7x6"
