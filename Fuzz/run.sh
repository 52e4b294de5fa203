#!/bin/sh
# Builds the libFuzzer target (Fuzz/FuzzTarget.swift plus the ShopYBase and ShopYCore sources it covers) with
# `swiftc -sanitize=fuzzer` and runs it for a bounded time.
#
#   Fuzz/run.sh [seconds]      default 5; the corpus grows in .build/fuzz/corpus
#   FUZZ_JOBS=2 Fuzz/run.sh 60 more time, more processes
#
# Exit status: 0 when the run found nothing, 77 when this toolchain cannot build a fuzzer
# (e.g. a macOS Xcode toolchain without libFuzzer), otherwise libFuzzer's (crash-* files in
# .build/fuzz/ hold the inputs that failed).
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-5}"
out=.build/fuzz
mkdir -p "$out/corpus"
b=Sources/ShopYBase
k=Sources/ShopYCore
sources="Fuzz/FuzzTarget.swift $b/JSON/JSONParser*.swift $b/JSON/JSONParseError.swift $b/JSON/JSONValue.swift $b/JSON/JSONWriter.swift
  $b/Model/Wire.swift $b/Model/Product.swift $b/Model/FieldLimits.swift $b/Model/ProductID.swift $b/Model/Checked.swift
  $b/Model/AnswerCheck.swift $b/Model/SearchRequest.swift $b/Model/ListingArithmetic.swift
  $b/Text/TitleCleaner*.swift $b/Text/Sanitizer.swift $b/Text/DisplayWidth.swift $b/Text/WidthTable.swift $b/Text/Money.swift
  $k/HTTP/RetryAfter.swift"
binary="$out/shopy-fuzz"
rebuild=no
if [ ! -x "$binary" ]; then rebuild=yes; else
  for f in $sources; do [ "$f" -nt "$binary" ] && rebuild=yes; done
fi
if [ "$rebuild" = yes ]; then
  # shellcheck disable=SC2086
  if ! swiftc -sanitize=fuzzer -parse-as-library -O -module-name ShopYFuzz -package-name shopy $sources -o "$binary" 2> "$out/build.log"; then
    if grep -q -i "fuzzer" "$out/build.log"; then
      echo "Fuzz/run.sh: this toolchain cannot build with -sanitize=fuzzer:" >&2
      head -3 "$out/build.log" >&2
      exit 77
    fi
    cat "$out/build.log" >&2
    exit 1
  fi
fi
# Seeds: the contract's recorded bodies, as answer inputs (selector byte 0).
for f in Fixtures/contract/search-*.json; do
  seed="$out/corpus/seed-$(basename "$f")"
  [ -f "$seed" ] || { printf '\000' > "$seed"; cat "$f" >> "$seed"; }
done
jobs=""
[ "${FUZZ_JOBS:-1}" -gt 1 ] && jobs="-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS"
# With -jobs libFuzzer writes fuzz-N.log into the working directory: run it inside $out.
cd "$out"
# shellcheck disable=SC2086
exec ./shopy-fuzz -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 $jobs \
  -print_final_stats=1 -artifact_prefix=./ corpus
