"""SQLite persistence (saved games, study results, statistics) and atomic file writes."""
