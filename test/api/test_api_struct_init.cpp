// SPDX-License-Identifier: MIT
// The struct initialisers across header versions. A caller's struct is only as long as the
// cktile.h it was compiled with says, so each struct here starts a larger buffer filled with a
// poison byte (what lies past it on the caller's stack), and the checks read bytes: those past
// the caller's struct must keep the poison, those inside must hold the defaults.
#include "cktile.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace {

constexpr unsigned char poison = 0xA5;

std::string last() { return cktile_get_last_error_message(); }

// The 0.1 layouts, as a program built against that cktile.h declares them: the GEMM structs
// before the fields the current header marks "appended in 0.2".
struct gemm_problem_0_1
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
};
struct gemm_args_0_1
{
    size_t struct_size;
    const void* a;
    const void* b;
    const void* c;
    const void* bias;
    void* d;
};
static_assert(sizeof(gemm_problem_0_1) == offsetof(cktile_gemm_problem_t, multi_d_op));
static_assert(sizeof(gemm_args_0_1) == offsetof(cktile_gemm_args_t, scale_a));

/// Room for this header's whole T and 64 bytes more, all `fill`; a caller's struct starts it.
template <typename T>
struct poisoned
{
    alignas(alignof(std::max_align_t)) unsigned char bytes[sizeof(T) + 64];
    unsigned char fill;

    explicit poisoned(unsigned char f = poison) : fill(f)
    {
        std::memset(bytes, fill, sizeof(bytes));
    }
    T* get() { return reinterpret_cast<T*>(bytes); }
    /// The first byte at or after `from` that no longer holds the fill; sizeof(bytes) if none.
    std::size_t first_changed(std::size_t from) const
    {
        while(from < sizeof(bytes) && bytes[from] == fill)
            ++from;
        return from;
    }
    std::size_t struct_size() const
    {
        std::size_t s;
        std::memcpy(&s, bytes, sizeof(s));
        return s;
    }
};

// ---- every initialiser: the macro, the sized function, the exported legacy function --------

// One struct's initialisers. `first` is its first published layout, as the caller's
// compilation sees it; `entry` its sized initialiser in the version 5 table.
#define STRUCT_INIT(x, k, first)                                                                   \
    struct x##_##k                                                                                 \
    {                                                                                              \
        using type                              = cktile_##x##_##k##_t;                            \
        static constexpr const char* name       = "cktile_" #x "_" #k "_t";                        \
        static constexpr std::size_t first_size = first;                                           \
        static cktile_status_t by_macro(type* p) { return cktile_##x##_##k##_init(p); }            \
        static constexpr auto sized  = &cktile_##x##_##k##_init_sized;                             \
        static constexpr auto legacy = &cktile_##x##_##k##_init;                                   \
        static constexpr auto entry  = &cktile_api_v5_t::x##_##k##_init_sized;                     \
    }
STRUCT_INIT(gemm, problem, sizeof(gemm_problem_0_1));
STRUCT_INIT(gemm, args, sizeof(gemm_args_0_1));
STRUCT_INIT(norm, problem, sizeof(cktile_norm_problem_t));
STRUCT_INIT(norm, args, sizeof(cktile_norm_args_t));
STRUCT_INIT(softmax, problem, sizeof(cktile_softmax_problem_t));
STRUCT_INIT(softmax, args, sizeof(cktile_softmax_args_t));
STRUCT_INIT(reduce, problem, sizeof(cktile_reduce_problem_t));
STRUCT_INIT(reduce, args, sizeof(cktile_reduce_args_t));
STRUCT_INIT(elementwise, problem, sizeof(cktile_elementwise_problem_t));
STRUCT_INIT(elementwise, args, sizeof(cktile_elementwise_args_t));
STRUCT_INIT(permute, problem, sizeof(cktile_permute_problem_t));
STRUCT_INIT(permute, args, sizeof(cktile_permute_args_t));
#undef STRUCT_INIT

template <typename S>
class StructInit : public ::testing::Test
{};
using every_struct =
    ::testing::Types<gemm_problem, gemm_args, norm_problem, norm_args, softmax_problem,
                     softmax_args, reduce_problem, reduce_args, elementwise_problem,
                     elementwise_args, permute_problem, permute_args>;
TYPED_TEST_SUITE(StructInit, every_struct);

TYPED_TEST(StructInit, MacroIsTheSizedFormWithTheWholeStruct)
{
    using S = TypeParam;
    using T = typename S::type;
    // Different fills: equal bytes afterwards mean both calls wrote every byte of T.
    poisoned<T> by_macro(0xA5), by_size(0x3C);
    ASSERT_EQ(S::by_macro(by_macro.get()), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(last(), "");
    ASSERT_EQ(S::sized(by_size.get(), sizeof(T)), CKTILE_STATUS_SUCCESS) << last();
    EXPECT_EQ(std::memcmp(by_macro.bytes, by_size.bytes, sizeof(T)), 0);
    EXPECT_EQ(by_macro.struct_size(), sizeof(T));
    EXPECT_EQ(by_macro.first_changed(sizeof(T)), sizeof(by_macro.bytes)) << "wrote past the struct";
    EXPECT_EQ(by_size.first_changed(sizeof(T)), sizeof(by_size.bytes)) << "wrote past the struct";
}

TYPED_TEST(StructInit, LegacyFunctionFillsTheFirstPublishedLayoutOnly)
{
    using S = TypeParam;
    using T = typename S::type;
    poisoned<T> whole(0x3C), old;
    ASSERT_EQ(S::by_macro(whole.get()), CKTILE_STATUS_SUCCESS) << last();
    const std::size_t first = S::first_size;
    std::memcpy(whole.bytes, &first, sizeof(first)); // struct_size as the old caller sees it
    for(const bool through_sized : {false, true})
    {
        SCOPED_TRACE(through_sized ? "sized with the first layout's size" : "legacy function");
        std::memset(old.bytes, poison, sizeof(old.bytes));
        ASSERT_EQ(through_sized ? S::sized(old.get(), S::first_size) : S::legacy(old.get()),
                  CKTILE_STATUS_SUCCESS)
            << last();
        EXPECT_EQ(old.struct_size(), S::first_size);
        EXPECT_EQ(old.first_changed(S::first_size), sizeof(old.bytes))
            << "wrote past the caller's " << S::first_size << "-byte struct";
        EXPECT_EQ(std::memcmp(old.bytes, whole.bytes, S::first_size), 0)
            << "the first layout's bytes differ from the whole struct's defaults";
    }
}

TYPED_TEST(StructInit, SizesOutsideTheKnownLayoutsFailAndWriteNothing)
{
    using S = TypeParam;
    using T = typename S::type;
    poisoned<T> buf;
    for(const std::size_t size : {std::size_t(0), sizeof(std::size_t), S::first_size - 1})
    {
        EXPECT_EQ(S::sized(buf.get(), size), CKTILE_STATUS_INVALID_ARGUMENT) << size;
        const std::string m = last();
        EXPECT_NE(m.find("struct_size " + std::to_string(size) + " is smaller than " + S::name +
                         "'s first published layout (" + std::to_string(S::first_size) + " bytes)"),
                  std::string::npos)
            << m;
        EXPECT_EQ(buf.first_changed(0), sizeof(buf.bytes)) << "a rejected call wrote";
    }
    for(const std::size_t size : {sizeof(T) + 1, sizeof(T) + 8, sizeof(T) + 64})
    {
        EXPECT_EQ(S::sized(buf.get(), size), CKTILE_STATUS_INVALID_ARGUMENT) << size;
        const std::string m = last();
        EXPECT_NE(m.find("struct_size " + std::to_string(size) + " is larger than this library's " +
                         S::name + " (" + std::to_string(sizeof(T)) + " bytes)"),
                  std::string::npos)
            << m;
        EXPECT_NE(m.find("newer cktile.h"), std::string::npos) << m;
        EXPECT_EQ(buf.first_changed(0), sizeof(buf.bytes)) << "a rejected call wrote";
    }
}

TYPED_TEST(StructInit, NullIsRejected)
{
    using S = TypeParam;
    EXPECT_EQ(S::sized(nullptr, sizeof(typename S::type)), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find("_init_sized: "), std::string::npos) << last();
    EXPECT_NE(last().find(" is NULL"), std::string::npos) << last();
    EXPECT_EQ(S::legacy(nullptr), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find(" is NULL"), std::string::npos) << last();
}

TYPED_TEST(StructInit, TableEntryCallsTheSizedFunction)
{
    using S        = TypeParam;
    using T        = typename S::type;
    const auto* t5 = static_cast<const cktile_api_v5_t*>(cktile_get_api(CKTILE_API_VERSION_5));
    ASSERT_NE(t5, nullptr);
    const auto entry = t5->*S::entry;
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry, S::sized);
    poisoned<T> direct(0x3C), through_table;
    for(const std::size_t size : {S::first_size, sizeof(T)})
    {
        std::memset(through_table.bytes, poison, sizeof(through_table.bytes));
        std::memset(direct.bytes, 0x3C, sizeof(direct.bytes));
        ASSERT_EQ(entry(through_table.get(), size), CKTILE_STATUS_SUCCESS) << last();
        ASSERT_EQ(S::sized(direct.get(), size), CKTILE_STATUS_SUCCESS) << last();
        EXPECT_EQ(std::memcmp(through_table.bytes, direct.bytes, size), 0);
        EXPECT_EQ(through_table.first_changed(size), sizeof(through_table.bytes));
    }
    EXPECT_EQ(entry(through_table.get(), sizeof(T) + 8), CKTILE_STATUS_INVALID_ARGUMENT);
    EXPECT_NE(last().find(S::name), std::string::npos) << last();
}

// ---- GEMM: a program built against the 0.1 header -----------------------------------------

void expect_gemm_problem_defaults(const gemm_problem_0_1& p)
{
    for(const auto t : {p.a_type, p.b_type, p.c_type, p.d_type})
        EXPECT_EQ(t, CKTILE_DATATYPE_FP16);
    EXPECT_EQ(p.compute_type, CKTILE_DATATYPE_FP32);
    for(const auto l : {p.a_layout, p.b_layout, p.c_layout, p.d_layout})
        EXPECT_EQ(l, CKTILE_LAYOUT_ROW_MAJOR);
    for(const auto one : {p.m, p.n, p.k, p.lda, p.ldb, p.ldc, p.ldd, p.batch_count})
        EXPECT_EQ(one, 1);
    for(const auto zero : {p.stride_a, p.stride_b, p.stride_c, p.stride_d, p.stride_bias})
        EXPECT_EQ(zero, 0);
    EXPECT_EQ(p.alpha, 1.0);
    EXPECT_EQ(p.beta, 0.0);
    EXPECT_EQ(p.bias, CKTILE_BIAS_NONE);
    EXPECT_EQ(p.activation, CKTILE_ACTIVATION_NONE);
}

TEST(StructInitGemm, OldProblemGetsItsDefaultsNothingPastItAndValidates)
{
    for(const bool through_sized : {false, true})
    {
        SCOPED_TRACE(through_sized ? "cktile_gemm_problem_init_sized" : "legacy function");
        poisoned<cktile_gemm_problem_t> buf;
        auto* p = buf.get();
        ASSERT_EQ(through_sized ? cktile_gemm_problem_init_sized(p, sizeof(gemm_problem_0_1))
                                : (cktile_gemm_problem_init)(p),
                  CKTILE_STATUS_SUCCESS)
            << last();
        EXPECT_EQ(buf.first_changed(sizeof(gemm_problem_0_1)), sizeof(buf.bytes))
            << "wrote past the 0.1 struct (its multi-D fields are the caller's stack)";
        gemm_problem_0_1 old;
        std::memcpy(&old, buf.bytes, sizeof(old));
        EXPECT_EQ(old.struct_size, sizeof(gemm_problem_0_1));
        expect_gemm_problem_defaults(old);
        // Padding inside the struct is zeroed too.
        const std::size_t pad_from = offsetof(gemm_problem_0_1, d_layout) + sizeof(old.d_layout);
        for(std::size_t at = pad_from; at < offsetof(gemm_problem_0_1, m); ++at)
            EXPECT_EQ(buf.bytes[at], 0) << "padding byte " << at;
        // The library reads it as such a caller's struct: no extra inputs.
        EXPECT_EQ(cktile_gemm_validate(p), CKTILE_STATUS_SUCCESS) << last();
        old.m = 0;
        std::memcpy(buf.bytes, &old, sizeof(old));
        EXPECT_EQ(cktile_gemm_validate(p), CKTILE_STATUS_INVALID_ARGUMENT);
        EXPECT_NE(last().find("problem->m"), std::string::npos) << last();
    }
}

TEST(StructInitGemm, OldArgsAreAllNullAndNothingPastThem)
{
    for(const bool through_sized : {false, true})
    {
        SCOPED_TRACE(through_sized ? "cktile_gemm_args_init_sized" : "legacy function");
        poisoned<cktile_gemm_args_t> buf;
        ASSERT_EQ(through_sized ? cktile_gemm_args_init_sized(buf.get(), sizeof(gemm_args_0_1))
                                : (cktile_gemm_args_init)(buf.get()),
                  CKTILE_STATUS_SUCCESS)
            << last();
        EXPECT_EQ(buf.first_changed(sizeof(gemm_args_0_1)), sizeof(buf.bytes))
            << "wrote past the 0.1 struct (its scales and extra inputs are the caller's stack)";
        gemm_args_0_1 old;
        std::memcpy(&old, buf.bytes, sizeof(old));
        EXPECT_EQ(old.struct_size, sizeof(gemm_args_0_1));
        for(const void* ptr : {old.a, old.b, old.c, old.bias, static_cast<const void*>(old.d)})
            EXPECT_EQ(ptr, nullptr);
    }
}

TEST(StructInitGemm, WholeProblemHasTheExtraInputsDefaults)
{
    poisoned<cktile_gemm_problem_t> buf;
    ASSERT_EQ(cktile_gemm_problem_init(buf.get()), CKTILE_STATUS_SUCCESS) << last();
    cktile_gemm_problem_t p;
    std::memcpy(&p, buf.bytes, sizeof(p));
    EXPECT_EQ(p.struct_size, sizeof(p));
    EXPECT_EQ(p.multi_d_op, CKTILE_MULTI_D_NONE);
    EXPECT_EQ(p.multi_d_point, CKTILE_MULTI_D_AFTER_ACTIVATION);
    EXPECT_EQ(p.d0_type, CKTILE_DATATYPE_FP16);
    EXPECT_EQ(p.d1_type, CKTILE_DATATYPE_FP16);
    EXPECT_EQ(p.d0_layout, CKTILE_LAYOUT_ROW_MAJOR);
    EXPECT_EQ(p.d1_layout, CKTILE_LAYOUT_ROW_MAJOR);
    EXPECT_EQ(p.ldd0, 1);
    EXPECT_EQ(p.ldd1, 1);
    EXPECT_EQ(p.stride_d0, 0);
    EXPECT_EQ(p.stride_d1, 0);
    EXPECT_EQ(cktile_gemm_validate(&p), CKTILE_STATUS_SUCCESS) << last();
}

TEST(StructInitGemm, OnlyFieldsWhollyInsideTheSizeGetDefaults)
{
    // A size that ends inside d0_type: its bytes there are zeroed, not given FP16's.
    const std::size_t inside_d0_type = offsetof(cktile_gemm_problem_t, d0_type) + 2;
    poisoned<cktile_gemm_problem_t> buf;
    ASSERT_EQ(cktile_gemm_problem_init_sized(buf.get(), inside_d0_type), CKTILE_STATUS_SUCCESS)
        << last();
    EXPECT_EQ(buf.struct_size(), inside_d0_type);
    EXPECT_EQ(buf.first_changed(inside_d0_type), sizeof(buf.bytes));
    const std::size_t d0_type_at = offsetof(cktile_gemm_problem_t, d0_type);
    EXPECT_EQ(buf.bytes[d0_type_at], 0);
    EXPECT_EQ(buf.bytes[d0_type_at + 1], 0);
    int point = -1;
    std::memcpy(&point, buf.bytes + offsetof(cktile_gemm_problem_t, multi_d_point), sizeof(point));
    EXPECT_EQ(point, CKTILE_MULTI_D_AFTER_ACTIVATION);

    // A size that ends after ldd0: ldd0 gets its default, ldd1 is not touched.
    const std::size_t after_ldd0 = offsetof(cktile_gemm_problem_t, ldd1);
    poisoned<cktile_gemm_problem_t> buf2;
    ASSERT_EQ(cktile_gemm_problem_init_sized(buf2.get(), after_ldd0), CKTILE_STATUS_SUCCESS)
        << last();
    EXPECT_EQ(buf2.first_changed(after_ldd0), sizeof(buf2.bytes));
    std::int64_t ldd0 = 0;
    std::memcpy(&ldd0, buf2.bytes + offsetof(cktile_gemm_problem_t, ldd0), sizeof(ldd0));
    EXPECT_EQ(ldd0, 1);
    EXPECT_EQ(cktile_gemm_validate(buf2.get()), CKTILE_STATUS_SUCCESS) << last();
}

// ---- a non-GEMM struct ----------------------------------------------------------------------

TEST(StructInitNorm, ProblemGetsItsDefaultsAndNothingPastIt)
{
    for(const bool through_sized : {false, true})
    {
        SCOPED_TRACE(through_sized ? "cktile_norm_problem_init_sized" : "legacy function");
        poisoned<cktile_norm_problem_t> buf;
        ASSERT_EQ(through_sized
                      ? cktile_norm_problem_init_sized(buf.get(), sizeof(cktile_norm_problem_t))
                      : (cktile_norm_problem_init)(buf.get()),
                  CKTILE_STATUS_SUCCESS)
            << last();
        EXPECT_EQ(buf.first_changed(sizeof(cktile_norm_problem_t)), sizeof(buf.bytes));
        cktile_norm_problem_t p;
        std::memcpy(&p, buf.bytes, sizeof(p));
        EXPECT_EQ(p.struct_size, sizeof(p));
        EXPECT_EQ(p.kind, CKTILE_NORM_RMSNORM);
        EXPECT_EQ(p.x_type, CKTILE_DATATYPE_FP16);
        EXPECT_EQ(p.y_type, CKTILE_DATATYPE_FP16);
        EXPECT_EQ(p.weight_type, CKTILE_DATATYPE_FP16);
        EXPECT_EQ(p.compute_type, CKTILE_DATATYPE_FP32);
        for(const auto one :
            {p.rows, p.cols, p.x_stride, p.y_stride, p.residual_stride, p.residual_out_stride})
            EXPECT_EQ(one, 1);
        EXPECT_EQ(p.epsilon, 1e-5);
        EXPECT_EQ(p.has_bias, 0);
        EXPECT_EQ(p.fused_residual, 0);
        EXPECT_EQ(p.save_statistics, 0);
        EXPECT_EQ(cktile_norm_validate(buf.get(), nullptr), CKTILE_STATUS_SUCCESS) << last();
    }
}

TEST(StructInitPermute, ProblemGetsTheIdentityPermutationAndNothingPastIt)
{
    poisoned<cktile_permute_problem_t> buf;
    ASSERT_EQ(cktile_permute_problem_init_sized(buf.get(), sizeof(cktile_permute_problem_t)),
              CKTILE_STATUS_SUCCESS)
        << last();
    EXPECT_EQ(buf.first_changed(sizeof(cktile_permute_problem_t)), sizeof(buf.bytes));
    cktile_permute_problem_t p;
    std::memcpy(&p, buf.bytes, sizeof(p));
    for(int d = 0; d < CKTILE_MAX_TENSOR_RANK; ++d)
        EXPECT_EQ(p.perm[d], d);
    for(const auto& t : {p.x, p.y})
    {
        EXPECT_EQ(t.type, CKTILE_DATATYPE_FP16);
        EXPECT_EQ(t.rank, 1);
        EXPECT_EQ(t.dims[0], 1);
        EXPECT_EQ(t.strides[0], 1);
    }
    EXPECT_EQ(cktile_permute_validate(buf.get(), nullptr), CKTILE_STATUS_SUCCESS) << last();
}

} // namespace
