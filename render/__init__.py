"""Pillow renderer: board views to PNG bytes."""
