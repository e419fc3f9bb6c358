// DIAG: error: kernplug: ptx-arch=sm_90 is newer than sm_80 in arch=: the cubins are assembled from the PTX, so ptx-arch= must not be above any arch=
int x;
