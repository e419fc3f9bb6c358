// DIAG: error: kernplug: unsupported arch 'sm_61' in arch=sm_61 (supported: sm_75 sm_80 sm_86 sm_87 sm_89 sm_90)
int x;
