/*
 * fft.c - the parallel divide-and-conquer FFT of seed 001 (González et al., Figure 4) over MPI,
 * annotated with the seed's CALL pragmas (experiments A ... G and the whole transform `fft` with the
 * seed's formula (11)). Build it through the translator: `augur cc -- mpicc -O2 fft.c -o fft -lm`.
 *
 * The input signal a (N complex points) and the roots of unity W are replicated on every process, as
 * in the seed. At each level of the recursion the processor set is partitioned in two halves
 * (MPI_Comm_split in the role of PUB's bsp_partition; MPI_Comm_free for bsp_done): one half transforms
 * the even points, the other the odd ones; then each process exchanges its half of the result with its
 * partner in the other half (MPI_Sendrecv: each waits only for its partner, the seed's oblivious
 * synchronisation) and both combine. A single process runs the sequential version of the same
 * algorithm. The result is replicated on every process.
 *
 * Usage: fft LOG2N [--repeat R] [--check] [--trace FILE]      (mpirun -n P fft ..., P a power of 2)
 *   LOG2N        the transform has N = 2^LOG2N points (1 <= LOG2N <= 26, N >= P)
 *   --repeat R   transforms measured after one warm-up (default 5; the experiments A .. G also record
 *                the warm-up's instances, the `fft` experiment only the measured ones)
 *   --check      compare every process's result with the sequential FFT (and, for N <= 4096, the
 *                sequential FFT with the direct DFT); exit status 1 when the largest error relative to
 *                the largest output exceeds 1e-9
 *   --trace FILE record the superstep trace of one more transform for `augur bsp` (OBSP*)
 * The records of the experiments go to the experiment file (AUGUR_EXPERIMENT_FILE, default
 * fft.cll.jsonl), gathered by rank 0; `augur fit` reads them.
 */
#pragma parallel MPI MPI_COMM_WORLD

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <augur/augur.h>

typedef struct {
  double re, im;
} Complex;

static int tracing = 0; /* superstep trace calls are made only while tracing */

/* A[k] = B[k] + w^k C[k], A[k + n] = B[k] - w^k C[k], with w^k = W[k * stride] (W holds the roots of
 * unity of the whole transform, so a sub-transform of stride s uses every s-th root). B and C may be
 * the two halves of A: each pair of outputs is computed from the same pair of inputs. */
static void combine(Complex* A, const Complex* B, const Complex* C, const Complex* W, long n, long stride) {
  for (long k = 0; k < n; ++k) {
    const Complex w = W[k * stride];
    const Complex b = B[k];
    const Complex c = C[k];
    const double tre = w.re * c.re - w.im * c.im;
    const double tim = w.re * c.im + w.im * c.re;
    A[k].re = b.re + tre;
    A[k].im = b.im + tim;
    A[k + n].re = b.re - tre;
    A[k + n].im = b.im - tim;
  }
}

/* Sequential divide and conquer: A (N points) = FFT of a[0], a[stride], a[2 stride], ... */
static void seqDandCFFT(Complex* A, const Complex* a, const Complex* W, long N, long stride) {
  if (N == 1) {
    A[0] = a[0];
    return;
  }
  const long n = N / 2;
  seqDandCFFT(A, a, W, n, stride * 2);
  seqDandCFFT(A + n, a + stride, W, n, stride * 2);
  combine(A, A, A + n, W, n, stride);
}

static void parDandCFFT(Complex* A, const Complex* a, const Complex* W, long N, long stride, MPI_Comm comm) {
  int nprocs = 1, pid = 0;
  MPI_Comm_size(comm, &nprocs);
  MPI_Comm_rank(comm, &pid);
  if (nprocs > 1) {
    long n = 0, size = 0;
    Complex *B = NULL, *C = NULL;
    int half = 0, lower = 0, partner = 0;
    MPI_Comm sub;
#pragma cll A A[0]
    n = N / 2;
    size = n * (long)sizeof(Complex);
    B = A;
    C = A + n;
#pragma cll end A
#pragma cll B B[0]
    half = nprocs / 2;
    lower = pid < half;
    MPI_Comm_split(comm, lower ? 0 : 1, pid, &sub);
    if (tracing) augur_bsp_partition(lower ? 0 : 1, lower ? pid : pid - half, lower ? half : nprocs - half);
#pragma cll end B
    if (lower) {
      parDandCFFT(B, a, W, n, stride * 2, sub);
#pragma cll C C[0]
      partner = pid + half;
      MPI_Comm_free(&sub);
      if (tracing) augur_bsp_done();
#pragma cll end C
#pragma cll D D[0]+D[1]*size
      if (tracing) augur_bsp_communicate();
      MPI_Sendrecv(B, (int)(2 * n), MPI_DOUBLE, partner, 1, C, (int)(2 * n), MPI_DOUBLE, partner, 1, comm, MPI_STATUS_IGNORE);
      if (tracing) augur_bsp_sync(AUGUR_BSP_OBLIVIOUS, size, size, 1, &partner);
#pragma cll end D
#pragma cll E E[0]+E[1]*size
      /* PUB hands the message over in its own buffer (bsp_getmsg); MPI_Sendrecv received it in place. */
#pragma cll end E
    } else {
      parDandCFFT(C, a + stride, W, n, stride * 2, sub);
#pragma cll C C[0]
      partner = pid - half;
      MPI_Comm_free(&sub);
      if (tracing) augur_bsp_done();
#pragma cll end C
#pragma cll D D[0]+D[1]*size
      if (tracing) augur_bsp_communicate();
      MPI_Sendrecv(C, (int)(2 * n), MPI_DOUBLE, partner, 1, B, (int)(2 * n), MPI_DOUBLE, partner, 1, comm, MPI_STATUS_IGNORE);
      if (tracing) augur_bsp_sync(AUGUR_BSP_OBLIVIOUS, size, size, 1, &partner);
#pragma cll end D
#pragma cll E E[0]+E[1]*size
#pragma cll end E
    }
#pragma cll F F[0]+F[1]*n
    combine(A, B, C, W, n, stride);
#pragma cll end F
  } else {
#pragma cll G G[0]+G[1]*N*log(N)
    seqDandCFFT(A, a, W, N, stride);
#pragma cll end G
  }
}

static void usage(FILE* stream) {
  fprintf(stream,
          "usage: mpirun -n P fft LOG2N [--repeat R] [--check] [--trace FILE]\n"
          "  the parallel FFT of seed 001 (Figure 4) on P processes (a power of 2) for N = 2^LOG2N points\n"
          "  (1 <= LOG2N <= 26, N >= P); --repeat: transforms measured after one warm-up (default 5);\n"
          "  --check: compare with the sequential FFT; --trace FILE: superstep trace of one more transform\n");
}

/* Largest |X - Y| over the largest |Y|. */
static double relative_error(const Complex* X, const Complex* Y, long N) {
  double largest = 0.0, error = 0.0;
  for (long k = 0; k < N; ++k) {
    largest = fmax(largest, hypot(Y[k].re, Y[k].im));
    error = fmax(error, hypot(X[k].re - Y[k].re, X[k].im - Y[k].im));
  }
  return largest > 0.0 ? error / largest : error;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);

  long log2n = -1, repeat = 5;
  int check = 0;
  const char* trace_path = NULL;
  for (int i = 1; i < argc; ++i) {
    char* end = NULL;
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      if (rank == 0) usage(stdout);
      MPI_Finalize();
      return 0;
    } else if (strcmp(argv[i], "--check") == 0) {
      check = 1;
    } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = strtol(argv[++i], &end, 10);
      if (*end != '\0' || repeat < 1 || repeat > 100000) {
        if (rank == 0) fprintf(stderr, "fft: --repeat: '%s' is not a count between 1 and 100000\n", argv[i]);
        MPI_Finalize();
        return 2;
      }
    } else if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc) {
      trace_path = argv[++i];
    } else if (log2n < 0 && argv[i][0] != '-') {
      log2n = strtol(argv[i], &end, 10);
      if (*end != '\0' || log2n < 1 || log2n > 26) {
        if (rank == 0) fprintf(stderr, "fft: LOG2N: '%s' is not an integer between 1 and 26\n", argv[i]);
        MPI_Finalize();
        return 2;
      }
    } else {
      if (rank == 0) {
        fprintf(stderr, "fft: unexpected argument '%s'\n", argv[i]);
        usage(stderr);
      }
      MPI_Finalize();
      return 2;
    }
  }
  if (log2n < 0) {
    if (rank == 0) usage(stderr);
    MPI_Finalize();
    return 2;
  }
  const long N = 1L << log2n;
  if ((P & (P - 1)) != 0 || N < P) {
    if (rank == 0) fprintf(stderr, "fft: the number of processes (%d) must be a power of 2 no larger than N = %ld\n", P, N);
    MPI_Finalize();
    return 2;
  }

  Complex* a = malloc((size_t)N * sizeof(Complex));
  Complex* A = malloc((size_t)N * sizeof(Complex));
  Complex* W = malloc((size_t)(N / 2 + 1) * sizeof(Complex));
  if (a == NULL || A == NULL || W == NULL) {
    fprintf(stderr, "fft: rank %d: out of memory for N = %ld\n", rank, N);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const double pi = acos(-1.0);
  for (long k = 0; k < N; ++k) {  /* the same signal on every process: two tones and a ramp */
    a[k].re = sin(2.0 * pi * 3.0 * (double)k / (double)N) + 0.5 * cos(2.0 * pi * 17.0 * (double)k / (double)N);
    a[k].im = (double)(k % 7) / 7.0 - 0.5;
  }
  for (long k = 0; k < N / 2; ++k) {
    W[k].re = cos(-2.0 * pi * (double)k / (double)N);
    W[k].im = sin(-2.0 * pi * (double)k / (double)N);
  }

  parDandCFFT(A, a, W, N, 1, MPI_COMM_WORLD); /* warm-up: every page touched once */
  double* times = malloc((size_t)repeat * sizeof(double));
  for (long r = 0; r < repeat; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
#pragma cll fft fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+\
                                          fft[3]*N*(P-1)/P
    parDandCFFT(A, a, W, N, 1, MPI_COMM_WORLD);
#pragma cll end fft
    times[r] = MPI_Wtime() - start;
  }

  int status = 0;
  if (trace_path != NULL) {
    MPI_Barrier(MPI_COMM_WORLD);
    tracing = 1;
    augur_mpi_bsp_start(MPI_COMM_WORLD);
    parDandCFFT(A, a, W, N, 1, MPI_COMM_WORLD);
    if (augur_mpi_bsp_report(MPI_COMM_WORLD, trace_path) != AUGUR_OK) status = 1;
    tracing = 0;
  }

#pragma cll report all

  /* The slowest process's median: the time of the transform. */
  for (long i = 1; i < repeat; ++i) { /* insertion sort of a few values */
    const double value = times[i];
    long j = i - 1;
    while (j >= 0 && times[j] > value) {
      times[j + 1] = times[j];
      --j;
    }
    times[j + 1] = value;
  }
  double median = times[repeat / 2];
  double slowest = 0.0;
  MPI_Reduce(&median, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  if (check) { /* every process holds the whole result: each checks its own copy */
    Complex* reference = malloc((size_t)N * sizeof(Complex));
    seqDandCFFT(reference, a, W, N, 1);
    double error = relative_error(A, reference, N);
    if (N <= 4096 && rank == 0) { /* the sequential FFT itself against the definition */
      Complex* direct = malloc((size_t)N * sizeof(Complex));
      for (long k = 0; k < N; ++k) {
        double re = 0.0, im = 0.0;
        for (long j = 0; j < N; ++j) {
          const double angle = -2.0 * pi * (double)((k * j) % N) / (double)N;
          re += a[j].re * cos(angle) - a[j].im * sin(angle);
          im += a[j].re * sin(angle) + a[j].im * cos(angle);
        }
        direct[k].re = re;
        direct[k].im = im;
      }
      error = fmax(error, relative_error(reference, direct, N));
      free(direct);
    }
    double largest = 0.0;
    MPI_Reduce(&error, &largest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      printf("fft: check: largest error relative to the largest output %.3g on any process (%s)\n", largest,
             largest <= 1e-9 ? "passed" : "FAILED");
      if (!(largest <= 1e-9)) status = 1;
    }
    free(reference);
  }
  if (rank == 0) printf("fft: N = %ld, P = %d: median %.6f s over %ld transforms (slowest process)\n", N, P, slowest, repeat);
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);

  free(times);
  free(a);
  free(A);
  free(W);
  MPI_Finalize();
  return status;
}
