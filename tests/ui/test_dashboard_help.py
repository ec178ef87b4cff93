"""`python dashboard.py --help` (issue 51): the dashboard's own options, how to change the port and
what the PDF packet needs; not a start message followed by Streamlit's help."""
import subprocess
import sys

from tests.support import ROOT


def test_dashboard_help_says_its_own_options():
    r = subprocess.run([sys.executable, "dashboard.py", "--help"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: python dashboard.py [--server.port PORT]")
    assert "--server.port 8502" in r.stdout and "Chromium" in r.stdout
    assert "is starting" not in r.stdout and "streamlit run [OPTIONS]" not in r.stdout
