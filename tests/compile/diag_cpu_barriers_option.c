// DIAG: error: kernplug: cpu-barriers= takes split or fibers (got 'threads') in -fplugin-arg-kernplug-cpu-barriers=threads
int x;
