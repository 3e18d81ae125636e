"""CBETA's TEI → the corpus pack, and the pack opened: coordinates, the XML reader, works, folding,
the build, the index, commentary links, the topic skeleton."""
