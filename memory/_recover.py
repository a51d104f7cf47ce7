"""Read rows straight from the pages of a damaged SQLite file (and its WAL), without SQLite.

When the b-tree above them is broken or the file is truncated, the table rows still sit in the
leaf pages that survive. This walks every page (main file, then committed WAL frames over it),
decodes the cells of table leaf pages, follows overflow chains that are still there, and returns
each record as a tuple of column values. Pages on the freelist are skipped so deleted rows do
not come back. Format: https://www.sqlite.org/fileformat2.html
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

_LEAF_TABLE = 0x0D
Value = int | float | str | bytes | None


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        if pos + i >= len(data):
            raise ValueError("varint past the end")
        byte = data[pos + i]
        if i == 8:
            return (value << 8) | byte, pos + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos + i + 1
    raise ValueError("bad varint")  # pragma: no cover - the loop always returns


def _pages(path: Path) -> tuple[dict[int, bytes], int, int]:
    """Page number -> page bytes (WAL frames over the main file), page size, usable size."""
    data = path.read_bytes()
    if len(data) < 100 or not data.startswith(b"SQLite format 3\x00"):
        raise ValueError("not an SQLite file")
    (size,) = struct.unpack(">H", data[16:18])
    page_size = 65536 if size == 1 else size
    usable = page_size - data[20]
    pages = {
        n + 1: data[n * page_size : (n + 1) * page_size] for n in range(len(data) // page_size)
    }
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        pages.update(_wal_pages(wal.read_bytes(), page_size))
    for free in _freelist(pages, data, usable):
        pages.pop(free, None)
    return pages, page_size, usable


def _wal_pages(wal: bytes, page_size: int) -> dict[int, bytes]:
    """Pages of the WAL's committed transactions (frames after the last commit are dropped)."""
    if len(wal) < 32:
        return {}
    salts = wal[16:24]
    committed: dict[int, bytes] = {}
    pending: dict[int, bytes] = {}
    pos = 32
    while pos + 24 + page_size <= len(wal):
        number, commit = struct.unpack(">II", wal[pos : pos + 8])
        if wal[pos + 8 : pos + 16] != salts:
            break
        pending[number] = wal[pos + 24 : pos + 24 + page_size]
        if commit:
            committed.update(pending)
            pending = {}
        pos += 24 + page_size
    return committed


def _freelist(pages: dict[int, bytes], header: bytes, usable: int) -> set[int]:
    free: set[int] = set()
    (trunk,) = struct.unpack(">I", header[32:36])
    while trunk and trunk in pages and trunk not in free:
        page = pages[trunk]
        free.add(trunk)
        nxt, count = struct.unpack(">II", page[:8])
        count = min(count, (usable - 8) // 4)
        free.update(struct.unpack(f">{count}I", page[8 : 8 + 4 * count]))
        trunk = nxt
    return free


def _payload(pages: dict[int, bytes], page: bytes, pos: int, usable: int) -> tuple[int, bytes]:
    """(rowid, payload) of the table leaf cell at pos; raises when its overflow is gone."""
    length, pos = _varint(page, pos)
    rowid, pos = _varint(page, pos)
    most = usable - 35
    if length <= most:
        return rowid, page[pos : pos + length]
    least = ((usable - 12) * 32 // 255) - 23
    local = least + (length - least) % (usable - 4)
    if local > most:
        local = least
    out = bytearray(page[pos : pos + local])
    (nxt,) = struct.unpack(">I", page[pos + local : pos + local + 4])
    seen: set[int] = set()
    while len(out) < length:
        if nxt == 0 or nxt not in pages or nxt in seen:
            raise ValueError("overflow page missing")
        seen.add(nxt)
        overflow = pages[nxt]
        out += overflow[4:usable][: length - len(out)]
        (nxt,) = struct.unpack(">I", overflow[:4])
    return rowid, bytes(out)


def _record(payload: bytes) -> tuple[Value, ...]:
    header_size, pos = _varint(payload, 0)
    types = []
    while pos < header_size:
        serial, pos = _varint(payload, pos)
        types.append(serial)
    body = header_size
    values: list[Value] = []
    sizes = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 7: 8, 8: 0, 9: 0}
    for serial in types:
        if serial in sizes:
            width = sizes[serial]
            chunk = payload[body : body + width]
            if len(chunk) != width:
                raise ValueError("record past the end")
            if serial == 0:
                values.append(None)
            elif serial == 7:
                values.append(struct.unpack(">d", chunk)[0])
            elif serial in (8, 9):
                values.append(serial - 8)
            else:
                values.append(int.from_bytes(chunk, "big", signed=True))
            body += width
            continue
        if serial < 12:
            raise ValueError("reserved serial type")
        width = (serial - 12) // 2
        chunk = payload[body : body + width]
        if len(chunk) != width:
            raise ValueError("record past the end")
        values.append(chunk.decode("utf-8") if serial % 2 else bytes(chunk))
        body += width
    return tuple(values)


def scan_rows(path: Path) -> Iterator[tuple[int, tuple[Value, ...]]]:
    """(rowid, column values) of every cell of every readable table leaf page."""
    pages, _, usable = _pages(path)
    for number, page in sorted(pages.items()):
        start = 100 if number == 1 else 0
        if len(page) < start + 8 or page[start] != _LEAF_TABLE:
            continue
        (cells,) = struct.unpack(">H", page[start + 3 : start + 5])
        for i in range(cells):
            at = start + 8 + 2 * i
            try:
                (offset,) = struct.unpack(">H", page[at : at + 2])
                rowid, payload = _payload(pages, page, offset, usable)
                yield rowid, _record(payload)
            except (ValueError, struct.error, UnicodeDecodeError):
                continue


__all__ = ["scan_rows"]
