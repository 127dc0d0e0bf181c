/* A shared object that leaves a file behind when anything loads it: the compile-commands tests
   plant it outside the scanned root and check that no flag of the repository gets it loaded. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((constructor)) static void mpsready_marker_plugin_loaded(void) {
  const char* path = getenv("MPSREADY_PLUGIN_MARKER");
  if (!path) return;
  FILE* f = fopen(path, "w");
  if (f) {
    fputs("loaded\n", f);
    fclose(f);
  }
}
