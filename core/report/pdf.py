"""The PDF packet: the report with static charts (kaleido), printed by the system's Chrome or
Chromium, in a child process of its own, one at a time per server, within a time limit; a
browser that fails or hangs is stopped with every process it started."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from core.report.html import ReportError, render


def find_browser() -> str | None:
    """Chrome or Chromium on this machine, for PDFs (BROWSER_PATH wins)."""
    env = os.environ.get("BROWSER_PATH")
    if env and Path(env).exists():
        return env
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


NO_BROWSER = ("No Chrome or Chromium was found, so a PDF cannot be made here. Install Chromium (on Debian or "
              "Ubuntu: apt-get install chromium) and try again; the HTML report works without it and prints "
              "cleanly to PDF from any browser.")

# One PDF at a time per server process: kaleido keeps one global browser server, and two
# sessions starting and stopping it at once broke each other ('no attribute _thread').
_PDF_LOCK = threading.Lock()
PDF_TIMEOUT = float(os.environ.get("PDF_TIMEOUT_SECONDS", "150"))   # drawing + printing, whole packet
BUSY = "Another PDF packet is being made on this server; try again in a minute. The HTML report works meanwhile."


def _browser_runs(browser: str) -> str | None:
    """None if `browser --version` answers; else why not, in words."""
    try:
        done = subprocess.run([browser, "--version"], capture_output=True, text=True, timeout=20,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"{browser} did not answer within 20 seconds"
    except OSError as exc:
        return f"{browser} cannot be started ({exc.strerror})"
    if done.returncode != 0:
        return f"{browser} does not run (it stopped with status {done.returncode})"
    return None


def pdf(report, timeout: float | None = None) -> bytes:
    """The PDF packet of `report` (a Report, or a core.report.portfolio.PortfolioReport), its
    charts static, printed by the system's Chromium.

    Made in a child process of its own (kaleido's global browser server cannot be shared by
    threads), one at a time per server, within `timeout` seconds: a browser that fails or
    hangs gives a ReportError with what to do, never a hang or a stuck session."""
    timeout = PDF_TIMEOUT if timeout is None else timeout
    browser = find_browser()
    if browser is None:
        raise ReportError(NO_BROWSER)
    problem = _browser_runs(browser)
    if problem:
        raise ReportError(f"{problem}, so the PDF cannot be made. Set BROWSER_PATH to a working Chrome or "
                          "Chromium, or use the HTML report, which prints cleanly to PDF from any browser.")
    if not _PDF_LOCK.acquire(timeout=timeout):
        raise ReportError(BUSY)
    try:
        return _pdf_in_child(report, browser, timeout)
    finally:
        _PDF_LOCK.release()


def _descendants(pid: int) -> list[int]:
    """Every process below `pid`, from /proc (none where there is no /proc)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue   # ended meanwhile
        children.setdefault(ppid, []).append(int(name))
    found, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), ()):
            found.append(c)
            todo.append(c)
    return found


def _kill_tree(pid: int) -> None:
    """End the PDF child, its group and every process below it. kaleido's browser wrapper starts
    a session of its own, out of the group's reach: a hung browser outlived the timeout. The
    tree is read before anything dies (an orphan is handed to init and no longer found)."""
    import signal
    for p in [*_descendants(pid), pid]:
        try:
            os.kill(p, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _pdf_in_child(report, browser: str, timeout: float) -> bytes:
    import pickle
    import signal
    import sys

    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "BROWSER_PATH": browser}   # `python -m` in the project's folder finds core
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "packet.pdf"
        child = subprocess.Popen([sys.executable, "-m", "core.report.pdf", str(out)], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=root,
                                 start_new_session=True)   # its own group: a timeout ends its browsers too
        try:
            _, err = child.communicate(pickle.dumps(report), timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_tree(child.pid)
            child.communicate()
            raise ReportError(f"making the PDF with {browser} took more than {timeout:.0f} seconds and was "
                              "stopped; try again, or use the HTML report") from None
        finally:
            try:
                os.killpg(child.pid, signal.SIGKILL)   # any browser the child left behind
            except (ProcessLookupError, PermissionError):
                pass
        if child.returncode != 0 or not out.exists() or out.stat().st_size == 0:
            lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
            reason = lines[-1] if lines else f"status {child.returncode}"
            raise ReportError(f"the PDF could not be made with {browser} ({reason[:200]})")
        return out.read_bytes()


def document(report) -> str:
    """The HTML a packet prints, its charts static: a board report (core.report.html.Report) or a
    Portfolio packet (core.report.portfolio.PortfolioReport)."""
    from core.report.portfolio import PortfolioReport, render as render_portfolio
    if isinstance(report, PortfolioReport):
        return render_portfolio(report, static=True)
    return render(report, static=True)


def _pdf_here(report, browser: str) -> bytes:
    """In the child process: draw the charts with kaleido, print with the browser."""
    import warnings

    import kaleido
    kaleido.start_sync_server(silence_warnings=True)
    try:
        with warnings.catch_warnings():  # plotly notes that per-call options are unused with a server
            warnings.simplefilter("ignore", UserWarning)
            page = document(report)
    except Exception as exc:
        raise ReportError(f"the charts could not be drawn with {browser} ({type(exc).__name__}: {exc})") from None
    finally:
        kaleido.stop_sync_server(silence_warnings=True)
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "report.html", Path(tmp) / "report.pdf"
        src.write_text(page, encoding="utf-8")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync", f"--user-data-dir={tmp}/profile",
               "--no-pdf-header-footer", f"--print-to-pdf={out}", src.as_uri()]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise ReportError(f"{browser} took more than 2 minutes to print the PDF") from None
        if not out.exists() or out.stat().st_size == 0:
            raise ReportError(f"{browser} did not produce a PDF ({run.stderr.strip().splitlines()[-1:] or 'no output'})")
        return out.read_bytes()


def _child_main(target: str) -> int:
    import pickle
    import sys
    report = pickle.loads(sys.stdin.buffer.read())   # written by our own parent process, never by a user
    try:   # below the server, with the browsers it starts: the sessions it serves come first
        os.nice(10)
    except OSError:
        pass
    try:
        data = _pdf_here(report, os.environ["BROWSER_PATH"])
    except ReportError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    Path(target).write_bytes(data)
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(_child_main(sys.argv[1]))
