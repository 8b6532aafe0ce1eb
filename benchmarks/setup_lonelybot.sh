#!/usr/bin/env bash
# Builds the peer lonelybot (Vuong Hy's Klondike solver, Rust, MIT) and our driver for it
# (benchmarks/peers/lonelybot_driver.rs) for benchmarks/klondike_solver.py, outside the
# repository. lonelybot is never shipped or vendored: give its source, a checkout or a git
# directory of github.com/vuonghy2442/lonelybot:
#
#   LONELYBOT_SOURCE=... benchmarks/setup_lonelybot.sh [BUILD_DIR]
#
# BUILD_DIR defaults to ~/.cache/patience-peers/lonelybot. Cargo fetches lonelybot's
# dependencies from crates.io. It prints the driver's path, to pass as LONELYBOT_DRIVER.
set -euo pipefail
: "${LONELYBOT_SOURCE:?a checkout or git directory of vuonghy2442/lonelybot}"
here=$(realpath "$(dirname "$0")")
build=$(realpath -m "${1:-$HOME/.cache/patience-peers/lonelybot}")
case "$build" in
    "$(realpath "$here/..")"*) echo "build outside the repository" >&2; exit 2 ;;
esac
rm -rf "$build"
mkdir -p "$build/lonelybot" "$build/driver/src"
if [ -f "$LONELYBOT_SOURCE/Cargo.toml" ]; then
    cp -r "$LONELYBOT_SOURCE/." "$build/lonelybot/"
else
    git --git-dir="$LONELYBOT_SOURCE" archive HEAD | tar -x -C "$build/lonelybot"
fi
git --git-dir="$LONELYBOT_SOURCE" rev-parse HEAD > "$build/lonelybot.commit" 2>/dev/null \
    || git -C "$LONELYBOT_SOURCE" rev-parse HEAD > "$build/lonelybot.commit" 2>/dev/null || true
cp "$here/peers/lonelybot_driver.rs" "$build/driver/src/main.rs"
cat > "$build/driver/Cargo.toml" <<'TOML'
[package]
name = "lonelybot-driver"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
lonelybot = { path = "../lonelybot" }

[profile.release]
lto = true
codegen-units = 1

[workspace]
TOML
cd "$build/driver"
cargo build --release --quiet
echo "$build/driver/target/release/lonelybot-driver"
