/* A tiny real program for the lackey example (docs/cache.md): transposes a 16 x 16 matrix of ints, then
   sums it by rows. Built without the C library (-nostdlib -static) so that its trace is the program alone:
     cc -O1 -nostdlib -static -fno-stack-protector -fno-pie -no-pie -o transpose transpose.c
     valgrind --tool=lackey --trace-mem=yes --log-file=transpose.lackey ./transpose */
#define N 16

static int a[N][N];
static int b[N][N];
volatile int result;

static void run(void) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) a[i][j] = i * N + j;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) b[j][i] = a[i][j];
  int sum = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) sum += b[i][j];
  result = sum;
}

void _start(void) {
  run();
  __asm__ volatile("mov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "rax", "rdi", "memory");
  for (;;) {
  }
}
