#!/bin/sh
# Remakes docs/screenshot.png from a real run of bhtop on the built-in
# simulator: the binary runs in a 160x45 tmux pane, places one order from the
# keyboard, the pane is captured with its colours (tmux capture-pane -e),
# turned into HTML by aha and photographed by headless Chromium.
#
# Needs go, tmux, aha, chromium and the DejaVu fonts; on Debian/Ubuntu the
# missing ones are installed with apt-get (as root). Run from anywhere:
#   sh docs/screenshot.sh
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
out="$repo/docs/screenshot.png"
work=$(mktemp -d /tmp/bhtop-shot.XXXXXX)
session="bhtop-shot-$$"
cols=160
rows=45

need=""
command -v tmux >/dev/null || need="$need tmux"
command -v aha >/dev/null || need="$need aha"
command -v chromium >/dev/null || need="$need chromium"
command -v optipng >/dev/null || need="$need optipng"
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || need="$need fonts-dejavu-core"
if [ -n "$need" ]; then
	echo "installing:$need"
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $need
fi

cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; }
trap cleanup EXIT INT TERM

# 1. Build and run on the simulator (no config, so no credentials).
(cd "$repo" && go build -o "$work/bhtop" .)
tmux new-session -d -s "$session" -x "$cols" -y "$rows" \
	"env XDG_CONFIG_HOME=/nonexistent TERM=xterm-256color COLORTERM=truecolor $work/bhtop"
sleep 8 # orders, fills, positions and events arrive

# 2. Place one order from the form: BUY 100 XRPUSDT LIMIT @ 0.1, confirm with y.
key() { tmux send-keys -t "$session" "$@"; sleep 0.3; }
key n
key -l XRPU
key Down; key Down; key Down; key Down
key -l 100
key Down
key -l 0.1
key Enter
key y
sleep 3

# 3. Capture with colours, keeping trailing cells so full-width bars stay full.
tmux capture-pane -e -p -N -t "$session" >"$work/screen.ansi"
cleanup

# 4. ANSI -> HTML on a dark page, 160 columns x 45 lines of DejaVu Sans Mono.
pad_x=14 pad_y=12 font=14 line=16
{
	cat <<EOF
<!DOCTYPE html><html><head><meta charset="utf-8"><style>
html,body{margin:0;padding:0;background:#1c1c1c}
pre{margin:0;padding:${pad_y}px ${pad_x}px;width:${cols}ch;color:#d0d0d0;background:#1c1c1c;
font-family:"DejaVu Sans Mono",monospace;font-size:${font}px;line-height:${line}px;
font-variant-ligatures:none;white-space:pre;overflow:hidden}
</style></head><body><pre>
EOF
	aha --no-header <"$work/screen.ansi"
	echo '</pre></body></html>'
} >"$work/screen.html"

# 5. Photograph it. DejaVu Sans Mono's advance is 1233/2048 em.
width=$(awk -v c="$cols" -v f="$font" -v p="$pad_x" 'BEGIN { w = c * f * 1233 / 2048 + 2 * p; printf "%d", (w == int(w)) ? w : int(w) + 1 }')
height=$((rows * line + 2 * pad_y))
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --user-data-dir="$work/chromium" \
	--window-size="$width,$height" --screenshot="$work/screen.png" \
	"file://$work/screen.html" 2>/dev/null
optipng -quiet -o2 "$work/screen.png"
cp "$work/screen.png" "$out"
rm -rf "$work"
echo "wrote $out (${width}x${height})"
