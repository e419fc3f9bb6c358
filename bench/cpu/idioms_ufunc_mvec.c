/* idioms_ufunc_mvec.c — the ufunc rows compiled with -fno-math-errno -fveclib=libmvec, as are
 * the loops they are compared with (loops_{omp,serial}_mvec.c): what a user who allows the
 * vector math library gets (idioms_ufunc_impl.h). */
#define UF_SUFFIX _mvec
#define UF_LOOP(side, name) side##mvec_##name
#define UF_LABEL ", -fveclib=libmvec"
#define UF_ROWS rows_ufunc_mvec
#include "idioms_ufunc_impl.h"
