#!/usr/bin/env bash
# Builds shopy as it is installed: release, with the Swift runtime and Foundation linked in
# statically on Linux (--static-swift-stdlib: a start pays no dynamic linking of libswiftCore,
# Foundation and ICU; glibc and the dlopen'ed system libraries stay dynamic), then stripped.
# Prints the binary's path and size.
#
#   Scripts/release.sh                          the binary README installs
#   SHOPY_DIRECT_METADATA=1 Scripts/release.sh  also compiled with the frontend option
#       -disable-concrete-type-metadata-mangled-name-accessors (type metadata reached through
#       accessors, not demangled at first use): fewer instructions at start, see
#       docs/architecture.md ("Build") for what it measured; an unsupported option, so off by default.
#
# Extra arguments go to `swift build` (e.g. --scratch-path DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product shopy)
if [ "$(uname -s)" = Linux ]; then flags+=(--static-swift-stdlib); fi
if [ "${SHOPY_DIRECT_METADATA:-0}" = 1 ]; then
  flags+=(-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
fi
swift build "${flags[@]}" "$@"
bin="$(swift build "${flags[@]}" "$@" --show-bin-path)/shopy"
strip "$bin"
size=$(wc -c < "$bin")
echo "release: $bin ($(( (size + 524288) / 1048576 )) MiB, $size bytes, stripped)"
