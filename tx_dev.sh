set -u
B=build-dev; P=$B/perf_tests/ordo-perf
cuobjdump --dump-resource-usage $P 2>&1 | sed -E 's/^[[:space:]]*Function ([^:]*):.*/\1/' | c++filt | grep -A1 -E "SortMergeFour" | grep -oE "ParallelFor<Ordo::Impl::.{0,100}|REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+ LOCAL:[0-9]+" > $OUT/res.txt
timeout 60 $P sort --merge-ways 4 --log2n 10:24:2 --check --reps 2 --warmup 1 --baseline copy > $OUT/check4.log 2>&1; echo "check4 rc $?"
timeout 60 $P sort --values --merge-ways 4 --log2n 16:24:4 --check --reps 2 --warmup 1 --baseline copy > $OUT/check4v.log 2>&1; echo "check4v rc $?"
timeout 60 $P sort --key u64 --merge-ways 4 --log2n 16:24:4 --check --reps 2 --warmup 1 --baseline copy > $OUT/check4k.log 2>&1; echo "check4k rc $?"
timeout 60 ncu --clock-control none --cache-control none --kernel-name-base demangled -k regex:Ordo::Impl --launch-count 40 --metrics gpu__time_duration.sum --csv --page raw $P sort --merge-ways 4 --log2n 24:24 --baseline copy --reps 1 --warmup 0 > $OUT/ncu4.csv 2>&1; echo "ncu rc $?"
for w in 2 4; do timeout 60 $P sort --merge-ways $w --log2n 20:28:2 --reps 10 --warmup 2 --baseline copy --output $OUT/ab.jsonl > /dev/null 2>&1; echo "u32 $w rc $?"; done
for w in 2 4; do timeout 40 $P sort --key u64 --merge-ways $w --log2n 20:26:2 --reps 10 --warmup 2 --baseline copy --output $OUT/ab.jsonl >/dev/null 2>&1; echo "u64 $w rc $?"; timeout 40 $P sort --values --merge-ways $w --log2n 20:26:2 --reps 10 --warmup 2 --baseline copy --output $OUT/ab.jsonl >/dev/null 2>&1; echo "pairs $w rc $?"; done
timeout 200 $B/unit_tests/ordo-unit-tests-cuda --gtest_brief=1 > $OUT/unit-tests.log 2>&1; echo "unit rc $?"; tail -3 $OUT/unit-tests.log
