"""What nginx serves besides the proxy, made from the installed packages: the security headers
with the CSP hashes of the installed Streamlit's inline scripts (and the app's own), and the
plotly package's Plotly.js with a gzip beside it. Used by deploy/run-team (its private nginx, and
the proxy image of the container stack) and deploy/check-upgrade (a server's copies after an
upgrade). Only the standard library is imported here; Streamlit and plotly when asked for.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHIPPED_HEADERS = HERE / "security-headers.conf"
PLOTLY_JS_URL = "/component/ui.components.chart_panel.plotly_js/plotly.min.js"
_SCRIPT_SRC = re.compile(r"script-src 'self'(?: 'sha256-[A-Za-z0-9+/=]+')*")


def _app_script() -> str:
    """ui/a11y.py's inline script (the live region, control names), read from the file itself."""
    spec = importlib.util.spec_from_file_location("grants_a11y_for_csp", ROOT / "ui" / "a11y.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SCRIPT


def inline_script_hashes() -> list[str]:
    """CSP hashes of the inline scripts in the installed Streamlit's index.html, then of the
    app's own."""
    import streamlit
    html = (Path(streamlit.__file__).parent / "static" / "index.html").read_text(encoding="utf-8")
    return ["'sha256-%s'" % base64.b64encode(hashlib.sha256(m.group(1).encode()).digest()).decode()
            for text in (html, _app_script())
            for m in re.finditer(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", text, re.S)]


def script_hashes_in(text: str) -> list[str]:
    m = _SCRIPT_SRC.search(text)
    return m.group(0).split()[2:] if m else []


def with_hashes(text: str, hashes: list[str]) -> str:
    """A security-headers file with its script-src hashes replaced by these."""
    return _SCRIPT_SRC.sub(lambda m: f"script-src 'self' {' '.join(hashes)}".rstrip(), text)


def security_headers(text: str | None = None) -> tuple[str, bool]:
    """The security headers (deploy/security-headers.conf unless given) with the installed
    Streamlit's hashes, and whether they differ from the file's."""
    text = SHIPPED_HEADERS.read_text(encoding="utf-8") if text is None else text
    new = with_hashes(text, inline_script_hashes())
    return new, new != text


def plotly_source() -> Path:
    """The Plotly.js of the installed plotly package (the calculator's charts load it)."""
    import plotly
    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def copy_plotly_js(folder: Path) -> None:
    """The plotly package's own Plotly.js and a gzip of it, for nginx to serve from disk
    (gzip_static): compressed once here, not per browser; readable by nginx's workers."""
    folder.mkdir(parents=True, exist_ok=True)
    data = plotly_source().read_bytes()
    (folder / "plotly.min.js").write_bytes(data)
    (folder / "plotly.min.js.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    for path in (folder, *folder.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)


def write_assets(folder: Path) -> None:
    """security-headers.conf and static/plotly.min.js(.gz) for a proxy without Streamlit or
    plotly installed (the stack's proxy image): `deploy/run-team --assets FOLDER` serves them."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "security-headers.conf").write_text(security_headers()[0], encoding="utf-8")
    copy_plotly_js(folder / "static")
    for path in (folder, *folder.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
