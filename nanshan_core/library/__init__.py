"""Reading the pack as a library: tables of contents and the exact-phrase concordance."""
