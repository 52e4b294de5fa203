"""Reference for reading an 11번가 answer: what a Python client does with xml.etree, as public
clients of the service do (decode the EUC-KR bytes, parse, read each <Product>'s fields).
ElementTree's expat cannot read a multi-byte encoding itself, so the bytes are decoded first,
as those clients decode them.

usage: elevenst_parse.py ANSWER.xml ROUNDS   -> prints seconds per answer (median of 5 rounds)
"""
import sys
import time
import xml.etree.ElementTree as ET

data = open(sys.argv[1], "rb").read()
rounds = int(sys.argv[2])
FIELDS = ("ProductCode", "ProductName", "ProductPrice", "SalePrice", "ProductImage", "ProductImage300", "SellerNick",
          "Seller", "DetailPageUrl", "Delivery", "ReviewCount", "BuySatisfy", "Rating")
checksum = 0
times = []
for _ in range(5):  # the median of five rounds, as the Swift side does
    start = time.perf_counter()
    for _ in range(rounds):
        root = ET.fromstring(data.decode("euc-kr"))
        total = int(root.findtext("Products/TotalCount") or 0)
        products = [{name: p.findtext(name) for name in FIELDS} for p in root.iter("Product")]
        checksum += total + len(products)
    times.append((time.perf_counter() - start) / rounds)
print(sorted(times)[2])
