#!/usr/bin/env bash
# Packaging.DebInstallsAndScans: builds the `mpsready` Debian package with cpack, unpacks it into a
# temporary root (dpkg -x), and scans a sample repository with the installed binary and its
# installed rules: no build tree or source rules directory on any search path.
# usage: deb_install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cpack --config "$build/CPackConfig.cmake" -G DEB -D CPACK_COMPONENTS_ALL=scanner -B "$work/pkg" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
debs=("$work"/pkg/mpsready_*.deb)
[ -f "${debs[0]}" ] || { echo "no mpsready_*.deb in $work/pkg"; ls -R "$work/pkg"; exit 1; }
deb=${debs[0]}

# The package: its name, and dependencies on the libraries it links (never LibTorch).
[ "$(dpkg-deb -f "$deb" Package)" = mpsready ] || { echo "Package: $(dpkg-deb -f "$deb" Package)"; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libclang-cpp14 libre2 libtree-sitter0 libyaml-cpp libssl3 libelf1 git; do
  case "$depends" in *"$lib"*) ;; *) echo "Depends lacks $lib: $depends"; exit 1 ;; esac
done
case "$depends" in *torch*) echo "the scanner's package depends on LibTorch: $depends"; exit 1 ;; esac
# (the listing is read whole: `grep -q` on a pipe would stop dpkg-deb with SIGPIPE)
contents=$(dpkg-deb -c "$deb")
grep -q './usr/share/mpsready/rules/' <<<"$contents" || { echo "no rules in the package"; exit 1; }
grep -q './usr/share/doc/mpsready/README.md' <<<"$contents" || { echo "no README in the package"; exit 1; }

dpkg -x "$deb" "$work/root"
cp -r "$src/sample_repos/rmsnorm-extension-partial" "$work/repo"
cd "$work"
run() { env -i PATH="$work/root/usr/bin:/usr/bin:/bin" HOME="$work" "$@"; }
# The installed binary uses the installed rules.
version=$(run mpsready --version)
echo "$version"
grep -qx "rules: $work/root/usr/share/mpsready/rules (hash [0-9a-f]*)" <<<"$version" ||
  { echo "the installed mpsready does not use its installed rules"; exit 1; }
# And scans: the sample's expected verdict, with findings.
report=$(run mpsready scan repo --format json)
verdict=$(sed -n 's/^  "verdict": "\(.*\)",$/\1/p' <<<"$report" | head -n 1)
[ "$verdict" = partial ] || { echo "verdict: $verdict"; echo "$report" | head -40; exit 1; }
grep -q '"rule": "cu-cuda-kernel"' <<<"$report" || { echo "no cu-cuda-kernel finding"; exit 1; }
echo "ok: $(basename "$deb") installs and scans"
