# one_line_refusal.sh — sourced by wrong_clang.sh and wrong_opt.sh: the check both make of a
# tool that refuses a plugin built for another LLVM.
#
# expect_one_line_refusal HOW STATUS ERR PATTERN OUTPUT: the tool exited with STATUS, wrote
# ERR (its stderr) and perhaps OUTPUT. Prints both; exits 1 with "FAIL (HOW): ..." unless the
# status is 1 (not a signal), ERR is exactly one line matching the extended regex PATTERN
# (which names the tool the plugin needs), and OUTPUT was not written or is empty.
expect_one_line_refusal() {
  how=$1 status=$2 err=$3 pattern=$4 output=$5
  echo "== $how: exit status $status"
  cat "$err"
  [ "$status" -eq 1 ] || { echo "FAIL ($how): exit status $status, expected 1"; exit 1; }
  lines=$(wc -l <"$err")
  [ "$lines" -eq 1 ] || { echo "FAIL ($how): $lines lines on stderr, expected 1"; exit 1; }
  grep -Eq "$pattern" "$err" ||
    { echo "FAIL ($how): the line does not name what the plugin needs"; exit 1; }
  [ ! -s "$output" ] || { echo "FAIL ($how): output was written"; exit 1; }
}
