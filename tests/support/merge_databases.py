#!/usr/bin/env python3
"""Merges SQLite databases into one file, each table renamed with a prefix, as databases of
hundreds of tables often are (`nw_orders`, `sk_film`): for askdb's schema-selection tests and
benchmark.

    python3 merge_databases.py OUT.db PREFIX=SOURCE.db [PREFIX=SOURCE.db ...]

Each table keeps its columns, declared types, primary key, NOT NULL and foreign keys (their
targets renamed too) and its rows; indexes on its columns are made again. Views and triggers
are left out (their SQL names the old tables). Deterministic: the same sources give the same
file.
"""
import os
import sqlite3
import sys


def quote(name):
    return '"' + name.replace('"', '""') + '"'


def table_sql(src, table, prefix):
    columns = src.execute(f"PRAGMA table_info({quote(table)})").fetchall()
    keys = [c for c in columns if c[5] > 0]
    parts = []
    for cid, name, decl, notnull, default, pk in columns:
        part = f"{quote(name)} {decl}".rstrip()
        if pk and len(keys) == 1:
            part += " PRIMARY KEY"
        if notnull:
            part += " NOT NULL"
        if default is not None:
            part += f" DEFAULT {default}"
        parts.append(part)
    if len(keys) > 1:
        ordered = sorted(keys, key=lambda c: c[5])
        parts.append("PRIMARY KEY (" + ", ".join(quote(c[1]) for c in ordered) + ")")
    foreign = {}
    for row in src.execute(f"PRAGMA foreign_key_list({quote(table)})").fetchall():
        key_id, seq, target, source_col, target_col = row[0], row[1], row[2], row[3], row[4]
        foreign.setdefault(key_id, (target, []))[1].append((seq, source_col, target_col))
    for key_id in sorted(foreign):
        target, pairs = foreign[key_id]
        pairs.sort()
        sources = ", ".join(quote(p[1]) for p in pairs)
        targets = [p[2] for p in pairs if p[2] is not None]
        clause = f"FOREIGN KEY ({sources}) REFERENCES {quote(prefix + target)}"
        if targets:
            clause += " (" + ", ".join(quote(t) for t in targets) + ")"
        parts.append(clause)
    return f"CREATE TABLE {quote(prefix + table)} (\n  " + ",\n  ".join(parts) + "\n)"


def main():
    out, sources = sys.argv[1], sys.argv[2:]
    if not sources:
        sys.exit(__doc__)
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    db.execute("PRAGMA journal_mode=OFF")
    for n, spec in enumerate(sources):
        prefix, path = spec.split("=", 1)
        src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.execute(f"ATTACH ? AS src{n}", (f"file:{path}?mode=ro",))
        tables = [r[0] for r in src.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        for table in tables:
            db.execute(table_sql(src, table, prefix))
            db.execute(f"INSERT INTO {quote(prefix + table)} SELECT * FROM src{n}.{quote(table)}")
            for (index,) in src.execute(
                    "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? "
                    "AND sql IS NOT NULL ORDER BY name", (table,)):
                cols = [r[2] for r in src.execute(f"PRAGMA index_info({quote(index)})")]
                if None in cols:
                    continue
                db.execute(f"CREATE INDEX {quote(prefix + index)} ON {quote(prefix + table)} ("
                           + ", ".join(quote(c) for c in cols) + ")")
        db.commit()
        db.execute(f"DETACH src{n}")
        src.close()
    db.commit()
    db.execute("VACUUM")
    db.close()


if __name__ == "__main__":
    main()
