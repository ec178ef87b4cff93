"""Streamlit-only helpers shared by the pages (state bound to the URL, money inputs)."""
