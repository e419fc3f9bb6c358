#!/bin/bash
# run_mpi.sh — runs an MPI example on 2 ranks and checks that every rank reported OK
# (examples/mpi_allreduce.c, docs/mpi.md).
#   run_mpi.sh run <program> [<text the output must contain>...]
#   run_mpi.sh build <kpcc> <source.c> <include dir> [<text>...]   builds with OMPI_CC=kpcc mpicc
#                                                                 (MPICH_CC for MPICH) first
#   run_mpi.sh texts <program> <text>...   only the texts (the fake driver runs no kernels, so
#                                          there the ranks' results are wrong and they fail)
# Exits 77 (CTest: skipped) when mpirun or mpicc is absent or the program was not built (no
# MPI when CMake ran). Open MPI runs with --oversubscribe and --bind-to core (each rank on one
# core: the CPU backend's pool then has one worker per rank), and as root, which CI is, with
# --allow-run-as-root; other MPIs with -np 2 alone.
set -u
mode=$1
shift
if ! command -v mpirun >/dev/null 2>&1; then
  echo "run_mpi: skipped: no mpirun (install openmpi-bin libopenmpi-dev: scripts/install-deps.sh)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$mode" = build ]; then
  kpcc=$1 src=$2 inc=$3
  shift 3
  if ! command -v mpicc >/dev/null 2>&1; then
    echo "run_mpi: skipped: no mpicc"
    exit 77
  fi
  prog=$work/$(basename "$src" .c)
  echo "+ OMPI_CC=$kpcc MPICH_CC=$kpcc mpicc -O2 -I$inc $src -o $prog -lm"
  OMPI_CC=$kpcc MPICH_CC=$kpcc mpicc -O2 -I"$inc" "$src" -o "$prog" -lm || exit 1
else
  prog=$1
  shift
  if [ ! -x "$prog" ]; then
    echo "run_mpi: skipped: $prog was not built (CMake found no MPI)"
    exit 77
  fi
fi
flags=(-np 2)
if mpirun --version 2>&1 | grep -q "Open MPI"; then
  flags+=(--oversubscribe --bind-to core:overload-allowed)
  [ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
  # Containers often forbid the cross-memory attach of the shared-memory transport.
  export OMPI_MCA_btl_vader_single_copy_mechanism=none
fi
echo "+ mpirun ${flags[*]} $prog"
out=$(timeout 120 mpirun "${flags[@]}" "$prog" 2>&1)
rc=$?
printf '%s\n' "$out"
if grep -q "skipped:" <<<"$out" && [ "$rc" != 0 ]; then exit 77; fi
if [ "$mode" != texts ]; then
  [ "$rc" = 0 ] || { echo "run_mpi: mpirun exited $rc"; exit 1; }
  for rank in 0 1; do
    grep -q "rank $rank/2 .*: OK\$" <<<"$out" || { echo "run_mpi: rank $rank did not report OK"; exit 1; }
  done
fi
for text in "$@"; do
  grep -qF -- "$text" <<<"$out" || { echo "run_mpi: the output lacks: $text"; exit 1; }
done
echo "run_mpi: as expected"
