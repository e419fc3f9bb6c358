// DIAG: error: kernplug: ptx-arch= takes one architecture (got 'sm_75,sm_90') in -fplugin-arg-kernplug-ptx-arch=sm_75,sm_90
int x;
