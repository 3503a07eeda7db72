/* The end of seed 001's Figure 4 as printed: the 'else' has no braces around the experiment G. */
#include "fft.h"

void leaf(Complex *A, Complex *a, Complex *W, int N, int stride, t_bsp *gbsp) {
  if (bsp_nprocs(gbsp) > 1) {
    parallel_part(A, a, W, N, stride, gbsp);
  }
  else
#pragma cll G G[0]+G[1]*N*log(N)
    seqDandCFFT(A, a, W, N, stride);
#pragma cll end G
}
