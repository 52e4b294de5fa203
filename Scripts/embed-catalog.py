#!/usr/bin/env python3
"""Embeds Fixtures/recorded-items.json into the shopy binary: the items as a Swift raw string
literal, and their index (the format of Sources/ShopYCore/Catalog/CatalogIndexFormat.swift)
precomputed here as a C array in the shim target, read in place, so that a search at start-up
builds and decodes nothing.

Run after changing the fixture:  python3 Scripts/embed-catalog.py
Tests (EmbeddedCatalogTests) fail when the generated file does not match the fixture: its
digest, and the index byte for byte against the one CatalogIndexBuilder builds from it.

This mirrors CatalogIndexBuilder and CatalogEntryFacts for the fixture's texts (entities,
runs of spaces, ASCII case); it refuses a fixture with anything it does not mirror.
"""
import hashlib
import json
import pathlib
import re
import struct

root = pathlib.Path(__file__).resolve().parent.parent
fixture = (root / "Fixtures" / "recorded-items.json").read_bytes()
data = fixture.decode("utf-8")
assert '"#' not in data and "\r" not in data, "the fixture cannot hold the raw-string delimiter or CR"
literal = data.rstrip("\n")  # what the multi-line literal holds (its last newline is not content)
literal_bytes = literal.encode("utf-8")

SPACES = {0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000} | set(range(0x2000, 0x200B))
ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'"}
FIELDS = ["title", "link", "image", "lprice", "hprice", "mallName", "productId", "productType",
          "brand", "maker", "category1", "category2", "category3", "category4"]


def clean(text):
    """TitleCleaner.clean for what the fixture holds: tags dropped, the simple entities decoded,
    whitespace runs collapsed to one space, trimmed."""
    assert "<" not in text and ">" not in text, f"a tag in {text!r}: mirror TitleCleaner first"
    for entity in re.findall(r"&[#A-Za-z0-9]+;", text):
        assert entity in ENTITIES, f"entity {entity!r}: mirror TitleCleaner first"
    text = re.sub(r"&[#A-Za-z0-9]+;", lambda m: ENTITIES[m.group(0)], text)
    out, space = [], False
    for ch in text:
        if ord(ch) in SPACES:
            space = True
            continue
        if space and out:
            out.append(" ")
        space = False
        out.append(ch)
    return "".join(out)


def lower(text):
    assert all(ord(c) < 0x80 or c.lower() == c for c in text), f"non-ASCII case in {text!r}: mirror Swift's lowercased() first"
    return text.lower()


def keys(text):
    found, previous = set(), 0
    for ch in text:
        scalar = ord(ch)
        if scalar in SPACES:
            previous = 0
            continue
        found.add((1 << 42) | scalar)
        if previous:
            found.add((previous << 21) | scalar)
        previous = scalar
    return found


def fnv(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def price(text):
    text = (text or "").strip(" \t\n\r\x0b\x0c")
    return int(text) if re.fullmatch(r"[+-]?[0-9]+", text) and int(text) > 0 else 0


# The items and the byte range of each in the literal.
decoder = json.JSONDecoder()
at = literal.index("[") + 1
items, ranges = [], []
byte_at, char_at = 0, 0


def byte_offset(i):
    global byte_at, char_at
    byte_at += len(literal[char_at:i].encode("utf-8"))
    char_at = i
    return byte_at


while True:
    while literal[at] in " \n\t,":
        at += 1
    if literal[at] == "]":
        break
    item, end = decoder.raw_decode(literal, at)
    assert isinstance(item, dict) and all(isinstance(item.get(k, ""), str) for k in FIELDS)
    start = byte_offset(at)
    ranges.append((start, byte_offset(end) - start))
    items.append(item)
    at = end

records, text, postings, ids = bytearray(), bytearray(), {}, []
for ordinal, item in enumerate(items):
    cleaned = clean(item["title"])
    title = lower(cleaned).encode("utf-8")
    fields = [lower(clean(item[k])) for k in ("brand", "maker", "category1", "category2", "category3", "category4") if k in item]
    fields = [f.encode("utf-8") for f in fields if f]
    text_start = len(text)
    text += title
    item_keys = keys(title.decode())
    for field in fields:
        text += field + b"\x1f"
        item_keys |= keys(field.decode())
    product_id = item["productId"].encode("utf-8")
    text += product_id
    for key in item_keys:
        postings.setdefault(key, []).append(ordinal)
    ids.append((fnv(product_id), ordinal))
    link, flags = item.get("link", ""), 0
    if "://smartstore.naver.com/" in link or "://brand.naver.com/" in link:
        flags |= 1
    if item.get("productType", "").isdigit() and 4 <= int(item["productType"]) <= 6:
        flags |= 2
    if "렌탈" in cleaned:
        flags |= 4
    if "해외직구" in cleaned or "구매대행" in cleaned:
        flags |= 8
    start, length = ranges[ordinal]
    records += struct.pack("<QIIQIHHqB7x", start, length, len(title), text_start,
                           sum(len(f) + 1 for f in fields), len(product_id), len(item["productId"]),
                           price(item.get("lprice")), flags)

sorted_keys = sorted(postings)
posting_count = sum(len(v) for v in postings.values())
out = bytearray(b"SHPYIDX1")
out += struct.pack("<7Q", len(items), len(sorted_keys), posting_count, len(text), 0, len(literal_bytes), 0)
out += records
out += b"".join(struct.pack("<Q", k) for k in sorted_keys)
start = 0
out += struct.pack("<Q", 0)
for k in sorted_keys:
    start += len(postings[k])
    out += struct.pack("<Q", start)
for k in sorted_keys:
    out += b"".join(struct.pack("<I", o) for o in postings[k])
while len(out) % 8:
    out += b"\0"
for h, o in sorted(ids):
    out += struct.pack("<QQ", h, o)
out += text

digest = hashlib.sha256(fixture).hexdigest()
target = root / "Sources" / "ShopYCore" / "Catalog" / "EmbeddedCatalog.swift"
target.write_text(
    "// Generated by Scripts/embed-catalog.py from Fixtures/recorded-items.json. Do not edit.\n"
    f"// {len(items)} items recorded from the Naver Shopping search API in 2025, as the API returned them.\n"
    "// Their index (CatalogIndexFormat) is Sources/CShopYShim/embedded_catalog_index.c, so that\n"
    "// start-up builds nothing.\n\n"
    f"let embeddedCatalogFixtureSHA256 = \"{digest}\"\n\n"
    f"let embeddedCatalogJSON: StaticString = #\"\"\"\n{literal}\n\"\"\"#\n",
    encoding="utf-8",
)
index_source = root / "Sources" / "CShopYShim" / "embedded_catalog_index.c"
rows = [",".join(f"0x{b:02x}" for b in out[i:i + 24]) for i in range(0, len(out), 24)]
index_source.write_text(
    "// Generated by Scripts/embed-catalog.py from Fixtures/recorded-items.json. Do not edit.\n"
    f"// The embedded catalog's index (CatalogIndexFormat), {len(out)} bytes, read in place.\n"
    "#include \"CShopYShim.h\"\n\n"
    f"static const unsigned char index_bytes[{len(out)}] __attribute__((aligned(16))) = {{\n"
    + ",\n".join(rows) + "\n};\n\n"
    "const unsigned char *cshopy_embedded_catalog_index(unsigned long *length) {\n"
    "    *length = sizeof index_bytes;\n"
    "    return index_bytes;\n"
    "}\n",
    encoding="utf-8",
)
print(f"wrote {target.relative_to(root)} ({len(literal_bytes)} bytes of JSON) and {index_source.relative_to(root)} (an index of {len(out)} bytes)")
