"""Reference for `shopy catalog import FILE`: load the items with json, dedupe by productId
(the later record wins, in the first one's place), write the list back with fsync (temp file,
fsync, rename, directory fsync).

usage: python3 -S -E catalog_import.py ITEMS.json OUT.json
"""
import json
import os
import sys

source, target = sys.argv[1], sys.argv[2]
with open(source, encoding="utf-8") as f:
    data = json.load(f)
items = data["items"] if isinstance(data, dict) else data
merged = {}
for item in items:
    merged[str(item["productId"])] = item
tmp = target + ".tmp"
with open(tmp, "w", encoding="utf-8") as f:
    json.dump({"schema": 1, "items": list(merged.values())}, f, ensure_ascii=False)
    f.flush()
    os.fsync(f.fileno())
os.rename(tmp, target)
fd = os.open(os.path.dirname(os.path.abspath(target)), os.O_RDONLY)
os.fsync(fd)
os.close(fd)
print(len(merged))
