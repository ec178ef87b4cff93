"""What the tests and the benchmarks share, neither of them a test: a real Streamlit server and a
real Chromium (serve), a browser session spoken over the websocket (stclient), and the page
states axe-core checks (a11y)."""
