/*
 * hrelation.c - the h-relation benchmark that gives g and L of the BSP and OBSP* models for this
 * machine's MPI (seed 001, section 2: the time of a superstep's communication is g * h + L).
 *
 * Processes are paired (rank r with r ^ 1); in each exchange both partners send h bytes to each other
 * and wait for their partner's message (MPI_Sendrecv), the pattern of the seed's FFT. Each exchange is
 * a CALL experiment `hrelation` with the formula hrelation[0] + hrelation[1]*h, recorded through
 * libaugur and gathered to rank 0. `augur bsp --hrelation FILE` fits it: L = hrelation[0] and
 * g = hrelation[1] / 2 when h counts the bytes in plus out (the seed's FFT convention), hrelation[1]
 * when it counts the larger of the two.
 *
 * Usage: mpirun -n P hrelation [--max-bytes B] [--repeat R]     (P even)
 *   sizes h = 0, 1 KiB, 2 KiB, ... up to B (default 16 MiB: past the caches, as the FFT's messages), each exchanged R times (default 20) after a warm-up.
 * Build: augur cc -- mpicc -O2 hrelation.c -o hrelation
 */
#pragma parallel MPI MPI_COMM_WORLD

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  long max_bytes = 1L << 24, repeat = 20;
  for (int i = 1; i < argc; ++i) {
    char* end = NULL;
    long* target = NULL;
    if (strcmp(argv[i], "--max-bytes") == 0 && i + 1 < argc) target = &max_bytes;
    if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) target = &repeat;
    if (target == NULL) {
      if (rank == 0) fprintf(stderr, "usage: mpirun -n P hrelation [--max-bytes B] [--repeat R]   (P even)\n");
      MPI_Finalize();
      return strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
    *target = strtol(argv[++i], &end, 10);
    if (*end != '\0' || *target < 1 || *target > (1L << 28)) {
      if (rank == 0) fprintf(stderr, "hrelation: %s: '%s' is not an integer between 1 and 2^28\n", argv[i - 1], argv[i]);
      MPI_Finalize();
      return 2;
    }
  }
  if (ranks % 2 != 0) {
    if (rank == 0) fprintf(stderr, "hrelation: needs an even number of processes (got %d): they exchange in pairs\n", ranks);
    MPI_Finalize();
    return 2;
  }
  const int partner = rank ^ 1;
  char* out = calloc((size_t)max_bytes + 1, 1);
  char* in = calloc((size_t)max_bytes + 1, 1);
  long h = 0;
  MPI_Sendrecv(out, (int)max_bytes, MPI_CHAR, partner, 0, in, (int)max_bytes, MPI_CHAR, partner, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE); /* warm-up: buffers touched, connections made */
  for (h = 0; h <= max_bytes; h = h == 0 ? 1024 : 2 * h) {
    for (long r = 0; r < repeat; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
#pragma cll hrelation hrelation[0]+hrelation[1]*h
      MPI_Sendrecv(out, (int)h, MPI_CHAR, partner, 1, in, (int)h, MPI_CHAR, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma cll end hrelation
    }
  }
#pragma cll report all
  if (rank == 0) printf("hrelation: %d processes, h = 0 .. %ld bytes, %ld exchanges each\n", ranks, max_bytes, repeat);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
