"""The local model's assembly: parts concatenated in order, checked, and only then put in place."""

import struct

import pytest

from groundgate.errors import ConfigError
from groundgate.models.gguf import assemble, main, read_metadata


def _string(text):
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def _gguf(name="Qwen2.5 Coder 1.5B Instruct GGUF"):
    kv = [
        _string("general.architecture") + struct.pack("<I", 8) + _string("qwen2"),
        _string("tokenizer.ggml.scores") + struct.pack("<IIQ", 9, 6, 3) + struct.pack("<3f", 0.1, 0.2, 0.3),
        _string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 2) + _string("a") + _string("b"),
        _string("general.name") + struct.pack("<I", 8) + _string(name),
        _string("qwen2.block_count") + struct.pack("<I", 4) + struct.pack("<I", 28),
    ]
    return b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv)) + b"".join(kv) + b"\0" * 64


def _split(tmp_path, data, n=3):
    size = len(data) // n + 1
    parts = []
    for i in range(n):
        part = tmp_path / f"part{i + 1:02d}.bin"
        part.write_bytes(data[i * size:(i + 1) * size])
        parts.append(part)
    return parts


def test_parts_in_order_make_the_model_and_its_name_is_read(tmp_path):
    data = _gguf()
    out = tmp_path / "model.gguf"
    assert assemble(out, _split(tmp_path, data), expect_name="qwen2.5") == "Qwen2.5 Coder 1.5B Instruct GGUF"
    assert out.read_bytes() == data
    meta = read_metadata(out)
    assert meta["general.architecture"] == "qwen2" and meta["qwen2.block_count"] == 28


def test_parts_out_of_order_leave_no_file(tmp_path):
    out = tmp_path / "model.gguf"
    with pytest.raises(ConfigError, match="not a GGUF file"):
        assemble(out, list(reversed(_split(tmp_path, _gguf()))))
    assert not out.exists() and not list(tmp_path.glob("*.partial"))


def test_another_model_is_refused_by_name(tmp_path):
    out = tmp_path / "model.gguf"
    with pytest.raises(ConfigError, match="named 'Llama 3'"):
        assemble(out, _split(tmp_path, _gguf("Llama 3")), expect_name="qwen2.5")
    assert not out.exists()


def test_a_missing_part_is_named(tmp_path, capsys):
    assert main(["assemble", str(tmp_path / "m.gguf"), str(tmp_path / "part01.bin")]) == 1
    assert "part01.bin" in capsys.readouterr().err


def test_a_cut_header_is_an_error_not_a_crash(tmp_path):
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(_gguf()[:40])
    with pytest.raises(ConfigError, match="ends inside its header"):
        read_metadata(cut)
