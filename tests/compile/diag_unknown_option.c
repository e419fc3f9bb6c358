// DIAG: error: kernplug: unknown option 'colour' (known: arch, ptx-arch, save-temps, verbose, device-opt, libdevice, ptxas, device-runtime, reduce-runtime, reduce-fibers, cpu-barriers, maxrregcount) in -fplugin-arg-kernplug-colour=blue
int x;
