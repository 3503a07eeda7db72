/*
 * augur_mpi.h - libaugur's MPI glue, header-only so that libaugur itself needs no MPI: include it in
 * an MPI program (after mpi.h is available) and build with the MPI compiler wrapper.
 *
 *   augur_mpi_report(comm, names)   gathers the CALL experiment records of every rank of `comm` to its
 *                                   rank 0, which appends them to the experiment file (as CALL routes
 *                                   the statistics to processor 0). Collective over `comm`.
 *   augur_mpi_bsp_start(comm)       a barrier, then the superstep trace starts on every rank of `comm`.
 *   augur_mpi_bsp_report(comm, path) ends the trace and gathers every rank's supersteps to rank 0, which
 *                                   writes the trace file (path NULL: the option bsp_trace). Collective.
 *
 *   augur_mpi_coupling(app, &comm)  the coupling harness (augur/coupling.h) measures across the ranks of
 *                                   `comm`: barriers before each timing, the maximum over ranks as the
 *                                   time, rank 0 writes the file. `comm` must outlive
 *                                   augur_coupling_measure, which every rank then calls.
 *
 * Each returns AUGUR_OK (or, for augur_mpi_report, the number of records gathered, on rank 0; 0 on the
 * others), or AUGUR_ERROR on every rank when any rank failed (a message on stderr says why). The MPI
 * calls use the communicator's error handler (MPI_ERRORS_ARE_FATAL unless the program set another).
 * The trace's ranks are the ranks in `comm`.
 */
#ifndef AUGUR_AUGUR_MPI_H
#define AUGUR_AUGUR_MPI_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/augur.h"
#include "augur/coupling.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Gathers `length` bytes of `local` from every rank to rank 0 of `comm`. On rank 0, *gathered is a
 * malloc'd buffer (free with free) of *total bytes; elsewhere NULL and 0. Every rank returns 0, or -1
 * on every rank when the text cannot be moved (more than 2^31 - 1 bytes on one rank or in all, or no
 * memory on rank 0): rank 0's verdict is broadcast before any text moves, so that no rank is left
 * waiting. Collective over `comm`. */
static inline int augur_mpi_gather_text(MPI_Comm comm, const char* local, unsigned long length, char** gathered,
                                        unsigned long* total) {
  int rank = 0, size = 1, i = 0, verdict = 0;
  int my_length = length > 0x7fffffffUL ? -1 : (int)length;
  int* lengths = NULL;
  int* offsets = NULL;
  *gathered = NULL;
  *total = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank == 0) {
    lengths = (int*)calloc((size_t)size, sizeof(int));
    offsets = (int*)calloc((size_t)size, sizeof(int));
  }
  MPI_Gather(&my_length, 1, MPI_INT, lengths, 1, MPI_INT, 0, comm);
  if (rank == 0) {
    unsigned long sum = 0;
    if (lengths == NULL || offsets == NULL) verdict = -1;
    for (i = 0; verdict == 0 && i < size; ++i) {
      if (lengths[i] < 0) {
        fprintf(stderr, "augur: augur_mpi_gather_text(): rank %d holds more than 2^31 - 1 bytes; nothing gathered\n", i);
        verdict = -1;
        break;
      }
      offsets[i] = (int)sum;
      sum += (unsigned long)lengths[i];
    }
    if (verdict == 0 && sum > 0x7fffffffUL) {
      fprintf(stderr, "augur: augur_mpi_gather_text(): %lu bytes in all is more than MPI_Gatherv can move; nothing gathered\n", sum);
      verdict = -1;
    }
    if (verdict == 0) {
      *gathered = (char*)malloc(sum + 1);
      if (*gathered == NULL) {
        fprintf(stderr, "augur: augur_mpi_gather_text(): no memory for %lu bytes on rank 0; nothing gathered\n", sum);
        verdict = -1;
      }
      *total = *gathered == NULL ? 0 : sum;
    }
  }
  MPI_Bcast(&verdict, 1, MPI_INT, 0, comm);
  if (verdict == 0) {
    MPI_Gatherv(local, my_length, MPI_CHAR, rank == 0 ? *gathered : NULL, lengths, offsets, MPI_CHAR, 0, comm);
  } else if (rank == 0) {
    free(*gathered);
    *gathered = NULL;
    *total = 0;
  }
  free(lengths);
  free(offsets);
  return verdict;
}

static inline int augur_mpi_report(MPI_Comm comm, const char* names) {
  int rank = 0, size = 1, count = 0, mine = 0, failed = 0, any_failed = 0, total_count = 0;
  char* local = NULL;
  char* gathered = NULL;
  unsigned long length = 0, total = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  count = augur_experiment_serialize(names, rank, size, &local, &length);
  if (count < 0) {
    length = 0;
    failed = 1;
  }
  mine = count < 0 ? 0 : count;
  if (augur_mpi_gather_text(comm, local, length, &gathered, &total) != 0) failed = 1;
  augur_free(local);
  if (rank == 0 && !failed && augur_experiment_write(gathered, total) != AUGUR_OK) failed = 1;
  free(gathered);
  MPI_Reduce(&mine, &total_count, 1, MPI_INT, MPI_SUM, 0, comm);
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
  if (any_failed) return AUGUR_ERROR;
  return rank == 0 ? total_count : 0;
}

static inline int augur_mpi_bsp_start(MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Barrier(comm);
  return augur_bsp_start(rank, rank, size); /* ranks of the trace: those of `comm` */
}

static inline int augur_mpi_bsp_report(MPI_Comm comm, const char* path) {
  int rank = 0, size = 1, failed = 0, any_failed = 0;
  char* local = NULL;
  char* gathered = NULL;
  unsigned long length = 0, total = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  augur_bsp_stop();
  if (augur_bsp_serialize(&local, &length) < 0) {
    length = 0;
    failed = 1;
  }
  if (augur_mpi_gather_text(comm, local, length, &gathered, &total) != 0) failed = 1;
  augur_free(local);
  if (rank == 0 && !failed && augur_bsp_write(path, size, gathered, total) != AUGUR_OK) failed = 1;
  free(gathered);
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
  return any_failed ? AUGUR_ERROR : AUGUR_OK;
}

static inline void augur_mpi_coupling_barrier(void* context) { MPI_Barrier(*(MPI_Comm*)context); }

static inline double augur_mpi_coupling_max(double value, void* context) {
  double maximum = value;
  MPI_Allreduce(&value, &maximum, 1, MPI_DOUBLE, MPI_MAX, *(MPI_Comm*)context);
  return maximum;
}

static inline int augur_mpi_coupling(augur_coupling_app* app, MPI_Comm* comm) {
  int rank = 0, size = 1;
  if (comm == NULL) return AUGUR_ERROR;
  MPI_Comm_rank(*comm, &rank);
  MPI_Comm_size(*comm, &size);
  return augur_coupling_set_communicator(app, rank, size, augur_mpi_coupling_barrier, augur_mpi_coupling_max, comm);
}

#ifdef __cplusplus
}
#endif

#endif /* AUGUR_AUGUR_MPI_H */
