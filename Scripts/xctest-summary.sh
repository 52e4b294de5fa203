#!/usr/bin/env bash
# Prints XCTest's own count from a `swift test` log: after XCTest, Swift Testing reports
# "Test run with 0 tests in 0 suites passed", which reads as if nothing ran.
# Usage: Scripts/xctest-summary.sh LOG [STATUS]
set -euo pipefail
log=$1
status=${2:-0}
summary=$(grep -E "^[[:space:]]*Executed [0-9]+ tests?, with" "$log" | tail -1 | sed -E 's/^[[:space:]]+//' || true)
skipped=$(grep -cE "^Test Case '.*' skipped" "$log" || true)
failed=$(grep -cE "^Test Case '.*' failed" "$log" || true)
echo "ci: XCTest: ${summary:-no XCTest summary found (did the tests build?)}; ${skipped} skipped, ${failed} failed test cases; swift test exit status ${status}"
