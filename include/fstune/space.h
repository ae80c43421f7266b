/* When a filesystem counts as nearly full: one threshold, shared by the report's fullness rule (the
 * rules' `fstune.FULL_SHARE`) and the benchmarks, which never take a filesystem past it. */
#ifndef FSTUNE_SPACE_H
#define FSTUNE_SPACE_H

/* The share of the usable space (size less root's reserve) in use above which the report warns.
 * Our own heuristic: allocators start splitting new files into many small extents around here. */
#define FST_SPACE_FULL_SHARE 0.90

#endif
