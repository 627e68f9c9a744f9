"""Discord commands and views."""
