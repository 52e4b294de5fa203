"""Reference for the likes store: what a user would write with the json module, loading and
rewriting the same likes.json (the format shopy writes), with the fsyncs shopy makes (the file
before the rename, the directory after it).

usage: likes.py LIKES.json like ID | unlike ID | list | import EXPORT.json
"""
import json
import os
import sys
import tempfile
import time

path, action = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    document = json.load(f)
likes = document["likes"]

if action == "list":
    items = sorted(likes, key=lambda like: like["likedAt"], reverse=True)
    out = [dict(rank=i + 1, **like) for i, like in enumerate(items)]
    sys.stdout.write(json.dumps({"sort": "recent", "count": len(out), "items": out}, ensure_ascii=False, indent=2))
    sys.exit(0)

if action == "import":
    with open(sys.argv[3], encoding="utf-8") as f:
        incoming = json.load(f)["likes"]
    seen = {like["productId"] for like in likes}
    for like in incoming:
        if like["productId"] not in seen:
            seen.add(like["productId"])
            likes.append(like)
elif action == "like":
    product_id = sys.argv[3]
    if not any(like["productId"] == product_id for like in likes):
        likes.append({"productId": product_id, "title": "benchmark item", "price": 1000, "highPrice": None,
                      "mall": None, "brand": None, "maker": None, "categories": [], "productType": 2,
                      "link": None, "image": None,
                      "likedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "likedPrice": 1000})
else:
    product_id = sys.argv[3]
    document["likes"] = [like for like in likes if like["productId"] != product_id]

directory = os.path.dirname(os.path.abspath(path))
fd, temp = tempfile.mkstemp(dir=directory)
with os.fdopen(fd, "w", encoding="utf-8") as f:
    json.dump(document, f, ensure_ascii=False)
    f.flush()
    os.fsync(f.fileno())
os.replace(temp, path)
dirfd = os.open(directory, os.O_RDONLY)
os.fsync(dirfd)
os.close(dirfd)
