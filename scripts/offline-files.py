#!/usr/bin/env python3
"""Writes offline-files.js into a built page's folder: the files the service worker (www/sw.js)
keeps for offline use, each with its SHA-256 (the browser checks each download against it), and
the build's version, a hash of all their bytes and of sw.js's.

Run at the end of scripts/build-page-wasm.sh, when Trunk's staging folder holds the whole page
(Trunk runs the hooks of one stage side by side, so this cannot be a hook of its own):

    python3 scripts/offline-files.py "$TRUNK_STAGING_DIR"

Trunk builds with filehash = false, so a file keeps its name from one build to the next: the
version is what tells two builds apart. sw.js imports this file, and the browser compares a
service worker's imports byte for byte on each visit: a new version is a new service worker.
"""

import base64
import hashlib
import json
import sys
from pathlib import Path

OUT = "offline-files.js"
WORKER = "sw.js"
# For documentation pages that embed askdb (docs/embed.md), not for the page itself: a host page
# loads them from its own site, and the example's database alone is a megabyte.
LEFT_OUT = ("askdb-embed.js", "embed-example.html", "examples/")


def kept(path: str) -> bool:
    return path not in (OUT, WORKER) and not path.startswith(LEFT_OUT)


def main() -> None:
    root = Path(sys.argv[1])
    paths = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    files = []
    version = hashlib.sha256()
    for path in paths:
        digest = hashlib.sha256((root / path).read_bytes()).digest()
        if path == WORKER or kept(path):
            version.update(f"{path}\0{digest.hex()}\n".encode())
        if kept(path):
            files.append({"path": path, "integrity": "sha256-" + base64.b64encode(digest).decode()})
    if not any(f["path"] == "index.html" for f in files):
        sys.exit(f"offline-files.py: no index.html in {root}: is it Trunk's staging folder?")
    short_version = version.hexdigest()[:16]
    listed = ",\n".join(f"    {json.dumps(file)}" for file in files)
    (root / OUT).write_text(
        "// Written by scripts/offline-files.py at build time: the files sw.js keeps and this\n"
        "// build's version. Not to be edited.\n"
        "self.ASKDB_OFFLINE = {\n"
        f'  "version": "{short_version}",\n'
        f'  "files": [\n{listed}\n  ]\n'
        "};\n"
    )
    print(f"offline-files.py: {len(files)} files, version {short_version}")


if __name__ == "__main__":
    main()
