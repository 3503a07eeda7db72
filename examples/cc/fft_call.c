#pragma parallel MPI
#include <mpi.h>
#include "fft.h"

void run(Complex *A, Complex *a, Complex *W, int N, int P) {
  #pragma cll fft fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+\
                  fft[3]*N*(P-1)/P
  parDandCFFT(A, a, W, N, 1);
  #pragma cll end fft
  #pragma cll report all
}
