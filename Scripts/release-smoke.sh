#!/usr/bin/env bash
# Builds the release binary (Scripts/release.sh) and smoke-tests it: `--version`, a search of
# the offline catalog in an empty SHOPY_HOME, and the man page through `mandoc -T lint` where
# mandoc is installed. One line per check; exits non-zero at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
built=$(Scripts/release.sh | tee /dev/stderr | tail -1)
bin=${built#release: }
bin=${bin%% (*}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
run() { env -i PATH=/usr/bin:/bin HOME="$home" SHOPY_HOME="$home" "$bin" "$@"; }

version=$(run --version)
case "$version" in *[0-9].[0-9]*) echo "smoke: --version: $version" ;; *) echo "smoke: --version printed '$version'" >&2; exit 1 ;; esac

found=$(run search 방충망 --format tsv | grep -c 방충망 || true)
[ "$found" -gt 0 ] || { echo "smoke: shopy search 방충망 found nothing in the offline catalog" >&2; exit 1; }
echo "smoke: shopy search 방충망: $found rows from the offline catalog"

if command -v mandoc >/dev/null 2>&1; then
  lint=$(run help --man | mandoc -T lint -W all 2>&1) || { echo "smoke: mandoc -T lint: $lint" >&2; exit 1; }
  [ -z "$lint" ] || { echo "smoke: mandoc -T lint: $lint" >&2; exit 1; }
  echo "smoke: help --man | mandoc -T lint: clean"
else
  echo "smoke: mandoc is not installed; the man page was not linted"
fi
