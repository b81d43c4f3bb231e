"""config/gzip_parts.py: stored DEFLATE segments and per-request parts joined into one gzip
member that any gzip reader decodes to the parts in order, with a correct CRC and length."""

from __future__ import annotations

import gzip
import os
import zlib

import pytest

from config import gzip_parts


@pytest.mark.parametrize(
    "parts",
    [
        [b"<head>", b"LISTS", b"</html>"],
        [b"", b"LISTS", b""],
        [b"LISTS"],
        [b"only bytes", b" and more"],
        [],
    ],
)
def test_the_parts_decode_to_their_join(parts: list[bytes]) -> None:
    big = os.urandom(5000) + b"<tr><td>Player</td></tr>" * 5000
    shown = [gzip_parts.segment(big) if p == b"LISTS" else p for p in parts]
    zipped = gzip_parts.gzip_of(shown)
    expected = b"".join(big if p == b"LISTS" else p for p in parts)
    assert gzip.decompress(zipped) == expected
    assert zlib.decompress(zipped, 16 + zlib.MAX_WBITS) == expected  # one member, checked
    assert gzip_parts.joined(shown) == expected


def test_two_segments_and_a_wrong_crc_is_refused() -> None:
    first, second = gzip_parts.segment(b"a" * 70000), gzip_parts.segment(os.urandom(3000))
    zipped = gzip_parts.gzip_of([b"x", first, b"y", second, b"z"])
    assert gzip.decompress(zipped) == b"x" + b"a" * 70000 + b"y" + second.data + b"z"
    broken = zipped[:-8] + bytes([zipped[-8] ^ 1]) + zipped[-7:]
    with pytest.raises(zlib.error):
        zlib.decompress(broken, 16 + zlib.MAX_WBITS)


def test_a_stored_segment_is_compressed() -> None:
    lists = b"<tr><td>Player 1234</td><td>Table 17</td></tr>\n" * 20000
    assert len(gzip_parts.segment(lists).deflated) < len(lists) // 20
