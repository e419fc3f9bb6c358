// DIAG: error: kernplug: unknown option 'colour' (known: arch, ptx-arch, save-temps, verbose, device-opt, libdevice, ptxas, ptxas-options, fast-math, device-runtime, reduce-runtime, reduce-fibers, cpu-barriers, check, split, maxrregcount) in -fplugin-arg-kernplug-colour=blue
int x;
