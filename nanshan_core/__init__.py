"""南山问律 engine: corpus, index, retrieval, answers and verification — no GUI here.

The Qt application in ``app/`` is one front end over this package; the CLI in
``nanshan_core.cli`` is another.  Nothing in this package imports Qt.
"""
__version__ = "0.1.0"
