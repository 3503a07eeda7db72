/* Seed 001, Figure 4 ("Parallel Fast Fourier Transform"), rendered in C with its pragmas as in the seed.
 * One change: the seed's 'else' before '#pragma cll G' has no braces, so only the begin of G would
 * depend on it; the braces are added here (figure4_no_braces.c keeps the seed's form and its error). */
#include "fft.h"

void parDandCFFT(Complex *A, Complex *a, Complex *W, int N, int stride, t_bsp *gbsp) {
  int n, size, partner, subgroup[2];
  Complex *B, *C;
  t_bsp bsp_new;
  if (bsp_nprocs(gbsp) > 1) {
    if (N == 1) { A[0].re = a[0].re; A[0].im = a[0].im; }
    else {
#pragma cll A A[0]
      n = N / 2; size = n*sizeof(Complex); B = A; C = A + n;
#pragma cll end A
#pragma cll B B[0]
      subgroup[1] = bsp_nprocs(gbsp);
      subgroup[0] = (bsp_nprocs(gbsp) / 2);
      bsp_partition(gbsp, &bsp_new, 2, subgroup);
#pragma cll end B
      if (bsp_pid(gbsp) < subgroup[0]) {
        parDandCFFT(B, a, W, n, stride*2, &bsp_new);
#pragma cll C C[0]
        partner = bsp_pid(&bsp_new) + subgroup[0];
        bsp_done(&bsp_new);
#pragma cll end C
#pragma cll D D[0]+D[1]*size
        bsp_hpsend(gbsp, partner, B, size);
        bsp_oblsync(gbsp, 1);
#pragma cll end D
#pragma cll E E[0]+E[1]*size
        C = (Complex*)bspmsg_data(bsp_getmsg(gbsp, 0));
#pragma cll end E
      }
      else {
        parDandCFFT(C, a+stride, W, n, stride*2, &bsp_new);
#pragma cll C C[0]
        partner = bsp_pid(&bsp_new);
        bsp_done(&bsp_new);
#pragma cll end C
#pragma cll D D[0]+D[1]*size
        bsp_hpsend(gbsp, partner, C, size);
        bsp_oblsync(gbsp, 1);
#pragma cll end D
#pragma cll E E[0]+E[1]*size
        B = (Complex*)bspmsg_data(bsp_getmsg(gbsp, 0));
#pragma cll end E
      }
#pragma cll F F[0]+F[1]*n
      combine(A, B, C, W, n);
#pragma cll end F
    }
  }
  else {
#pragma cll G G[0]+G[1]*N*log(N)
    seqDandCFFT(A, a, W, N, stride);
#pragma cll end G
  }
}
