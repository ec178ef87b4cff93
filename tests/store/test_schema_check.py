"""Opening a library already at the newest schema: checked without loading Alembic (issue 53: a fresh
server's first visitor); any other library still goes through Alembic (tests/store/test_owners_and_history.py)."""
import json
import os
import subprocess
import sys

from core.store import db
from tests.support import ROOT


def test_the_migration_files_name_the_head_alembic_finds():
    assert db.listed_head() == db.head_revision()


def test_a_chain_that_does_not_read_plainly_is_left_to_alembic(tmp_path, monkeypatch):
    versions = tmp_path / "versions"
    versions.mkdir()
    (versions / "0001_a.py").write_text('revision = "0001"\ndown_revision = None\n')
    (versions / "0002_b.py").write_text('revision = "0002"\ndown_revision = "0001"\n')
    monkeypatch.setattr(db, "MIGRATIONS", tmp_path)
    assert db.listed_head() == "0002"
    (versions / "0003_c.py").write_text('revision = "0003"\ndown_revision = "0001"\n')   # two heads
    assert db.listed_head() is None
    (versions / "0003_c.py").write_text('revision = ("0003")\n')                         # not a plain line
    assert db.listed_head() is None


def test_a_library_at_the_newest_schema_opens_without_alembic(tmp_path):
    url = f"sqlite:///{tmp_path / 'lib.db'}"
    code = ("import json, sys\nfrom core.store.db import open_engine\n"
            f"open_engine({url!r}).dispose()\nprint(json.dumps('alembic' in sys.modules))")

    def loads_alembic() -> bool:
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert out.returncode == 0, out.stderr[-2000:]
        return json.loads(out.stdout.strip().splitlines()[-1])

    assert loads_alembic()          # a new library: created by Alembic's migrations
    assert not loads_alembic()      # the same, opened again: already at the head, nothing loaded
