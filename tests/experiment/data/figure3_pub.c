#pragma parallel PUB gbsp
#include "fft.h"

int main(void) {
  int N = 1024, P = bsp_nprocs(gbsp);
  #pragma cll fft fft[0]+fft[1]*log(P)+fft[2]*(N/P)*log(N/P)+\
                  fft[3]*N*(P-1)/P
  parDandCFFT(A, a, W, N, 1, gbsp);
  #pragma cll end fft
  #pragma cll report all
  return 0;
}
