/* Seed 001, Figure 3 ("The fft experiment"), rendered in C. The seed's first line is
 * '#pragma parallel PUB gbsp'; augur gathers the records of parallel programs through MPI, so the
 * program says '#pragma parallel MPI' (figure3_pub.c keeps the seed's line and its error). */
#pragma parallel MPI
#include "fft.h"

int main(int argc, char **argv) {
  int N = atoi(argv[1]), P = bsp_nprocs(gbsp);
  initialize(N, a);
  Roots(N/2, W);
  #pragma cll fft fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+\
                  fft[3]*N*(P-1)/P
  parDandCFFT(A, a, W, N, 1, gbsp);
  #pragma cll end fft
  bsp_sync(gbsp);
  #pragma cll report all
  return 0;
}
