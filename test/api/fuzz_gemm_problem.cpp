// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes as a GEMM problem (and run-time pointers) through the
// validation, the problem's text forms, the SIMT kernels' support checks and the selection
// model. Nothing may crash, overflow (ASan/UBSan) or throw anything but api_error; a problem
// that validates must map to in-range kernel arguments.
#include "api_error.hpp"
#include "gemm_problem.hpp"
#include "gemm_problem_mapping.hpp"
#include "selection.hpp"

#include <cstdint>
#include <cstring>
#include <string>

namespace {

using k64 = ck_tile::gemm_simt_kernel<
    ck_tile::gemm_simt_problem<ck_tile::half_t, ck_tile::half_t, ck_tile::half_t, float,
                               ck_tile::gemm_layout::any, ck_tile::gemm_layout::any, std::int64_t>,
    ck_tile::gemm_simt_policy<64, 64, 16, 4, 4, 1>, true>;
using k32 = ck_tile::gemm_simt_kernel<
    ck_tile::gemm_simt_problem<ck_tile::half_t, ck_tile::half_t, ck_tile::half_t, float,
                               ck_tile::gemm_layout::row, ck_tile::gemm_layout::col, std::int32_t>,
    ck_tile::gemm_simt_policy<64, 64, 16, 4, 4, 8>, true>;

cktile_kernel_instance_t fake_record(int tm, int tn, int tk, int threads, int bits, int vec)
{
    cktile_kernel_instance_t r{};
    r.struct_size              = sizeof(r);
    r.info.struct_size         = sizeof(r.info);
    r.info.tile_m              = tm;
    r.info.tile_n              = tn;
    r.info.tile_k              = tk;
    r.info.block_threads       = threads;
    r.info.index_bits          = bits;
    r.info.alignment_elements  = vec;
    r.info.shared_memory_bytes = 4u * tk * (tm + tn + 2);
    r.info.a_layout            = CKTILE_LAYOUT_ANY;
    r.info.b_layout            = CKTILE_LAYOUT_ANY;
    return r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    cktile_gemm_problem_t p{};
    cktile_gemm_args_t a{};
    std::memcpy(&p, data, std::min(size, sizeof(p)));
    if(size > sizeof(p))
        std::memcpy(&a, data + sizeof(p), std::min(size - sizeof(p), sizeof(a)));
    // Most inputs should get past the struct_size check to reach the interesting rules.
    if(size > 0 && (data[0] & 1))
        p.struct_size = sizeof(p);
    if(size > 1 && (data[1] & 1))
        a.struct_size = sizeof(a);
    try
    {
        cktile::detail::validate_gemm_problem(&p);
    }
    catch(const cktile::detail::api_error&)
    {
        return 0;
    }
    const bool with_args = [&] {
        try
        {
            cktile::detail::validate_gemm_args(p, &a);
            return true;
        }
        catch(const cktile::detail::api_error&)
        {
            return false;
        }
    }();
    volatile std::size_t sink = cktile::detail::gemm_problem_key(p).size() +
                                cktile::detail::gemm_replay_command(p, "x").size();
    const auto h = cktile::library::to_host_args(p, with_args ? &a : nullptr);
    if(!k64::why_unsupported(h))
    {
        const auto ka = k64::make_kargs(h);
        if(ka.grid_x < 1 || ka.grid_z < 1 || ka.num_tiles < 1)
            __builtin_trap();
    }
    if(!k32::why_unsupported(h))
    {
        const auto ka = k32::make_kargs(h);
        if(ka.grid_x < 1 || ka.grid_z < 1 || ka.num_tiles < 1 || ka.m != h.m || ka.k != h.k)
            __builtin_trap();
    }
    const auto machine = cktile::detail::machine_for_target("sm_90a", 0);
    for(const auto& r : {fake_record(64, 64, 16, 256, 64, 1), fake_record(32, 32, 16, 256, 32, 1),
                         fake_record(128, 64, 32, 256, 32, 8)})
    {
        const double c = cktile::detail::estimate_gemm_cost(r, p, machine);
        if(!(c > 0))
            __builtin_trap();
    }
    (void)sink;
    return 0;
}
