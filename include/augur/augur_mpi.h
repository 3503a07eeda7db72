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
 * Each returns AUGUR_OK (or, for augur_mpi_report, the number of records gathered, on rank 0; 0 on the
 * others) or AUGUR_ERROR. They never abort the program: an MPI error is reported on stderr.
 */
#ifndef AUGUR_AUGUR_MPI_H
#define AUGUR_AUGUR_MPI_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/augur.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Gathers `length` bytes of `local` from every rank to rank 0 of `comm`. On rank 0, *gathered is a
 * malloc'd buffer (free with free) of *total bytes; elsewhere NULL and 0. Returns 0 or -1. */
static inline int augur_mpi_gather_text(MPI_Comm comm, const char* local, unsigned long length, char** gathered,
                                        unsigned long* total) {
  int rank = 0, size = 1, status = 0, i = 0;
  int my_length = (int)length;
  int* lengths = NULL;
  int* offsets = NULL;
  *gathered = NULL;
  *total = 0;
  if (length > 0x7fffffffUL) {
    fprintf(stderr, "augur: augur_mpi_gather_text(): %lu bytes on one rank is more than MPI_Gatherv can move\n", length);
    my_length = 0;
    status = -1;
  }
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (rank == 0) {
    lengths = (int*)calloc((size_t)size, sizeof(int));
    offsets = (int*)calloc((size_t)size, sizeof(int));
  }
  MPI_Gather(&my_length, 1, MPI_INT, lengths, 1, MPI_INT, 0, comm);
  if (rank == 0) {
    unsigned long sum = 0;
    for (i = 0; i < size; ++i) {
      offsets[i] = (int)sum;
      sum += (unsigned long)lengths[i];
    }
    if (sum > 0x7fffffffUL) {
      fprintf(stderr, "augur: augur_mpi_gather_text(): %lu bytes in all is more than MPI_Gatherv can move\n", sum);
      for (i = 0; i < size; ++i) lengths[i] = offsets[i] = 0;
      sum = 0;
      status = -1;
    }
    *gathered = (char*)malloc(sum + 1);
    *total = sum;
  }
  MPI_Gatherv((void*)local, status == 0 ? my_length : 0, MPI_CHAR, rank == 0 ? *gathered : NULL, lengths, offsets,
              MPI_CHAR, 0, comm);
  free(lengths);
  free(offsets);
  return status;
}

static inline int augur_mpi_report(MPI_Comm comm, const char* names) {
  int rank = 0, size = 1, count = 0, result = 0;
  char* local = NULL;
  char* gathered = NULL;
  unsigned long length = 0, total = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  count = augur_experiment_serialize(names, rank, size, &local, &length);
  if (count < 0) length = 0;
  augur_mpi_gather_text(comm, local, length, &gathered, &total);
  augur_free(local);
  MPI_Reduce(&count, &result, 1, MPI_INT, MPI_SUM, 0, comm);
  if (rank == 0) {
    if (augur_experiment_write(gathered, total) != AUGUR_OK) result = AUGUR_ERROR;
    free(gathered);
    return result;
  }
  return count < 0 ? AUGUR_ERROR : 0;
}

static inline int augur_mpi_bsp_start(MPI_Comm comm) {
  int rank = 0, size = 1, world_rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Barrier(comm);
  return augur_bsp_start(world_rank, rank, size);
}

static inline int augur_mpi_bsp_report(MPI_Comm comm, const char* path) {
  int rank = 0, size = 1, status = AUGUR_OK;
  char* local = NULL;
  char* gathered = NULL;
  unsigned long length = 0, total = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  augur_bsp_stop();
  if (augur_bsp_serialize(&local, &length) < 0) length = 0;
  if (augur_mpi_gather_text(comm, local, length, &gathered, &total) != 0) status = AUGUR_ERROR;
  augur_free(local);
  if (rank == 0) {
    if (augur_bsp_write(path, size, gathered, total) != AUGUR_OK) status = AUGUR_ERROR;
    free(gathered);
  }
  return status;
}

#ifdef __cplusplus
}
#endif

#endif /* AUGUR_AUGUR_MPI_H */
