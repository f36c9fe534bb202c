"""Turn draft text into claims: sentences with the ``[ID]`` citations they carry."""

from __future__ import annotations

import re

from groundgate.answer.model import Claim
from groundgate.knowledge.ingest.extract import sentences

__all__ = ["CITATION", "split_claims"]

CITATION = re.compile(r"\[([^\[\]\n]{1,200})\]")
"""``[INS-SYN-003]``, ``[INS-SYN-003, INS-SYN-006]`` or ``[Maria Oduya]`` (ids taken from
file names may contain spaces); ids that the trace never saw are removed by grounding."""


def split_claims(text: str) -> list[Claim]:
    """One claim per sentence; citations are lifted out of the text.

    A sentence made only of citations attaches them to the previous claim; an uncited line
    ending in a colon introduces what follows and is not a claim.
    """
    claims: list[Claim] = []
    for sentence in sentences(text):
        lead = re.match(r"^(\s*\[[^\]]+\]\s*)+", sentence)
        if lead and claims and sentence[lead.end():].strip():
            # "... 1,000. [DOC] Next sentence": the leading citation closes the previous claim.
            leading = [i.strip() for g in CITATION.findall(lead.group(0)) for i in re.split(r"[,;]", g)]
            last = claims[-1]
            cited = tuple(dict.fromkeys((*last.citations, *leading)))
            claims[-1] = last.model_copy(update={"citations": cited})
            sentence = sentence[lead.end():]
        ids = [i.strip() for group in CITATION.findall(sentence) for i in re.split(r"[,;]", group)]
        bare = CITATION.sub("", sentence).strip()
        bare = re.sub(r"\s+([.,;:!?])", r"\1", bare)
        if not bare.strip(" .;:") and claims:
            last = claims[-1]
            claims[-1] = last.model_copy(update={"citations": tuple(dict.fromkeys((*last.citations, *ids)))})
            continue
        if bare.endswith(":") and not ids:
            continue  # a lead-in ("What the sources do say:"), not a claim
        if bare:
            claims.append(Claim(text=bare, citations=tuple(dict.fromkeys(i for i in ids if i))))
    return claims
