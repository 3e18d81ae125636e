"""Errors a user can meet, each carrying a message fit to show as it is.

The CLI prints ``str(error)`` as one line on stderr and the GUI shows it in the
window; neither ever shows a traceback for these.  Anything else escaping is a
bug.
"""


class NanshanError(Exception):
    """Base class: the message is written for the reader, in Chinese."""


class CoordError(NanshanError, ValueError):
    """A coordinate that cannot be read, or names no line in the pack."""


class CorpusError(NanshanError):
    """The CBETA source tree is missing, incomplete or malformed (build stops)."""


class BuildCancelled(NanshanError):
    """The user cancelled a pack build; nothing was left behind."""


class PackError(NanshanError):
    """The corpus pack is missing, corrupt or of another schema."""


class QuestionError(NanshanError):
    """A question that cannot be asked as given (empty, enormous, without a Han character)."""


class ModelError(NanshanError):
    """A GGUF model that cannot be used (missing, truncated, not GGUF, no runtime)."""
