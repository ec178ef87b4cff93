import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# Tests never touch a user's library: each session gets its own SQLite file unless told otherwise.
os.environ.setdefault("SCENARIO_DB_URL", f"sqlite:///{ROOT / 'test-artifacts' / 'scenarios-test.db'}")
(ROOT / "test-artifacts").mkdir(exist_ok=True)

# Tests never assert on time: on a busy CI machine a single slow draw must not fail a
# property test (a 1.5 s stall once tripped Hypothesis's too_slow check), nor a slow example.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("no-timing", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Mutation testing (tools/mutation.py) runs the suite once per mutant: the same draws every time
# (a score that does not move between runs), fewer of them, no example database. The boundaries
# that matter are pinned as @example and run whatever the profile.
settings.register_profile("mutation", parent=settings.get_profile("no-timing"), max_examples=25,
                          derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "no-timing"))
