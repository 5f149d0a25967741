#!/usr/bin/env bash
# Installs the build into a temporary prefix and packages it as a .deb, then runs what was installed
# from another folder: examples are found beside the binaries, and no path of the source tree is in them.
#   install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$(cd "$1" && pwd)"
src="$(cd "$2" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset PARTITA_DATA_DIR PARTITA_EXAMPLES

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cd "$tmp"
out="$("$tmp/prefix/bin/partita-cli" hypar --network "$tmp/prefix/share/partita/examples/networks/lenet-c.json")"
grep -q "3,901,560 elements" <<<"$out" || { echo "unexpected hypar output: $out" >&2; exit 1; }
# The default array is read from the installed examples too.
"$tmp/prefix/bin/partita-cli" accpar --network "$tmp/prefix/share/partita/examples/networks/alexnet.json" >/dev/null
# Outputs are captured before matching: `cmd | grep -q` can fail with SIGPIPE under pipefail.
version="$("$tmp/prefix/bin/partita-cli" --version)"
grep -q "^partita-cli [0-9]" <<<"$version"
for binary in "$tmp"/prefix/bin/*; do
  if grep -q -F "$src" "$binary"; then
    echo "$binary contains the source path $src" >&2
    exit 1
  fi
done
if [ -x "$tmp/prefix/bin/partita" ]; then
  version="$("$tmp/prefix/bin/partita" --version)"
  grep -q "^partita [0-9]" <<<"$version"
  test -f "$tmp/prefix/share/applications/partita.desktop"
  test -f "$tmp/prefix/share/icons/hicolor/scalable/apps/partita.svg"
fi
test -f "$tmp/prefix/share/doc/partita/LICENSE"
test -f "$tmp/prefix/share/doc/partita/docs/guide/in-app.md"  # the user guide is installed beside the README

# The Debian package unpacks and runs without an install.
(cd "$build" && cpack -G DEB -B "$tmp/deb" >/dev/null)
deb="$(ls "$tmp"/deb/*.deb)"
info="$(dpkg-deb -I "$deb")"
grep -q "Depends:.*libc6" <<<"$info"
dpkg-deb -x "$deb" "$tmp/unpacked"
out="$("$tmp/unpacked/usr/bin/partita-cli" hypar --network "$tmp/unpacked/usr/share/partita/examples/networks/lenet-c.json")"
grep -q "3,901,560 elements" <<<"$out"
echo "install and package: ok ($(basename "$deb"))"
