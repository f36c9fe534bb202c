"""The corpus folder on disk: which files ingest reads, and reading one as text.

Everything the file system can do wrong (a file that cannot be read or vanished, bytes
that are not UTF-8, a NUL byte, a file over the size limit, a link out of the folder)
is a ``CorpusError`` naming the file, never an ``OSError`` or a ``UnicodeDecodeError``.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from groundgate.errors import CorpusError
from groundgate.knowledge.ingest.limits import MAX_FILE_BYTES

__all__ = ["DOCUMENT_SUFFIXES", "KNOWLEDGE_SUFFIXES", "CorpusFiles", "read_text", "walk_corpus"]

DOCUMENT_SUFFIXES = (".md", ".markdown", ".txt")
KNOWLEDGE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class CorpusFiles:
    """The files of a corpus folder, each list in path order."""

    documents: list[Path]
    knowledge: list[Path]
    skipped: list[str]
    """Paths under the folder of what is not read (other suffixes, links to folders, ...)."""


def walk_corpus(root: Path) -> CorpusFiles:
    """List the files below ``root`` that ingest reads, skipping hidden files and folders.

    A symbolic link is followed only to a file inside ``root``; a link that points outside
    it or to nothing is refused, since ingest reads the folder it was given and no more.
    A link to a folder is not followed (the folder's files are read where they are).

    Raises:
        CorpusError: A folder cannot be listed, or a link points outside ``root`` or nowhere.
    """
    real_root = Path(os.path.realpath(root))
    docs: list[Path] = []
    knowledge: list[Path] = []
    skipped: list[Path] = []

    def refuse(exc: OSError) -> None:
        raise CorpusError(exc.filename or root, None, f"cannot list the folder ({exc.strerror or exc})")

    for folder, dirnames, filenames in os.walk(root, onerror=refuse):
        here = Path(folder)
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in list(dirnames):
            if (here / name).is_symlink():
                _inside(here / name, real_root, root)
                dirnames.remove(name)
                skipped.append(here / name)
        for name in filenames:
            if name.startswith("."):
                continue
            path = here / name
            if not _is_regular_file(path, real_root, root):
                skipped.append(path)
            elif path.suffix.lower() in DOCUMENT_SUFFIXES:
                docs.append(path)
            elif path.suffix.lower() in KNOWLEDGE_SUFFIXES:
                knowledge.append(path)
            else:
                skipped.append(path)
    return CorpusFiles(
        documents=sorted(docs),
        knowledge=sorted(knowledge),
        skipped=[p.relative_to(root).as_posix() for p in sorted(skipped)],
    )


def _inside(link: Path, real_root: Path, root: Path) -> Path:
    """Where ``link`` points, refused unless that is an existing path inside the corpus."""
    target = Path(os.path.realpath(link))
    if not target.exists():
        raise CorpusError(link, None, f"symbolic link to {target}, which does not exist")
    if not target.is_relative_to(real_root):
        raise CorpusError(
            link, None, f"symbolic link to {target}, outside the corpus folder {root}; "
            "ingest reads only files inside the folder it is given"
        )
    return target


def _is_regular_file(path: Path, real_root: Path, root: Path) -> bool:
    """Whether ``path`` (or, for a link, what it points to inside the corpus) is a plain file.

    Pipes, sockets and devices are not: reading one could block or never end.
    """
    try:
        target = _inside(path, real_root, root) if path.is_symlink() else path
        return stat.S_ISREG(target.stat().st_mode)
    except FileNotFoundError:
        raise CorpusError(path, None, "the file disappeared while the corpus was read") from None
    except OSError as exc:
        raise CorpusError(path, None, f"cannot read the file ({exc.strerror or exc})") from exc


def read_text(path: Path) -> str:
    """The text of a corpus file: UTF-8 (a leading byte-order mark dropped), with no NUL.

    Raises:
        CorpusError: The file cannot be read or disappeared, is larger than
            ``MAX_FILE_BYTES``, is not UTF-8 (the line of the first bad byte is named)
            or holds a NUL character.
    """
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_FILE_BYTES:
                raise _too_large(path, size)
            data = handle.read(size + 1)  # read(n) reserves n bytes: ask only for what is there
    except FileNotFoundError:
        raise CorpusError(path, None, "the file disappeared while the corpus was read") from None
    except OSError as exc:
        raise CorpusError(path, None, f"cannot read the file ({exc.strerror or exc})") from None
    if len(data) > size:
        raise CorpusError(path, None, "the file grew while the corpus was read")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CorpusError(
            path, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
    nul = text.find("\x00")
    if nul != -1:
        raise CorpusError(path, text.count("\n", 0, nul) + 1, "a NUL character; corpus files are text")
    return text.removeprefix("\ufeff")


def _too_large(path: Path, size: int) -> CorpusError:
    return CorpusError(
        path, None, f"the file is {size:,} bytes, over the limit of {MAX_FILE_BYTES:,} (MAX_FILE_BYTES)"
    )
