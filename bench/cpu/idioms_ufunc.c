/* idioms_ufunc.c — the ufunc rows with the default flags (idioms_ufunc_impl.h). */
#define UF_SUFFIX _default
#define UF_LOOP(side, name) side##name
#define UF_LABEL ""
#define UF_ROWS rows_ufunc
#include "idioms_ufunc_impl.h"
