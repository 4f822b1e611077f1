"""The text of a pack file from its bytes, as every reader of pack files takes it (UTF-8,
universal newlines, within the size limit): without the YAML parser, for the validation cache,
which compares texts before it parses any."""

from __future__ import annotations

from rulekit.errors import Location, PackFileError
from rulekit.limits import MAX_FILE_BYTES

__all__ = ["decode_text", "too_big"]


def too_big(name: str, size: int) -> PackFileError:
    """The error of a pack file called ``name`` of ``size`` bytes, over the limit."""
    return PackFileError(f"{name} is {size:,} bytes long; the limit for a pack file is "
                         f"{MAX_FILE_BYTES:,} bytes", Location(name, 1, 1, None))


def decode_text(raw: bytes, name: str) -> str:
    """The text of the bytes of a pack file called ``name`` (UTF-8, universal newlines);
    raises :class:`PackFileError` if they are not UTF-8 or too many."""
    if len(raw) > MAX_FILE_BYTES:
        raise too_big(name, len(raw))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", "replace")) + 1
        raise PackFileError(
            f"{name} is not UTF-8 text (byte 0x{raw[error.start]:02x} on line {line})",
            Location(name, line, column, None),
            "save the file with the UTF-8 encoding",
        ) from None
    # Universal newlines, as Path.read_text would do.
    return text.replace("\r\n", "\n").replace("\r", "\n")
