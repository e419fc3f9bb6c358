// The integer intrinsics with kernplug/intrinsics.h alone.
#include "kernplug/intrinsics.h"

unsigned long long use_intrinsics(int i, unsigned u, long long ll, unsigned long long ull) {
  return (unsigned)(kp_popc(u) + kp_popcll(ull) + kp_clz(i) + kp_clzll(ll) + kp_ffs(i) +
                    kp_ffsll(ll) + kp_mul24(i, i) + kp_mulhi(i, i) + kp_hadd(i, i) +
                    kp_rhadd(i, i)) +
         kp_brev(u) + kp_brevll(ull) + kp_umul24(u, u) + kp_umulhi(u, u) +
         (unsigned long long)kp_mul64hi(ll, ll) + kp_umul64hi(ull, ull) +
         kp_byte_perm(u, u, 0x3210u) + kp_funnelshift_l(u, u, u) + kp_funnelshift_r(u, u, u) +
         kp_funnelshift_lc(u, u, u) + kp_funnelshift_rc(u, u, u) + kp_sad(i, i, u) +
         kp_usad(u, u, u) + kp_uhadd(u, u) + kp_urhadd(u, u);
}
