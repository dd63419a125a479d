#!/usr/bin/env bash
# `npm test`: the two groups of test files side by side (2 cores), each group's output printed whole, in order: the
# nightly-build replays and `npm start` end to end live, then the rest (kept in a file meanwhile). Each group prints
# its uvu summary and a line "test group <name> exited with code <n>" (.ci/run counts them); the exit code is non-zero
# when either group fails.
set -u
cd "$(dirname "$0")/.."
# The builds of the tests are of tiny data: a second DuckDB thread per build gives them nothing but scheduling on
# two cores already shared by the two groups. One test builds with another thread count and compares. DuckDB's
# queries run on libuv's thread pool: one thread of it per group keeps each group on about one core (with the default
# four, a group's queries side by side contend with the other group's for the two cores and their memory mappings:
# the suite took 11% longer and 15% more CPU).
export PIPELINE_THREADS="${PIPELINE_THREADS:-1}"
export UV_THREADPOOL_SIZE="${UV_THREADPOOL_SIZE:-1}"
rest_log=$(mktemp)
trap 'rm -f "$rest_log"' EXIT
npm run --silent test:rest > "$rest_log" 2>&1 &
rest=$!
npm run --silent test:nights
nights_status=$?
echo "test group nights exited with code $nights_status"
wait "$rest"
rest_status=$?
cat "$rest_log"
echo "test group rest exited with code $rest_status"
[ "$nights_status" -eq 0 ] && [ "$rest_status" -eq 0 ]
