/* SPDX-License-Identifier: MIT
 *
 * cktile: the stable C API of the cktile GPU kernel library.
 *
 * Compiles as C99 and C++; includes no GPU header. Every function returns a status or a
 * value that cannot fail; no C++ exception ever crosses this boundary. When a function
 * returns anything but CKTILE_STATUS_SUCCESS, cktile_get_last_error_message() (per thread)
 * says which argument or constraint failed.
 *
 * ABI rules: handles are opaque; every public struct starts with `size_t struct_size`, which
 * the caller sets to sizeof(the struct it was compiled with), so structs can grow at the end;
 * new behaviour comes as new functions, never as changed signatures. Programs that dlopen the
 * library use cktile_get_api(), a versioned, append-only table of these functions.
 *
 * Initialising a struct: only the caller's compilation knows how large its struct is.
 * cktile_<x>_init(p) is a macro for cktile_<x>_init_sized(p, sizeof(*(p))), which writes those
 * bytes and none past them: zero, then the defaults of the fields that lie wholly inside them,
 * then struct_size. A size below the struct's first published layout, or above this library's
 * struct (a caller built against a newer cktile.h: the library cannot default fields it does
 * not know), fails with INVALID_ARGUMENT and writes nothing. The exported function
 * cktile_<x>_init, which binaries built before the macro call, fills the struct's first
 * published layout only. Where the macro cannot be used (the dlopen table, ctypes), call
 * cktile_<x>_init_sized with the size of the struct as that caller declares it.
 *
 * One call, end to end:
 *   cktile_handle_t h;            cktile_create(&h, 0);
 *   cktile_gemm_problem_t p;      cktile_gemm_problem_init(&p); p.m = ...;
 *   cktile_gemm_args_t a;         cktile_gemm_args_init(&a); a.a = dA; ...
 *   cktile_gemm_run(h, CKTILE_INSTANCE_AUTO, &p, &a, NULL, 0, stream);
 *   cktile_destroy(h);
 */
#ifndef CKTILE_H
#define CKTILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CKTILE_API
#else
#define CKTILE_API __attribute__((visibility("default")))
#endif

/* The one place the version is written: CMake reads it from these three lines. */
#define CKTILE_VERSION_MAJOR 0
#define CKTILE_VERSION_MINOR 2
#define CKTILE_VERSION_PATCH 0
/** major * 10000 + minor * 100 + patch, comparable with cktile_get_version(). */
#define CKTILE_VERSION                                                                             \
    (CKTILE_VERSION_MAJOR * 10000 + CKTILE_VERSION_MINOR * 100 + CKTILE_VERSION_PATCH)
#define CKTILE_STRINGIFY_(x) #x
#define CKTILE_STRINGIFY(x) CKTILE_STRINGIFY_(x)
/** "major.minor.patch", as cktile_get_version_string() returns it. */
#define CKTILE_VERSION_STRING                                                                      \
    CKTILE_STRINGIFY(CKTILE_VERSION_MAJOR)                                                         \
    "." CKTILE_STRINGIFY(CKTILE_VERSION_MINOR) "." CKTILE_STRINGIFY(CKTILE_VERSION_PATCH)

/* ---------------------------------------------------------------------------------------- */
/* Status                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** Values are frozen; new ones are appended. */
typedef enum cktile_status
{
    CKTILE_STATUS_SUCCESS          = 0,
    CKTILE_STATUS_INVALID_ARGUMENT = 1, /**< a null pointer, a bad value, a bad struct_size */
    CKTILE_STATUS_INVALID_HANDLE   = 2, /**< null, never created, or already destroyed */
    CKTILE_STATUS_NOT_SUPPORTED    = 3, /**< valid problem, but no (or not this) instance runs it */
    CKTILE_STATUS_NOT_FOUND        = 4, /**< no instance with that id or name */
    CKTILE_STATUS_NO_DEVICE        = 5, /**< no GPU, or the device ordinal does not exist */
    CKTILE_STATUS_KERNEL_LIBRARY_NOT_FOUND =
        6,                                    /**< no kernel library for the target is installed */
    CKTILE_STATUS_KERNEL_LIBRARY_INVALID = 7, /**< a kernel library that cannot be used */
    CKTILE_STATUS_RUNTIME_ERROR          = 8, /**< the GPU runtime reported an error */
    CKTILE_STATUS_INSUFFICIENT_WORKSPACE = 9,
    CKTILE_STATUS_BUFFER_TOO_SMALL       = 10, /**< an output buffer for text is too short */
    CKTILE_STATUS_NOT_IMPLEMENTED        = 11,
    CKTILE_STATUS_INTERNAL_ERROR         = 12, /**< a bug: please report the message */
    CKTILE_STATUS_OUT_OF_MEMORY          = 13
} cktile_status_t;

/** A constant English name for a status ("CKTILE_STATUS_SUCCESS"); unknown values give
 *  "CKTILE_STATUS_<unknown>". Never NULL. */
CKTILE_API const char* cktile_status_string(cktile_status_t status);

/** What the last failing call on this thread said: which argument or constraint failed.
 *  Empty string after a successful call. Valid until the next cktile call on this thread. */
CKTILE_API const char* cktile_get_last_error_message(void);

/** Version of the loaded library, encoded as CKTILE_VERSION is. */
CKTILE_API int cktile_get_version(void);

/** Version of the loaded library as "major.minor.patch" (static storage). */
CKTILE_API const char* cktile_get_version_string(void);

/* ---------------------------------------------------------------------------------------- */
/* Vocabulary                                                                               */
/* ---------------------------------------------------------------------------------------- */

/** The operation an instance implements. GEMM, reduction, normalization and softmax have
 *  instances; the others are reserved so instance records and queries keep one shape as
 *  operations are added. */
typedef enum cktile_op_kind
{
    CKTILE_OP_GEMM          = 1,
    CKTILE_OP_REDUCTION     = 2,
    CKTILE_OP_NORMALIZATION = 3,
    CKTILE_OP_CONVOLUTION   = 4,
    CKTILE_OP_ATTENTION     = 5,
    CKTILE_OP_SOFTMAX       = 6,
    CKTILE_OP_ELEMENTWISE   = 7,
    CKTILE_OP_PERMUTE       = 8
} cktile_op_kind_t;

typedef enum cktile_datatype
{
    CKTILE_DATATYPE_FP16     = 1,
    CKTILE_DATATYPE_BF16     = 2,
    CKTILE_DATATYPE_FP32     = 3,
    CKTILE_DATATYPE_FP8_E4M3 = 4, /**< OCP e4m3fn: no infinities, max 448 */
    CKTILE_DATATYPE_FP8_E5M2 = 5, /**< OCP e5m2 */
    CKTILE_DATATYPE_INT8     = 6,
    CKTILE_DATATYPE_INT32    = 7,
    /** A compute type only, for fp32 inputs: the products are formed from the inputs rounded
     *  to TF32 (fp32's range, 10 explicit mantissa bits; tensor cores) and accumulated in
     *  fp32. CKTILE_DATATYPE_FP32 as a compute type is true fp32 arithmetic throughout. */
    CKTILE_DATATYPE_TF32 = 8
} cktile_datatype_t;

/** Storage order of one matrix. CKTILE_LAYOUT_ANY only appears in instance descriptions:
 *  such an instance reads the layout from the problem at run time. */
typedef enum cktile_layout
{
    CKTILE_LAYOUT_ROW_MAJOR = 1,
    CKTILE_LAYOUT_COL_MAJOR = 2,
    CKTILE_LAYOUT_ANY       = 3
} cktile_layout_t;

/** Bias added before the activation: one value per row of D (length M) or per column of D
 *  (length N). */
typedef enum cktile_bias
{
    CKTILE_BIAS_NONE       = 0,
    CKTILE_BIAS_PER_ROW    = 1,
    CKTILE_BIAS_PER_COLUMN = 2
} cktile_bias_t;

/** The GEMM epilogue's activation, evaluated in fp32: relu exactly (NaN gives 0); gelu_tanh
 *  and silu through the hardware's exponential and reciprocal (a few ulp of fp32); gelu_erf,
 *  x Phi(x), by a fitted form within 1.8e-7 |y| + 9e-8 of it (plus those few ulp). */
typedef enum cktile_activation
{
    CKTILE_ACTIVATION_NONE      = 0,
    CKTILE_ACTIVATION_RELU      = 1,
    CKTILE_ACTIVATION_GELU_TANH = 2,
    CKTILE_ACTIVATION_GELU_ERF  = 3,
    CKTILE_ACTIVATION_SILU      = 4
} cktile_activation_t;

/** Extra M x N inputs of the GEMM epilogue ("multi-D"): how the epilogue value v combines with
 *  D0 (and D1). Values are frozen; new ones are appended. */
typedef enum cktile_multi_d_op
{
    CKTILE_MULTI_D_NONE    = 0, /**< no extra input */
    CKTILE_MULTI_D_ADD     = 1, /**< v + D0 (a residual) */
    CKTILE_MULTI_D_MUL     = 2, /**< v * D0 (gating) */
    CKTILE_MULTI_D_ADD_MUL = 3, /**< (v + D0) * D1 */
    CKTILE_MULTI_D_MUL_ADD = 4  /**< v * D0 + D1 */
} cktile_multi_d_op_t;

/** Where the combine applies: after the activation (the default) or before it. */
typedef enum cktile_multi_d_point
{
    CKTILE_MULTI_D_AFTER_ACTIVATION  = 0, /**< D = scale_d * op(act(v), D0, D1) */
    CKTILE_MULTI_D_BEFORE_ACTIVATION = 1  /**< D = scale_d * act(op(v, D0, D1)) */
} cktile_multi_d_point_t;

/* ---------------------------------------------------------------------------------------- */
/* Handles                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** A handle binds a target's kernel library and, if created on a device, that device.
 *  Handles are safe to use from several threads at once. */
typedef struct cktile_handle_opaque* cktile_handle_t;

/** Opens a handle on GPU `device_ordinal`. Loads the kernel library of the device's target
 *  (once per process, thread-safely; searched in CKTILE_KERNEL_PATH, then next to
 *  libcktile.so). Fails with CKTILE_STATUS_NO_DEVICE without a GPU, and with
 *  CKTILE_STATUS_KERNEL_LIBRARY_NOT_FOUND (naming the target and the installed ones) when no
 *  library for the device's target is installed. If CKTILE_TUNING_DB names a file, it is
 *  loaded (problems in it are logged as warnings, never fail the call). */
CKTILE_API cktile_status_t cktile_create(cktile_handle_t* handle, int device_ordinal);

/** Opens a handle on a target without a device ("sm_90a", "gfx90a"): for offline queries
 *  (instances, support, selection). Running on such a handle fails with NO_DEVICE. */
CKTILE_API cktile_status_t cktile_create_for_target(cktile_handle_t* handle, const char* target);

/** Destroys a handle. Destroying NULL or an already destroyed handle returns
 *  CKTILE_STATUS_INVALID_HANDLE and does nothing else. */
CKTILE_API cktile_status_t cktile_destroy(cktile_handle_t handle);

typedef struct cktile_handle_info
{
    size_t struct_size;
    char target[32];        /**< "sm_90a" */
    int device_ordinal;     /**< -1 for a handle created for a target */
    int compute_unit_count; /**< SMs/CUs: of the device, or the target's usual part offline */
    size_t instance_count;  /**< instances in the target's kernel library */
} cktile_handle_info_t;

CKTILE_API cktile_status_t cktile_get_handle_info(cktile_handle_t handle,
                                                  cktile_handle_info_t* info);

/* ---------------------------------------------------------------------------------------- */
/* GEMM problems                                                                            */
/* ---------------------------------------------------------------------------------------- */

/** D = activation(alpha * A * B + beta * C + bias), batched.
 *
 *  A is M x K, B is K x N, C and D are M x N, each stored row- or column-major with its own
 *  leading dimension (in elements; at least the length of a stored row/column). A transposed
 *  operand is described by its layout: op(A) = A^T of a row-major K x M matrix is a
 *  column-major M x K matrix with the same leading dimension.
 *  Batch i reads A + i * stride_a etc. (element strides; 0 broadcasts one matrix to every
 *  batch, except for D, whose batches must not overlap).
 *  C has D's type; the bias has D's type. C may be NULL at run time when beta == 0.
 *  compute_type: FP32 for floating-point inputs (true fp32), TF32 for fp32 inputs multiplied
 *  on tensor cores as TF32, INT32 for INT8 inputs (exact accumulation). FP8 inputs on sm_90a
 *  instances (names gemm_wgmma_*) accumulate as Hopper's fp8 tensor cores do: the sums of a
 *  split's whole K range stay in the tensor cores' accumulator, which keeps about 14
 *  significant bits while adding (cuBLASLt's "fast accumulation"); other FP8 instances
 *  accumulate in fp32.
 *  Outputs: fp16, bf16 or fp32 for floating-point inputs; int32, or int8 for int8 inputs (then
 *  alpha, beta, C and the bias are applied in fp32 and the result is rounded to nearest, halves
 *  away from zero, and saturated to [-128, 127]).
 *
 *  Extra inputs (multi-D; appended in 0.2: a caller whose struct_size ends before multi_d_op
 *  gets none). With v = alpha * scale_a * scale_b * (A * B) + beta * C + bias:
 *      multi_d_point AFTER_ACTIVATION:  D = scale_d * multi_d_op(activation(v), D0, D1)
 *      multi_d_point BEFORE_ACTIVATION: D = scale_d * activation(multi_d_op(v, D0, D1))
 *  D0 and D1 are M x N, each with its own type (D's type or FP32), layout, leading dimension
 *  (ldd0, ldd1) and batch stride (stride_d0, stride_d1; 0 gives every batch the same tensor).
 *  They are read in the epilogue's precision (fp32; fp64 for int32 outputs). D1's fields are
 *  read only by operations that use D1 (ADD_MUL, MUL_ADD); all are ignored with
 *  CKTILE_MULTI_D_NONE. D0 or D1 may be D itself (same pointer, layout, leading dimension and
 *  stride: each element is read before it is written); any other overlap with D is undefined.
 *  Instances with supports_multi_d accept them. */
typedef struct cktile_gemm_problem
{
    size_t struct_size;
    cktile_datatype_t a_type, b_type, c_type, d_type, compute_type;
    cktile_layout_t a_layout, b_layout, c_layout, d_layout;
    int64_t m, n, k;
    int64_t lda, ldb, ldc, ldd;
    int64_t batch_count;
    int64_t stride_a, stride_b, stride_c, stride_d, stride_bias;
    double alpha, beta;
    cktile_bias_t bias;
    cktile_activation_t activation;
    /* appended in 0.2 */
    cktile_multi_d_op_t multi_d_op;
    cktile_multi_d_point_t multi_d_point;
    cktile_datatype_t d0_type, d1_type;
    cktile_layout_t d0_layout, d1_layout;
    int64_t ldd0, ldd1;
    int64_t stride_d0, stride_d1;
} cktile_gemm_problem_t;

/** Fills `problem` with a valid default: struct_size set, FP16 in and out with FP32 compute,
 *  all row-major, m = n = k = 1 with matching leading dimensions, batch 1, alpha 1, beta 0,
 *  no bias, no activation, no extra inputs (D0/D1 described as D: its type, row-major,
 *  leading dimension 1). First published layout (what the exported cktile_gemm_problem_init
 *  fills; see "Initialising a struct" at the top): the fields before multi_d_op. */
CKTILE_API cktile_status_t cktile_gemm_problem_init_sized(cktile_gemm_problem_t* problem,
                                                          size_t struct_size);
CKTILE_API cktile_status_t(cktile_gemm_problem_init)(cktile_gemm_problem_t* problem);
#define cktile_gemm_problem_init(problem)                                                          \
    cktile_gemm_problem_init_sized((problem), sizeof(*(problem)))

/** Device pointers for one run. `c` may be NULL when beta == 0; `bias` must be set exactly
 *  when the problem has a bias.
 *
 *  Per-tensor scales (appended in 0.2; a caller whose struct_size ends before them runs without
 *  scales): device pointers to one float each, NULL meaning 1, read when the kernel runs (so
 *  they may be computed on the device just before). They are meant for 8-bit float inputs and
 *  apply to every type:
 *      D = scale_d * activation(alpha * (scale_a * scale_b) * (A * B) + beta * C + bias)
 *  scale_a and scale_b dequantise A and B; scale_d is D's quantisation scale, applied last,
 *  before the conversion to D's type.
 *
 *  d0, d1 (appended in 0.2): the extra inputs of the problem's multi_d_op (see
 *  cktile_gemm_problem_t), set exactly when the operation reads them, aligned to their element
 *  size. A caller whose struct_size ends before them can run no multi-D problem. */
typedef struct cktile_gemm_args
{
    size_t struct_size;
    const void* a;
    const void* b;
    const void* c;
    const void* bias;
    void* d;
    const float* scale_a;
    const float* scale_b;
    const float* scale_d;
    const void* d0;
    const void* d1;
} cktile_gemm_args_t;

/** All NULL. First published layout: the fields before scale_a. */
CKTILE_API cktile_status_t cktile_gemm_args_init_sized(cktile_gemm_args_t* args,
                                                       size_t struct_size);
CKTILE_API cktile_status_t(cktile_gemm_args_init)(cktile_gemm_args_t* args);
#define cktile_gemm_args_init(args) cktile_gemm_args_init_sized((args), sizeof(*(args)))

/** Checks that a problem is well formed (positive sizes that do not overflow, strides that
 *  fit the shapes, known enums, a supported type combination). */
CKTILE_API cktile_status_t cktile_gemm_validate(const cktile_gemm_problem_t* problem);

/* ---------------------------------------------------------------------------------------- */
/* Instances                                                                                */
/* ---------------------------------------------------------------------------------------- */

/** Instance ids are permanent: derived from the instance name, equal across builds. */
#define CKTILE_INSTANCE_AUTO ((uint64_t)0)

/** The types, layouts and tile below describe the problems an instance runs as stated. Hopper
 *  instances (names gemm_wgmma_*) also run a problem as its transpose, D^T = B^T * A^T over
 *  the same memory (M and N exchanged, A and B exchanged and each read in the other layout,
 *  C, D, D0 and D1 in the other layout, a bias per row taken per column):
 *  - when only the transpose has their types and layouts, e.g. an instance for row-major A
 *    and B runs column-major A and B;
 *  - when only the transpose fits their tile, e.g. a 16-row A tile runs a 16-column problem;
 *  - when both fit and D is column-major (they store row-major D fastest).
 *  cktile_gemm_supports answers per problem either way. */
typedef struct cktile_instance_info
{
    size_t struct_size;
    uint64_t id;
    char name[160];
    char target[32];
    cktile_op_kind_t op_kind;
    cktile_datatype_t a_type, b_type, c_type, d_type, compute_type;
    /** CKTILE_LAYOUT_ANY: chosen at run time. The sm_90a instances of 8-bit and TF32 inputs
     *  (row-major A, column-major B) also run the other layouts by copying such an operand
     *  transposed into workspace first (cktile_gemm_supports and cktile_gemm_workspace_size
     *  say so per problem). */
    cktile_layout_t a_layout, b_layout;
    int supports_bias;       /**< nonzero: accepts CKTILE_BIAS_PER_ROW/COLUMN */
    int supports_activation; /**< nonzero: accepts every cktile_activation_t (see activations) */
    int tile_m, tile_n, tile_k;
    int block_threads;
    int index_bits; /**< 32: every element offset must fit in 31 bits; else 64 */
    /** Pointers, leading dimensions and batch strides must be multiples of this, except that
     *  an instance needing workspace for it may copy an operand with other strides into
     *  aligned workspace first (cktile_gemm_supports and cktile_gemm_workspace_size say so
     *  per problem). */
    int alignment_elements;
    int k_multiple; /**< K must be a multiple of this */
    size_t shared_memory_bytes;
    int is_general; /**< accepts every valid shape, stride and alignment of its types */
    /** Appended in 0.2 (a caller whose struct_size ends before it gets the fields above):
     *  nonzero when the instance accepts every cktile_multi_d_op_t. */
    int supports_multi_d;
    /** Appended after supports_multi_d (a caller whose struct_size ends before it gets the
     *  fields above): nonzero when the instance reads C, i.e. accepts beta != 0. GEMM
     *  instances compiled with only D = alpha * A * B (names ending _alpha) or only that plus
     *  a bias (names ending _bias or _bias_<activation>) do not; those compiled with a bias
     *  and C (names ending _bias_c) do, and only beta != 0 (their _bias twins run beta = 0);
     *  0 for operations other than GEMM. */
    int supports_beta;
    /** Appended after supports_beta: the activations the instance accepts, bit (1u << a) for
     *  cktile_activation_t a. Every bit where supports_activation is nonzero, only
     *  CKTILE_ACTIVATION_NONE's where the epilogue has no activation (_alpha, _bias, _bias_c
     *  among them), and a single one for
     *  GEMM instances compiled with one activation (names ending _bias_<activation>: D =
     *  act(alpha * A * B + bias) with that activation and no other); 0 for operations other
     *  than GEMM. */
    unsigned int activations;
} cktile_instance_info_t;

CKTILE_API cktile_status_t cktile_get_instance_count(cktile_handle_t handle, size_t* count);
/** Instances are numbered 0..count-1 in the handle's kernel library (an order, not an id). */
CKTILE_API cktile_status_t cktile_get_instance_info(cktile_handle_t handle, size_t index,
                                                    cktile_instance_info_t* info);
CKTILE_API cktile_status_t cktile_get_instance_info_by_id(cktile_handle_t handle, uint64_t id,
                                                          cktile_instance_info_t* info);
CKTILE_API cktile_status_t cktile_find_instance(cktile_handle_t handle, const char* name,
                                                uint64_t* id);

/** Does instance `id` run `problem`? SUCCESS if yes; NOT_SUPPORTED with the reason in
 *  `reason` (and in the last error message) if not. `args` may be NULL: then pointer
 *  alignment is not checked (cktile_gemm_run checks it). `reason` may be NULL. A "yes" is
 *  exact: the instance computes that problem correctly. */
CKTILE_API cktile_status_t cktile_gemm_supports(cktile_handle_t handle, uint64_t id,
                                                const cktile_gemm_problem_t* problem,
                                                const cktile_gemm_args_t* args, char* reason,
                                                size_t reason_size);

/** The workspace of the instance's fastest run of `problem`. Some instances also run with less:
 *  Hopper instances keep the partial sums of their last wave's split over K there (when the
 *  output tiles leave that wave partly empty), and with less they run that wave whole. */
CKTILE_API cktile_status_t cktile_gemm_workspace_size(cktile_handle_t handle, uint64_t id,
                                                      const cktile_gemm_problem_t* problem,
                                                      size_t* bytes);

/** Which statement of `problem` instance `id` runs: *transposed = 0 for the problem as stated,
 *  1 for its transpose D^T = B^T * A^T (see cktile_instance_info_t), whose M and N, and so
 *  whose tiles, are the other way round. NOT_SUPPORTED (with the reason) when the instance does
 *  not run the problem. Appended in the version 4 table. */
CKTILE_API cktile_status_t cktile_gemm_runs_transposed(cktile_handle_t handle, uint64_t id,
                                                       const cktile_gemm_problem_t* problem,
                                                       int* transposed);

/* ---------------------------------------------------------------------------------------- */
/* Selection                                                                                */
/* ---------------------------------------------------------------------------------------- */

typedef enum cktile_select_mode
{
    /** The tuning database if it has the problem, else the heuristic. */
    CKTILE_SELECT_DEFAULT = 0,
    /** An analytical model: tiles, waves over the compute units, occupancy. */
    CKTILE_SELECT_HEURISTIC = 1,
    /** Only the tuning database; NOT_FOUND when it has no usable entry. */
    CKTILE_SELECT_TUNING_DB = 2
} cktile_select_mode_t;

/** Picks an instance for `problem` without running anything. `args` may be NULL (then
 *  pointer alignment is assumed to be whatever the chosen instance needs; run re-checks). */
CKTILE_API cktile_status_t cktile_gemm_select(cktile_handle_t handle,
                                              const cktile_gemm_problem_t* problem,
                                              const cktile_gemm_args_t* args,
                                              cktile_select_mode_t mode, uint64_t* id);

/** One instance of the heuristic's ranking (cktile_gemm_select_ranked). */
typedef struct cktile_gemm_candidate
{
    /** Set by the caller in the array's first element to sizeof(cktile_gemm_candidate_t): the
     *  elements lie that many bytes apart, and each is written with that size. */
    size_t struct_size;
    /** The instance (cktile_get_instance_info_by_id describes it). */
    uint64_t id;
    /** The model's time for it over the first candidate's: 1 for the first, never less for
     *  the ones after. The model orders instances for one problem; its times are estimates. */
    double relative_time;
    /** The workspace of the run the model costs: cktile_gemm_workspace_size's when that fits
     *  `workspace_limit`, else the least this instance runs with (slower, and costed so). */
    size_t workspace_size;
    /** Output tiles over compute units, for the statement the instance runs (M and N exchanged
     *  where it runs the transpose): how full its last wave is. */
    double waves;
} cktile_gemm_candidate_t;

/** The heuristic's ranking for `problem`: every instance that runs it with at most
 *  `workspace_limit` bytes of workspace (SIZE_MAX: no limit), fastest modelled first, ties
 *  ordered as cktile_gemm_select orders them, so the first is CKTILE_SELECT_HEURISTIC's pick
 *  with that workspace. The first `capacity` of them are written to `candidates` (whose first
 *  element's struct_size says the elements' size); `count` receives how many there are in
 *  all, which may be more. `candidates` may be NULL when `capacity` is 0, to ask for the
 *  count. `args` as in cktile_gemm_select. NOT_SUPPORTED (with the reasons) when no instance
 *  runs the problem; INSUFFICIENT_WORKSPACE when every one that does needs more workspace.
 *  Nothing runs: a caller that times the first few and keeps the fastest does on its own
 *  machine what cktile_gemm_select_measured does with all of them. */
CKTILE_API cktile_status_t cktile_gemm_select_ranked(
    cktile_handle_t handle, const cktile_gemm_problem_t* problem, const cktile_gemm_args_t* args,
    size_t workspace_limit, cktile_gemm_candidate_t* candidates, size_t capacity, size_t* count);

/** Measured selection: runs every supporting instance that fits the workspace on `stream`
 *  (D is written many times; where C is D and beta != 0, what D holds afterwards is not the
 *  product), once to warm up and once timed. Those within 1.25x of the fastest such time (at
 *  most 8) are then timed again in 5 rounds that alternate their order, each round over
 *  enough launches to last about 0.2 ms, and the one with the lowest median time per launch
 *  is cached in the handle for this problem (and in its tuning entries, with that time);
 *  later calls for the same problem answer from the cache. Needs a handle with a device;
 *  blocks until done. */
CKTILE_API cktile_status_t cktile_gemm_select_measured(cktile_handle_t handle,
                                                       const cktile_gemm_problem_t* problem,
                                                       const cktile_gemm_args_t* args,
                                                       void* workspace, size_t workspace_size,
                                                       void* stream, uint64_t* id);

/** Loads a tuning database (JSON) into the handle. Entries for another library version,
 *  target or compute-unit count, and corrupt entries, are ignored with a logged warning; the
 *  number of entries kept is returned in `loaded` (may be NULL). A file that cannot be read
 *  or parsed fails with INVALID_ARGUMENT. */
CKTILE_API cktile_status_t cktile_tuning_db_load(cktile_handle_t handle, const char* path,
                                                 size_t* loaded);
/** Writes the handle's tuning entries (loaded and measured) as a tuning database. */
CKTILE_API cktile_status_t cktile_tuning_db_save(cktile_handle_t handle, const char* path);

/* ---------------------------------------------------------------------------------------- */
/* Running                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** Runs `problem` on `stream` (a hipStream_t/cudaStream_t; NULL is the default stream),
 *  asynchronously. `instance_id` CKTILE_INSTANCE_AUTO selects as CKTILE_SELECT_DEFAULT does
 *  (and uses a measured choice cached in the handle, if any). The workspace should hold
 *  cktile_gemm_workspace_size() bytes, 16-byte aligned (NULL when that is 0); with less, an
 *  instance that can do without part of it runs slower, one that cannot fails with
 *  INSUFFICIENT_WORKSPACE. Automatic selection takes the workspace given into account. */
CKTILE_API cktile_status_t cktile_gemm_run(cktile_handle_t handle, uint64_t instance_id,
                                           const cktile_gemm_problem_t* problem,
                                           const cktile_gemm_args_t* args, void* workspace,
                                           size_t workspace_size, void* stream);

/* ---------------------------------------------------------------------------------------- */
/* Row-wise memory-bound operations: normalization and softmax over the last axis           */
/* ---------------------------------------------------------------------------------------- */

/* Each operation sees its tensor as `rows` rows of `cols` contiguous elements (the last axis),
 * row i starting `stride` elements after row i - 1: any tensor whose leading axes flatten to
 * one row index. Inputs are converted to fp32 (compute_type) and every intermediate stays
 * fp32. Instances of these operations have op_kind CKTILE_OP_NORMALIZATION or
 * CKTILE_OP_SOFTMAX; in their cktile_instance_info_t, a_type is the input type, d_type the
 * output type, b_type the weight type, tile_m the rows per block, tile_n the columns held in
 * registers per pass, alignment_elements the vector length (pointers, strides and cols must
 * be multiples of it; 1 for general instances). They need no workspace.
 *
 * Aliasing: an output may be the very same tensor as an input (same pointer, same stride;
 * noted per operation); any other overlap between an output and another tensor is rejected. */

typedef enum cktile_norm_kind
{
    CKTILE_NORM_RMSNORM   = 1, /**< y = h / sqrt(mean(h^2) + eps) * w (+ b) */
    CKTILE_NORM_LAYERNORM = 2  /**< y = (h - mean(h)) / sqrt(var(h) + eps) * w (+ b) */
} cktile_norm_kind_t;

/** Normalization of each row of h = x, or, with fused_residual, of h = x + residual rounded
 *  to x_type (h is then also written to residual_out).
 *  x, residual and residual_out have x_type; weight and bias (`cols` elements each) have
 *  weight_type; y has y_type. var is the population variance (divided by cols).
 *  save_statistics writes rstd (and, for LayerNorm, mean) per row as fp32.
 *  Allowed aliasing: y may be x or residual; residual_out may be x or residual. */
typedef struct cktile_norm_problem
{
    size_t struct_size;
    cktile_norm_kind_t kind;
    cktile_datatype_t x_type, y_type, weight_type, compute_type;
    int64_t rows, cols;
    int64_t x_stride, y_stride, residual_stride, residual_out_stride;
    double epsilon;
    int has_bias;
    int fused_residual;
    int save_statistics;
} cktile_norm_problem_t;

/** Fills `problem` with a valid default: RMSNorm, FP16 in/out and weight, FP32 compute,
 *  1 row of 1 column with strides 1, epsilon 1e-5, no bias, no residual, no statistics.
 *  First published layout: all of it. */
CKTILE_API cktile_status_t cktile_norm_problem_init_sized(cktile_norm_problem_t* problem,
                                                          size_t struct_size);
CKTILE_API cktile_status_t(cktile_norm_problem_init)(cktile_norm_problem_t* problem);
#define cktile_norm_problem_init(problem)                                                          \
    cktile_norm_problem_init_sized((problem), sizeof(*(problem)))

/** Device pointers. residual and residual_out are set exactly when fused_residual is;
 *  bias exactly when has_bias; rstd (and mean, LayerNorm only; NULL for RMSNorm) exactly
 *  when save_statistics. */
typedef struct cktile_norm_args
{
    size_t struct_size;
    const void* x;
    const void* residual;
    const void* weight;
    const void* bias;
    void* y;
    void* residual_out;
    float* mean;
    float* rstd;
} cktile_norm_args_t;

/** All NULL. First published layout: all of it. */
CKTILE_API cktile_status_t cktile_norm_args_init_sized(cktile_norm_args_t* args,
                                                       size_t struct_size);
CKTILE_API cktile_status_t(cktile_norm_args_init)(cktile_norm_args_t* args);
#define cktile_norm_args_init(args) cktile_norm_args_init_sized((args), sizeof(*(args)))

/** Checks a problem (known enums, positive sizes, strides covering a row, epsilon finite and
 *  >= 0, a supported type combination) and, when `args` is not NULL, its pointers (present
 *  exactly when needed, aligned to their element size, outputs not overlapping other tensors
 *  except as allowed above). */
CKTILE_API cktile_status_t cktile_norm_validate(const cktile_norm_problem_t* problem,
                                                const cktile_norm_args_t* args);

/** As cktile_gemm_supports, for a normalization instance. `args` may be NULL. */
CKTILE_API cktile_status_t cktile_norm_supports(cktile_handle_t handle, uint64_t id,
                                                const cktile_norm_problem_t* problem,
                                                const cktile_norm_args_t* args, char* reason,
                                                size_t reason_size);

/** Picks an instance (CKTILE_SELECT_DEFAULT and CKTILE_SELECT_HEURISTIC: the analytical
 *  model; CKTILE_SELECT_TUNING_DB: NOT_FOUND, the tuning database holds GEMMs only). */
CKTILE_API cktile_status_t cktile_norm_select(cktile_handle_t handle,
                                              const cktile_norm_problem_t* problem,
                                              const cktile_norm_args_t* args,
                                              cktile_select_mode_t mode, uint64_t* id);

/** Runs asynchronously on `stream`; CKTILE_INSTANCE_AUTO selects. */
CKTILE_API cktile_status_t cktile_norm_run(cktile_handle_t handle, uint64_t instance_id,
                                           const cktile_norm_problem_t* problem,
                                           const cktile_norm_args_t* args, void* stream);

/** y = softmax(x) over each row, numerically stable (the row maximum is subtracted). Rows
 *  that fit an instance's registers are read once; longer rows (any length) are read twice,
 *  the first pass keeping a running maximum and a rescaled running sum.
 *  Non-finite inputs follow the formula, as PyTorch does: a row holding a NaN or a +inf, or
 *  made only of -inf, comes out all NaN. Allowed aliasing: y may be x (in place). */
typedef struct cktile_softmax_problem
{
    size_t struct_size;
    cktile_datatype_t x_type, y_type, compute_type;
    int64_t rows, cols;
    int64_t x_stride, y_stride;
} cktile_softmax_problem_t;

/** FP16 in/out, FP32 compute, 1 x 1 with strides 1. First published layout: all of it. */
CKTILE_API cktile_status_t cktile_softmax_problem_init_sized(cktile_softmax_problem_t* problem,
                                                             size_t struct_size);
CKTILE_API cktile_status_t(cktile_softmax_problem_init)(cktile_softmax_problem_t* problem);
#define cktile_softmax_problem_init(problem)                                                       \
    cktile_softmax_problem_init_sized((problem), sizeof(*(problem)))

typedef struct cktile_softmax_args
{
    size_t struct_size;
    const void* x;
    void* y;
} cktile_softmax_args_t;

/** All NULL. First published layout: all of it. */
CKTILE_API cktile_status_t cktile_softmax_args_init_sized(cktile_softmax_args_t* args,
                                                          size_t struct_size);
CKTILE_API cktile_status_t(cktile_softmax_args_init)(cktile_softmax_args_t* args);
#define cktile_softmax_args_init(args) cktile_softmax_args_init_sized((args), sizeof(*(args)))
CKTILE_API cktile_status_t cktile_softmax_validate(const cktile_softmax_problem_t* problem,
                                                   const cktile_softmax_args_t* args);
CKTILE_API cktile_status_t cktile_softmax_supports(cktile_handle_t handle, uint64_t id,
                                                   const cktile_softmax_problem_t* problem,
                                                   const cktile_softmax_args_t* args, char* reason,
                                                   size_t reason_size);
CKTILE_API cktile_status_t cktile_softmax_select(cktile_handle_t handle,
                                                 const cktile_softmax_problem_t* problem,
                                                 const cktile_softmax_args_t* args,
                                                 cktile_select_mode_t mode, uint64_t* id);
CKTILE_API cktile_status_t cktile_softmax_run(cktile_handle_t handle, uint64_t instance_id,
                                              const cktile_softmax_problem_t* problem,
                                              const cktile_softmax_args_t* args, void* stream);

/* ---------------------------------------------------------------------------------------- */
/* Strided memory-bound operations: elementwise and permute                                  */
/* ---------------------------------------------------------------------------------------- */

/* Tensors of 1 to CKTILE_MAX_TENSOR_RANK axes, outermost first, each axis with a length and a
 * stride in elements (>= 0; 0 repeats one element along the axis). Types: fp16, bf16, fp32;
 * compute is fp32. Instances have op_kind CKTILE_OP_ELEMENTWISE or CKTILE_OP_PERMUTE; in their
 * cktile_instance_info_t, a_type/b_type are the input types, d_type the output type,
 * alignment_elements the vector length (1 for general instances, which accept any strides and
 * alignment), tile_m x tile_n the block tile. They need no workspace.
 *
 * An output must not overlap itself (two indices of y at one address): its strides, sorted,
 * must each exceed the extent of the smaller ones. */

#define CKTILE_MAX_TENSOR_RANK 6

typedef struct cktile_tensor_desc
{
    cktile_datatype_t type;
    int32_t rank;                            /**< 1 .. CKTILE_MAX_TENSOR_RANK */
    int64_t dims[CKTILE_MAX_TENSOR_RANK];    /**< >= 1 each; entries past rank are ignored */
    int64_t strides[CKTILE_MAX_TENSOR_RANK]; /**< elements, >= 0 */
} cktile_tensor_desc_t;

/** Unary operations (1..99) compute y = f(alpha * a); binary ones (101..) y = f(alpha * a,
 *  beta * b). A cast is CKTILE_ELEMENTWISE_IDENTITY with y.type != a.type (round to nearest
 *  even, overflow to infinity, NaN stays NaN). relu, gelu and silu are the GEMM epilogue's
 *  activations (relu maps NaN to 0); max and min return NaN if either operand is NaN. */
typedef enum cktile_elementwise_op
{
    CKTILE_ELEMENTWISE_IDENTITY  = 1,
    CKTILE_ELEMENTWISE_RELU      = 2,
    CKTILE_ELEMENTWISE_GELU_TANH = 3,
    CKTILE_ELEMENTWISE_GELU_ERF  = 4,
    CKTILE_ELEMENTWISE_SILU      = 5,
    CKTILE_ELEMENTWISE_SIGMOID   = 6,
    CKTILE_ELEMENTWISE_EXP       = 7,
    CKTILE_ELEMENTWISE_LOG       = 8,
    CKTILE_ELEMENTWISE_NEG       = 9,
    CKTILE_ELEMENTWISE_ABS       = 10,
    CKTILE_ELEMENTWISE_SQRT      = 11,
    CKTILE_ELEMENTWISE_RSQRT     = 12,
    CKTILE_ELEMENTWISE_TANH      = 13,
    CKTILE_ELEMENTWISE_ADD       = 101,
    CKTILE_ELEMENTWISE_SUB       = 102,
    CKTILE_ELEMENTWISE_MUL       = 103,
    CKTILE_ELEMENTWISE_DIV       = 104,
    CKTILE_ELEMENTWISE_MAX       = 105,
    CKTILE_ELEMENTWISE_MIN       = 106
} cktile_elementwise_op_t;

/** y = op(alpha * a[, beta * b]) with NumPy broadcasting: a's and b's axes align with y's
 *  last axes (their ranks may be smaller), and each of their axes is either y's length or 1;
 *  y's shape is the broadcast shape (every axis of y is the length of a's or b's axis there).
 *  An input axis of length > 1 with stride 0 also broadcasts. b is ignored for unary ops.
 *  Supported types: a and b of one type, y of that type or (casts) another of fp16/bf16/fp32
 *  as the kernel library lists. Allowed aliasing: y may be the very same tensor as a or b
 *  (same pointer, type, shape and strides: in place); any other overlap is rejected. */
typedef struct cktile_elementwise_problem
{
    size_t struct_size;
    cktile_elementwise_op_t op;
    cktile_datatype_t compute_type; /**< FP32 */
    cktile_tensor_desc_t a, b, y;
    double alpha, beta;
} cktile_elementwise_problem_t;

/** IDENTITY, FP16 a/b/y of one element (rank 1, dims 1, strides 1), FP32 compute, alpha 1,
 *  beta 1. First published layout: all of it. */
CKTILE_API cktile_status_t
cktile_elementwise_problem_init_sized(cktile_elementwise_problem_t* problem, size_t struct_size);
CKTILE_API cktile_status_t(cktile_elementwise_problem_init)(cktile_elementwise_problem_t* problem);
#define cktile_elementwise_problem_init(problem)                                                   \
    cktile_elementwise_problem_init_sized((problem), sizeof(*(problem)))

typedef struct cktile_elementwise_args
{
    size_t struct_size;
    const void* a;
    const void* b; /**< NULL for unary operations */
    void* y;
} cktile_elementwise_args_t;

/** All NULL. First published layout: all of it. */
CKTILE_API cktile_status_t cktile_elementwise_args_init_sized(cktile_elementwise_args_t* args,
                                                              size_t struct_size);
CKTILE_API cktile_status_t(cktile_elementwise_args_init)(cktile_elementwise_args_t* args);
#define cktile_elementwise_args_init(args)                                                         \
    cktile_elementwise_args_init_sized((args), sizeof(*(args)))
/** Checks enums, ranks, dims, strides (non-negative, y not overlapping itself), broadcasting,
 *  types, alpha/beta finite, and with `args` the pointers (present, aligned to the element
 *  size, y overlapping no input except as allowed above). */
CKTILE_API cktile_status_t cktile_elementwise_validate(const cktile_elementwise_problem_t* problem,
                                                       const cktile_elementwise_args_t* args);
CKTILE_API cktile_status_t cktile_elementwise_supports(cktile_handle_t handle, uint64_t id,
                                                       const cktile_elementwise_problem_t* problem,
                                                       const cktile_elementwise_args_t* args,
                                                       char* reason, size_t reason_size);
/** CKTILE_SELECT_TUNING_DB answers NOT_FOUND (the tuning database holds GEMMs only). */
CKTILE_API cktile_status_t cktile_elementwise_select(cktile_handle_t handle,
                                                     const cktile_elementwise_problem_t* problem,
                                                     const cktile_elementwise_args_t* args,
                                                     cktile_select_mode_t mode, uint64_t* id);
CKTILE_API cktile_status_t cktile_elementwise_run(cktile_handle_t handle, uint64_t instance_id,
                                                  const cktile_elementwise_problem_t* problem,
                                                  const cktile_elementwise_args_t* args,
                                                  void* stream);

/** y = x with its axes permuted: y's axis d is x's axis perm[d] (y.dims[d] == x.dims[perm[d]]),
 *  y[i_0, ..., i_{r-1}] = x[j] with j[perm[d]] = i_d. x and y have one type and one rank; y may
 *  be strided. Permutations that exchange the two innermost groups of axes (a transpose,
 *  batched or not) run through shared-memory tiles. In place is not allowed: y must not
 *  overlap x at all. */
typedef struct cktile_permute_problem
{
    size_t struct_size;
    cktile_tensor_desc_t x, y;
    int32_t perm[CKTILE_MAX_TENSOR_RANK]; /**< a permutation of 0 .. rank-1 */
} cktile_permute_problem_t;

/** FP16, rank 1, one element, identity permutation. First published layout: all of it. */
CKTILE_API cktile_status_t cktile_permute_problem_init_sized(cktile_permute_problem_t* problem,
                                                             size_t struct_size);
CKTILE_API cktile_status_t(cktile_permute_problem_init)(cktile_permute_problem_t* problem);
#define cktile_permute_problem_init(problem)                                                       \
    cktile_permute_problem_init_sized((problem), sizeof(*(problem)))

typedef struct cktile_permute_args
{
    size_t struct_size;
    const void* x;
    void* y;
} cktile_permute_args_t;

/** All NULL. First published layout: all of it. */
CKTILE_API cktile_status_t cktile_permute_args_init_sized(cktile_permute_args_t* args,
                                                          size_t struct_size);
CKTILE_API cktile_status_t(cktile_permute_args_init)(cktile_permute_args_t* args);
#define cktile_permute_args_init(args) cktile_permute_args_init_sized((args), sizeof(*(args)))
CKTILE_API cktile_status_t cktile_permute_validate(const cktile_permute_problem_t* problem,
                                                   const cktile_permute_args_t* args);
CKTILE_API cktile_status_t cktile_permute_supports(cktile_handle_t handle, uint64_t id,
                                                   const cktile_permute_problem_t* problem,
                                                   const cktile_permute_args_t* args, char* reason,
                                                   size_t reason_size);
CKTILE_API cktile_status_t cktile_permute_select(cktile_handle_t handle,
                                                 const cktile_permute_problem_t* problem,
                                                 const cktile_permute_args_t* args,
                                                 cktile_select_mode_t mode, uint64_t* id);
CKTILE_API cktile_status_t cktile_permute_run(cktile_handle_t handle, uint64_t instance_id,
                                              const cktile_permute_problem_t* problem,
                                              const cktile_permute_args_t* args, void* stream);

/* Reduction over any set of axes of a strided tensor                                       */
/* ---------------------------------------------------------------------------------------- */

typedef enum cktile_reduce_op
{
    CKTILE_REDUCE_SUM         = 1,
    CKTILE_REDUCE_MAX         = 2, /**< NaN if any reduced element is NaN (as PyTorch) */
    CKTILE_REDUCE_MIN         = 3, /**< NaN if any reduced element is NaN (as PyTorch) */
    CKTILE_REDUCE_MEAN        = 4, /**< the sum divided by the number of reduced elements */
    CKTILE_REDUCE_SUM_SQUARES = 5  /**< sum of x^2 */
} cktile_reduce_op_t;

#define CKTILE_REDUCE_MAX_RANK 6

/** y = op(x) over the axes whose bit is set in reduce_mask (bit i: axis i), accumulated in
 *  fp32 (compute_type) whatever x_type and y_type are (fp16, bf16 or fp32 each).
 *
 *  x has `rank` (1..6) axes: axis i has dims[i] >= 1 elements, x_strides[i] >= 0 elements
 *  apart (0 repeats one element; any order and overlap of x is fine, it is only read).
 *
 *  y is indexed like x with every reduced axis of length 1 (PyTorch's keepdim=True):
 *  y_strides[i] is the step of y along input axis i, and the entries of reduced axes are
 *  ignored. For PyTorch's keepdim=False layout pass the output tensor's strides at the kept
 *  axes' positions and anything at the reduced ones: the addresses are the same. Distinct kept
 *  indices must reach distinct elements of y (y_strides of kept axes of length > 1 may not
 *  make y overlap itself), and y may not overlap x.
 *
 *  Empty reductions (an axis of 0 elements, or reduce_mask 0) are rejected.
 *  Instances have op_kind CKTILE_OP_REDUCTION, a_type the input type, d_type the output type;
 *  tile_m x tile_n is the window one block reads per step. Reductions over the last axis
 *  (rows x cols) and over a non-contiguous axis with a contiguous kept axis (column sums, and
 *  outer x reduced x inner) have tiled, vectorized instances; every other layout runs on the
 *  general instance. */
typedef struct cktile_reduce_problem
{
    size_t struct_size;
    cktile_reduce_op_t op;
    cktile_datatype_t x_type, y_type, compute_type;
    int rank;
    int64_t dims[CKTILE_REDUCE_MAX_RANK];
    int64_t x_strides[CKTILE_REDUCE_MAX_RANK];
    uint32_t reduce_mask;
    int64_t y_strides[CKTILE_REDUCE_MAX_RANK];
} cktile_reduce_problem_t;

/** SUM of FP16 into FP16, FP32 compute, rank 1 with dims {1}, stride 1, reduce_mask 1.
 *  First published layout: all of it. */
CKTILE_API cktile_status_t cktile_reduce_problem_init_sized(cktile_reduce_problem_t* problem,
                                                            size_t struct_size);
CKTILE_API cktile_status_t(cktile_reduce_problem_init)(cktile_reduce_problem_t* problem);
#define cktile_reduce_problem_init(problem)                                                        \
    cktile_reduce_problem_init_sized((problem), sizeof(*(problem)))

typedef struct cktile_reduce_args
{
    size_t struct_size;
    const void* x;
    void* y;
} cktile_reduce_args_t;

/** All NULL. First published layout: all of it. */
CKTILE_API cktile_status_t cktile_reduce_args_init_sized(cktile_reduce_args_t* args,
                                                         size_t struct_size);
CKTILE_API cktile_status_t(cktile_reduce_args_init)(cktile_reduce_args_t* args);
#define cktile_reduce_args_init(args) cktile_reduce_args_init_sized((args), sizeof(*(args)))
/** Checks the problem (known enums, rank 1..6, dims >= 1, strides >= 0, a reduce_mask that
 *  names at least one axis and only axes < rank, y not overlapping itself, index spaces that
 *  fit in int64 bytes) and, when `args` is not NULL, its pointers (present, aligned to their
 *  element size, y not overlapping x). */
CKTILE_API cktile_status_t cktile_reduce_validate(const cktile_reduce_problem_t* problem,
                                                  const cktile_reduce_args_t* args);
CKTILE_API cktile_status_t cktile_reduce_supports(cktile_handle_t handle, uint64_t id,
                                                  const cktile_reduce_problem_t* problem,
                                                  const cktile_reduce_args_t* args, char* reason,
                                                  size_t reason_size);
/** As cktile_softmax_select (the analytical model; the tuning database holds GEMMs only). */
CKTILE_API cktile_status_t cktile_reduce_select(cktile_handle_t handle,
                                                const cktile_reduce_problem_t* problem,
                                                const cktile_reduce_args_t* args,
                                                cktile_select_mode_t mode, uint64_t* id);
CKTILE_API cktile_status_t cktile_reduce_run(cktile_handle_t handle, uint64_t instance_id,
                                             const cktile_reduce_problem_t* problem,
                                             const cktile_reduce_args_t* args, void* stream);

/* ---------------------------------------------------------------------------------------- */
/* Versioned function table (for programs that dlopen libcktile.so)                         */
/* ---------------------------------------------------------------------------------------- */

#define CKTILE_API_VERSION_1 1

/** Append-only: entries are never removed or reordered (offsets are frozen by static_assert
 *  in the library); a later version only adds entries at the end and raises `version`.
 *  `struct_size` is the size of the table the library provides. */
typedef struct cktile_api_v1
{
    size_t struct_size;
    uint32_t version;
    const char* (*status_string)(cktile_status_t);
    const char* (*get_last_error_message)(void);
    int (*get_version)(void);
    const char* (*get_version_string)(void);
    cktile_status_t (*create)(cktile_handle_t*, int);
    cktile_status_t (*create_for_target)(cktile_handle_t*, const char*);
    cktile_status_t (*destroy)(cktile_handle_t);
    cktile_status_t (*get_handle_info)(cktile_handle_t, cktile_handle_info_t*);
    cktile_status_t (*gemm_problem_init)(cktile_gemm_problem_t*);
    cktile_status_t (*gemm_args_init)(cktile_gemm_args_t*);
    cktile_status_t (*gemm_validate)(const cktile_gemm_problem_t*);
    cktile_status_t (*get_instance_count)(cktile_handle_t, size_t*);
    cktile_status_t (*get_instance_info)(cktile_handle_t, size_t, cktile_instance_info_t*);
    cktile_status_t (*get_instance_info_by_id)(cktile_handle_t, uint64_t, cktile_instance_info_t*);
    cktile_status_t (*find_instance)(cktile_handle_t, const char*, uint64_t*);
    cktile_status_t (*gemm_supports)(cktile_handle_t, uint64_t, const cktile_gemm_problem_t*,
                                     const cktile_gemm_args_t*, char*, size_t);
    cktile_status_t (*gemm_workspace_size)(cktile_handle_t, uint64_t, const cktile_gemm_problem_t*,
                                           size_t*);
    cktile_status_t (*gemm_select)(cktile_handle_t, const cktile_gemm_problem_t*,
                                   const cktile_gemm_args_t*, cktile_select_mode_t, uint64_t*);
    cktile_status_t (*gemm_select_measured)(cktile_handle_t, const cktile_gemm_problem_t*,
                                            const cktile_gemm_args_t*, void*, size_t, void*,
                                            uint64_t*);
    cktile_status_t (*tuning_db_load)(cktile_handle_t, const char*, size_t*);
    cktile_status_t (*tuning_db_save)(cktile_handle_t, const char*);
    cktile_status_t (*gemm_run)(cktile_handle_t, uint64_t, const cktile_gemm_problem_t*,
                                const cktile_gemm_args_t*, void*, size_t, void*);
} cktile_api_v1_t;

#define CKTILE_API_VERSION_2 2

/** Version 2: version 1's entries, unchanged and at the same offsets, then the row-wise
 *  operations. Append-only like version 1. */
typedef struct cktile_api_v2
{
    cktile_api_v1_t v1; /**< v1.version is CKTILE_API_VERSION_2, v1.struct_size this size */
    cktile_status_t (*norm_problem_init)(cktile_norm_problem_t*);
    cktile_status_t (*norm_args_init)(cktile_norm_args_t*);
    cktile_status_t (*norm_validate)(const cktile_norm_problem_t*, const cktile_norm_args_t*);
    cktile_status_t (*norm_supports)(cktile_handle_t, uint64_t, const cktile_norm_problem_t*,
                                     const cktile_norm_args_t*, char*, size_t);
    cktile_status_t (*norm_select)(cktile_handle_t, const cktile_norm_problem_t*,
                                   const cktile_norm_args_t*, cktile_select_mode_t, uint64_t*);
    cktile_status_t (*norm_run)(cktile_handle_t, uint64_t, const cktile_norm_problem_t*,
                                const cktile_norm_args_t*, void*);
    cktile_status_t (*softmax_problem_init)(cktile_softmax_problem_t*);
    cktile_status_t (*softmax_args_init)(cktile_softmax_args_t*);
    cktile_status_t (*softmax_validate)(const cktile_softmax_problem_t*,
                                        const cktile_softmax_args_t*);
    cktile_status_t (*softmax_supports)(cktile_handle_t, uint64_t, const cktile_softmax_problem_t*,
                                        const cktile_softmax_args_t*, char*, size_t);
    cktile_status_t (*softmax_select)(cktile_handle_t, const cktile_softmax_problem_t*,
                                      const cktile_softmax_args_t*, cktile_select_mode_t,
                                      uint64_t*);
    cktile_status_t (*softmax_run)(cktile_handle_t, uint64_t, const cktile_softmax_problem_t*,
                                   const cktile_softmax_args_t*, void*);
} cktile_api_v2_t;

#define CKTILE_API_VERSION_3 3

/** Version 3: version 2's entries, unchanged and at the same offsets, then the reductions, then
 *  the strided memory-bound operations (elementwise, permute). Append-only like the versions
 *  before it. */
typedef struct cktile_api_v3
{
    cktile_api_v2_t v2; /**< v2.v1.version is CKTILE_API_VERSION_3, v2.v1.struct_size this size */
    /* --- reduce --- */
    cktile_status_t (*reduce_problem_init)(cktile_reduce_problem_t*);
    cktile_status_t (*reduce_args_init)(cktile_reduce_args_t*);
    cktile_status_t (*reduce_validate)(const cktile_reduce_problem_t*, const cktile_reduce_args_t*);
    cktile_status_t (*reduce_supports)(cktile_handle_t, uint64_t, const cktile_reduce_problem_t*,
                                       const cktile_reduce_args_t*, char*, size_t);
    cktile_status_t (*reduce_select)(cktile_handle_t, const cktile_reduce_problem_t*,
                                     const cktile_reduce_args_t*, cktile_select_mode_t, uint64_t*);
    cktile_status_t (*reduce_run)(cktile_handle_t, uint64_t, const cktile_reduce_problem_t*,
                                  const cktile_reduce_args_t*, void*);
    /* --- elementwise and permute --- */
    cktile_status_t (*elementwise_problem_init)(cktile_elementwise_problem_t*);
    cktile_status_t (*elementwise_args_init)(cktile_elementwise_args_t*);
    cktile_status_t (*elementwise_validate)(const cktile_elementwise_problem_t*,
                                            const cktile_elementwise_args_t*);
    cktile_status_t (*elementwise_supports)(cktile_handle_t, uint64_t,
                                            const cktile_elementwise_problem_t*,
                                            const cktile_elementwise_args_t*, char*, size_t);
    cktile_status_t (*elementwise_select)(cktile_handle_t, const cktile_elementwise_problem_t*,
                                          const cktile_elementwise_args_t*, cktile_select_mode_t,
                                          uint64_t*);
    cktile_status_t (*elementwise_run)(cktile_handle_t, uint64_t,
                                       const cktile_elementwise_problem_t*,
                                       const cktile_elementwise_args_t*, void*);
    cktile_status_t (*permute_problem_init)(cktile_permute_problem_t*);
    cktile_status_t (*permute_args_init)(cktile_permute_args_t*);
    cktile_status_t (*permute_validate)(const cktile_permute_problem_t*,
                                        const cktile_permute_args_t*);
    cktile_status_t (*permute_supports)(cktile_handle_t, uint64_t, const cktile_permute_problem_t*,
                                        const cktile_permute_args_t*, char*, size_t);
    cktile_status_t (*permute_select)(cktile_handle_t, const cktile_permute_problem_t*,
                                      const cktile_permute_args_t*, cktile_select_mode_t,
                                      uint64_t*);
    cktile_status_t (*permute_run)(cktile_handle_t, uint64_t, const cktile_permute_problem_t*,
                                   const cktile_permute_args_t*, void*);
} cktile_api_v3_t;

#define CKTILE_API_VERSION_4 4

/** Version 4: version 3's entries, unchanged and at the same offsets, then the GEMM statement
 *  query. Append-only like the versions before it. */
typedef struct cktile_api_v4
{
    cktile_api_v3_t v3; /**< v3.v2.v1.version is CKTILE_API_VERSION_4, its struct_size this size */
    cktile_status_t (*gemm_runs_transposed)(cktile_handle_t, uint64_t, const cktile_gemm_problem_t*,
                                            int*);
} cktile_api_v4_t;

#define CKTILE_API_VERSION_5 5

/** Version 5: version 4's entries, unchanged and at the same offsets, then the sized struct
 *  initialisers, in the order of the *_init entries before them. Those earlier entries are the
 *  exported cktile_<x>_init functions: they fill each struct's first published layout only
 *  (see "Initialising a struct" at the top). Append-only like the versions before it. */
typedef struct cktile_api_v5
{
    /** v4.v3.v2.v1.version is CKTILE_API_VERSION_5, v4.v3.v2.v1.struct_size this size */
    cktile_api_v4_t v4;
    cktile_status_t (*gemm_problem_init_sized)(cktile_gemm_problem_t*, size_t);
    cktile_status_t (*gemm_args_init_sized)(cktile_gemm_args_t*, size_t);
    cktile_status_t (*norm_problem_init_sized)(cktile_norm_problem_t*, size_t);
    cktile_status_t (*norm_args_init_sized)(cktile_norm_args_t*, size_t);
    cktile_status_t (*softmax_problem_init_sized)(cktile_softmax_problem_t*, size_t);
    cktile_status_t (*softmax_args_init_sized)(cktile_softmax_args_t*, size_t);
    cktile_status_t (*reduce_problem_init_sized)(cktile_reduce_problem_t*, size_t);
    cktile_status_t (*reduce_args_init_sized)(cktile_reduce_args_t*, size_t);
    cktile_status_t (*elementwise_problem_init_sized)(cktile_elementwise_problem_t*, size_t);
    cktile_status_t (*elementwise_args_init_sized)(cktile_elementwise_args_t*, size_t);
    cktile_status_t (*permute_problem_init_sized)(cktile_permute_problem_t*, size_t);
    cktile_status_t (*permute_args_init_sized)(cktile_permute_args_t*, size_t);
} cktile_api_v5_t;

#define CKTILE_API_VERSION_6 6

/** Version 6: version 5's entries, unchanged and at the same offsets, then the heuristic's
 *  ranking. Append-only like the versions before it. */
typedef struct cktile_api_v6
{
    /** v5.v4.v3.v2.v1.version is CKTILE_API_VERSION_6, v5.v4.v3.v2.v1.struct_size this size */
    cktile_api_v5_t v5;
    cktile_status_t (*gemm_select_ranked)(cktile_handle_t, const cktile_gemm_problem_t*,
                                          const cktile_gemm_args_t*, size_t,
                                          cktile_gemm_candidate_t*, size_t, size_t*);
} cktile_api_v6_t;

/** The newest table this header describes. A library older than the header answers NULL for
 *  it: ask for the oldest version that has every entry you use. */
#define CKTILE_API_VERSION CKTILE_API_VERSION_6

/** The function table for `version` (CKTILE_API_VERSION_1 ...), or NULL for a version this
 *  library does not provide (newer than it, or 0). The table is static; never free it. */
CKTILE_API const void* cktile_get_api(uint32_t version);

/** The name to dlsym for cktile_get_api. */
#define CKTILE_GET_API_SYMBOL "cktile_get_api"
typedef const void* (*cktile_get_api_fn)(uint32_t version);

#ifdef __cplusplus
}
#endif

#endif /* CKTILE_H */
