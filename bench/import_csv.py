"""The importer's benchmark data and Python's time on it (issue 27, docs/benchmarks.md).

    python3 bench/import_csv.py generate [--rows 1000000] [--out /tmp/askdb-import/rows.csv]
    python3 bench/import_csv.py python   [--csv /tmp/askdb-import/rows.csv]

generate: a CSV of mixed types, about 100 bytes a row (1,000,000 rows: about 100 MB), the same
for the same --rows (seeded): an integer id, a name, a price (REAL), a quantity, a zip code
with leading zeros (TEXT), an ISO date, a boolean, and a note with commas, quotes and, now and
then, a line break inside quotes.

python: the baseline, as a person would write it with the standard library: csv.reader, a
table with the same column types, executemany in one transaction, into an in-memory database.
Prints seconds and rows.
"""

import argparse
import csv
import os
import random
import sqlite3
import sys
import time

HEADER = ["id", "customer", "price", "quantity", "zip", "ordered_on", "paid", "note"]
TYPES = ["INTEGER", "TEXT", "REAL", "INTEGER", "TEXT", "TEXT", "INTEGER", "TEXT"]
WORDS = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima".split()


def generate(rows, out):
    rng = random.Random(27)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for i in range(1, rows + 1):
            note = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 10)))
            if i % 50 == 0:
                note += ', said "ok"'
            if i % 1000 == 0:
                note += "\nsecond line"
            w.writerow([
                i,
                f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()}",
                f"{rng.uniform(0.5, 999):.2f}",
                rng.randint(1, 20),
                f"{rng.randint(501, 99950):05d}",
                f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                rng.choice(["true", "false"]),
                note,
            ])
    print(f"{out}: {rows} rows, {os.path.getsize(out) / 1e6:.1f} MB")


def python_import(path):
    started = time.perf_counter()
    db = sqlite3.connect(":memory:")
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = next(reader)
        columns = ", ".join(f'"{n}" {t}' for n, t in zip(header, TYPES))
        db.execute(f"CREATE TABLE rows ({columns})")
        marks = ", ".join("?" for _ in header)
        with db:
            db.executemany(f"INSERT INTO rows VALUES ({marks})", reader)
    n = db.execute("SELECT count(*) FROM rows").fetchone()[0]
    seconds = time.perf_counter() - started
    print(f"python csv+sqlite3: {seconds:.2f} s for {n} rows")
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["generate", "python"])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--out", default="/tmp/askdb-import/rows.csv")
    parser.add_argument("--csv", default="/tmp/askdb-import/rows.csv")
    args = parser.parse_args()
    if args.what == "generate":
        generate(args.rows, args.out)
    else:
        python_import(args.csv)


if __name__ == "__main__":
    sys.exit(main())
