#!/bin/sh
# make-fixtures.sh — the bad-input catalogue's fixtures that are not text
# kept in files/: projects (good ones made with flitlab, damaged copies made by
# make-projects.py from SQL), binary garbage, directories, a FIFO, a symlink
# loop, and files without permissions.
#
# usage: make-fixtures.sh path/to/flitlab FILES-DIR OUT-DIR
set -eu
FLITLAB=$1 files=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)

# good.flitlab: mesh:4x4 as m, ring:8 as r. exp.flitlab: an experiment
# 'small' of two short runs, done, and a saved plot p1; 'none' has no run.
"$FLITLAB" project new "$out/good.flitlab"
"$FLITLAB" project add "$out/good.flitlab" mesh:4x4 --name m
"$FLITLAB" project add "$out/good.flitlab" ring:8 --name r
cp "$out/good.flitlab" "$out/exp.flitlab"
"$FLITLAB" experiment new "$out/exp.flitlab" small --topology '#m' --warmup 100 \
  --measure 200 --vary rate=0.1,0.2 >/dev/null
"$FLITLAB" experiment new "$out/exp.flitlab" none --topology '#m' --vary rate=0.1,0.2 >/dev/null
"$FLITLAB" experiment run "$out/exp.flitlab" small --jobs 1 2>/dev/null
"$FLITLAB" plot "$out/exp.flitlab" small --x rate --y latency_avg --save p1 2>/dev/null
python3 "$here/make-projects.py" "$out/good.flitlab" "$out/exp.flitlab" "$out"

# Binary garbage: every byte value, NULs included.
awk 'BEGIN { for (i = 0; i < 4; i++) for (b = 0; b < 256; b++) printf "%c", (b * 7 + i) % 256 }' \
  </dev/null >"$out/garbage.bin"
for ext in json anynet lesson txt; do
  cp "$out/garbage.bin" "$out/garbage.$ext"
done
# A NUL byte in the second line of otherwise good text.
printf '0 1\n2\0003\n' >"$out/req-nul.txt"
printf '0 0 1 4\n1 0\0001 4\n' >"$out/trace-nul.txt"
# A trace whose second line is 5000 digits long.
{ echo '0 0 1 4'; printf '1 '; head -c 5000 /dev/zero | tr '\0' 9; echo; } >"$out/trace-long.txt"

mkdir "$out/dir.json" "$out/dir.flitlab" "$out/no-lessons" "$out/dir.lesson"
mkfifo "$out/fifo.flitlab"
ln -s loop.flitlab "$out/loop.flitlab"
ln -s fifo.flitlab "$out/to-fifo.flitlab"
# Permissions (the cases that use these are skipped as root).
cp "$files/trace-comment.txt" "$out/noread.txt"
cp "$out/good.flitlab" "$out/noread.flitlab"
cp "$out/good.flitlab" "$out/readonly.flitlab"
chmod 000 "$out/noread.txt" "$out/noread.flitlab"
chmod 444 "$out/readonly.flitlab"
mkdir "$out/readonly-dir"
cp "$out/good.flitlab" "$out/readonly-dir/p.flitlab"
chmod 555 "$out/readonly-dir"
