"""Who may come in (core/store/access.py): the [library] section checked with errors that name the key,
and the rule itself, case-insensitive, failing closed."""
import tomllib

import pytest

from core.store.access import Access, AccessConfigError, from_section


SECTION = {"allowed_domains": ["Agency.gov"], "allowed_users": ["Someone@Else.org"],
           "administrators": ["IT.Admin@contractor.com"]}


def allow() -> Access:
    return from_section(SECTION)   # built in each test, not at import (mutation testing swaps from_section)


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
    ("jane@evil.example@agency.gov", None, False),   # not a plain address: the domain is not read from it
    ("jane doe@agency.gov", None, False),
    ("jane@agency.gov.", None, False),
    ("  jane@agency.gov ", None, True),
    ("agency.gov", None, False),
    ("@agency.gov", None, False),
    ("", None, False),
    (None, None, False),                             # no email claim at all (a subject only)
])
def test_who_comes_in(email, verified, allowed):
    assert allow().allows(email, verified) is allowed


def test_the_section_as_read():
    rules = allow()
    assert rules.administrators == ("IT.Admin@contractor.com",)
    assert rules.domains == frozenset({"agency.gov"}) and rules.users == frozenset({"someone@else.org"})
    assert rules.contact == "" and rules.restricted
    assert rules.is_admin("it.admin@CONTRACTOR.com") and not rules.is_admin("") and not rules.is_admin(None)
    assert from_section({"allowed_users": ["a@b.org"]}).restricted
    assert from_section({"allowed_domains": ["b.org"]}).restricted


def test_without_either_list_every_signed_in_user_comes_in():
    for section in (None, {}, {"administrators": ["ada@agency.gov"]}, {"allowed_domains": [], "allowed_users": []}):
        rules = from_section(section)
        assert not rules.restricted
        assert rules.allows("anyone@anywhere.example") and rules.allows(None)


def test_whom_to_ask():
    assert allow().whom_to_ask() == ["IT.Admin@contractor.com"]
    assert from_section({"administrators": ["a@x.org"], "access_contact": " the IT desk, 555-0100 "}).whom_to_ask() \
        == ["the IT desk, 555-0100"]
    assert Access().whom_to_ask() == []


@pytest.mark.parametrize("toml,message", [
    ('allowed_domains = "agency.gov"', '[library] allowed_domains must be a list, such as allowed_domains = '
                                       '["agency.gov"]; it is a single text (put it in square brackets)'),
    ("allowed_domains = 5", '[library] allowed_domains must be a list, such as allowed_domains = ["agency.gov"]; '
                            "it is a number"),
    ("allowed_domains = true", "[library] allowed_domains must be a list, such as allowed_domains = "
                               '["agency.gov"]; it is true or false'),
    ("allowed_domains = {a = 1}", "[library] allowed_domains must be a list, such as allowed_domains = "
                                  '["agency.gov"]; it is a table'),
    ("allowed_domains = 2025-01-01", "[library] allowed_domains must be a list, such as allowed_domains = "
                                     '["agency.gov"]; it is a date'),
    ('allowed_domains = ["agency.gov/grants"]', "[library] allowed_domains[0] is not a domain (no https:// or path)"),
    ('allowed_domains = ["agency.gov:443"]', "[library] allowed_domains[0] is not a domain (no https:// or path)"),
    ('allowed_domains = ["agency.gov."]', '[library] allowed_domains[0] is not a domain, such as "agency.gov"'),
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
    ('allowed_users = "someone@else.org"', '[library] allowed_users must be a list, such as allowed_users = '
                                           '["someone@else.org"]; it is a single text (put it in square brackets)'),
    ('allowed_users = ["someone"]', '[library] allowed_users[0] is not an email address, such as "someone@else.org"$'),
    ('allowed_users = ["a@b@else.org"]', "[library] allowed_users[0] is not an email address"),
    ('allowed_users = ["else.org"]', "[library] allowed_users[0] is not an email address, such as "
                                     '"someone@else.org" (a domain goes in allowed_domains)'),
    ('allowed_users = ["a b@else.org"]', "[library] allowed_users[0] is not an email address"),
    ('allowed_users = ["someone@"]', "[library] allowed_users[0] is not an email address"),
    ('administrators = "ada@agency.gov"', '[library] administrators must be a list, such as administrators = '
                                          '["grants.manager@agency.gov"]; it is a single text'),
    ('administrators = ["ada @agency.gov"]', "[library] administrators[0] is not an email address or user name "
                                             "(no spaces or control characters)$"),
    ('administrators = ["ada\\u0007"]', "[library] administrators[0] is not an email address or user name"),
    ("access_contact = 5", '[library] access_contact must be text, such as access_contact = "the IT service desk"; '
                           "it is a number$"),
    ('access_contact = "%s"' % ("x" * 301), "[library] access_contact must be one line of at most 300 characters$"),
    ('access_contact = ["a@b.org"]', "[library] access_contact must be text"),
    ('access_contact = "line one\\nline two"', "[library] access_contact must be one line"),
])
def test_a_bad_section_is_refused_with_the_key_named(toml, message):
    with pytest.raises(AccessConfigError) as err:
        from_section(tomllib.loads(toml))
    if message.endswith("$"):
        assert str(err.value) == message[:-1]
    else:
        assert str(err.value).startswith(message), str(err.value)


def test_a_contact_of_the_longest_length_is_kept():
    assert from_section({"access_contact": "x" * 300}).contact == "x" * 300


def test_the_library_section_must_be_a_table():
    with pytest.raises(AccessConfigError) as err:
        from_section("agency.gov")
    assert str(err.value) == "[library] must be a table of settings; it is a single text (put it in square brackets)"
    with pytest.raises(AccessConfigError) as err:
        from_section(["agency.gov"])
    assert str(err.value) == "[library] must be a table of settings; it is a list"


def test_the_error_names_the_entry_not_its_value():
    """The refusal page shows the error to whoever signed in: the position, not the listed people."""
    with pytest.raises(AccessConfigError) as err:
        from_section({"allowed_users": ["ok@else.org", "private.person"]})
    assert "private.person" not in str(err.value) and "allowed_users[1]" in str(err.value)
