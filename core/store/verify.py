"""Rulesets that come in with imported scenarios are checked against the shipped ones.

A file may claim anything: `id = "regulation", kind = "regulation"` with a capital cap of
$5,000,000 would otherwise be reported as "The regulation in force". A ruleset that claims
the id of a shipped ruleset, or the kind "regulation", must have the same kind, title and
parameter values as the shipped one (only its wording or citations may differ: an older
version of the same text, which the library marks as outdated). Otherwise it is imported
as a labelled policy variant whose id starts with "imported-" and whose description says
what it claimed and what differs; every page, file and report labels it a variant.
"""
from __future__ import annotations

from core.law.rulesets import PARAMETER_KINDS, Ruleset, available, from_data, load

PREFIX = "imported-"


def _shown(rs: Ruleset, name: str) -> str:
    from core.law.award import pct
    from core.law.money import fmt
    value = rs.parameters[name].value
    kind = PARAMETER_KINDS[name]
    return fmt(value) if kind == "money" else pct(value) if kind == "share" else ", ".join(value) or "none"


def differences(rs: Ruleset, reference: Ruleset) -> list[str]:
    out = []
    if rs.kind != reference.kind:
        out.append(f"kind {rs.kind!r} (shipped: {reference.kind!r})")
    if rs.title != reference.title:
        out.append(f"title {rs.title[:80]!r} (shipped: {reference.title!r})")
    for name in PARAMETER_KINDS:
        if rs.parameters[name].value != reference.parameters[name].value:
            out.append(f"{name} {_shown(rs, name)} (shipped: {_shown(reference, name)})")
    return out


def verified(rs: Ruleset) -> tuple[Ruleset, str | None]:
    """The ruleset to use for an imported scenario, and a sentence when it was relabelled."""
    shipped = rs.id in available()
    if not shipped and rs.kind != "regulation":
        return rs, None
    reference = load(rs.id) if shipped else load("regulation")
    if rs.version == reference.version:
        return rs, None
    diffs = differences(rs, reference)
    if not diffs:
        return rs, None   # the same values under older wording: kept, and shown as outdated
    note = (f"It claimed to be the shipped ruleset {reference.id!r} ({reference.title}) but differs: "
            f"{'; '.join(diffs)}. Imported as a policy variant, not the regulation in force.")
    data = rs.to_data()
    data.update(id=(PREFIX + rs.id)[:64], kind="variant", based_on=reference.id,
                title=f"Imported variant of {reference.id!r} with altered values", description=note)
    return from_data(data), note


def relabelled(ruleset_data: dict | None) -> str | None:
    """The note of a ruleset `verified` relabelled (None for any other)."""
    if ruleset_data and str(ruleset_data.get("id", "")).startswith(PREFIX) and ruleset_data.get("kind") == "variant":
        return ruleset_data.get("description") or None
    return None


def accept_loaded_variant(v: Ruleset, loaded: dict[str, Ruleset], title_limit: int = 80) -> bool:
    """May a ruleset file loaded in a session join its variants? RulesetError says why not.
    True when it is new, False when the very same variant is already loaded."""
    from core.law.money import ValidationError
    from core.law.names import check_text
    from core.law.rulesets import RulesetError
    if not v.is_variant:
        raise RulesetError('kind: a loaded file must be a variant (kind = "variant")')
    if v.id in available():   # it would stand in for the shipped ruleset of that id and be listed twice
        raise RulesetError(f"id: {v.id!r} is a ruleset shipped with the app; give the variant an id of its own")
    if v.id in loaded and loaded[v.id].version != v.version:
        raise RulesetError(f"id: a different variant {v.id!r} is already loaded; give this one an id of its own")
    try:
        check_text(v.title, "title", title_limit, what="variant")
    except ValidationError as err:
        raise RulesetError(str(err)) from None
    from core.store.basics import last_law_day
    if v.first_day is not None and v.first_day > last_law_day():   # no day the "Law as of" field shows has its law
        raise RulesetError(f"values: the variant's first values begin on {v.first_day.isoformat()}, after the last day "
                           f"whose law this tool shows ({last_law_day().isoformat()}); give days on or before it")
    return v.id not in loaded
