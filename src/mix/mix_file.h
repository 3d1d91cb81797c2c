/* The mix file reader over a rig and its clips (ossa_mix_file_parse gives it a model's). */
#ifndef OSSA_MIX_FILE_H
#define OSSA_MIX_FILE_H

#include "ossa/mix.h"

/* clips: clip_count clips of the rig, indexed by glTF animation index. */
ossa_result ossa_mix_file_parse_clips(const char *json, size_t size, const char *file_name,
                                      const ossa_rig *rig, const ossa_clip *const *clips,
                                      uint32_t clip_count, const ossa_allocator *allocator,
                                      ossa_mix_file **out, ossa_error *error);

#endif
