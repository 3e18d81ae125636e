"""The Whoosh index: folded text as single characters and overlapping bigrams.

Classical Chinese has no word boundaries, so a term such as 斷人命 is found
as the bigram phrase 斷人 人命 at consecutive positions; one-character terms
(酒) use the unigram field.  A token's position is its character offset, and
no bigram spans punctuation, so a phrase can never bridge a 。.

Whoosh pickles the schema with the analyzer's import path: these classes must
stay at ``nanshan_core.corpus.index`` and any change to them bumps SCHEMA_VERSION.

Documents are passages of readable size (see build.passages_of): a
29,000-character paragraph is scored passage by passage, and 四分律's
one-phrase definition paragraphs are scored together with their neighbours.
"""
from __future__ import annotations

from pathlib import Path

from whoosh import fields, index as windex
from whoosh.analysis import Token, Tokenizer

from ..text import is_word_char

SCHEMA_VERSION = 3   # 3: the analyzer moved to nanshan_core.corpus.index
INDEX_DIR = "index"


class CharNgramTokenizer(Tokenizer):
    """Yields n-grams (n = 1 or 2) of adjacent word characters; position = character offset."""

    def __init__(self, n: int = 2):
        self.n = n

    def __eq__(self, other):
        return isinstance(other, CharNgramTokenizer) and other.n == self.n

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs):
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not tokenize:
            t.original = t.text = value
            t.boost = 1.0
            if positions:
                t.pos = start_pos
            if chars:
                t.startchar, t.endchar = start_char, start_char + len(value)
            yield t
            return
        n = self.n
        word = [is_word_char(c) for c in value]
        for i in range(len(value) - n + 1):
            if all(word[i:i + n]):
                t.text = value[i:i + n]
                t.boost = 1.0
                if keeporiginal:
                    t.original = t.text
                if positions:
                    t.pos = start_pos + i
                if chars:
                    t.startchar, t.endchar = start_char + i, start_char + i + n
                yield t


def schema() -> fields.Schema:
    return fields.Schema(
        passage=fields.NUMERIC(stored=True, unique=True, bits=32),
        record=fields.NUMERIC(stored=True, bits=32),
        work=fields.ID(stored=True),
        layer=fields.ID(stored=True),
        fascicle=fields.ID(stored=True),
        para_id=fields.ID(stored=True),
        start=fields.ID(stored=True),          # coordinate of the passage's first character
        bi=fields.TEXT(analyzer=CharNgramTokenizer(2), phrase=True),
        uni=fields.TEXT(analyzer=CharNgramTokenizer(1), phrase=False),
    )


def create(directory: Path):
    directory.mkdir(parents=True, exist_ok=True)
    return windex.create_in(str(directory), schema())


def writer(ix):
    # Non-compound segments: the searcher then maps files instead of copying
    # the whole index into memory (0.2-0.4 s and ~250 MB saved per open).
    return ix.writer(procs=1, limitmb=512, compound=False)


def open_index(directory: Path):
    return windex.open_dir(str(directory))
