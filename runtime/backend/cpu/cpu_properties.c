/* cpu_properties.c — the CPU backend as a device: kp_device_properties_get's answer for its
 * one device (device 0), from the machine's CPU model, memory and the worker pool. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/cpu/cpu_backend.h"

/* "Intel(R) Xeon(R) ..." from /proc/cpuinfo, or "" where there is none. */
static void cpu_model_name(char *out, size_t size) {
  out[0] = '\0';
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    const char *colon = strchr(line, ':');
    if (strncmp(line, "model name", 10) != 0 || !colon) continue;
    colon += 1 + (colon[1] == ' ');
    snprintf(out, size, "%.*s", (int)strcspn(colon, "\n"), colon);
    break;
  }
  fclose(f);
}

void kp_cpu_describe_device(const kp_limits *lim, kp_device_properties *p) {
  char model[200];
  cpu_model_name(model, sizeof model);
  snprintf(p->name, sizeof p->name, "%s%sCPU backend", model, model[0] ? " (" : "");
  if (model[0]) snprintf(p->name + strlen(p->name), sizeof p->name - strlen(p->name), ")");
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  p->total_memory = pages > 0 && page > 0 ? (size_t)pages * (size_t)page : 0;
  p->multiprocessors = kp_pool_size();
  p->max_threads_per_block = (int)lim->max_threads_per_block;
  p->max_threads_per_multiprocessor = p->max_threads_per_block;
  for (int a = 0; a < 3; a++) {
    p->max_block[a] = (int)lim->max_block[a];
    p->max_grid[a] = (int)lim->max_grid[a];
  }
  p->max_shared_per_block = (size_t)lim->max_shared_bytes;
  p->warp_size = kp_warpsize;
  p->integrated = 1;
  p->is_cpu = 1;
}
