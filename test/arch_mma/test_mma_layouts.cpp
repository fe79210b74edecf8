// SPDX-License-Identifier: MIT
// Warp MMA atoms on the host: for every NVIDIA mma.sync and AMD MFMA atom, the A, B and C
// encodings own each tile element exactly once per warp and hold as many values per lane as
// the ISA's register counts; every (lane, register) -> (row, col) agrees with the ISA's
// fragment formulas, written out here independently of the factor description, and with a few
// entries read off the ISA tables by hand. warp_gemm's K loops (both fragment orders) are
// emulated through the encodings and compared with a plain GEMM. ldmatrix.x4's documented
// result equals the m16n8k16 A fragment.
#include <ck_tile/ops/gemm/warp/warp_gemm.hpp>

#include "mma_test_names.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using namespace ck_tile;

namespace {

struct rc
{
    index_t row;
    index_t col;
};

template <typename Encoding>
rc coord(index_t lane, index_t reg)
{
    const auto x = mma_fragment_coordinate<Encoding>(lane, reg);
    return {x[0], x[1]};
}

// How often each element of a rows x cols tile is held by some (lane, register).
template <typename Encoding>
std::vector<int> ownership(index_t lanes, index_t per_lane, index_t rows, index_t cols)
{
    std::vector<int> count(static_cast<size_t>(rows * cols), 0);
    for(index_t l = 0; l < lanes; ++l)
        for(index_t r = 0; r < per_lane; ++r)
        {
            const rc x = coord<Encoding>(l, r);
            EXPECT_TRUE(x.row >= 0 && x.row < rows && x.col >= 0 && x.col < cols)
                << "lane " << l << " reg " << r << " -> (" << x.row << ", " << x.col << ")";
            if(x.row >= 0 && x.row < rows && x.col >= 0 && x.col < cols)
                ++count[static_cast<size_t>(x.row * cols + x.col)];
        }
    return count;
}

template <typename Encoding>
void expect_owned_once(index_t lanes, index_t per_lane, index_t rows, index_t cols)
{
    const auto count = ownership<Encoding>(lanes, per_lane, rows, cols);
    for(size_t i = 0; i < count.size(); ++i)
        EXPECT_EQ(count[i], 1) << "element (" << i / static_cast<size_t>(cols) << ", "
                               << i % static_cast<size_t>(cols) << ")";
}

} // namespace

// ---- every atom: ownership and register counts ----------------------------------------------

namespace {

template <typename... Atoms>
struct atom_list
{};

using all_atoms = atom_list<
    mma_sync_m16n8k16_f32_f16, mma_sync_m16n8k16_f16_f16, mma_sync_m16n8k16_f32_bf16,
    mma_sync_m16n8k8_f32_tf32, mma_sync_m16n8k32_s32_s8s8, mma_sync_m16n8k32_s32_s8u8,
    mma_sync_m16n8k32_s32_u8s8, mma_sync_m16n8k32_s32_u8u8, mma_sync_m16n8k32_f32_e4m3e4m3,
    mma_sync_m16n8k32_f32_e4m3e5m2, mma_sync_m16n8k32_f32_e5m2e4m3, mma_sync_m16n8k32_f32_e5m2e5m2,
    mfma_32x32x8_f32_f16, mfma_16x16x16_f32_f16, mfma_32x32x8_f32_bf16, mfma_16x16x16_f32_bf16,
    mfma_32x32x2_f32_f32, mfma_16x16x4_f32_f32, mfma_32x32x8_i32_i8, mfma_16x16x16_i32_i8,
    mfma_32x32x16_i32_i8, mfma_16x16x32_i32_i8, mfma_32x32x16_f32_fp8fp8, mfma_32x32x16_f32_fp8bf8,
    mfma_32x32x16_f32_bf8fp8, mfma_32x32x16_f32_bf8bf8, mfma_16x16x32_f32_fp8fp8,
    mfma_16x16x32_f32_fp8bf8, mfma_16x16x32_f32_bf8fp8, mfma_16x16x32_f32_bf8bf8>;

template <typename... Atoms, typename F>
void for_each_atom(atom_list<Atoms...>, F&& f)
{
    (
        [&] {
            SCOPED_TRACE(cktile_arch_mma_test::atom_name<Atoms>());
            f(Atoms{});
        }(),
        ...);
}

} // namespace

TEST(MmaAtom, EncodingsOwnEachElementOncePerWarp)
{
    for_each_atom(all_atoms{}, [](auto atom) {
        using A = decltype(atom);
        expect_owned_once<typename A::a_encoding>(A::warp_size, A::a_per_lane, A::m, A::k);
        expect_owned_once<typename A::b_encoding>(A::warp_size, A::b_per_lane, A::n, A::k);
        expect_owned_once<typename A::c_encoding>(A::warp_size, A::c_per_lane, A::m, A::n);
    });
}

// The tile GEMM computes a fragment coordinate as the lane's origin (run time, once) plus the
// register's offset (compile time): that needs every coordinate to split that way.
TEST(MmaAtom, CoordinatesAreLaneOriginPlusRegisterOffset)
{
    for_each_atom(all_atoms{}, [](auto atom) {
        using A    = decltype(atom);
        auto check = [](auto encoding, index_t lanes, index_t regs) {
            using E = decltype(encoding);
            for(index_t l = 0; l < lanes; ++l)
                for(index_t r = 0; r < regs; ++r)
                {
                    const rc x = coord<E>(l, r), o = coord<E>(l, 0), d = coord<E>(0, r);
                    EXPECT_TRUE(x.row == o.row + d.row && x.col == o.col + d.col)
                        << "lane " << l << " reg " << r;
                }
        };
        check(typename A::a_encoding{}, A::warp_size, A::a_per_lane);
        check(typename A::b_encoding{}, A::warp_size, A::b_per_lane);
        check(typename A::c_encoding{}, A::warp_size, A::c_per_lane);
    });
}

TEST(MmaAtom, EncodingsMatchTheFragmentSizes)
{
    for_each_atom(all_atoms{}, [](auto atom) {
        using A = decltype(atom);
        // The distributions agree with the atom's counts (lanes x values = tile size).
        constexpr auto da = make_static_tile_distribution(typename A::a_encoding{});
        constexpr auto db = make_static_tile_distribution(typename A::b_encoding{});
        constexpr auto dc = make_static_tile_distribution(typename A::c_encoding{});
        EXPECT_EQ(da.get_num_of_element_per_thread(), A::a_per_lane);
        EXPECT_EQ(db.get_num_of_element_per_thread(), A::b_per_lane);
        EXPECT_EQ(dc.get_num_of_element_per_thread(), A::c_per_lane);
        EXPECT_EQ(A::a_per_lane * A::warp_size, A::m * A::k);
        EXPECT_EQ(A::b_per_lane * A::warp_size, A::n * A::k);
        EXPECT_EQ(A::c_per_lane * A::warp_size, A::m * A::n);
        // The operand vectors are whole registers: the instructions take 32-bit registers.
        EXPECT_EQ(sizeof(typename A::a_vector) % 4, 0u);
        EXPECT_EQ(sizeof(typename A::b_vector) % 4, 0u);
        EXPECT_EQ(sizeof(typename A::c_vector) % 4, 0u);
    });
}

// ---- NVIDIA: the PTX ISA's register counts and fragment formulas ----------------------------

namespace {

// PTX ISA "Matrix Fragments for mma.m16n8k*": registers (.b32) per operand per lane.
struct ptx_counts
{
    int a_regs, b_regs, c_values;
};

template <typename Atom>
ptx_counts ptx_register_counts()
{
    return {static_cast<int>(sizeof(typename Atom::a_vector) / 4),
            static_cast<int>(sizeof(typename Atom::b_vector) / 4), Atom::c_per_lane};
}

// The ISA's formulas, with g = groupID, t = threadID_in_group, i the element number (a_i).
rc ptx_a_16bit(index_t lane, index_t i) // m16n8k16 .f16/.bf16
{
    const index_t g = lane >> 2, t = lane % 4;
    const index_t row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
    const index_t col = i < 4 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8;
    return {row, col};
}
rc ptx_b_16bit(index_t lane, index_t i) // returned as (n, k): our B tiles are N x K
{
    const index_t g = lane >> 2, t = lane % 4;
    const index_t k = i < 2 ? t * 2 + (i & 1) : t * 2 + (i & 1) + 8;
    return {g, k};
}
rc ptx_a_tf32(index_t lane, index_t i) // m16n8k8 .tf32
{
    const index_t g = lane >> 2, t = lane % 4;
    const index_t row = (i == 0 || i == 2) ? g : g + 8;
    const index_t col = (i == 0 || i == 1) ? t : t + 4;
    return {row, col};
}
rc ptx_b_tf32(index_t lane, index_t i)
{
    const index_t g = lane >> 2, t = lane % 4;
    return {g, i == 0 ? t : t + 4};
}
rc ptx_a_8bit(index_t lane, index_t i) // m16n8k32 .s8/.u8/.e4m3/.e5m2
{
    const index_t g = lane >> 2, t = lane % 4;
    const index_t row = (i < 4 || (i >= 8 && i < 12)) ? g : g + 8;
    const index_t col = i < 8 ? t * 4 + (i & 3) : t * 4 + (i & 3) + 16;
    return {row, col};
}
rc ptx_b_8bit(index_t lane, index_t i)
{
    const index_t g = lane >> 2, t = lane % 4;
    return {g, i < 4 ? t * 4 + (i & 3) : t * 4 + (i & 3) + 16};
}
rc ptx_c(index_t lane, index_t i) // f32/f16/s32 accumulators of every m16n8 form
{
    const index_t g = lane >> 2, t = lane % 4;
    return {i < 2 ? g : g + 8, t * 2 + (i & 1)};
}

template <typename Atom, typename FA, typename FB>
void expect_ptx_layout(FA fa, FB fb)
{
    for(index_t l = 0; l < 32; ++l)
    {
        for(index_t i = 0; i < Atom::a_per_lane; ++i)
        {
            const rc ours = coord<typename Atom::a_encoding>(l, i), isa = fa(l, i);
            EXPECT_TRUE(ours.row == isa.row && ours.col == isa.col) << "A lane " << l << " a" << i;
        }
        for(index_t i = 0; i < Atom::b_per_lane; ++i)
        {
            const rc ours = coord<typename Atom::b_encoding>(l, i), isa = fb(l, i);
            EXPECT_TRUE(ours.row == isa.row && ours.col == isa.col) << "B lane " << l << " b" << i;
        }
        for(index_t i = 0; i < Atom::c_per_lane; ++i)
        {
            const rc ours = coord<typename Atom::c_encoding>(l, i), isa = ptx_c(l, i);
            EXPECT_TRUE(ours.row == isa.row && ours.col == isa.col) << "C lane " << l << " c" << i;
        }
    }
}

void expect_at(rc got, index_t row, index_t col, const char* what)
{
    EXPECT_EQ(got.row, row) << what;
    EXPECT_EQ(got.col, col) << what;
}

} // namespace

TEST(MmaSyncLayout, RegisterCountsAreThePtxOperandLists)
{
    // m16n8k16 f16/bf16: A four .f16x2, B two, C four f32 (or two .f16x2 = four halves).
    for(auto c : {ptx_register_counts<mma_sync_m16n8k16_f32_f16>(),
                  ptx_register_counts<mma_sync_m16n8k16_f32_bf16>()})
    {
        EXPECT_EQ(c.a_regs, 4);
        EXPECT_EQ(c.b_regs, 2);
        EXPECT_EQ(c.c_values, 4);
    }
    EXPECT_EQ(sizeof(mma_sync_m16n8k16_f16_f16::c_vector), 8u);
    // m16n8k8 tf32: A four .b32, B two.
    EXPECT_EQ(ptx_register_counts<mma_sync_m16n8k8_f32_tf32>().a_regs, 4);
    EXPECT_EQ(ptx_register_counts<mma_sync_m16n8k8_f32_tf32>().b_regs, 2);
    // m16n8k32 8-bit: A four .b32 of four bytes, B two.
    for(auto c : {ptx_register_counts<mma_sync_m16n8k32_s32_s8u8>(),
                  ptx_register_counts<mma_sync_m16n8k32_f32_e5m2e4m3>()})
    {
        EXPECT_EQ(c.a_regs, 4);
        EXPECT_EQ(c.b_regs, 2);
        EXPECT_EQ(c.c_values, 4);
    }
    EXPECT_EQ(mma_sync_m16n8k16_f32_f16::k, 16);
    EXPECT_EQ(mma_sync_m16n8k8_f32_tf32::k, 8);
    EXPECT_EQ(mma_sync_m16n8k32_f32_e4m3e4m3::k, 32);
}

TEST(MmaSyncLayout, EveryFragmentMatchesThePtxFormulas)
{
    expect_ptx_layout<mma_sync_m16n8k16_f32_f16>(ptx_a_16bit, ptx_b_16bit);
    expect_ptx_layout<mma_sync_m16n8k16_f16_f16>(ptx_a_16bit, ptx_b_16bit);
    expect_ptx_layout<mma_sync_m16n8k16_f32_bf16>(ptx_a_16bit, ptx_b_16bit);
    expect_ptx_layout<mma_sync_m16n8k8_f32_tf32>(ptx_a_tf32, ptx_b_tf32);
    expect_ptx_layout<mma_sync_m16n8k32_s32_s8s8>(ptx_a_8bit, ptx_b_8bit);
    expect_ptx_layout<mma_sync_m16n8k32_s32_u8u8>(ptx_a_8bit, ptx_b_8bit);
    expect_ptx_layout<mma_sync_m16n8k32_f32_e4m3e5m2>(ptx_a_8bit, ptx_b_8bit);
    expect_ptx_layout<mma_sync_m16n8k32_f32_e5m2e5m2>(ptx_a_8bit, ptx_b_8bit);
}

TEST(MmaSyncLayout, EntriesReadOffThePtxTables)
{
    // m16n8k16 f16 (lane 5: groupID 1, threadID_in_group 1).
    using h = mma_sync_m16n8k16_f32_f16;
    expect_at(coord<h::a_encoding>(0, 0), 0, 0, "f16 A lane 0 a0");
    expect_at(coord<h::a_encoding>(5, 2), 9, 2, "f16 A lane 5 a2");
    expect_at(coord<h::a_encoding>(5, 6), 9, 10, "f16 A lane 5 a6");
    expect_at(coord<h::a_encoding>(31, 7), 15, 15, "f16 A lane 31 a7");
    expect_at(coord<h::b_encoding>(5, 3), 1, 11, "f16 B lane 5 b3 (n, k)");
    expect_at(coord<h::c_encoding>(5, 3), 9, 3, "f16 C lane 5 c3");
    expect_at(coord<h::c_encoding>(30, 0), 7, 4, "f16 C lane 30 c0");
    // m16n8k8 tf32 (lane 6: groupID 1, threadID_in_group 2).
    using t = mma_sync_m16n8k8_f32_tf32;
    expect_at(coord<t::a_encoding>(6, 1), 9, 2, "tf32 A lane 6 a1");
    expect_at(coord<t::a_encoding>(6, 3), 9, 6, "tf32 A lane 6 a3");
    expect_at(coord<t::b_encoding>(6, 1), 1, 6, "tf32 B lane 6 b1 (n, k)");
    // m16n8k32 s8 / e4m3 (lane 7: groupID 1, threadID_in_group 3).
    using s = mma_sync_m16n8k32_s32_s8s8;
    expect_at(coord<s::a_encoding>(7, 13), 9, 29, "s8 A lane 7 a13");
    expect_at(coord<s::a_encoding>(7, 5), 9, 13, "s8 A lane 7 a5");
    expect_at(coord<s::b_encoding>(7, 5), 1, 29, "s8 B lane 7 b5 (n, k)");
    using e = mma_sync_m16n8k32_f32_e4m3e4m3;
    expect_at(coord<e::a_encoding>(7, 13), 9, 29, "e4m3 A lane 7 a13");
    expect_at(coord<e::c_encoding>(7, 2), 9, 6, "e4m3 C lane 7 c2");
}

// ---- AMD: the CDNA matrix-instruction register layouts --------------------------------------

namespace {

rc amd_a(index_t mn, index_t kvec, index_t lane, index_t j) // A (and B as N x K)
{
    return {lane % mn, kvec * (lane / mn) + j};
}
rc amd_c(index_t mn, index_t lane, index_t r)
{
    if(mn == 32)
        return {8 * (r / 4) + 4 * (lane / 32) + r % 4, lane % 32};
    return {4 * (lane / 16) + r, lane % 16};
}

template <typename Atom>
void expect_amd_layout(index_t k_per_lane, index_t c_regs)
{
    EXPECT_EQ(Atom::a_per_lane, k_per_lane);
    EXPECT_EQ(Atom::b_per_lane, k_per_lane);
    EXPECT_EQ(Atom::c_per_lane, c_regs);
    for(index_t l = 0; l < 64; ++l)
    {
        for(index_t j = 0; j < Atom::a_per_lane; ++j)
        {
            const rc a   = coord<typename Atom::a_encoding>(l, j),
                     isa = amd_a(Atom::m, k_per_lane, l, j);
            EXPECT_TRUE(a.row == isa.row && a.col == isa.col) << "A lane " << l << " item " << j;
            const rc b = coord<typename Atom::b_encoding>(l, j);
            EXPECT_TRUE(b.row == isa.row && b.col == isa.col) << "B lane " << l << " item " << j;
        }
        for(index_t r = 0; r < Atom::c_per_lane; ++r)
        {
            const rc c = coord<typename Atom::c_encoding>(l, r), isa = amd_c(Atom::m, l, r);
            EXPECT_TRUE(c.row == isa.row && c.col == isa.col) << "C lane " << l << " acc " << r;
        }
    }
}

} // namespace

TEST(MfmaLayout, EveryFragmentMatchesTheIsaLayouts)
{
    expect_amd_layout<mfma_32x32x8_f32_f16>(4, 16);
    expect_amd_layout<mfma_16x16x16_f32_f16>(4, 4);
    expect_amd_layout<mfma_32x32x8_f32_bf16>(4, 16);
    expect_amd_layout<mfma_16x16x16_f32_bf16>(4, 4);
    expect_amd_layout<mfma_32x32x2_f32_f32>(1, 16);
    expect_amd_layout<mfma_16x16x4_f32_f32>(1, 4);
    expect_amd_layout<mfma_32x32x8_i32_i8>(4, 16);
    expect_amd_layout<mfma_16x16x16_i32_i8>(4, 4);
    expect_amd_layout<mfma_32x32x16_i32_i8>(8, 16);
    expect_amd_layout<mfma_16x16x32_i32_i8>(8, 4);
    expect_amd_layout<mfma_32x32x16_f32_fp8bf8>(8, 16);
    expect_amd_layout<mfma_16x16x32_f32_bf8fp8>(8, 4);
}

TEST(MfmaLayout, EntriesReadOffTheIsaTables)
{
    using f = mfma_32x32x8_f32_f16;
    expect_at(coord<f::a_encoding>(33, 2), 1, 6, "32x32x8 A lane 33 item 2");
    expect_at(coord<f::c_encoding>(33, 5), 13, 1, "32x32x8 C lane 33 acc 5");
    expect_at(coord<f::c_encoding>(0, 15), 27, 0, "32x32x8 C lane 0 acc 15");
    using g = mfma_16x16x16_f32_f16;
    expect_at(coord<g::a_encoding>(17, 1), 1, 5, "16x16x16 A lane 17 item 1");
    expect_at(coord<g::c_encoding>(17, 3), 7, 1, "16x16x16 C lane 17 acc 3");
    using p = mfma_32x32x16_f32_fp8fp8;
    expect_at(coord<p::a_encoding>(40, 7), 8, 15, "32x32x16 fp8 A lane 40 item 7");
    using q = mfma_16x16x32_i32_i8;
    expect_at(coord<q::b_encoding>(50, 3), 2, 27, "16x16x32 i8 B lane 50 item 3 (n, k)");
    using s = mfma_32x32x2_f32_f32;
    expect_at(coord<s::a_encoding>(63, 0), 31, 1, "32x32x2 A lane 63");
}

// ---- warp_gemm: K loops through the encodings -----------------------------------------------

namespace {

// Emulates warp_gemm<Atom, KIter, Order> on the host: the lanes' fragments are gathered from
// A (M x K) and B (N x K) through the warp GEMM's encodings; each iteration's instruction
// fragments are picked with a_register/b_register and executed by scattering them into an atom
// tile through the *atom's* encodings. The result must be the plain product.
template <typename WG>
void expect_k_loop_is_a_gemm()
{
    using Atom      = typename WG::atom;
    const index_t W = WG::warp_size;
    const index_t M = WG::m, N = WG::n, K = WG::k;
    std::vector<double> a(static_cast<size_t>(M * K)), b(static_cast<size_t>(N * K));
    for(index_t i = 0; i < M * K; ++i)
        a[static_cast<size_t>(i)] = static_cast<double>((i * 7 + 3) % 11) - 5;
    for(index_t i = 0; i < N * K; ++i)
        b[static_cast<size_t>(i)] = static_cast<double>((i * 5 + 1) % 13) - 6;

    expect_owned_once<typename WG::a_encoding>(W, WG::a_per_lane, M, K);
    expect_owned_once<typename WG::b_encoding>(W, WG::b_per_lane, N, K);

    std::vector<double> af(static_cast<size_t>(W * WG::a_per_lane));
    std::vector<double> bf(static_cast<size_t>(W * WG::b_per_lane));
    for(index_t l = 0; l < W; ++l)
    {
        for(index_t r = 0; r < WG::a_per_lane; ++r)
        {
            const rc x = coord<typename WG::a_encoding>(l, r);
            af[static_cast<size_t>(l * WG::a_per_lane + r)] =
                a[static_cast<size_t>(x.row * K + x.col)];
        }
        for(index_t r = 0; r < WG::b_per_lane; ++r)
        {
            const rc x = coord<typename WG::b_encoding>(l, r);
            bf[static_cast<size_t>(l * WG::b_per_lane + r)] =
                b[static_cast<size_t>(x.row * K + x.col)];
        }
    }

    std::vector<double> cf(static_cast<size_t>(W * WG::c_per_lane), 0.0);
    for(index_t i = 0; i < WG::k_iter; ++i)
    {
        std::vector<double> ta(static_cast<size_t>(Atom::m * Atom::k));
        std::vector<double> tb(static_cast<size_t>(Atom::n * Atom::k));
        for(index_t l = 0; l < W; ++l)
        {
            for(index_t e = 0; e < Atom::a_per_lane; ++e)
            {
                const rc x = coord<typename Atom::a_encoding>(l, e);
                ta[static_cast<size_t>(x.row * Atom::k + x.col)] =
                    af[static_cast<size_t>(l * WG::a_per_lane + WG::a_register(e, i))];
            }
            for(index_t e = 0; e < Atom::b_per_lane; ++e)
            {
                const rc x = coord<typename Atom::b_encoding>(l, e);
                tb[static_cast<size_t>(x.row * Atom::k + x.col)] =
                    bf[static_cast<size_t>(l * WG::b_per_lane + WG::b_register(e, i))];
            }
        }
        for(index_t l = 0; l < W; ++l)
            for(index_t r = 0; r < WG::c_per_lane; ++r)
            {
                const rc x = coord<typename Atom::c_encoding>(l, r);
                double s   = 0;
                for(index_t kk = 0; kk < Atom::k; ++kk)
                    s += ta[static_cast<size_t>(x.row * Atom::k + kk)] *
                         tb[static_cast<size_t>(x.col * Atom::k + kk)];
                cf[static_cast<size_t>(l * WG::c_per_lane + r)] += s;
            }
    }

    for(index_t l = 0; l < W; ++l)
        for(index_t r = 0; r < WG::c_per_lane; ++r)
        {
            const rc x = coord<typename WG::c_encoding>(l, r);
            double s   = 0;
            for(index_t kk = 0; kk < K; ++kk)
                s +=
                    a[static_cast<size_t>(x.row * K + kk)] * b[static_cast<size_t>(x.col * K + kk)];
            EXPECT_EQ(cf[static_cast<size_t>(l * WG::c_per_lane + r)], s)
                << "C(" << x.row << ", " << x.col << ") lane " << l << " reg " << r;
        }
}

constexpr auto atom_major      = warp_gemm_k_order::atom_major;
constexpr auto lane_contiguous = warp_gemm_k_order::lane_contiguous;

} // namespace

TEST(WarpGemm, KLoopsOfMmaSyncAtomsAreGemms)
{
    expect_k_loop_is_a_gemm<warp_gemm<mma_sync_m16n8k16_f32_f16>>();
    expect_k_loop_is_a_gemm<warp_gemm<mma_sync_m16n8k16_f32_f16, 2, atom_major>>();
    expect_k_loop_is_a_gemm<warp_gemm<mma_sync_m16n8k16_f32_f16, 3, lane_contiguous>>();
    expect_k_loop_is_a_gemm<warp_gemm<mma_sync_m16n8k8_f32_tf32, 2, atom_major>>();
    expect_k_loop_is_a_gemm<warp_gemm<mma_sync_m16n8k8_f32_tf32, 4, lane_contiguous>>();
    expect_k_loop_is_a_gemm<warp_gemm<mma_sync_m16n8k32_s32_s8s8, 2, lane_contiguous>>();
    expect_k_loop_is_a_gemm<warp_gemm<mma_sync_m16n8k32_f32_e4m3e5m2, 2, atom_major>>();
}

TEST(WarpGemm, KLoopsOfMfmaAtomsAreGemms)
{
    expect_k_loop_is_a_gemm<warp_gemm<mfma_32x32x8_f32_f16>>();
    expect_k_loop_is_a_gemm<warp_gemm<mfma_32x32x8_f32_f16, 2, lane_contiguous>>();
    expect_k_loop_is_a_gemm<warp_gemm<mfma_16x16x16_f32_bf16, 2, atom_major>>();
    expect_k_loop_is_a_gemm<warp_gemm<mfma_16x16x4_f32_f32, 4, lane_contiguous>>();
    expect_k_loop_is_a_gemm<warp_gemm<mfma_32x32x16_f32_fp8fp8, 2, lane_contiguous>>();
}

TEST(WarpGemm, LaneContiguousOrderWidensEachLanesKRun)
{
    // mfma 32x32x8 f16, 2 iterations: each lane holds 8 contiguous K values (one 16-byte load).
    using wg = warp_gemm<mfma_32x32x8_f32_f16, 2, lane_contiguous>;
    for(index_t r = 0; r < wg::a_per_lane; ++r)
        expect_at(coord<wg::a_encoding>(33, r), 1, 8 + r, "lane 33");
    // Atom-major keeps each iteration's fragment whole: registers 4..7 are iteration 1.
    using wa = warp_gemm<mfma_32x32x8_f32_f16, 2, atom_major>;
    expect_at(coord<wa::a_encoding>(33, 4), 1, 12, "atom-major lane 33 reg 4");
    EXPECT_EQ(wa::a_register(0, 1), 4);
    EXPECT_EQ(wg::a_register(0, 1), 4);
    using wh = warp_gemm<mma_sync_m16n8k16_f32_f16, 2, lane_contiguous>;
    EXPECT_EQ(wh::a_register(2, 1), 6); // (kh 0, mh 1) run of 4 K values, iteration 1's pair
}

// ---- ldmatrix ------------------------------------------------------------------------------

TEST(Ldmatrix, X4OfARowMajorTileIsTheM16n8k16AFragment)
{
    // ldmatrix.x4 (PTX ISA): lane l's register j holds elements (l / 4, 2 (l % 4)) and
    // (l / 4, 2 (l % 4) + 1) of matrix j, whose rows are addressed by lanes 8j..8j+7. With lane
    // l addressing A row (l % 8) + 8 ((l / 8) % 2), columns 8 (l / 16)..+8, matrix j is the
    // 8x8 block (j % 2, j / 2) of a 16x16 A and the registers are the mma A operand a0..a7.
    using h = mma_sync_m16n8k16_f32_f16;
    for(index_t l = 0; l < 32; ++l)
        for(index_t j = 0; j < 4; ++j)
            for(index_t half = 0; half < 2; ++half)
            {
                const index_t row = 8 * (j % 2) + l / 4;
                const index_t col = 8 * (j / 2) + 2 * (l % 4) + half;
                const rc ours     = coord<h::a_encoding>(l, 2 * j + half);
                EXPECT_TRUE(ours.row == row && ours.col == col) << "lane " << l << " reg " << j;
            }
}

// The tile GEMM's ldmatrix fragment loads (gemm_tile_block_gemm::load_fragment_ldmatrix):
// lane l addresses row 8 rb + l % 8 at K byte 16 kb of matrix j = (l / 8) % matrices, with
// rb = j % (rows / 8), kb = j / (rows / 8). ldmatrix then gives lane l, register j, the 4
// bytes at row 8 rb + l / 4, K bytes 16 kb + 4 (l % 4) of a K-contiguous operand; with
// .trans (16-bit, stored K x rows) the two elements at K 8 kb + 2 (l % 4) + {0, 1}, row
// 8 rb + l / 4. Both must be what the atom's encoding assigns to (lane, register j).
namespace {
template <typename Encoding, typename T>
void expect_ldmatrix_fragment(index_t rows, index_t per_lane, bool transposed)
{
    constexpr index_t per_reg = static_cast<index_t>(4 / sizeof(T));
    const index_t row_blocks  = rows / 8;
    for(index_t l = 0; l < 32; ++l)
        for(index_t j = 0; j < per_lane / per_reg; ++j)
            for(index_t i = 0; i < per_reg; ++i)
            {
                const index_t rb = j % row_blocks, kb = j / row_blocks;
                const index_t row = 8 * rb + l / 4;
                const index_t k   = transposed ? 8 * kb + 2 * (l % 4) + i
                                               : (16 * kb + 4 * (l % 4)) / index_t(sizeof(T)) + i;
                const rc ours     = coord<Encoding>(l, j * per_reg + i);
                EXPECT_TRUE(ours.row == row && ours.col == k)
                    << "lane " << l << " reg " << j << " value " << i << ": (" << ours.row << ", "
                    << ours.col << ") vs (" << row << ", " << k << ")";
            }
}
} // namespace

TEST(Ldmatrix, TileGemmFragmentLoadsMatchEveryMmaSyncEncoding)
{
    for_each_atom(all_atoms{}, [](auto atom) {
        using A = decltype(atom);
        if constexpr(A::warp_size == 32)
        {
            using T = typename A::a_type;
            expect_ldmatrix_fragment<typename A::a_encoding, T>(A::m, A::a_per_lane, false);
            expect_ldmatrix_fragment<typename A::b_encoding, typename A::b_type>(
                A::n, A::b_per_lane, false);
            if constexpr(sizeof(T) == 2)
            {
                expect_ldmatrix_fragment<typename A::a_encoding, T>(A::m, A::a_per_lane, true);
                expect_ldmatrix_fragment<typename A::b_encoding, T>(A::n, A::b_per_lane, true);
            }
        }
    });
}
