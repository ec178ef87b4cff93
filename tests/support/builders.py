"""Applications and errors in one line each."""
from __future__ import annotations

import pytest

from core.law.application import Application
from core.law.money import ValidationError


def application(project_type: str = "renovation", **fields) -> Application:
    """A validated application of this type with these fields (as the docs/rules.md form takes them)."""
    return Application.from_dict({"project_type": project_type} | fields)


def conversion(**fields) -> Application:
    """An application: a conversion unless told otherwise."""
    return application(**({"project_type": "conversion"} | fields))


def error_of(fn, *args, **kwargs) -> str:
    """The message of the ValidationError that fn(*args, **kwargs) raises."""
    with pytest.raises(ValidationError) as err:
        fn(*args, **kwargs)
    return str(err.value)
