// SPDX-License-Identifier: MIT
// cuBLASLt as the vendor baseline. Compiled by the host compiler; linked only when CMake's
// CUDAToolkit provides CUDA::cublasLt.
//
// cuBLASLt is column-major. A row-major D (m x n) is stored exactly like a column-major
// D^T (n x m), and D^T = B^T A^T, so a row-major problem becomes a column-major one with the
// operands swapped; each operand's own layout then decides whether it is transposed.
#include "vendor.hpp"

#include "gemm_sweep.hpp"

#include "ck_tile/host/device_memory.hpp"

#include <cublasLt.h>

#include <cmath>
#include <cstdint>

namespace cktile_profiler {

namespace {

bool to_cuda_type(cktile_datatype_t t, cudaDataType_t& out)
{
    switch(t)
    {
    case CKTILE_DATATYPE_FP16:
        out = CUDA_R_16F;
        return true;
    case CKTILE_DATATYPE_BF16:
        out = CUDA_R_16BF;
        return true;
    case CKTILE_DATATYPE_FP32:
        out = CUDA_R_32F;
        return true;
    case CKTILE_DATATYPE_FP8_E4M3:
        out = CUDA_R_8F_E4M3;
        return true;
    case CKTILE_DATATYPE_FP8_E5M2:
        out = CUDA_R_8F_E5M2;
        return true;
    case CKTILE_DATATYPE_INT8:
        out = CUDA_R_8I;
        return true;
    case CKTILE_DATATYPE_INT32:
        out = CUDA_R_32I;
        return true;
    case CKTILE_DATATYPE_TF32: // a compute type, not a storage type
        return false;
    }
    return false;
}

std::string status_text(const char* call, cublasStatus_t s)
{
    return std::string(call) + " failed: " + cublasLtGetStatusString(s);
}

/// One column-major operand as cuBLASLt sees it.
struct lt_operand
{
    cudaDataType_t type;
    std::int64_t rows, cols, ld, stride;
    bool transposed;
};

class cublaslt_gemm final : public vendor_gemm
{
    public:
    explicit cublaslt_gemm(cublasLtHandle_t h) : handle_(h), workspace_(workspace_bytes) {}
    ~cublaslt_gemm() override
    {
        release();
        cublasLtDestroy(handle_);
    }

    std::string name() const override { return "cublasLt"; }
    std::string version() const override
    {
        return "cuBLASLt " + std::to_string(cublasLtGetVersion());
    }
    std::string algorithm() const override { return algorithm_; }

    std::string prepare(const cktile_gemm_problem_t& p) override
    {
        release();
        p_ = p;
        cudaDataType_t ta, tb, tc, td;
        if(!to_cuda_type(p.a_type, ta) || !to_cuda_type(p.b_type, tb) ||
           !to_cuda_type(p.c_type, tc) || !to_cuda_type(p.d_type, td))
            return "a type cuBLASLt does not know";
        const bool is_int = p.a_type == CKTILE_DATATYPE_INT8;
        const bool is_fp8 =
            p.a_type == CKTILE_DATATYPE_FP8_E4M3 || p.a_type == CKTILE_DATATYPE_FP8_E5M2;
        if(p.beta != 0.0 && p.c_layout != p.d_layout)
            return "cuBLASLt needs C in D's layout";
        if(p.activation == CKTILE_ACTIVATION_GELU_ERF || p.activation == CKTILE_ACTIVATION_SILU)
            return std::string("cuBLASLt has no ") + activation_name(p.activation) + " epilogue";
        if(p.multi_d_op != CKTILE_MULTI_D_NONE)
            return "cuBLASLt has no epilogue with extra inputs (multi-D)";

        // Column-major view: D col-major is X1 * X2 with X1 = A, X2 = B; D row-major is
        // D^T = B^T * A^T with X1 = B^T, X2 = A^T.
        const bool d_row = p.d_layout == CKTILE_LAYOUT_ROW_MAJOR;
        const bool a_row = p.a_layout == CKTILE_LAYOUT_ROW_MAJOR;
        const bool b_row = p.b_layout == CKTILE_LAYOUT_ROW_MAJOR;
        // A stored row-major (m x k) is a column-major k x m matrix, and so on.
        const lt_operand a_cm{ta, a_row ? p.k : p.m, a_row ? p.m : p.k, p.lda, p.stride_a, false};
        const lt_operand b_cm{tb, b_row ? p.n : p.k, b_row ? p.k : p.n, p.ldb, p.stride_b, false};
        lt_operand x1 = d_row ? b_cm : a_cm, x2 = d_row ? a_cm : b_cm;
        // op(X1) must be rows_out x k and op(X2) k x cols_out.
        x1.transposed               = d_row ? !b_row : a_row;
        x2.transposed               = d_row ? !a_row : b_row;
        const std::int64_t rows_out = d_row ? p.n : p.m, cols_out = d_row ? p.m : p.n;

        if(is_fp8 && !(x1.transposed && !x2.transposed))
            return "cuBLASLt runs fp8 only with K-contiguous A and B (row-major A, column-major "
                   "B for a row-major D)";
        // The bias epilogue adds a vector along D's rows in cuBLASLt's column-major view.
        if(p.bias != CKTILE_BIAS_NONE &&
           p.bias != (d_row ? CKTILE_BIAS_PER_COLUMN : CKTILE_BIAS_PER_ROW))
            return std::string("cuBLASLt's bias runs along the rows of column-major D: a ") +
                   (d_row ? "row-major" : "column-major") +
                   " D needs --bias=" + (d_row ? "col" : "row");
        if(is_fp8 && p.bias != CKTILE_BIAS_NONE && p.d_type == CKTILE_DATATYPE_FP32)
            return "cuBLASLt's fp8 GEMMs with fp32 output take a bf16 bias, not D's type";

        // A TF32 problem runs on the tensor cores (inputs read as TF32), as ours do.
        const cublasComputeType_t compute = is_int ? CUBLAS_COMPUTE_32I
                                            : p.compute_type == CKTILE_DATATYPE_TF32
                                                ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                : CUBLAS_COMPUTE_32F;
        const cudaDataType_t scale        = is_int ? CUDA_R_32I : CUDA_R_32F;
        if(is_int && (std::floor(p.alpha) != p.alpha || std::floor(p.beta) != p.beta))
            return "cuBLASLt's int32 GEMM takes integer alpha and beta";
        alpha_f_ = static_cast<float>(p.alpha), beta_f_ = static_cast<float>(p.beta);
        alpha_i_ = static_cast<std::int32_t>(p.alpha), beta_i_ = static_cast<std::int32_t>(p.beta);

        std::string e;
        auto ok = [&](const char* call, cublasStatus_t s) {
            if(s != CUBLAS_STATUS_SUCCESS && e.empty())
                e = status_text(call, s);
            return e.empty();
        };
        if(!ok("cublasLtMatmulDescCreate", cublasLtMatmulDescCreate(&op_, compute, scale)))
            return e;
        const cublasOperation_t o1 = x1.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
        const cublasOperation_t o2 = x2.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
        ok("set TRANSA",
           cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &o1, sizeof(o1)));
        ok("set TRANSB",
           cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &o2, sizeof(o2)));
        cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_DEFAULT;
        const bool bias        = p.bias != CKTILE_BIAS_NONE;
        if(p.activation == CKTILE_ACTIVATION_RELU)
            epi = bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
        else if(p.activation == CKTILE_ACTIVATION_GELU_TANH)
            epi = bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
        else if(bias)
            epi = CUBLASLT_EPILOGUE_BIAS;
        ok("set EPILOGUE",
           cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi)));
        if(bias)
        {
            const std::int32_t bias_type = td;
            ok("set BIAS_DATA_TYPE",
               cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type,
                                              sizeof(bias_type)));
            const std::int64_t bias_stride = p.stride_bias;
            if(p.batch_count > 1)
                ok("set BIAS_BATCH_STRIDE",
                   cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                                                  &bias_stride, sizeof(bias_stride)));
            // The heuristic reads the pointer's alignment; device allocations are 256-aligned.
            const void* aligned = reinterpret_cast<const void*>(std::uintptr_t(256));
            ok("set BIAS_POINTER",
               cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &aligned,
                                              sizeof(aligned)));
        }

        auto layout = [&](cublasLtMatrixLayout_t& l, cudaDataType_t t, std::int64_t rows,
                          std::int64_t cols, std::int64_t ld, std::int64_t stride) {
            if(!ok("cublasLtMatrixLayoutCreate",
                   cublasLtMatrixLayoutCreate(&l, t, static_cast<std::uint64_t>(rows),
                                              static_cast<std::uint64_t>(cols), ld)))
                return;
            if(p.batch_count > 1)
            {
                const std::int32_t count = static_cast<std::int32_t>(p.batch_count);
                ok("set BATCH_COUNT",
                   cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                                                    sizeof(count)));
                ok("set STRIDED_BATCH_OFFSET",
                   cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                                    &stride, sizeof(stride)));
            }
        };
        if(p.batch_count > static_cast<std::int64_t>(INT32_MAX))
            return "cuBLASLt's batch count is a 32-bit integer";
        layout(x1_, x1.type, x1.rows, x1.cols, x1.ld, x1.stride);
        layout(x2_, x2.type, x2.rows, x2.cols, x2.ld, x2.stride);
        layout(d_, td, rows_out, cols_out, p.ldd, p.stride_d);
        // With beta == 0, C is not read: it gets D's description (and D's pointer at run time).
        if(p.beta != 0.0)
            layout(c_, tc, rows_out, cols_out, p.ldc, p.stride_c);
        if(!e.empty())
            return e;

        cublasLtMatmulPreference_t pref = nullptr;
        if(!ok("cublasLtMatmulPreferenceCreate", cublasLtMatmulPreferenceCreate(&pref)))
            return e;
        const std::uint64_t ws = workspace_bytes;
        ok("set MAX_WORKSPACE_BYTES",
           cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                                sizeof(ws)));
        cublasLtMatmulHeuristicResult_t result{};
        int returned = 0;
        const cublasStatus_t hs =
            e.empty() ? cublasLtMatmulAlgoGetHeuristic(handle_, op_, x1_, x2_, c_ ? c_ : d_, d_,
                                                       pref, 1, &result, &returned)
                      : CUBLAS_STATUS_SUCCESS;
        cublasLtMatmulPreferenceDestroy(pref);
        if(!e.empty())
            return e;
        if(hs != CUBLAS_STATUS_SUCCESS || returned == 0)
            return std::string("cuBLASLt's heuristic has no algorithm for this problem (") +
                   cublasLtGetStatusString(hs) + ")";
        algo_               = result.algo;
        workspace_in_       = result.workspaceSize;
        int id              = 0;
        std::size_t written = 0;
        cublasLtMatmulAlgoConfigGetAttribute(&algo_, CUBLASLT_ALGO_CONFIG_ID, &id, sizeof(id),
                                             &written);
        algorithm_ = "cublasLt heuristic algo " + std::to_string(id);
        ready_     = true;
        return "";
    }

    std::string run(const cktile_gemm_args_t& args, hipStream_t stream) override
    {
        if(!ready_)
            return "cuBLASLt was not prepared for this problem";
        if(p_.bias != CKTILE_BIAS_NONE)
            if(const cublasStatus_t s = cublasLtMatmulDescSetAttribute(
                   op_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &args.bias, sizeof(args.bias));
               s != CUBLAS_STATUS_SUCCESS)
                return status_text("set BIAS_POINTER", s);
        const bool d_row  = p_.d_layout == CKTILE_LAYOUT_ROW_MAJOR;
        const void* x1    = d_row ? args.b : args.a;
        const void* x2    = d_row ? args.a : args.b;
        const bool is_int = p_.a_type == CKTILE_DATATYPE_INT8;
        const void* alpha = is_int ? static_cast<const void*>(&alpha_i_) : &alpha_f_;
        const void* beta  = is_int ? static_cast<const void*>(&beta_i_) : &beta_f_;
        const void* c     = c_ ? args.c : args.d;
        const cublasStatus_t s =
            cublasLtMatmul(handle_, op_, alpha, x1, x1_, x2, x2_, beta, c, c_ ? c_ : d_, args.d, d_,
                           &algo_, workspace_.GetDeviceBuffer(), workspace_in_, stream);
        return s == CUBLAS_STATUS_SUCCESS ? "" : status_text("cublasLtMatmul", s);
    }

    private:
    // NVIDIA's recommendation for Hopper: 32 MiB lets cuBLASLt pick every algorithm.
    static constexpr std::size_t workspace_bytes = 32u << 20;

    void release()
    {
        for(cublasLtMatrixLayout_t* l : {&x1_, &x2_, &c_, &d_})
            if(*l)
            {
                cublasLtMatrixLayoutDestroy(*l);
                *l = nullptr;
            }
        if(op_)
            cublasLtMatmulDescDestroy(op_);
        op_    = nullptr;
        ready_ = false;
        algorithm_.clear();
    }

    cublasLtHandle_t handle_;
    ck_tile::DeviceMem workspace_;
    cktile_gemm_problem_t p_{};
    cublasLtMatmulDesc_t op_   = nullptr;
    cublasLtMatrixLayout_t x1_ = nullptr, x2_ = nullptr, c_ = nullptr, d_ = nullptr;
    cublasLtMatmulAlgo_t algo_{};
    std::size_t workspace_in_ = 0;
    float alpha_f_ = 1, beta_f_ = 0;
    std::int32_t alpha_i_ = 1, beta_i_ = 0;
    bool ready_ = false;
    std::string algorithm_;
};

} // namespace

std::unique_ptr<vendor_gemm> make_vendor_gemm(int device, std::string& why)
{
    if(hipSetDevice(device) != hipSuccess)
    {
        why = "cannot make device " + std::to_string(device) + " current for cuBLASLt";
        return nullptr;
    }
    cublasLtHandle_t h = nullptr;
    if(const cublasStatus_t s = cublasLtCreate(&h); s != CUBLAS_STATUS_SUCCESS)
    {
        why = status_text("cublasLtCreate", s);
        return nullptr;
    }
    try
    {
        return std::make_unique<cublaslt_gemm>(h);
    }
    catch(const std::exception& e)
    {
        cublasLtDestroy(h);
        why = std::string("cuBLASLt's workspace: ") + e.what();
        return nullptr;
    }
}

std::string vendor_name() { return "cublasLt"; }

} // namespace cktile_profiler
