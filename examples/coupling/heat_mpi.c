/*
 * heat_mpi.c - a 1-D heat equation over MPI ranks, declared to augur's kernel coupling harness:
 * three kernels per time step, exchange (halo cells with the neighbours), update (the explicit
 * stencil) and norm (a global residual, MPI_Allreduce). Every rank calls augur_coupling_measure;
 * each timing is the slowest rank's; rank 0 writes the measurement file.
 *
 *   mpirun -n 2 heat_mpi [CELLS_PER_RANK [STEPS]]           plain run: prints time and the norm
 *   augur couple measure -- mpirun -n 2 heat_mpi --measure [CELLS_PER_RANK [STEPS]]
 *
 * Docs: docs/couple.md. Builds with the MPI compiler (examples/CMakeLists.txt).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "augur/augur_mpi.h"
#include "augur/coupling.h"

typedef struct {
  MPI_Comm comm;
  int rank, size;
  long cells;          /* interior cells of this rank */
  double *u, *next;    /* cells + 2 halo cells */
  double *initial;
  double residual;
} Heat;

static void exchange(void* data) {
  Heat* h = (Heat*)data;
  const int left = h->rank > 0 ? h->rank - 1 : MPI_PROC_NULL;
  const int right = h->rank + 1 < h->size ? h->rank + 1 : MPI_PROC_NULL;
  MPI_Sendrecv(&h->u[1], 1, MPI_DOUBLE, left, 0, &h->u[h->cells + 1], 1, MPI_DOUBLE, right, 0, h->comm,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&h->u[h->cells], 1, MPI_DOUBLE, right, 1, &h->u[0], 1, MPI_DOUBLE, left, 1, h->comm,
               MPI_STATUS_IGNORE);
}

static void update(void* data) {
  Heat* h = (Heat*)data;
  long i;
  double* swap;
  for (i = 1; i <= h->cells; ++i) h->next[i] = h->u[i] + 0.25 * (h->u[i - 1] - 2.0 * h->u[i] + h->u[i + 1]);
  h->next[0] = h->u[0];
  h->next[h->cells + 1] = h->u[h->cells + 1];
  swap = h->u;
  h->u = h->next;
  h->next = swap;
}

static void norm(void* data) {
  Heat* h = (Heat*)data;
  double local = 0.0;
  long i;
  for (i = 1; i <= h->cells; ++i) local += h->u[i] * h->u[i];
  MPI_Allreduce(&local, &h->residual, 1, MPI_DOUBLE, MPI_SUM, h->comm);
  h->residual = sqrt(h->residual);
}

static void reset(void* data) {
  Heat* h = (Heat*)data;
  memcpy(h->u, h->initial, (size_t)(h->cells + 2) * sizeof(double));
}

static long parse_count(const char* text, const char* what) {
  char* end = NULL;
  const long value = strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < 1) {
    fprintf(stderr, "heat_mpi: %s must be a whole number >= 1, not '%s'\n", what, text);
    return -1;
  }
  return value;
}

int main(int argc, char** argv) {
  Heat h;
  long steps = 200, step, i;
  int measure = 0, first = 1, status = 0;
  MPI_Init(&argc, &argv);
  h.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(h.comm, &h.rank);
  MPI_Comm_size(h.comm, &h.size);
  h.cells = 100000;
  if (argc > 1 && strcmp(argv[1], "--measure") == 0) {
    measure = 1;
    first = 2;
  }
  if (argc > first && (h.cells = parse_count(argv[first], "CELLS_PER_RANK")) < 0) status = 2;
  if (status == 0 && argc > first + 1 && (steps = parse_count(argv[first + 1], "STEPS")) < 0) status = 2;
  if (status != 0) {
    MPI_Finalize();
    return status;
  }
  h.u = calloc((size_t)h.cells + 2, sizeof(double));
  h.next = calloc((size_t)h.cells + 2, sizeof(double));
  h.initial = calloc((size_t)h.cells + 2, sizeof(double));
  if (h.u == NULL || h.next == NULL || h.initial == NULL) {
    fprintf(stderr, "heat_mpi: out of memory for %ld cells\n", h.cells);
    MPI_Abort(h.comm, 1);
  }
  for (i = 1; i <= h.cells; ++i) {
    const double x = (double)(h.rank * h.cells + i) / (double)(h.size * h.cells);
    h.initial[i] = sin(3.14159265358979 * x);
  }
  reset(&h);
  if (measure) {
    augur_coupling_app* app = augur_coupling_create("heat_mpi", steps);
    char label[32];
    snprintf(label, sizeof label, "%ld", h.cells);
    augur_coupling_add_kernel(app, "exchange", exchange, &h, 1);
    augur_coupling_add_kernel(app, "update", update, &h, 1);
    augur_coupling_add_kernel(app, "norm", norm, &h, 1);
    augur_coupling_set_hooks(app, NULL, reset, &h);
    augur_coupling_set_problem(app, label, (double)h.cells * h.size, 3.0 * (double)(h.cells + 2) * sizeof(double) * h.size);
    augur_mpi_coupling(app, &h.comm);
    status = augur_coupling_measure(app) == AUGUR_OK ? 0 : 1;
    augur_coupling_destroy(app);
  } else {
    const double start = MPI_Wtime();
    for (step = 0; step < steps; ++step) {
      exchange(&h);
      update(&h);
      norm(&h);
    }
    if (h.rank == 0) printf("heat_mpi: %d ranks x %ld cells, %ld steps: %.6f s, norm %.10g\n", h.size, h.cells, steps,
                            MPI_Wtime() - start, h.residual);
  }
  free(h.u);
  free(h.next);
  free(h.initial);
  MPI_Finalize();
  return status;
}
