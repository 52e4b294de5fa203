"""Reference for a whole-process search: a plain urllib + json script doing what
`shopy search QUERY --format json --size N` does (request, decode, clean titles, print JSON).

usage: search.py BASE QUERY SIZE   (keys from NAVER_CLIENT_ID / NAVER_CLIENT_SECRET)
"""
import html
import json
import os
import re
import sys
import urllib.parse
import urllib.request

base, query, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
url = f"{base}/v1/search/shop.json?" + urllib.parse.urlencode(
    {"query": query, "display": size, "start": 1, "sort": "sim"}, quote_via=urllib.parse.quote)
request = urllib.request.Request(url, headers={
    "X-Naver-Client-Id": os.environ["NAVER_CLIENT_ID"],
    "X-Naver-Client-Secret": os.environ["NAVER_CLIENT_SECRET"],
})
with urllib.request.urlopen(request, timeout=10) as response:
    data = json.load(response)


def price(text):
    try:
        value = int(text)
    except (TypeError, ValueError):
        return None
    return value if value > 0 else None


items = []
for rank, item in enumerate(data["items"], start=data["start"]):
    items.append({
        "rank": rank,
        "productId": item["productId"],
        "title": html.unescape(re.sub("<[^>]+>", "", item["title"])),
        "price": price(item.get("lprice")),
        "highPrice": price(item.get("hprice")),
        "mall": item.get("mallName") or None,
        "brand": item.get("brand") or None,
        "maker": item.get("maker") or None,
        "categories": [item[k] for k in ("category1", "category2", "category3", "category4") if item.get(k)],
        "productType": int(item["productType"]) if item.get("productType") else None,
        "link": item.get("link") or None,
        "image": item.get("image") or None,
    })
print(json.dumps({"query": query, "sort": "sim", "source": "naver", "total": data["total"],
                  "start": data["start"], "display": data["display"], "items": items},
                 ensure_ascii=False, indent=2))
