#!/bin/sh
# check-mime.sh MIME_XML PROJECT_FILE — the shared-mime-info definition
# recognises a Flitlab project by its name and, renamed, by its header; a
# plain SQLite database stays plain. Prints TAP.
set -u
xml=$1 project=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/mime/packages"
cp "$xml" "$tmp/mime/packages/"
n=0 failed=0
check() {
  n=$((n + 1))
  got=$(XDG_DATA_HOME="$tmp" XDG_DATA_DIRS="$tmp:/usr/share" \
        gio info -a standard::content-type "$1" 2>/dev/null \
        | sed -n 's/^ *standard::content-type: //p')
  if [ "$got" = "$2" ]; then echo "ok $n - $3"; else
    echo "not ok $n - $3 (got '$got')"; failed=$((failed + 1)); fi
}
if ! update-mime-database "$tmp/mime" >/dev/null 2>&1; then
  echo "1..1"; echo "not ok 1 - update-mime-database accepts $xml"; exit 1
fi
cp "$project" "$tmp/renamed"
# A plain SQLite database: the same header without Flitlab's application id.
python3 - "$tmp/plain.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.execute("create table t (x)"); db.commit()
PY
check "$project" application/x-flitlab-project "a .flitlab file is a Flitlab project"
check "$tmp/renamed" application/x-flitlab-project "so is one renamed, by its header"
check "$tmp/plain.db" application/vnd.sqlite3 "a plain SQLite database is not"
echo "1..$n"
[ "$failed" -eq 0 ]
