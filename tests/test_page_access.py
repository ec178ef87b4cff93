"""Who may come in, on the pages themselves (AppTest, a seeded st.user): the refusal and the
broken-settings screens show nothing of the dashboard, say who and why in plain words (a name
never read as Markdown), and the lists let in whom they name. The whole sign-in flow through a
real provider is tests/test_signin_browser.py."""
import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT

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
    assert "To be let in, ask ` it.admin@contractor.com `, naming the account above." in text(at).replace("\\", "")
    assert [b.label for b in at.button] == ["Sign out"]
    assert not at.sidebar.children or all(not c.children for c in at.sidebar.children.values())
    assert not at.selectbox and not at.text_input and not at.slider


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
    assert sentence.startswith("You are signed in as ` **Boss** [click](https://evil.example) :\u2060material/")
    ask = next(m.value for m in at.markdown if m.value.startswith("To be let in"))
    assert "` the IT desk [555-0100](https://evil.example) `" in ask and "it.admin" not in ask


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
