"""The rules core: everything that is not Streamlit (no module here imports streamlit)."""
