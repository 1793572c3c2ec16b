"""Presentation: text diagrams of layouts (the per-analysis text lives with each result's
``format``)."""
