import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# Tests never touch a user's library: each session gets its own SQLite file unless told otherwise.
os.environ.setdefault("SCENARIO_DB_URL", f"sqlite:///{ROOT / 'test-artifacts' / 'scenarios-test.db'}")
(ROOT / "test-artifacts").mkdir(exist_ok=True)
