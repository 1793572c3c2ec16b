"""The analyses every game shares: solving a layout, its tricks, judging played cards, and
enumerating the ways unknown cards can lie (:mod:`.splits`)."""
