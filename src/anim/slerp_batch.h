/* Four slerps at one shared parameter t (the tracks of one timeline), bit-identical to four
 * calls of ossa_quat_slerp. */
#ifndef OSSA_SLERP_BATCH_H
#define OSSA_SLERP_BATCH_H

void ossa_quat_slerp4(const float *const a[4], const float *const b[4], float t,
                      float *const out[4]);

#endif
