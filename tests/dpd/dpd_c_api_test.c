/* The periodicity detector through the C API of libaugur, from C11 as a program (or the dynamic
 * instrumentation) calls it: augur_DPD and augur_DPDWindowSize (augur.h; docs/dpd.md).
 * Exit status 0 when every check passes; each failure is printed. */
#include <stdio.h>

#include "augur/augur.h"

static int failures = 0;

static void check(int condition, const char* what, long sample_index) {
  if (condition) return;
  ++failures;
  fprintf(stderr, "dpd_c_api_test: sample %ld: %s\n", sample_index, what);
}

int main(void) {
  /* Three parallel loops per time step, identified by the addresses of their outlined functions. */
  const long loops[3] = {0x401a30L, 0x401b70L, 0x401cc0L};
  long index = 0;

  augur_DPDWindowSize(16);
  /* Two periods held at sample 5; each loops[0] from sample 6 on starts a period. */
  for (; index < 60; ++index) {
    int period = -1;
    const int start = augur_DPD(loops[index % 3], &period);
    check(period == (index >= 5 ? 3 : 0), "period", index);
    check(start == (index >= 6 && index % 3 == 0), "start", index);
  }
  /* NULL is allowed for the period. */
  check(augur_DPD(loops[index % 3], NULL) == 1, "start with a NULL period", index);
  ++index;

  /* A window below the minimum is clamped to 4 (one warning on stderr): period 3 no longer fits. */
  augur_DPDWindowSize(1);
  for (; index < 90; ++index) {
    int period = -1;
    const int start = augur_DPD(loops[index % 3], &period);
    check(period == 0 && start == 0, "no period with a window of 4", index);
  }

  /* A larger window again: the 4 samples kept and two more make two periods. */
  augur_DPDWindowSize(64);
  int found_at = -1;
  int starts = 0;
  for (; index < 150; ++index) {
    int period = -1;
    const int start = augur_DPD(loops[index % 3], &period);
    if (period == 3 && found_at < 0) found_at = (int)index;
    starts += start;
  }
  check(found_at == 91, "period found again two samples after growing the window", found_at);
  /* The period had been lost, so its phase restarts at the oldest sample kept (index 86): starts at
   * 92, 95, ..., 149. */
  check(starts == 20, "one start per period after that", index);

  if (failures == 0) printf("dpd_c_api_test: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
