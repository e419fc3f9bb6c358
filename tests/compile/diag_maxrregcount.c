// DIAG: error: kernplug: maxrregcount= takes a register count from 16 to 255 (got '8') in -fplugin-arg-kernplug-maxrregcount=8
int x;
