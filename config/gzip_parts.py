"""A gzip answer made of parts, the large ones compressed once (pure: no Django).

A page that is the same for every reader but for a few kilobytes (the pairings page: 600 KB of
pairings, a header with the reader's name and CSRF token) need not be compressed whole for
every request. DEFLATE lets compressed pieces follow one another when each ends on a byte
boundary without being the last block (a full flush) and refers to nothing before its start
(a fresh compressor): a `Segment` is such a piece, compressed once, with what the gzip
trailer needs (its CRC-32 and length, and the operator that moves a CRC-32 across it, so the
CRC of the whole is found without reading the segment again). `gzip_of` joins the reader's
small parts, compressed per request, and the stored segments into one gzip member.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

LEVEL = 6
# A gzip member's header: deflate, no flags, mtime 0 (as config.published compresses), no
# extra flags, OS unknown.
HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
# An empty last block (fixed Huffman codes, just its end code): ends the DEFLATE stream.
LAST_BLOCK = b"\x03\x00"


@dataclass(frozen=True)
class Segment:
    """`data` and its DEFLATE form, compressed once: full-flushed, not the last block."""

    data: bytes
    deflated: bytes
    crc: int
    # The CRC-32 of (x + data) is shift(crc32(x)) ^ crc: `shift` is linear, kept as the
    # image of each of the 32 bits.
    shift: tuple[int, ...]


def _deflated(data: bytes) -> bytes:
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)


def segment(data: bytes) -> Segment:
    """`data` compressed once, with its CRC-32 and shift (33 passes over it: done once)."""
    crc = zlib.crc32(data)
    shift = tuple(zlib.crc32(data, 1 << bit) ^ crc for bit in range(32))
    return Segment(data=data, deflated=_deflated(data), crc=crc, shift=shift)


def _across(crc: int, part: Segment) -> int:
    """The CRC-32 of (x + part.data), given crc = CRC-32 of x."""
    moved = part.crc
    bit = 0
    while crc:
        if crc & 1:
            moved ^= part.shift[bit]
        crc >>= 1
        bit += 1
    return moved


def joined(parts: Sequence[bytes | Segment]) -> bytes:
    """The parts as one body (what `gzip_of` compresses)."""
    return b"".join(p.data if isinstance(p, Segment) else p for p in parts)


def gzip_of(parts: Sequence[bytes | Segment]) -> bytes:
    """One gzip member holding the parts in order: bytes compressed here, segments as stored."""
    out = [HEADER]
    crc = 0
    size = 0
    for part in parts:
        if isinstance(part, Segment):
            out.append(part.deflated)
            crc = _across(crc, part)
            size += len(part.data)
        elif part:
            out.append(_deflated(part))
            crc = zlib.crc32(part, crc)
            size += len(part)
    out.append(LAST_BLOCK)
    out.append(struct.pack("<II", crc, size & 0xFFFFFFFF))
    return b"".join(out)
