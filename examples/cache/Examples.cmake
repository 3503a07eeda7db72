# The cache examples' tests (docs/cache.md), included by examples/Examples.cmake: the same augur_example()
# commands, written as a user types them from the top folder.

# cache: the exact simulator (docs/cache.md) on a hand-written din trace (worked out in the guide), the same
# accesses in augur's binary format, the lackey trace of a tiny real program (transpose.c) with a split first
# level, and a specification refused.
augur_example(NAME cache_sim_small
  COMMAND augur cache sim examples/cache/small.din --cache l1:size=128,assoc=2,line=16 --cache l2:size=512,assoc=4,line=32
  EXPECTED examples/cache/small.out)
augur_example(NAME cache_sim_small_augur_json
  COMMAND augur cache sim examples/cache/small.augur --cache l1:size=128,assoc=2,line=16 --cache l2:size=512,assoc=4,line=32 --json
  EXPECTED examples/cache/small_json.out)
augur_example(NAME cache_sim_transpose
  COMMAND augur cache sim examples/cache/transpose.lackey --cache l1i:size=256,assoc=2,line=32 --cache l1d:size=512,assoc=2,line=32 --cache l2:size=2K,assoc=4,line=64
  EXPECTED examples/cache/transpose.out)
augur_example(NAME cache_sim_policies
  COMMAND augur cache sim examples/cache/transpose.lackey --cache l1d:size=512,assoc=4,line=32,policy=plru --cache l1i:size=256,assoc=2,line=32,policy=fifo --cache l2:size=2K,assoc=full,line=64,policy=random,write=through,alloc=no,seed=3
  EXPECTED examples/cache/transpose_policies.out)
augur_example(NAME cache_sim_bad_spec
  COMMAND augur cache sim examples/cache/small.din --cache l1:size=3K,assoc=6,line=64,policy=plru
  EXPECTED examples/cache/bad_spec.out STREAM both EXIT_CODE 1)

# cache: the six program models of docs/cache.md expanded into their exact traces (augur cache trace), each
# trace then simulated exactly (augur cache sim) on a 32 KB L1 and a 256 KB L2; the traces are made in one
# scratch folder first (seed 1, deterministic: compared exactly). A model with a fault: exit status 1.
foreach(cache_model ab_loop matmul matmul_tiled stencil2d transpose linked_walk)
  augur_example(NAME cache_model_trace_${cache_model} SCRATCH cache_trace FIXTURES_SETUP cache_model_${cache_model}
    COMMAND augur cache trace examples/cache/models/${cache_model}.model -o ${cache_model}.trace
    EXPECTED examples/cache/models/${cache_model}_trace.out)
  augur_example(NAME cache_model_sim_${cache_model} SCRATCH cache_trace FIXTURES_REQUIRED cache_model_${cache_model}
    COMMAND augur cache sim ${cache_model}.trace --cache l1d:size=32K,assoc=8,line=64,policy=lru
      --cache l2:size=256K,assoc=8,line=64
    EXPECTED examples/cache/models/${cache_model}_sim.out)
endforeach()
augur_example(NAME cache_model_bad_index SCRATCH cache_trace
  COMMAND augur cache trace examples/cache/bad_index.model -o bad_index.trace
  EXPECTED examples/cache/bad_index.out STREAM stderr EXIT_CODE 1)
# cache curve: the miss-rate curve of transpose.c's lackey trace in one pass (docs/cache.md, "Miss-rate
# curves"): fully associative, with 4 sets of 32-byte lines, StatStack's estimate (1 in 20 sampled, seed 3),
# the hand-written din trace as CSV, and StatStack refused with --sets (a usage error).
augur_example(NAME cache_curve_transpose
  COMMAND augur cache curve examples/cache/transpose.lackey
  EXPECTED examples/cache/curve.out)
augur_example(NAME cache_curve_sets
  COMMAND augur cache curve examples/cache/transpose.lackey --sets 4 --line 32
  EXPECTED examples/cache/curve_sets.out)
augur_example(NAME cache_curve_statstack_json
  COMMAND augur cache curve examples/cache/transpose.lackey --method statstack --sample 0.05 --seed 3 --json
  EXPECTED examples/cache/curve_statstack_json.out)
augur_example(NAME cache_curve_small_csv
  COMMAND augur cache curve examples/cache/small.din --line 16 --csv
  EXPECTED examples/cache/curve_small.csv)
augur_example(NAME cache_curve_refused
  COMMAND augur cache curve examples/cache/small.din --method statstack --sets 4
  EXPECTED examples/cache/curve_refused.out STREAM both EXIT_CODE 2)

# cache predict: the seed's stochastic cache simulator (docs/cache.md, "The stochastic simulator"): the a/b
# loop of the model examples; the seed's own reading of it (the two assignments only) at the fixed point, in
# the seed's single pass, and as JSON; matmul's curve by the stochastic and the exact methods; the stencil
# on two levels; a policy the method does not model. Times are masked.
augur_example(NAME cache_predict_ab_loop
  COMMAND augur cache predict examples/cache/models/ab_loop.model --cache l1:size=1K,assoc=2,line=64
  EXPECTED examples/cache/predict_ab_loop.out MASK "Time: [0-9.]+ ms")
augur_example(NAME cache_predict_ab_arms
  COMMAND augur cache predict examples/cache/ab_arms.model --cache l1:size=1K,assoc=2,line=64
  EXPECTED examples/cache/predict_ab_arms.out MASK "Time: [0-9.]+ ms")
augur_example(NAME cache_predict_ab_arms_single
  COMMAND augur cache predict examples/cache/ab_arms.model --cache l1:size=1K,assoc=2,line=64 --loops single
  EXPECTED examples/cache/predict_ab_arms_single.out MASK "Time: [0-9.]+ ms")
augur_example(NAME cache_predict_ab_arms_json
  COMMAND augur cache predict examples/cache/ab_arms.model --cache l1:size=1K,assoc=2,line=64 --json
  EXPECTED examples/cache/predict_ab_arms_json.out MASK "\"seconds\": [0-9.e+-]+")
augur_example(NAME cache_predict_matmul_sizes
  COMMAND augur cache predict examples/cache/models/matmul.model --cache l1:size=32K,assoc=8,line=64 --sizes 2K,4K,8K,16K,32K,64K,128K
  EXPECTED examples/cache/predict_matmul_sizes.out MASK " [0-9]+\\.[0-9]{3}(?![0-9%])")
augur_example(NAME cache_predict_matmul_sizes_exact
  COMMAND augur cache predict examples/cache/models/matmul.model --cache l1:size=32K,assoc=8,line=64 --sizes 2K,4K,8K,16K,32K,64K,128K --method exact -q
  EXPECTED examples/cache/predict_matmul_sizes_exact.out MASK " [0-9]+\\.[0-9]{3}(?![0-9%])")
augur_example(NAME cache_predict_stencil2d
  COMMAND augur cache predict examples/cache/models/stencil2d.model --cache l1d:size=32K,assoc=8,line=64 --cache l2:size=256K,assoc=8,line=64
  EXPECTED examples/cache/predict_stencil2d.out MASK "Time: [0-9.]+ ms")
augur_example(NAME cache_predict_bad_policy
  COMMAND augur cache predict examples/cache/models/matmul.model --cache l1:size=32K,assoc=8,policy=fifo
  EXPECTED examples/cache/predict_bad_policy.out STREAM both EXIT_CODE 1)

# hierarchy: the hierarchical multiprocessor simulator (docs/hierarchy.md): the worked example (a program file
# on a tiny machine, times computed by hand in the page), the presets on a machine from the flags and from a
# file, a program drawn from a small model, and an inconsistent machine (exit status 1).
augur_example(NAME hierarchy_two_functions
  COMMAND augur hierarchy simulate --machine examples/hierarchy/tiny.machine --program examples/hierarchy/two_functions.hprog
  EXPECTED examples/hierarchy/two_functions.out)
augur_example(NAME hierarchy_uu20_flags
  COMMAND augur hierarchy simulate --levels 2 --fanout 4 --processors 8 --model UU20 --replications 10 -q
  EXPECTED examples/hierarchy/uu20_flags.out)
augur_example(NAME hierarchy_xp11_json
  COMMAND augur hierarchy simulate --machine examples/hierarchy/two_level.machine --model XP11 --replications 5 --json -q
  EXPECTED examples/hierarchy/xp11_json.out)
augur_example(NAME hierarchy_generate_small
  COMMAND augur hierarchy generate examples/hierarchy/small.model --seed 2
  EXPECTED examples/hierarchy/generate_small.out)
augur_example(NAME hierarchy_bad_capacity
  COMMAND augur hierarchy simulate --machine examples/hierarchy/bad_capacity.machine --model UU20
  EXPECTED examples/hierarchy/bad_capacity.out STREAM both EXIT_CODE 1)
# The worked example's timeline written beside the table (docs/hierarchy.md, "The timeline").
augur_example(NAME hierarchy_two_functions_trace SCRATCH hierarchy FRESH
  COMMAND augur hierarchy simulate --machine examples/hierarchy/tiny.machine --program examples/hierarchy/two_functions.hprog --trace two_functions.trace.json
  EXPECTED examples/hierarchy/two_functions_trace.out)
# The sweep of docs/hierarchy.md's Figures 19 and 20: the four presets, fan-outs 2, 4, 8, 16, 4 to 512 processors.
augur_example(NAME hierarchy_sweep_figures
  COMMAND augur hierarchy sweep --model UU20,XU11,XP11,XU20 --fanout 2,4,8,16 --processors 4:512:*2 --replications 10 -q
  EXPECTED examples/hierarchy/sweep_figures.out)
augur_example(NAME hierarchy_sweep_csv
  COMMAND augur hierarchy sweep --model XU20 --fanout 4 --processors 8:32:*2 --replications 4 --csv -q
  EXPECTED examples/hierarchy/sweep_csv.out)
# manager: workloads simulated under the processor manager's policies (docs/manager.md): the thesis's five
# applications under equipartition and PDPA, a job whose speedups come from augur speedup --json (JSON),
# open arrivals (CSV), random (Poisson) arrivals under hesrpt-plan, and a workload with a bad field (exit
# status 1). All deterministic.
augur_example(NAME manager_thesis_equipartition
  COMMAND augur manager simulate examples/manager/thesis.workload --cpus 64 --policy equipartition
  EXPECTED examples/manager/thesis_equipartition.out)
augur_example(NAME manager_thesis_pdpa
  COMMAND augur manager simulate examples/manager/thesis.workload --cpus 64 --policy pdpa
  EXPECTED examples/manager/thesis_pdpa.out)
augur_example(NAME manager_thesis_shortest_first
  COMMAND augur manager simulate examples/manager/thesis.workload --cpus 64 --policy shortest-first
  EXPECTED examples/manager/thesis_shortest_first.out)
augur_example(NAME manager_measured_json
  COMMAND augur manager simulate examples/manager/measured.workload --cpus 8 --policy pdpa-lend --quantum 2 --json
  EXPECTED examples/manager/measured_json.out)
augur_example(NAME manager_open_pdpa_csv
  COMMAND augur manager simulate examples/manager/open.workload --cpus 64 --policy pdpa --csv
  EXPECTED examples/manager/open_pdpa_csv.out)
augur_example(NAME manager_random_hesrpt_plan
  COMMAND augur manager simulate examples/manager/random.workload --cpus 64 --policy hesrpt-plan
  EXPECTED examples/manager/random_hesrpt_plan.out)
augur_example(NAME manager_bad_workload
  COMMAND augur manager simulate examples/manager/bad.workload --cpus 64
  EXPECTED examples/manager/bad.out STREAM both EXIT_CODE 1)
# report: one HTML page from augur's JSON outputs (docs/report.md): figure11.json is `augur tspp
# examples/tspp/figure11.tspp --json`, fft_fit.json `augur fit examples/model/fft_t3e.csv --formula "c[0]/P"
# --segments auto --json`. The page is deterministic: compared whole. An input of no known kind: exit status 1.
augur_example(NAME report_figure11_page
  COMMAND augur report examples/report/figure11.json -o -
  EXPECTED examples/report/figure11.html)
augur_example(NAME report_two_inputs
  COMMAND augur report examples/report/figure11.json examples/report/fft_fit.json -o /dev/null
  EXPECTED examples/report/two_inputs.out)
# figure11_trace.json is `augur sim examples/tspp/figure11.tspp --replications 1 --seed 1 -q --trace FILE`: a trace.
augur_example(NAME report_trace
  COMMAND augur report examples/report/figure11_trace.json -o /dev/null
  EXPECTED examples/report/trace.out)
augur_example(NAME report_unknown_kind
  COMMAND augur report examples/report/unknown.json -o /dev/null
  EXPECTED examples/report/unknown.out STREAM both EXIT_CODE 1)
