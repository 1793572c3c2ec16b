"""Thousand (Tysiacha): card points, marriages that change the trump, the exchange, the odds of a bid."""
