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
# several: the scheduler's pick), and the counts of the rows of `where the region's ... went` (how many steps
# were left out varies) and the rest of the plain verdict's efficiency line after `= S(P) / P` (the windows' median
# beside the table's S(P) when they disagree). Other counts, names, periods and the lines' order are compared exactly.
set(measured [=[= S\([0-9]+\) / [0-9]+ = .*$]=] [=[(PC|PNC|AF)( .*)?$]=] [=[[-+]?[0-9]+\.[0-9]+( (s|ms|us))?]=] [=[at iteration [0-9]+]=]
    [=[(no )?Amdahl limit.*$]=] [=[measurement (clean|disturbed|meaningless): .*$]=] [=[what to do: .*$]=]
    [=[team on one core in .*$]=] [=[^ +[0-9]+(?=  (team|baseline|preempted|slow|not measured|on [0-9]+ processors?) )]=])

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

# cache: its own file, beside its inputs.
include(${CMAKE_CURRENT_LIST_DIR}/cache/Examples.cmake)
