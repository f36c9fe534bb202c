"""Files for corpus tests: write a folder of documents, make one unreadable."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path
from typing import Any

__all__ = ["make_unreadable", "write_files"]


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (relative name to text, dedented, or bytes) below ``root``; returns ``root``."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root


def make_unreadable(path: Path, monkeypatch: Any) -> None:
    """Make ``path`` unreadable; as root, chmod alone does not stop a read, so opening fails too.

    ``monkeypatch`` is pytest's fixture: the patched ``Path.open`` is undone after the test.
    """
    path.chmod(0)
    if os.geteuid() == 0:
        real_open = Path.open

        def open_(self: Path, *args: Any, **kwargs: Any) -> Any:
            if Path(self) == path:
                raise PermissionError(13, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", open_)
