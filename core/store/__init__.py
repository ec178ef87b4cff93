"""The scenario library: the model, its file format, the repository with its permissions and
history, and the database's migrations."""
