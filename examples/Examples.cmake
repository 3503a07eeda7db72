# The examples' tests: one augur_example() per command a user runs on an example (tests/examples/CMakeLists.txt
# defines it; docs/README.md, "Examples"). Each command's output is the .out file beside the example's inputs;
# the docs quote those files between <!-- example: FILE --> and <!-- /example --> (checked by docs_test).
# Commands are written as a user types them from the top folder: `augur` is build/bin/augur.

# tspp: the seed's Figure 11, predicted (Figure 12's tables), by the transient, exact, decomposition and hybrid methods, simulated, and a
# random task system. All deterministic: compared exactly.
augur_example(NAME tspp_figure11
  COMMAND augur tspp --method mak-lundstrom examples/tspp/figure11.tspp
  EXPECTED examples/tspp/figure11.out)
augur_example(NAME tspp_figure11_transient
  COMMAND augur tspp --method transient examples/tspp/figure11.tspp -b
  EXPECTED examples/tspp/figure11_transient.out)
augur_example(NAME tspp_figure11_exact
  COMMAND augur tspp --method exact --discipline ps examples/tspp/figure11.tspp -b
  EXPECTED examples/tspp/figure11_exact.out)
augur_example(NAME tspp_figure11_decomposition
  COMMAND augur tspp --method decomposition examples/tspp/figure11.tspp -b
  EXPECTED examples/tspp/figure11_decomposition.out)
augur_example(NAME tspp_figure11_interpolation
  COMMAND augur tspp --method hybrid --discipline ps -V 10 --max-states 200000 examples/tspp/figure11.tspp -b
  EXPECTED examples/tspp/figure11_interpolation.out)
augur_example(NAME tspp_figure11_hybrid
  COMMAND augur tspp --method hybrid --stages 10 --discipline ps examples/tspp/figure11.tspp
  EXPECTED examples/tspp/figure11_hybrid.out)
augur_example(NAME sim_figure11
  COMMAND augur sim examples/tspp/figure11.tspp --replications 2000 --discipline ps --seed 1 -q
  EXPECTED examples/tspp/figure11_sim.out)
augur_example(NAME gen_tasks
  COMMAND augur gen-tasks --tasks 8 --resources 3 --seed 7
  EXPECTED examples/tspp/gen_tasks.out)

# model: the seed's Table 1 (fft_t3e.csv) fitted to formula (11), with non-negative constants, predicted,
# searched; the canonical form's signs; a formula whose terms the points cannot tell apart (exit status 1).
set(formula11 "fft[0] + fft[1]*log(P) + fft[2]*(N/P)*log(N/P) + fft[3]*N*(P-1)/P")
augur_example(NAME fit_formula11
  COMMAND augur fit examples/model/fft_t3e.csv --formula ${formula11}
  EXPECTED examples/model/fit_formula11.out)
augur_example(NAME fit_formula11_nonnegative
  COMMAND augur fit examples/model/fft_t3e.csv --formula ${formula11} --nonnegative
  EXPECTED examples/model/fit_formula11_nonnegative.out)
augur_example(NAME predict_formula11
  COMMAND augur predict examples/model/fft_t3e.csv --formula ${formula11} --nonnegative --at N=2097152 --grid P=1:128:*2
  EXPECTED examples/model/predict_formula11.out)
augur_example(NAME predict_formula11_json
  COMMAND augur predict examples/model/fft_t3e.csv --formula ${formula11} --at N=2097152,P=64 --json
  EXPECTED examples/model/predict_formula11_json.out)
augur_example(NAME fit_search
  COMMAND augur fit examples/model/fft_t3e.csv
  EXPECTED examples/model/fit_search.out)
augur_example(NAME fit_signs
  COMMAND augur fit examples/model/fft_t3e.csv --formula "a[0] - P*a[1] + -(2*a[2]/P)"
  EXPECTED examples/model/fit_signs.out)
augur_example(NAME fit_dependent_terms
  COMMAND augur fit examples/model/fft_t3e.csv --formula "G[0] + G[1]*(N/P)*log(N/P) + A[0]*log(P) + B[0]*log(P)"
  EXPECTED examples/model/fit_dependent_terms.out STREAM both EXIT_CODE 1)

# bsp: the seed's Figure 1 (OBSP* 10 s, BSP 12 s), summary and supersteps.
augur_example(NAME bsp_figure1
  COMMAND augur bsp examples/bsp/figure1.jsonl --g 0 --L 2
  EXPECTED examples/bsp/figure1.out)
augur_example(NAME bsp_figure1_supersteps
  COMMAND augur bsp examples/bsp/figure1.jsonl --g 0 --L 2 --supersteps
  EXPECTED examples/bsp/figure1_supersteps.out)

# cc: the translation of the seed's Figure 3 around its FFT (docs/cc.md).
augur_example(NAME cc_fft_call
  COMMAND augur cc examples/cc/fft_call.c
  EXPECTED examples/cc/fft_call.out)

# db: the performance database of docs/db.md, made from two hand-written measurement files of a toy
# three-kernel loop; the commands run in order in one scratch folder (add first, delete last).
augur_example(NAME db_add SCRATCH db FRESH FIXTURES_SETUP example_db
  COMMAND augur db add --db perf.db examples/db/toy-S.coupling.jsonl examples/db/toy-M.coupling.jsonl
  EXPECTED examples/db/add.out)
augur_example(NAME db_list SCRATCH db FIXTURES_REQUIRED example_db
  COMMAND augur db list --db perf.db
  EXPECTED examples/db/list.out)
augur_example(NAME db_list_machines SCRATCH db FIXTURES_REQUIRED example_db
  COMMAND augur db list machines --db perf.db
  EXPECTED examples/db/list_machines.out)
augur_example(NAME db_list_applications SCRATCH db FIXTURES_REQUIRED example_db
  COMMAND augur db list applications --db perf.db
  EXPECTED examples/db/list_applications.out)
augur_example(NAME db_list_kernels SCRATCH db FIXTURES_REQUIRED example_db
  COMMAND augur db list kernels --db perf.db --application toy
  EXPECTED examples/db/list_kernels.out)
augur_example(NAME db_export_couplings SCRATCH db FIXTURES_REQUIRED example_db
  COMMAND augur db export --db perf.db --table couplings
  EXPECTED examples/db/export_couplings.out)
augur_example(NAME db_info SCRATCH db FIXTURES_REQUIRED example_db
  COMMAND augur db info --db perf.db
  EXPECTED examples/db/info.out)
augur_example(NAME db_delete SCRATCH db FIXTURES_CLEANUP example_db
  COMMAND augur db delete --db perf.db 2
  EXPECTED examples/db/delete.out)

# What a measured output's test masks: the rest of a line after a speedup's state (PC, PNC or AF; ST' is shown
# only when it was measured), a number with a fraction, with its time unit when it has one (1.206 s,
# 695.5 us, +5.3%), the iteration an estimate was made at, the Amdahl limit (none when f = 0), the noise
# verdict (clean or not varies) and what to do about it, and where an outer region's team ran (one core or
# several: the scheduler's pick). Counts, names, periods and the lines' order are compared exactly.
set(measured [=[(PC|PNC|AF)( .*)?$]=] [=[[-+]?[0-9]+\.[0-9]+( (s|ms|us))?]=] [=[at iteration [0-9]+]=]
    [=[(no )?Amdahl limit.*$]=] [=[measurement (clean|disturbed|meaningless): .*$]=] [=[what to do: .*$]=]
    [=[team on one core in .*$]=])

# swim: the self-analysis summary of the instrumented program (README.md), and `augur run` on the plain
# build (docs/run.md).
augur_example(NAME swim_self_analysis DEPENDS swim
  ENVIRONMENT OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive AUGUR_BASELINE=1
  COMMAND build/bin/swim 512 400
  EXPECTED examples/swim/self_analysis.out STREAM stderr MASK ${measured})
augur_example(NAME run_swim_plain DEPENDS swim-plain augur_preload ATTEMPTS 3
  COMMAND augur run -p 2 --iterations 400 -- build/bin/swim-plain 256 400
  EXPECTED examples/swim/run.out MASK ${measured})

# Both measure real runs: on a loaded machine a neighbour may preempt most steps and the run then rightly
# reports no speedup (S(2) PNC, or "only 3 usable steps"): up to 3 attempts (ATTEMPTS, tests/examples).
# interpose: one outer parallel region around the time loop, found from its worksharing constructs; the
# source paths compiled into the program depend on where it was built.
# The lines the compiler gives the constructs (from -g) depend on the optimisation level (the implicit
# barrier at the end of the parallel region is line 61 at -O3, 59 at -O1): masked.
augur_example(NAME run_outer_region DEPENDS outer_region augur_preload ATTEMPTS 3
  COMMAND augur run -p 2 --iterations 300 -- build/bin/outer_region 200000 300
  EXPECTED examples/interpose/outer_region.out MASK ${measured} [=[/[^ ]*/(?=examples/)]=] [=[\.c:[0-9]+]=]
    [=[[0-9]+ iterations measured on the team, [0-9]+ baseline]=] [=[measurement (clean|disturbed|meaningless): .*$]=])
# The NPB-like programs of the outer-region benchmark (bench/outer_region_accuracy.cpp): an SP-like sweep
# (6 constructs a step), a CG-like solver (85 constructs a step, found by the detector's window grown from 128)
# and the program whose dynamic loop and single are races (the same constructs on every step).
augur_example(NAME run_adi_sweep DEPENDS adi_sweep augur_preload
  COMMAND augur run -p 2 -- build/bin/adi_sweep 32 100
  EXPECTED examples/interpose/adi_sweep.out MASK ${measured} [=[/[^ ]*/(?=examples/)]=] [=[\.c:[0-9]+]=]
    [=[[0-9]+ iterations measured on the team, [0-9]+ baseline]=] [=[measurement (clean|disturbed|meaningless): .*$]=])
augur_example(NAME run_cg_steps DEPENDS cg_steps augur_preload
  COMMAND augur run -p 2 -- build/bin/cg_steps 96 20
  EXPECTED examples/interpose/cg_steps.out MASK ${measured} [=[/[^ ]*/(?=examples/)]=] [=[\.c:[0-9]+]=]
    [=[[0-9]+ iterations measured on the team, [0-9]+ baseline]=] [=[measurement (clean|disturbed|meaningless): .*$]=])
augur_example(NAME run_outer_race DEPENDS outer_race augur_preload
  COMMAND augur run -p 2 -- build/bin/outer_race 16384 1000
  EXPECTED examples/interpose/outer_race.out MASK ${measured} [=[/[^ ]*/(?=examples/)]=] [=[\.c:[0-9]+]=]
    [=[[0-9]+ iterations measured on the team, [0-9]+ baseline]=] [=[measurement (clean|disturbed|meaningless): .*$]=])
# The LU-like pipeline: its threads wait on each other inside the step, so the baseline steps stop (a caution);
# built by gcc, its flag waits are sampled (some 6 samples a run: one with none, no `spins on flags:`, is rare).
augur_example(NAME run_wavefront DEPENDS wavefront augur_preload ATTEMPTS 3
  COMMAND augur run -p 2 -- build/bin/wavefront 96 100
  EXPECTED examples/interpose/wavefront.out MASK ${measured} [=[/[^ ]*/(?=examples/)]=] [=[\.c:[0-9]+]=]
    [=[[0-9]+ iterations measured on the team, [0-9]+ baseline]=] [=[measurement (clean|disturbed|meaningless): .*$]=])

# sp and coupling: the coupling report of a measurement file augur couple measure saved (sp on 1 thread,
# heat_mpi on 2 ranks, both on the loaded 2-core test machine).
augur_example(NAME couple_report_sp
  COMMAND augur couple report examples/sp/sp-16.coupling.jsonl
  EXPECTED examples/sp/report.out)
augur_example(NAME couple_report_heat_mpi
  COMMAND augur couple report examples/coupling/heat_mpi-2ranks.coupling.jsonl
  EXPECTED examples/coupling/report.out)

# fft: the seed's parallel FFT under mpirun on 2 processes, checked against the sequential FFT; its records
# go to fft.cll.jsonl in the scratch folder.
if(MPI_C_FOUND)
  augur_example(NAME fft_mpirun DEPENDS fft SCRATCH fft FRESH
    ENVIRONMENT OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    COMMAND mpirun -n 2 build/bin/fft 20 --repeat 5 --check
    EXPECTED examples/fft/fft_20.out MASK ${measured})
endif()

# model, continued: intervals of validity on Table 1 (fit, predict, --json), and a search on the Extra-P
# text example two_regions.txt (docs/fit.md).
augur_example(NAME fit_segments
  COMMAND augur fit examples/model/fft_t3e.csv --formula "c[0]/P" --segments auto
  EXPECTED examples/model/fit_segments.out)
augur_example(NAME predict_segments
  COMMAND augur predict examples/model/fft_t3e.csv --formula "c[0]/P" --segments auto --at N=2097152 --grid P=5,6,64
  EXPECTED examples/model/predict_segments.out)
augur_example(NAME fit_segments_json
  COMMAND augur fit examples/model/fft_t3e.csv --formula "c[0]/P" --segments auto --json
  EXPECTED examples/model/fit_segments_json.out)
augur_example(NAME fit_two_regions_search
  COMMAND augur fit examples/model/two_regions.txt --region solve --metric time
  EXPECTED examples/model/fit_two_regions.out)

# bsp, continued: g and L fitted to an h-relation benchmark's records, and a 4-process FFT-like trace whose
# processes partition into sub-machines (docs/bsp.md).
augur_example(NAME bsp_figure1_hrelation
  COMMAND augur bsp examples/bsp/figure1.jsonl --hrelation examples/bsp/hrelation.jsonl
  EXPECTED examples/bsp/figure1_hrelation.out)
augur_example(NAME bsp_fft4
  COMMAND augur bsp examples/bsp/fft4.jsonl --g 0.0009765625 --L 0.5
  EXPECTED examples/bsp/fft4.out)
augur_example(NAME cc_check
  COMMAND augur cc --check examples/cc/fft_call.c examples/fft/fft.c
  EXPECTED examples/cc/check.out)

# model, other inputs: a CSV with regions and repetitions, and augur's experiment records with their formula.
augur_example(NAME fit_csv_regions
  COMMAND augur fit examples/model/fft.csv
  EXPECTED examples/model/fit_csv_regions.out)
augur_example(NAME fit_records
  COMMAND augur fit examples/model/records.jsonl --region fft
  EXPECTED examples/model/fit_records.out)
augur_example(NAME fit_not_modeled
  COMMAND augur fit examples/model/fft.csv --formula "c[0] + c[1]/P"
  EXPECTED examples/model/fit_not_modeled.out STREAM both EXIT_CODE 1)

# actors: actor programs on multiprocessor models (docs/actors.md): a pipeline on a ring (by rule and by a
# mapping file), divide and conquer on a hypercube, a master-worker farm on a mesh, a stencil in JSON, an
# irregular program mapped at random, and a program that deadlocks (exit status 1). All deterministic.
augur_example(NAME actors_pipeline_ring8
  COMMAND augur actors simulate examples/actors/pipeline.actors --machine examples/actors/ring8.machine
  EXPECTED examples/actors/pipeline_ring8.out)
augur_example(NAME actors_pipeline_mapped
  COMMAND augur actors simulate examples/actors/pipeline.actors --machine examples/actors/ring8.machine --mapping examples/actors/pipeline.map
  EXPECTED examples/actors/pipeline_mapped.out)
augur_example(NAME actors_divide_hypercube3
  COMMAND augur actors simulate examples/actors/divide.actors --machine examples/actors/hypercube3.machine
  EXPECTED examples/actors/divide_hypercube3.out)
augur_example(NAME actors_farm_mesh4x4
  COMMAND augur actors simulate examples/actors/farm.actors --machine examples/actors/mesh4x4.machine
  EXPECTED examples/actors/farm_mesh4x4.out)
augur_example(NAME actors_stencil_json
  COMMAND augur actors simulate examples/actors/stencil.actors --machine examples/actors/mesh4x4.machine --set n=3 --set steps=2 --json
  EXPECTED examples/actors/stencil_mesh4x4_json.out)
augur_example(NAME actors_irregular_random
  COMMAND augur actors simulate examples/actors/irregular.actors --machine examples/actors/mesh4x4.machine --initial random --seed 3
  EXPECTED examples/actors/irregular_random.out)
augur_example(NAME actors_deadlock
  COMMAND augur actors simulate examples/actors/deadlock.actors --machine examples/actors/ring8.machine
  EXPECTED examples/actors/deadlock.out STREAM both EXIT_CODE 1)
augur_example(NAME actors_tune_pipeline_ring8
  COMMAND augur actors tune examples/actors/pipeline.actors --machine examples/actors/ring8.machine
  EXPECTED examples/actors/tune_pipeline_ring8.out)
augur_example(NAME actors_search_exhaustive
  COMMAND augur actors search examples/actors/pipeline.actors --machine examples/actors/mesh2x2.machine --method exhaustive
  EXPECTED examples/actors/search_pipeline_mesh2x2.out)
augur_example(NAME actors_search_annealing_json
  COMMAND augur actors search examples/actors/divide.actors --machine examples/actors/hypercube3.machine --method annealing --budget 400 --json
  EXPECTED examples/actors/search_divide_annealing.out)
augur_example(NAME actors_tune_divide_hypercube3
  COMMAND augur actors tune examples/actors/divide.actors --machine examples/actors/hypercube3.machine
  EXPECTED examples/actors/tune_divide_hypercube3.out)
# ... divide and conquer on the ring under cut-through switching, replications of the irregular program
# (the same figures for any threads and MPI ranks), and a timeline written beside the table.
augur_example(NAME actors_divide_cut_through
  COMMAND augur actors simulate examples/actors/divide.actors --machine examples/actors/ring8-cut-through.machine
  EXPECTED examples/actors/divide_ring8_cut_through.out)
# ... a cycle of worms on a ring under wormhole switching: a deadlock of the network, reported.
augur_example(NAME actors_shift_wormhole
  COMMAND augur actors simulate examples/actors/shift.actors --machine examples/actors/ring5-wormhole.machine
  EXPECTED examples/actors/shift_ring5_wormhole.out STREAM both EXIT_CODE 1)
augur_example(NAME actors_irregular_replications
  COMMAND augur actors simulate examples/actors/irregular.actors --machine examples/actors/mesh4x4.machine --replications 100
  EXPECTED examples/actors/irregular_replications.out)
augur_example(NAME actors_pipeline_trace SCRATCH actors FRESH
  COMMAND augur actors simulate examples/actors/pipeline.actors --machine examples/actors/ring8.machine --set items=2 --trace pipeline.trace.json
  EXPECTED examples/actors/pipeline_trace.out)

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
