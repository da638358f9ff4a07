"""Officer and referee tools (issue 6)."""
