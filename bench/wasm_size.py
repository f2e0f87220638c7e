"""Where the page's wasm bytes are (issue 28, docs/benchmarks.md): twiggy's items (its csv on
stdin) summed by crate (askdb's by module), then the 20 largest items. The custom sections
that the shipped build strips (names, debug info, wasm-bindgen's) are left out."""

import collections
import csv
import re
import sys

SKIPPED = ('"function names"', "custom section", "...", "Σ")


def group(name):
    if name.startswith("data segment"):
        return name
    m = re.match(r"^<?([A-Za-z_]\w*)(?:::([A-Za-z_]\w*))?(?:::([A-Za-z_]\w*))?", name)
    if not m:
        return "other"
    crate, module, sub = m.groups()
    if crate in ("core", "alloc", "std"):
        return "core/alloc/std"
    if crate == "export":
        return "wasm-bindgen's exported glue (not shipped)"
    if crate == "askdb" and module:
        return f"askdb::{module}" + (f"::{sub}" if module in ("ui", "agent") and sub else "")
    return crate


items = [
    (int(r["ShallowSize"]), r["Name"])
    for r in csv.DictReader(sys.stdin)
    if not r["Name"].startswith(SKIPPED)
]
total = sum(b for b, _ in items)
by_group = collections.Counter()
for size, name in items:
    by_group[group(name)] += size
print(f"{total:,} bytes of code and data")
for name, size in by_group.most_common(15):
    print(f"{size:>10,} {100 * size / total:5.1f} %  {name}")
print("the 20 largest items:")
for size, name in sorted(items, reverse=True)[:20]:
    print(f"{size:>10,} {100 * size / total:5.1f} %  {re.sub(r'::h[0-9a-f]{16}$', '', name)[:110]}")
