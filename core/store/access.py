"""Who may use the dashboard, and who administers the library: the `[library]` section of
`.streamlit/secrets.toml`, checked once, with an error that names the key.

```toml
[library]
administrators = ["grants.manager@agency.gov"]   # may change or restore any scenario; always let in
allowed_domains = ["agency.gov"]                  # anyone whose email is at one of these domains
allowed_users = ["someone@else.org"]              # and these people, whatever their domain
access_contact = "the IT service desk, 555-0100"  # whom a refused user should ask (default: the administrators)
```

Without `allowed_domains` and `allowed_users` every signed-in user is let in. Emails and
domains are compared without regard to case; a domain matches itself only (list
`dept.agency.gov` as well if its people are to come in). Nothing here imports Streamlit: the
dashboard (ui/auth.py) and the command line (core/cli.py) read the same section the same way.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# A domain: two or more labels of letters, digits and inner hyphens (IDNs in their xn-- form).
_DOMAIN = re.compile(r"(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}")
_LOCAL_PART = re.compile(r"[^@\s\x00-\x1f\x7f\"(),:;<>\[\\\]]{1,64}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
MAX_CONTACT = 300
KEYS = ("administrators", "allowed_domains", "allowed_users", "access_contact")


class AccessConfigError(ValueError):
    """The [library] section cannot be used as written; the message names the key."""


def _where(key: str, index: int | None = None) -> str:
    return f"[library] {key}" + (f"[{index}]" if index is not None else "")


def _list(section: dict, key: str, example: str) -> list[str]:
    value = section.get(key)
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise AccessConfigError(f"{_where(key)} must be a list, such as {key} = [{example}]; "
                                f"it is {_kind(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise AccessConfigError(f"{_where(key, i)} must be text, such as {example}; it is "
                                    f"{'empty' if isinstance(item, str) else _kind(item)}")
    return [item.strip() for item in value]


def _kind(value) -> str:
    if isinstance(value, str):
        return "a single text (put it in square brackets)"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def is_domain(text: str) -> bool:
    return bool(_DOMAIN.fullmatch(text.lower()))


def is_email(text: str) -> bool:
    """One @, a plain local part before it, a domain after it."""
    if text.count("@") != 1:
        return False
    local, domain = text.split("@")
    return bool(_LOCAL_PART.fullmatch(local)) and is_domain(domain)


def _domain_problem(entry: str) -> str | None:
    if entry.startswith("@"):
        return "is not a domain: write it without the @, such as \"agency.gov\""
    if "@" in entry:
        return "is an email address, not a domain: put it in allowed_users"
    if "*" in entry:
        return "has a wildcard; list each domain itself, such as \"agency.gov\" and \"dept.agency.gov\""
    if "/" in entry or ":" in entry:
        return "is not a domain (no https:// or path), such as \"agency.gov\""
    if not is_domain(entry):
        return "is not a domain, such as \"agency.gov\""
    return None


@dataclass(frozen=True)
class Access:
    administrators: tuple[str, ...] = ()
    domains: frozenset[str] = frozenset()
    users: frozenset[str] = frozenset()
    contact: str = ""

    @property
    def restricted(self) -> bool:
        """Is anyone kept out? Not without allowed_domains or allowed_users."""
        return bool(self.domains or self.users)

    def is_admin(self, who: str | None) -> bool:
        return bool(who) and who.strip().lower() in {a.lower() for a in self.administrators}

    def allows(self, email: str | None, email_verified=None) -> bool:
        """May the user signed in with `email` come in? Everyone, without the two lists; else an
        administrator, a listed user, or an address at a listed domain. An address the identity
        provider says is not verified (email_verified false), or one that is not a plain address
        (two @, a space...), is refused whatever it is."""
        if not self.restricted:
            return True
        if not email or email_verified is False or str(email_verified).lower() == "false":
            return False
        email = email.strip().lower()
        if not is_email(email):
            return False
        return self.is_admin(email) or email in self.users or email.split("@")[1] in self.domains

    def whom_to_ask(self) -> list[str]:
        """Whom a refused user should ask: the access contact if set, else the administrators."""
        return [self.contact] if self.contact else list(self.administrators)


def from_section(section) -> Access:
    """The [library] section (a dict, or None when absent) checked; AccessConfigError names the key."""
    if section is None:
        return Access()
    if not isinstance(section, dict):
        raise AccessConfigError(f"[library] must be a table of settings; it is {_kind(section)}")
    admins = _list(section, "administrators", '"grants.manager@agency.gov"')
    for i, entry in enumerate(admins):
        if _CONTROL.search(entry) or " " in entry:
            raise AccessConfigError(f"{_where('administrators', i)} is not an email address or user name "
                                    "(no spaces or control characters)")
    domains = _list(section, "allowed_domains", '"agency.gov"')
    for i, entry in enumerate(domains):
        problem = _domain_problem(entry)
        if problem:
            raise AccessConfigError(f"{_where('allowed_domains', i)} {problem}")
    users = _list(section, "allowed_users", '"someone@else.org"')
    for i, entry in enumerate(users):
        if not is_email(entry):
            raise AccessConfigError(f"{_where('allowed_users', i)} is not an email address, such as "
                                    "\"someone@else.org\"" + (" (a domain goes in allowed_domains)"
                                                             if is_domain(entry) else ""))
    contact = section.get("access_contact", "")
    if not isinstance(contact, str):
        raise AccessConfigError(f"{_where('access_contact')} must be text, such as "
                                f"access_contact = \"the IT service desk\"; it is {_kind(contact)}")
    contact = contact.strip()
    if len(contact) > MAX_CONTACT or _CONTROL.search(contact):
        raise AccessConfigError(f"{_where('access_contact')} must be one line of at most {MAX_CONTACT} characters")
    return Access(tuple(admins), frozenset(d.lower() for d in domains),
                  frozenset(u.lower() for u in users), contact)
