"""Measuring and checking: bench, eval, doctor."""
