"""Reference for a catalog search: what `shopy search QUERY --source catalog --format json`
does, in plain Python: load the recorded items, keep those where every term is in the cleaned
lowercased title, brand, maker or a category, score them, print the first page as JSON.

usage: python3 -S -E catalog_search.py ITEMS.json QUERY SIZE
"""
import html
import json
import re
import sys

path, query, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(path, encoding="utf-8") as f:
    items = json.load(f)
terms = query.lower().split()
phrase = " ".join(terms)
tag = re.compile("<[^>]+>")
scored = []
for i, item in enumerate(items):
    title = html.unescape(tag.sub("", item["title"])).lower()
    fields = [html.unescape(tag.sub("", item.get(k) or "")).lower() for k in ("brand", "maker", "category1", "category2", "category3", "category4")]
    fields = [x for x in fields if x]
    total = 0
    for term in terms:
        best = 0
        at = title.find(term)
        if at >= 0:
            best = 10 if at == 0 or title[at - 1].isspace() else 6
        for field in fields:
            if best >= 5:
                break
            if field == term:
                best = 5
            elif term in field:
                best = max(best, 3)
        if best == 0:
            total = None
            break
        total += best
    if total is None:
        continue
    if len(terms) > 1 and phrase in title:
        total += 5
    scored.append((-total, i))
scored.sort()
page = [items[i] for _, i in scored[:size]]
out = [{"rank": r + 1, "productId": it["productId"], "title": html.unescape(tag.sub("", it["title"])),
        "mall": it.get("mallName") or None, "link": it.get("link") or None} for r, it in enumerate(page)]
print(json.dumps({"query": query, "source": "catalog", "total": len(scored), "start": 1, "display": len(out), "items": out},
                 ensure_ascii=False, indent=2))
