// SPDX-License-Identifier: MIT
#include "hopper_kernels.hpp"

#include "ck_tile/core/arch/arch.hpp"
#include "ck_tile/core/arch/nvidia/mbarrier.hpp"
#include "ck_tile/core/arch/nvidia/tma.hpp"
#include "ck_tile/core/arch/nvidia/wgmma.hpp"
#include "ck_tile/core/utility/functional.hpp"

#include <cstring>
#include <type_traits>

namespace cktile_hopper_test {
namespace {

using namespace ck_tile;

// The largest test box: 256 rows of 128 bytes.
constexpr uint32_t max_box_bytes = 32 * 1024;

CK_TILE_GLOBAL void __launch_bounds__(128, 1)
    tma_roundtrip_kernel(const CK_TILE_GRID_CONSTANT CUtensorMap src,
                         const CK_TILE_GRID_CONSTANT CUtensorMap dst, int c0, int r0,
                         uint32_t box_bytes, uint8_t* raw_out, uint32_t steps)
{
#if CK_TILE_ARCH_HAS_SM90_ASYNC
    __shared__ alignas(1024) uint8_t tile[max_box_bytes];
    __shared__ uint64_t bar;
    const index_t t = get_thread_id();
    if(arch::shared_address(tile) % 1024 != 0 || box_bytes > max_box_bytes)
        trap();
    if(t == 0)
    {
        if(steps & tma_step_prefetch)
        {
            arch::tma_prefetch_descriptor(&src);
            arch::tma_prefetch_descriptor(&dst);
        }
        arch::mbarrier_init(&bar, 1);
        arch::fence_mbarrier_init();
    }
    block_sync_lds();
    if(t == 0)
    {
        arch::mbarrier_arrive_expect_tx(&bar, box_bytes);
        arch::tma_load_2d(tile, &src, &bar, c0, r0);
    }
    arch::mbarrier_wait_parity(&bar, 0);
    for(uint32_t i = t; i < box_bytes; i += get_block_size())
        raw_out[i] = tile[i];

    // Only the copy engine wrote the tile, so no proxy fence is needed before it reads it.
    block_sync_lds();
    if(t == 0 && (steps & tma_step_store))
    {
        arch::tma_store_2d(&dst, tile, c0, r0);
        arch::tma_store_commit_group();
        arch::tma_store_wait_group<0>();
    }
    if(t == 0 && (steps & tma_step_inval))
        arch::mbarrier_inval(&bar);
#else
    (void)src;
    (void)dst;
    (void)c0;
    (void)r0;
    (void)box_bytes;
    (void)raw_out;
    (void)steps;
    trap();
#endif
}

// 4 K steps of 32 bytes: one 128-byte swizzle row per M (or N) index.
constexpr uint32_t row_bytes               = 128;
[[maybe_unused]] constexpr index_t k_steps = 4;

template <typename A, typename B, typename C, int N, bool ARegs>
CK_TILE_GLOBAL void __launch_bounds__(128, 1)
    wgmma_tile_kernel(const CK_TILE_GRID_CONSTANT CUtensorMap map_a,
                      const CK_TILE_GRID_CONSTANT CUtensorMap map_b, const A* a, C* d_out)
{
#if CK_TILE_ARCH_HAS_WGMMA
    using traits = wgmma_traits<A, B, C, N>;
    __shared__ alignas(1024) uint8_t smem_a[64 * row_bytes];
    __shared__ alignas(1024) uint8_t smem_b[N * row_bytes];
    __shared__ uint64_t bar;
    const index_t t = get_thread_id();
    if(arch::shared_address(smem_a) % 1024 != 0 || arch::shared_address(smem_b) % 1024 != 0)
        trap();

    if(t == 0)
    {
        arch::mbarrier_init(&bar, 1);
        arch::fence_mbarrier_init();
    }
    block_sync_lds();
    if(t == 0)
    {
        arch::mbarrier_arrive_expect_tx(&bar, (ARegs ? 0u : sizeof(smem_a)) + sizeof(smem_b));
        if constexpr(!ARegs)
            arch::tma_load_2d(smem_a, &map_a, &bar, 0, 0);
        arch::tma_load_2d(smem_b, &map_b, &bar, 0, 0);
    }

    // Register-A form: each thread packs its fragment of every K step from global memory.
    uint32_t a_frag[k_steps][traits::a_regs] = {};
    if constexpr(ARegs)
    {
        constexpr index_t k_total = k_steps * traits::k;
        for(index_t s = 0; s < k_steps; ++s)
            for(index_t e = 0; e < traits::a_regs * traits::a_per_reg; ++e)
            {
                const auto rc = wgmma_a_fragment_coord<A>(t, e);
                const A v     = a[rc.row * k_total + s * traits::k + rc.col];
                uint32_t bits = 0;
                std::memcpy(&bits, &v, sizeof(A));
                a_frag[s][e / traits::a_per_reg] |= bits
                                                    << (8 * sizeof(A) * (e % traits::a_per_reg));
            }
    }
    else
    {
        (void)a;
    }

    arch::mbarrier_wait_parity(&bar, 0);

    C d[traits::c_per_thread];
    for(index_t i = 0; i < traits::c_per_thread; ++i)
        d[i] = C{};
    arch::wgmma_fence_operand(d);
    arch::wgmma_fence();
    static_for<0, k_steps, 1>{}([&](auto s) {
        const uint32_t step   = static_cast<uint32_t>(s.value) * traits::k_bytes;
        const uint64_t desc_b = wgmma_smem_descriptor::make_k_major(
            arch::shared_address(smem_b) + step, smem_swizzle::b128, row_bytes);
        const wgmma_scale_d mode = s.value == 0 ? wgmma_scale_d::zero : wgmma_scale_d::one;
        if constexpr(ARegs)
        {
            arch::wgmma_rs<A, B, C, N>::fma(a_frag[s.value], desc_b, d, mode);
        }
        else
        {
            const uint64_t desc_a = wgmma_smem_descriptor::make_k_major(
                arch::shared_address(smem_a) + step, smem_swizzle::b128, row_bytes);
            arch::wgmma_ss<A, B, C, N>::fma(desc_a, desc_b, d, mode);
        }
    });
    arch::wgmma_commit_group();
    arch::wgmma_wait_group<0>();
    arch::wgmma_fence_operand(d);

    for(index_t i = 0; i < traits::c_per_thread; ++i)
    {
        const auto rc              = wgmma_accumulator_coord(t, i);
        d_out[rc.row * N + rc.col] = d[i];
    }
#else
    (void)map_a;
    (void)map_b;
    (void)a;
    (void)d_out;
    trap();
#endif
}

// What the copy engine moves for an operand type: tf32 operands are floats in memory.
template <typename T>
using memory_type = std::conditional_t<std::is_same_v<T, tf32_t>, float, T>;

} // namespace

hipError_t run_tma_roundtrip(const tma_descriptor& src, const tma_descriptor& dst, int c0, int r0,
                             uint32_t box_bytes, void* raw_out, uint32_t steps, hipStream_t stream)
{
    if(box_bytes > max_box_bytes)
        return hipErrorInvalidValue;
    tma_roundtrip_kernel<<<1, 128, 0, stream>>>(src, dst, c0, r0, box_bytes,
                                                static_cast<uint8_t*>(raw_out), steps);
    return hipGetLastError();
}

template <typename A, typename B, typename C, int N, bool ARegs>
hipError_t run_wgmma_tile(const void* a, const void* b, C* d, hipStream_t stream)
{
    using MA                = memory_type<A>;
    using MB                = memory_type<B>;
    constexpr uint64_t ka   = row_bytes / sizeof(MA);
    constexpr uint64_t kb   = row_bytes / sizeof(MB);
    const tma_descriptor ma = make_tma_descriptor(make_tma_tile_spec_2d(
        static_cast<const MA*>(a), 64, ka, ka, 64, static_cast<uint32_t>(ka), smem_swizzle::b128));
    const tma_descriptor mb = make_tma_descriptor(make_tma_tile_spec_2d(
        static_cast<const MB*>(b), N, kb, kb, N, static_cast<uint32_t>(kb), smem_swizzle::b128));
    wgmma_tile_kernel<A, B, C, N, ARegs>
        <<<1, 128, 0, stream>>>(ma, mb, static_cast<const A*>(a), d);
    return hipGetLastError();
}

#define CKTILE_HOPPER_TEST_WGMMA(A, B, C, N, AREGS)                                                \
    template hipError_t run_wgmma_tile<A, B, C, N, AREGS>(const void*, const void*, C*,            \
                                                          hipStream_t);

CKTILE_HOPPER_TEST_WGMMA(half_t, half_t, float, 64, false)
CKTILE_HOPPER_TEST_WGMMA(half_t, half_t, float, 128, false)
CKTILE_HOPPER_TEST_WGMMA(half_t, half_t, float, 256, false)
CKTILE_HOPPER_TEST_WGMMA(bf16_t, bf16_t, float, 64, false)
CKTILE_HOPPER_TEST_WGMMA(bf16_t, bf16_t, float, 128, false)
CKTILE_HOPPER_TEST_WGMMA(bf16_t, bf16_t, float, 256, false)
CKTILE_HOPPER_TEST_WGMMA(half_t, half_t, float, 128, true)
CKTILE_HOPPER_TEST_WGMMA(bf16_t, bf16_t, float, 64, true)
CKTILE_HOPPER_TEST_WGMMA(fp8_t, fp8_t, float, 128, false)
CKTILE_HOPPER_TEST_WGMMA(fp8_t, fp8_t, float, 256, false)
CKTILE_HOPPER_TEST_WGMMA(bf8_t, fp8_t, float, 64, false)
CKTILE_HOPPER_TEST_WGMMA(tf32_t, tf32_t, float, 64, false)
CKTILE_HOPPER_TEST_WGMMA(int8_t, int8_t, int32_t, 64, false)

} // namespace cktile_hopper_test
