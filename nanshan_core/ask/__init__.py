"""A question answered: terms (A), clues (A′), the scope gate, retrieval (B), the answer (C),
verification (D), the engine that runs them, and the optional local model."""
