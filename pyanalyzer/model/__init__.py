"""The model: cards and notation, hands, contracts, rule sets, layouts (and their text forms),
the position every engine consumes and the trick rules written once in Python (:mod:`.play`)."""
