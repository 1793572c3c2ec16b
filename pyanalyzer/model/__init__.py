"""The model: cards, rule sets, layouts and the position every engine consumes."""
