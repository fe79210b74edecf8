/* SPDX-License-Identifier: MIT
 *
 * The contract between libcktile.so and a per-target kernel library
 * (libcktile_kernels_<target>.so). Not public: both sides are built from one source tree, but
 * a kernel library found on disk may come from another build, so the table carries an ABI
 * version and struct sizes that the loader checks before it touches anything else.
 *
 * A kernel library exports exactly one symbol, CKTILE_KERNEL_LIBRARY_SYMBOL, which returns its
 * instance table. Records are immutable and live as long as the library stays loaded (it is
 * never unloaded).
 *
 * Fields are only ever appended to cktile_kernel_instance_t, each with a default that zero
 * (or NULL) stands for. The loader accepts records of any size from the first layout
 * (CKTILE_KERNEL_INSTANCE_MIN_SIZE) on and reads the fields a record lacks as their defaults,
 * so a kernel library built before a field was added keeps working; any other change to a
 * layout or to a function's meaning raises CKTILE_KERNEL_ABI_VERSION.
 */
#ifndef CKTILE_KERNEL_LIBRARY_ABI_H
#define CKTILE_KERNEL_LIBRARY_ABI_H

#include "cktile.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2: GEMM problems and arguments carry extra epilogue inputs (multi-D), which a version 1
 * library would ignore. 3: the public instance description the records embed grew
 * (supports_beta), which moved every field after it. 4: it grew again (activations). */
#define CKTILE_KERNEL_ABI_VERSION 4
#define CKTILE_KERNEL_LIBRARY_SYMBOL "cktile_kernel_library_get_table"

/* Writes at most `reason_size` bytes (NUL-terminated) into `reason` when it returns nonzero. */
typedef int (*cktile_kernel_gemm_supports_fn)(const cktile_gemm_problem_t* problem,
                                              const cktile_gemm_args_t* args, char* reason,
                                              size_t reason_size);
typedef size_t (*cktile_kernel_gemm_workspace_fn)(const cktile_gemm_problem_t* problem);
/* Launches asynchronously. Returns a cktile_status_t; on failure writes a message. The caller
 * has validated the problem and checked supports() with the same args. */
typedef int (*cktile_kernel_gemm_run_fn)(const cktile_gemm_problem_t* problem,
                                         const cktile_gemm_args_t* args, void* workspace,
                                         size_t workspace_size, void* stream, char* message,
                                         size_t message_size);

typedef int64_t (*cktile_kernel_gemm_splits_fn)(const cktile_gemm_problem_t* problem);
typedef int (*cktile_kernel_gemm_orientation_fn)(const cktile_gemm_problem_t* problem);
typedef int (*cktile_kernel_gemm_predicate_fn)(const cktile_gemm_problem_t* problem);

/* Operations other than GEMM. `problem` and `args` are the operation family's public structs
 * (cktile_norm_problem_t / cktile_norm_args_t for CKTILE_OP_NORMALIZATION, cktile_softmax_*
 * for CKTILE_OP_SOFTMAX), already validated by the caller; `args` may be NULL in supports
 * (shape-only queries). Same conventions as the GEMM functions above. */
typedef int (*cktile_kernel_op_supports_fn)(const void* problem, const void* args, char* reason,
                                            size_t reason_size);
typedef int (*cktile_kernel_op_run_fn)(const void* problem, const void* args, void* stream,
                                       char* message, size_t message_size);

typedef struct cktile_kernel_instance
{
    size_t struct_size;
    /* The public description (its struct_size is sizeof(cktile_instance_info_t)). */
    cktile_instance_info_t info;
    /* Occupancy input for the selection model: how many blocks the kernel was compiled to
     * keep resident per compute unit (its launch bound). */
    int min_blocks_per_cu;
    cktile_kernel_gemm_supports_fn supports;
    cktile_kernel_gemm_workspace_fn workspace_size;
    cktile_kernel_gemm_run_fn run;
    /* Selection-model inputs added after the first records (0 / NULL read as the defaults):
     * multiply-accumulates per cycle of the inner loop relative to FMAs on the vector units (1),
     * and how many blocks share one output tile's K range for a problem (split-K; NULL: 1). */
    double math_rate;
    cktile_kernel_gemm_splits_fn k_splits;
    /* Set for instances whose info.op_kind is not CKTILE_OP_GEMM (NULL for GEMMs). Such an
     * instance's GEMM functions above refuse every problem, so code that walks the table for
     * GEMMs stays correct without looking at op_kind. */
    cktile_kernel_op_supports_fn op_supports;
    cktile_kernel_op_run_fn op_run;
    /* Blocks of a cluster along M that share each tile of B through multicast loads: L2 serves
     * B once per cluster (0 reads as 1). */
    int cluster_m;
    /* Row-wise instances that copy the next rows into shared memory while one is worked on:
     * how many rows each block keeps in flight that way (0 reads as 1: none ahead). */
    int rows_in_flight;
    /* GEMM instances whose operands reach shared memory through the copy engine (TMA): the
     * stages it keeps in flight ahead of the math. Those stages, not resident threads, hide
     * the memory latency (0: the threads load the operands). */
    int copy_stages;
    /* Always 0. It takes the 4 bytes that followed copy_stages as padding in the record layout
     * that ended there (384 bytes on LP64), so the fields below lie past that layout's size
     * and records of that layout never supply them (the loader zero-extends them). */
    int reserved0;
    /* GEMM instances whose consumer warpgroups take alternate output tiles (ping-pong) instead
     * of splitting each tile between them (0: cooperative, or no warpgroups). The selection
     * model breaks exact ties in their favour. */
    int pingpong;
    /* Persistent GEMM instances that split the tiles of their last, partial wave over K: how
     * many blocks share each of those tiles for a problem (NULL or 1: none). */
    cktile_kernel_gemm_splits_fn tail_splits;
    /* The least workspace a run needs; workspace_size is what the fastest run uses (the split
     * above keeps its partial sums there). NULL: workspace_size. */
    cktile_kernel_gemm_workspace_fn minimum_workspace_size;
    /* GEMM instances that may run a problem as its transpose, D^T = B^T A^T over the same
     * memory (library/gemm_transpose.hpp): nonzero when they run this one that way, so the
     * selection model costs the transposed problem. NULL: never. */
    cktile_kernel_gemm_orientation_fn runs_transposed;
    /* Copy-engine GEMM instances: nonzero when a problem's epilogue passes the accumulators
     * through shared memory element by element (inputs or operations the register epilogue
     * does not take), which the selection model charges. NULL: never. */
    cktile_kernel_gemm_predicate_fn staged_epilogue;
    /* Copy-engine GEMM instances compiled with only part of the epilogue (their supports
     * function refuses the rest): 1 for D = alpha * A * B (names ending _alpha), 2 for that
     * plus a bias per row or column, with at most one activation and maybe beta * C (names
     * ending _bias, _bias_<activation>, _bias_c or _bias_<activation>_c; the instance
     * description's `activations` and `supports_beta` say which); 0 for the others. Their smaller
     * code saves each tile the wait for the epilogue's instructions, which the selection model
     * charges the others. */
    int alpha_only_epilogue;
    /* Instances that copy an operand into their workspace before they read it (padded where a
     * stride is off what their loads need, or transposed): bit 0 for A, bit 1 for B, for a
     * problem as the instance states it (after runs_transposed). The selection model charges
     * each copy. NULL: an operand is copied where its leading dimension or batch stride is off
     * info.alignment_elements, or its layout differs from the instance's. Bit 2: B is read in
     * place by the producer's threads (any leading dimension), which the model charges as
     * well. */
    cktile_kernel_gemm_predicate_fn copied_operands;
} cktile_kernel_instance_t;

/* The size of the first record layout: the fields up to and including `run`. */
#define CKTILE_KERNEL_INSTANCE_MIN_SIZE offsetof(cktile_kernel_instance_t, math_rate)

typedef struct cktile_kernel_table
{
    size_t struct_size;
    uint32_t abi_version;
    size_t instance_struct_size;
    const char* target;
    const char* library_version; /* the cktile version it was built with, CKTILE_VERSION_STRING */
    size_t instance_count;
    const cktile_kernel_instance_t* const* instances;
} cktile_kernel_table_t;

typedef const cktile_kernel_table_t* (*cktile_kernel_library_get_table_fn)(uint32_t abi_version);

#ifdef __cplusplus
}
#endif

#endif /* CKTILE_KERNEL_LIBRARY_ABI_H */
