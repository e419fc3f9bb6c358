/* env.h — numeric settings from the environment (env.c). */
#ifndef KP_ENV_H
#define KP_ENV_H

#include <stddef.h>

/* Parses a positive integer environment variable; returns `fallback` when unset and -1 (after
 * writing the reason to `why`) when it is set but not a number in [1, max]. */
long long kp_env_positive(const char *name, long long fallback, long long max, char *why,
                          size_t why_size);
/* The same for a variable where 0 is meaningful (off): a whole number in [0, max]. */
long long kp_env_nonnegative(const char *name, long long fallback, long long max, char *why,
                             size_t why_size);

#endif /* KP_ENV_H */
