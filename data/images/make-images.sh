#!/usr/bin/env bash
# Regenerates data/images/20kb.jpg and data/images/200kb.jpg: real, viewable JPEGs whose sizes land in the
# ranges the payloads promise (18-22 KB and 190-210 KB). Run once; the files are committed,
# so neither the app nor CI needs ImageMagick. Needs: apt-get install imagemagick
set -euo pipefail
cd "$(dirname "$0")"
command -v /usr/bin/convert >/dev/null || { echo "make-images: ImageMagick's convert is not installed (apt-get install imagemagick)" >&2; exit 1; }

# make_jpeg OUT WIDTH HEIGHT MIN_BYTES MAX_BYTES: a seeded plasma landscape, quality searched until the size fits.
make_jpeg() {
  local out=$1 w=$2 h=$3 min=$4 max=$5 q size
  for q in 95 92 90 88 85 82 80 78 75 72 70 65 60 55 50 45 40; do
    /usr/bin/convert -seed 42 -size "${w}x${h}" plasma:skyblue-forestgreen -blur 0x1 \
      -gravity south -pointsize $((h / 8)) -fill white -annotate +0+10 "storebench" \
      -strip -sampling-factor 4:2:0 -quality "$q" "$out"
    size=$(stat -c %s "$out")
    if (( size >= min && size <= max )); then echo "$out: ${w}x${h} q=$q $size bytes"; return 0; fi
  done
  echo "make-images: could not fit $out into $min..$max bytes (last: $size)" >&2; exit 1
}

make_jpeg 20kb.jpg 320 240 18432 22528
make_jpeg 200kb.jpg 1280 960 194560 215040
