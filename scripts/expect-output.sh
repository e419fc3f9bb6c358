#!/bin/sh
# expect-output.sh PATTERN... -- COMMAND [ARG...]
#
# Runs COMMAND, prints its output, and fails unless it exits 0 and its output (stdout and
# stderr together) matches every extended regex PATTERN; a PATTERN written !REGEX must not
# match. Used by CTest for checks on a command's output that need more than one pattern.
set -u

patterns=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  patterns="$patterns$1
"
  shift
done
[ $# -gt 1 ] || { echo "usage: $0 PATTERN... -- COMMAND [ARG...]" >&2; exit 2; }
shift

output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ $status -ne 0 ]; then
  echo "expect-output: '$*' exited with $status" >&2
  exit 1
fi

failed=0
# Read the patterns line by line so that spaces inside a pattern survive.
while IFS= read -r pattern; do
  [ -n "$pattern" ] || continue
  case $pattern in
  !*)
    if printf '%s\n' "$output" | grep -Eq -- "${pattern#!}"; then
      echo "expect-output: output must not match: ${pattern#!}" >&2
      failed=1
    fi
    ;;
  *)
    if ! printf '%s\n' "$output" | grep -Eq -- "$pattern"; then
      echo "expect-output: output does not match: $pattern" >&2
      failed=1
    fi
    ;;
  esac
done <<PATTERNS
$patterns
PATTERNS
exit $failed
