/* The node hierarchy must be a forest: one parent at most (checked while parsing children) and
 * no cycles. Iterative, so hierarchies of any depth work. */
#include "io/loader.h"

void ossa_io_validate_hierarchy(ossa_io_loader *L) {
    ossa_document *doc = L->doc;
    uint32_t n = doc->node_count;
    /* state[i]: 0 unvisited, 1 on the current walk, 2 known to reach a root. */
    uint8_t *state = ossa_io_alloc_array(L, n, 1);
    for (uint32_t start = 0; start < n; start++) {
        uint32_t i = start;
        while (state[i] == 0) {
            state[i] = 1;
            if (doc->nodes[i].parent < 0) break;
            i = (uint32_t)doc->nodes[i].parent;
        }
        if (state[i] == 1 && doc->nodes[i].parent >= 0) {
            ossa_io_path_set1(L, "nodes[%u]", i);
            ossa_io_fail(L, OSSA_ERROR_INVALID,
                         "node %u is its own ancestor (the hierarchy has a cycle)", i);
        }
        for (i = start; state[i] == 1; i = (uint32_t)doc->nodes[i].parent) {
            state[i] = 2;
            if (doc->nodes[i].parent < 0) break;
        }
    }
    ossa_io_release(L->storage, state);
}
