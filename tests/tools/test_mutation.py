"""tools/mutation.py's own bookkeeping (the mutation run itself takes minutes: docs/testing.md)."""
import json

import pytest

from tools import mutation


def test_a_survivors_rerun_keeps_the_results_of_the_mutants_it_did_not_rerun(tmp_path):
    meta = tmp_path / "award.py.meta"
    before = {meta: {"a__mutmut_1": 1, "a__mutmut_2": 0, "a__mutmut_3": 0, "a__mutmut_4": None}}
    # mutmut forgot everything when the tests changed, then reran the two survivors
    meta.write_text(json.dumps({"exit_code_by_key": {"a__mutmut_1": None, "a__mutmut_2": 1, "a__mutmut_3": 0,
                                                     "a__mutmut_4": None}, "durations_by_key": {}}))
    mutation.keep_earlier_results(before, {"a__mutmut_2", "a__mutmut_3"})
    data = json.loads(meta.read_text())
    assert data["exit_code_by_key"] == {"a__mutmut_1": 1, "a__mutmut_2": 1, "a__mutmut_3": 0, "a__mutmut_4": None}
    assert data["durations_by_key"] == {}                      # the rest of mutmut's file is left as it was
    mutation.keep_earlier_results({tmp_path / "gone.py.meta": {"x": 1}}, set())   # a vanished file is skipped


def test_the_law_modules_and_a_module_list_are_checked(capsys):
    assert mutation.LAW_MODULES == ("caps", "engines", "rulesets", "readings", "award", "batch", "lines", "analysis",
                                    "application", "money")
    assert mutation.module_name("core/law/rulesets/__init__.py") == "rulesets"
    assert mutation.module_name("core/law/award.py") == "award"
    with pytest.raises(SystemExit) as exit_:
        mutation.main(["--report", "--modules", "award,no_such_module"])
    assert exit_.value.code == 2
    assert "--modules: no such module in core/: no_such_module" in capsys.readouterr().err
