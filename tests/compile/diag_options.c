// DIAG: error: kernplug: unsupported arch 'sm_61' in arch=sm_61 (supported: sm_75 sm_80 sm_86 sm_87 {{(sm_88 )?}}sm_89 sm_90{{( sm_100 sm_103 sm_110 sm_120 sm_121)?}})
int x;
