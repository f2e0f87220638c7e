#!/usr/bin/env python3
"""Databases whose schemas sit in every layout SQLite makes, for schema-first.test.mjs.

    python3 tests/e2e/schema-layouts.py OUT_DIR

Writes OUT_DIR/*.db and OUT_DIR/layouts.json: for each file, the pages of its schema
(sqlite_schema's b-tree with its overflow pages) as SQLite's dbstat lists them. Layouts: page
sizes from 512 to 65536 bytes; a schema on one page, on many (interior pages), with statements
longer than a page (overflow chains); schema pages beyond the first MiB (tables created after
the data); pages with reserved bytes at their end (a file written by hand, then filled by SQLite).
"""

import json
import os
import sqlite3
import struct
import sys

MIB = 1024 * 1024


def empty_file_with_reserved_bytes(path, page_size, reserved):
    """An empty database of one page whose pages keep `reserved` bytes at their end (what
    SQLite's SQLITE_FCNTL_RESERVE_BYTES does; Python's sqlite3 cannot ask for it). SQLite lays
    out every page it adds by this header. https://www.sqlite.org/fileformat2.html"""
    header = bytearray(100)
    header[0:16] = b"SQLite format 3\x00"
    struct.pack_into(">H", header, 16, 1 if page_size == 65536 else page_size)
    header[18] = header[19] = 1  # legacy (rollback) journal
    header[20] = reserved
    header[21], header[22], header[23] = 64, 32, 32  # payload fractions, fixed by the format
    struct.pack_into(">I", header, 24, 1)  # change counter
    struct.pack_into(">I", header, 28, 1)  # pages in the file
    struct.pack_into(">I", header, 44, 4)  # schema format
    struct.pack_into(">I", header, 56, 1)  # UTF-8
    struct.pack_into(">I", header, 92, 1)  # valid for this change counter
    struct.pack_into(">I", header, 96, 3040001)
    page = bytearray(page_size)
    page[:100] = header
    # An empty table b-tree leaf: no cells, its content area starting at the usable end.
    page[100] = 0x0D
    struct.pack_into(">H", page, 105, (page_size - reserved) % 65536)
    with open(path, "wb") as out:
        out.write(page)


def fill(path, page_size, tables, columns, data_bytes=0, later_tables=0, long_names=False):
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA page_size = {page_size}")
    name = (lambda i: f"a_rather_long_column_name_to_spill_the_statement_{i:04}") if long_names else (lambda i: f"c{i}")
    for t in range(tables):
        cols = ", ".join(f"{name(c)} TEXT" for c in range(columns))
        db.execute(f"CREATE TABLE t{t:04} (id INTEGER PRIMARY KEY, {cols})")
        if t % 3 == 0:
            db.execute(f"CREATE INDEX i{t:04} ON t{t:04} ({name(0)})")
    db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
    db.execute("CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id))")
    db.execute("CREATE VIEW v_children AS SELECT c.id, p.id AS parent FROM child c JOIN parent p ON p.id = c.parent_id")
    if data_bytes:
        db.execute("CREATE TABLE blob_data (id INTEGER PRIMARY KEY, b BLOB)")
        chunk = 4000
        db.executemany("INSERT INTO blob_data (b) VALUES (?)", ((os.urandom(chunk),) for _ in range(data_bytes // chunk)))
    for t in range(later_tables):
        more = "".join(f", {name(c)} TEXT" for c in range(40)) if long_names else ""
        db.execute(f"CREATE TABLE later{t:04} (id INTEGER PRIMARY KEY, note TEXT, amount REAL{more})")
    db.commit()
    pages = [row[0] for row in db.execute("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema' ORDER BY pageno")]
    db.close()
    return pages


LAYOUTS = {
    # name: (page size, reserved bytes, tables, columns, data bytes, later tables, long names)
    "one-page-4096": (4096, 0, 3, 3, 0, 0, False),
    "interior-512": (512, 0, 120, 4, 0, 0, False),
    "interior-1024": (1024, 0, 300, 6, 0, 0, False),
    "overflow-512": (512, 0, 6, 40, 0, 0, True),
    "overflow-4096": (4096, 0, 4, 200, 0, 0, True),
    "overflow-65536": (65536, 0, 3, 1500, 0, 0, True),
    "beyond-head-1024": (1024, 0, 10, 4, 2 * MIB, 400, False),
    "beyond-head-4096": (4096, 0, 20, 30, 3 * MIB, 600, True),
    "beyond-head-65536": (65536, 0, 3, 10, 2 * MIB, 60, True),
    "overflow-beyond-head-512": (512, 0, 4, 4, 2 * MIB, 60, True),
    "overflow-beyond-head-1024": (1024, 0, 4, 4, 2 * MIB, 60, True),
    "reserved-8-1024": (1024, 8, 40, 30, 0, 0, True),
    "reserved-32-4096": (4096, 32, 20, 120, 2 * MIB, 200, True),
}


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    layouts = {}
    for name, (page_size, reserved, tables, columns, data, later, long_names) in LAYOUTS.items():
        path = os.path.join(out_dir, f"{name}.db")
        if os.path.exists(path):
            os.remove(path)
        if reserved:
            empty_file_with_reserved_bytes(path, page_size, reserved)
        pages = fill(path, page_size, tables, columns, data, later, long_names)
        with open(path, "rb") as f:
            head = f.read(100)
        assert head[20] == reserved, f"{name}: reserved bytes {head[20]}, not {reserved}"
        layouts[name] = {"file": path, "pageSize": page_size, "reserved": reserved, "schemaPages": pages}
    with open(os.path.join(out_dir, "layouts.json"), "w") as f:
        json.dump(layouts, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
