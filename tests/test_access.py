"""Who may come in (core/access.py): the [library] section checked with errors that name the key,
and the rule itself, case-insensitive, failing closed."""
import tomllib

import pytest

from core.access import Access, AccessConfigError, from_section

ALLOW = from_section({"allowed_domains": ["Agency.gov"], "allowed_users": ["Someone@Else.org"],
                      "administrators": ["it.admin@contractor.com"]})


@pytest.mark.parametrize("email,verified,allowed", [
    ("jane@agency.gov", None, True),
    ("JANE@AGENCY.GOV", None, True),                 # case does not matter
    ("jane@agency.gov", True, True),
    ("jane@agency.gov", False, False),               # the provider says the address is not verified
    ("jane@agency.gov", "false", False),
    ("someone@else.org", None, True),
    ("SomeOne@ELSE.org", None, True),
    ("other@else.org", None, False),                 # a listed user's domain is not thereby listed
    ("it.admin@contractor.com", None, True),         # administrators always come in
    ("jane@dept.agency.gov", None, False),           # a domain matches itself only
    ("jane@agency.gov.evil.example", None, False),
    ("jane@evilagency.gov", None, False),
    ("agency.gov", None, False),
    ("@agency.gov", None, False),
    ("", None, False),
    (None, None, False),                             # no email claim at all (a subject only)
])
def test_who_comes_in(email, verified, allowed):
    assert ALLOW.allows(email, verified) is allowed


def test_without_either_list_every_signed_in_user_comes_in():
    for section in (None, {}, {"administrators": ["ada@agency.gov"]}, {"allowed_domains": [], "allowed_users": []}):
        rules = from_section(section)
        assert not rules.restricted
        assert rules.allows("anyone@anywhere.example") and rules.allows(None)


def test_whom_to_ask():
    assert ALLOW.whom_to_ask() == ["it.admin@contractor.com"]
    assert from_section({"administrators": ["a@x.org"], "access_contact": " the IT desk, 555-0100 "}).whom_to_ask() \
        == ["the IT desk, 555-0100"]
    assert Access().whom_to_ask() == []


@pytest.mark.parametrize("toml,message", [
    ('allowed_domains = "agency.gov"', '[library] allowed_domains must be a list, such as allowed_domains = '
                                       '["agency.gov"]; it is a single text (put it in square brackets)'),
    ("allowed_domains = 5", "[library] allowed_domains must be a list"),
    ('allowed_domains = ["agency.gov", "@else.org"]', '[library] allowed_domains[1] is not a domain: write it '
                                                      'without the @'),
    ('allowed_domains = ["jane@agency.gov"]', "[library] allowed_domains[0] is an email address, not a domain: "
                                              "put it in allowed_users"),
    ('allowed_domains = ["*.agency.gov"]', "[library] allowed_domains[0] has a wildcard"),
    ('allowed_domains = ["https://agency.gov"]', "[library] allowed_domains[0] is not a domain (no https:// or path)"),
    ('allowed_domains = ["agency"]', "[library] allowed_domains[0] is not a domain"),
    ('allowed_domains = ["agency gov"]', "[library] allowed_domains[0] is not a domain"),
    ('allowed_domains = [""]', "[library] allowed_domains[0] must be text, such as \"agency.gov\"; it is empty"),
    ("allowed_domains = [7]", "[library] allowed_domains[0] must be text, such as \"agency.gov\"; it is a number"),
    ('allowed_users = "someone@else.org"', "[library] allowed_users must be a list"),
    ('allowed_users = ["someone"]', "[library] allowed_users[0] is not an email address"),
    ('allowed_users = ["else.org"]', "[library] allowed_users[0] is not an email address, such as "
                                     '"someone@else.org" (a domain goes in allowed_domains)'),
    ('allowed_users = ["a b@else.org"]', "[library] allowed_users[0] is not an email address"),
    ('allowed_users = ["someone@"]', "[library] allowed_users[0] is not an email address"),
    ('administrators = "ada@agency.gov"', "[library] administrators must be a list"),
    ('administrators = ["ada @agency.gov"]', "[library] administrators[0] is not an email address or user name"),
    ("access_contact = 5", "[library] access_contact must be text"),
    ('access_contact = ["a@b.org"]', "[library] access_contact must be text"),
    ('access_contact = "line one\\nline two"', "[library] access_contact must be one line"),
])
def test_a_bad_section_is_refused_with_the_key_named(toml, message):
    with pytest.raises(AccessConfigError) as err:
        from_section(tomllib.loads(toml))
    assert str(err.value).startswith(message), str(err.value)


def test_the_library_section_must_be_a_table():
    with pytest.raises(AccessConfigError, match=r"^\[library\] must be a table of settings"):
        from_section("agency.gov")


def test_the_error_names_the_entry_not_its_value():
    """The refusal page shows the error to whoever signed in: the position, not the listed people."""
    with pytest.raises(AccessConfigError) as err:
        from_section({"allowed_users": ["ok@else.org", "private.person"]})
    assert "private.person" not in str(err.value) and "allowed_users[1]" in str(err.value)
