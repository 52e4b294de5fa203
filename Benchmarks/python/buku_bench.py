"""Fills a buku database with N bookmarks (one transaction), for shopy-bench's buku columns.

usage: buku_bench.py DBFILE N   (run with the Python that has buku installed)
"""
import sqlite3
import sys

import buku

dbfile, count = sys.argv[1], int(sys.argv[2])
buku.BukuDb(dbfile=dbfile)  # creates the schema
connection = sqlite3.connect(dbfile)
connection.executemany(
    "INSERT INTO bookmarks(URL, metadata, tags, desc, flags) VALUES (?, ?, ?, ?, 0)",
    ((f"https://shopping.example/products/{90000000000 + i}", f"benchmark item {i}", ",shopy,", "") for i in range(count)))
connection.commit()
connection.close()
