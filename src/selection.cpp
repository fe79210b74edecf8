// SPDX-License-Identifier: MIT
#include "selection.hpp"

#include "gemm_problem.hpp"
#include "gemm_transpose.hpp"

#include "ck_tile/ops/gemm/gemm_operand_view.hpp"
#include "ck_tile/ops/gemm/gemm_split_k.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cktile::detail {

machine_model machine_for_target(const std::string& target, int compute_units)
{
    machine_model m;
    const bool amd = target.rfind("gfx", 0) == 0;
    if(amd)
    {
        // gfx9: 64 KiB LDS and up to 40 resident waves of 64 per CU.
        m.max_threads_per_cu = 2560;
        m.lds_per_cu         = 64 * 1024;
        m.max_blocks_per_cu  = 32;
        m.registers_per_cu   = 128 * 1024;
    }
    else if(target == "sm_80" || target == "sm_90" || target == "sm_90a")
        m.lds_per_cu = target == "sm_80" ? 164 * 1024 : 228 * 1024;
    else
        m.lds_per_cu = 100 * 1024;
    if(compute_units > 0)
        m.compute_units = compute_units;
    else if(target == "sm_90a" || target == "sm_90")
        m.compute_units = 132; // H100 SXM
    else if(target == "sm_80")
        m.compute_units = 108; // A100
    else if(target == "sm_89")
        m.compute_units = 128;
    else if(target == "sm_86")
        m.compute_units = 84;
    else if(target == "gfx90a")
        m.compute_units = 104; // MI210/MI250X GCD
    else if(target == "gfx940" || target == "gfx942")
        m.compute_units = 304; // MI300X
    else
        m.compute_units = 80;
    return m;
}

namespace {

/// L2 traffic per useful byte of an operand whose contiguous runs start `pitch_bytes` apart.
/// Runs off the 128-byte lines make each 128-byte row of a tile touch two lines: on the H100,
/// fp16 3000^3 with lda = ldb = 3000 (16-byte steps) read 1.9 times the L2 sectors of lda =
/// 3008 (whole lines) and ran 1.4 to 1.6 times longer. 32-byte steps cost the 128x256 tile about
/// a fifth at 3000^3 (lda = 3024) but 7% at 6000^3 (rows of 12000 bytes); 1.1 keeps that tile
/// on 6000^3, where it ran 0.587 ms against 0.631 for 128x192 in clusters of two.
double line_crossing_factor(std::int64_t pitch_bytes)
{
    if(pitch_bytes % 128 == 0)
        return 1.0;
    return pitch_bytes % 32 == 0 ? 1.1 : 2.0;
}

/// Bytes of A and B above which the 128x144 pair ran as slowly per flop as the 128x112 one: fits
/// the sweep below (operands up to 25 MiB ran at about 1.12, from 34 MiB at about 1.22), as narrow
/// tiles re-reading operands that no longer stay in the 50 MB L2 would; not checked with
/// counters.
constexpr double narrow_pair_operands_bytes = 32.0 * 1024 * 1024;

/// Time per flop of a Hopper tile against 128x256 where neither is bound by L2, measured on the
/// H100 at 4096^3 and 6000^3: 128x192 (m64n192 MMAs) 1.10; 192x192, whose two consumers each
/// issue three 64 x 96 MMAs per K step (a third more shared-memory reads per
/// multiply-accumulate than 128x256), 1.12 to 1.14. Not explained yet (fixed costs per MMA
/// instruction weighing more on narrower ones would fit). 128x160 pairs (m64n160) 1.15: their
/// alpha-only kernel ran 1280^3 in 0.0147 ms against 0.0134 on 128x128 tiles, 3072^3 in 0.0904
/// against 0.0814 on 192x192 pairs and 4096^3 in 0.215 against 0.192 on 128x256 (H200), where
/// the model without it had taken the 160-column tile at 1280^3; at 1536^3, whose 120 tiles of
/// 128x160 fill the SMs, it stays the pick (0.0165 ms against 0.0192 on 128x192 pairs).
/// The 128x112 pair 1.22 and the 128x144 pair 1.12 or 1.22 (narrow_pair_operands_bytes), from a
/// sweep at the sustained clock (H200, fp16, B column-major, every instance in turn). One wave of
/// 128x112 tiles still beats fewer SMs on 128x128 (512 x 2560 x 4096: 0.0240 ms against 0.0256),
/// but over several waves both narrow pairs ran slower per flop than 1.15 had them: 128x112 took
/// 2560 x 2560 x 4096 in 0.0950 ms against 0.0872 on the 128x160 pair and 2304 x 2304 x 4096 in
/// 0.0746 against 0.0715 on 128x256. The 128x144 pair's rate moved with the operands' size: it
/// ran 2560 x 2560 x 1024 in 0.0266 ms against 0.0287 on 128x256 and 2560^3 in 0.0572 against
/// 0.0575, but 2304 x 3072 x 4096 in 0.0946 against 0.0900 and 5120 x 1280 x 4096 in 0.0960
/// against 0.0869 on the 128x160 pair.
/// The 128x96 pair 1.39 and the 128x80 pair 1.60: narrower still, slower per flop, and taken where
/// only they keep a problem to one wave on more SMs. 512 x 2560 x 4096 ran 0.0225 ms on 128 tiles
/// of 128x80, 0.0232 on 108 of 128x96 and 0.0239 on 92 of 128x112 (x 1024: 0.0106, 0.0111 and
/// 0.0118); 1024 x 1536 x 4096 0.0244 on 128 of 128x96 against 0.0249 on 112 of 128x112, 768 x
/// 2048 x 4096 0.0247 on 132 against 0.0252 on 114. (1.55 to 1.61 fit the 128x80 pair; 1.60
/// keeps 1024^3, where it was not measured, on the 64x128 ping-pong tile.) The 128x176 pair
/// 1.12: two waves of it (252 tiles) ran 2304 x 2304 x 4096 in 0.0699 ms against 0.0706 on
/// 128x256 and 1536 x 3584 x 1024 in 0.0228 against 0.0235 on 64x256 ping-pong tiles; 2.3 waves
/// of it ran 2560 x 2560 x 4096 in 0.0899 against 0.0854 on the 128x160 pair.
double math_factor(const cktile_instance_info_t& i, double operands_bytes)
{
    if(i.tile_m == 192)
        return 1.13;
    if(i.tile_m != 128)
        return 1.0;
    switch(i.tile_n)
    {
    case 80:
        return 1.60;
    case 96:
        return 1.39;
    case 112:
        return 1.22;
    case 144:
        return operands_bytes <= narrow_pair_operands_bytes ? 1.12 : 1.22;
    case 176:
        return 1.12;
    case 192:
        return 1.10;
    default:
        return i.tile_n % 64 != 0 ? 1.15 : 1.0; // 160
    }
}

/// Whether the instance's tile is a wave filler: 128 rows by a width off the multiples of 64
/// wider than 128 columns (144, 160, 176), there to make a number of tiles that fills the SMs' last
/// wave where 128- and 256-column tiles leave it partly empty.
bool wave_filler(const cktile_instance_info_t& i)
{
    return i.tile_m == 128 && i.tile_n > 128 && i.tile_n % 64 != 0;
}

/// Time per flop, against 128x256, of a wave filler that makes no fewer waves than 128x128 tiles
/// over the same problem: there it is only a wider tile doing more work per wave, and it measured
/// at 128x128's rate per flop, which the model puts at that tile's L2-bound K step (32 KiB staged
/// per 64 x 128 x 128 multiply-accumulates, 1.33 times its math). On an H200, fp16 with B
/// column-major, one wave each: 1024 x 2048 x 4096 ran 0.0306 ms on the 128x144 pair against 0.0284
/// on 128x128 tiles, 2048 x 1024 x 4096 0.0306 against 0.0284, 256 x 8192 x 8192 0.0588 against
/// 0.0535 and 2048 x 1024 x 1024 0.0129 against 0.0128; where the pair saves a wave it led (2560^3:
/// 0.0525 against 0.0585, 1536^3 and 1792 x 2560 x 4096 likewise).
constexpr double wave_filler_without_fewer_waves = 1.333;

/// Time per tile of a cluster of two (sharing B through multicast) against single blocks, for
/// a launch whose SMs each run `k_steps` K steps (waves of tiles times K tiles per tile). On the
/// H100 the pairs take as many SM cycles as single blocks where B's L2 traffic is no limit (fp16
/// 8192^3 on 128x256: 2.099-2.101 M against 2.095-2.100 M, ncu), and a few more on short
/// launches (4096^3: 285 K against 277 K). But they read B from L2 once per pair, and on long
/// launches, where the card runs against its power cap, that bought them a higher clock:
/// 1.58-1.67 GHz against 1.50-1.55, and 0.953 to 0.973 of the single blocks' time at fp16 and
/// bf16 8192^3 (15.5 waves of 128 K steps); 8192 x 8192 x 4096 (15.5 of 64) gained 3%, 6000^3
/// (8.7 of 94) 10% with B row-major and up to 2% with B column-major, while at 4096^3 (3.9 waves
/// of 64) the two were even.
constexpr double power_capped_k_steps = 512.0;
double cluster_factor(double k_steps) { return k_steps >= power_capped_k_steps ? 0.97 : 1.005; }

/// What a column-major D costs a copy-engine (Hopper) tile over a row-major one, as the math of
/// this many K per output element: on the H100, 128x256 tiles with a column-major D (stored by
/// the threads, consecutive threads down a column) ran fp16 4096^3 in 0.243 ms against 0.184
/// to 0.190 with a row-major D (0.3 times K = 4096), and 2048^3 in 0.044 against 0.028 (0.55
/// times K = 2048).
constexpr double column_major_d_store_k = 1200.0;

/// What the staged epilogue (the accumulators through shared memory, then element by element:
/// C on tiles whose accumulators leave no registers for it, extra inputs, int32 D) costs a
/// copy-engine tile over the register epilogue, as the math of this many K per output element:
/// on the H100, fp16 3000^3 with beta = 1 ran 0.135 ms on 192x192 pairs that way against 0.089
/// without C (0.52 times K = 3000), while 128x192 pairs, which read C in their registers, ran
/// it in 0.112; 4096^3 with beta = 1 ran 0.255 ms staged on 128x256 tiles against 0.19 without
/// C (0.34 times K = 4096).
constexpr double staged_epilogue_k = 1500.0;

/// What the full epilogue's code costs a copy-engine tile over an alpha-only or bias-only
/// instance's (its epilogue waits for instructions; alpha_only_epilogue), as the math of this
/// many K per output
/// element: on the H100 (ncu SM cycles, same command) the alpha-only 128x256 kernel saved
/// about 1,500 cycles a tile at fp16 4096^3 and 4,000 at 2048^3, the 192x192 pair 2,500 at
/// 3000^3, where a 128x256 tile's K step of 64 takes about 1,000.
constexpr double full_epilogue_code_k = 128.0;

/// What a B fed by the producer's threads (gemm_wgmma_b_feed::threads) costs a tile over the
/// copy engine's boxes, where both can read B.
constexpr double thread_fed_b_factor = 1.15;

} // namespace

std::size_t minimum_workspace(const cktile_kernel_instance_t& inst, const cktile_gemm_problem_t& p)
{
    return inst.minimum_workspace_size ? inst.minimum_workspace_size(&p) : inst.workspace_size(&p);
}

double output_waves(const cktile_kernel_instance_t& inst, const cktile_gemm_problem_t& p,
                    const machine_model& m)
{
    const bool transposes   = inst.runs_transposed && inst.runs_transposed(&p) != 0;
    const std::int64_t rows = transposes ? p.n : p.m, cols = transposes ? p.m : p.n;
    const auto along = [](std::int64_t extent, int tile) {
        return tile > 0 ? (extent + tile - 1) / tile : std::int64_t{0};
    };
    const std::int64_t tiles =
        along(rows, inst.info.tile_m) * along(cols, inst.info.tile_n) * p.batch_count;
    return static_cast<double>(tiles) / static_cast<double>(std::max(1, m.compute_units));
}

double estimate_gemm_cost(const cktile_kernel_instance_t& inst, const cktile_gemm_problem_t& stated,
                          const machine_model& mm, bool full_workspace)
{
    // An instance that runs the problem as D^T = B^T A^T is costed on that statement: its
    // tiles cover D^T. (The record's functions below take either: an instance runs the
    // transposed statement as stated.)
    const bool transposes           = inst.runs_transposed && inst.runs_transposed(&stated) != 0;
    const cktile_gemm_problem_t p   = transposes ? library::transposed_problem(stated) : stated;
    const cktile_instance_info_t& i = inst.info;
    const double tm = i.tile_m, tn = i.tile_n, tk = i.tile_k, threads = i.block_threads;
    // Split-K: `splits` blocks share an output tile, each running K / splits.
    const std::int64_t splits = inst.k_splits ? std::max<std::int64_t>(1, inst.k_splits(&p)) : 1;
    // Clusters along M run whole: a partial cluster's idle blocks still take their SMs.
    const std::int64_t cluster_m = std::max(1, inst.cluster_m);
    const std::int64_t tiles_m =
        ((p.m + i.tile_m - 1) / i.tile_m + cluster_m - 1) / cluster_m * cluster_m;
    const std::int64_t tiles = tiles_m * ((p.n + i.tile_n - 1) / i.tile_n) * p.batch_count * splits;

    // Occupancy: blocks per CU, limited by threads, shared memory and the hardware cap.
    int occ = std::max(1, mm.max_threads_per_cu / std::max(1, i.block_threads));
    if(i.shared_memory_bytes > 0)
        occ = std::min<int>(occ, static_cast<int>(mm.lds_per_cu / i.shared_memory_bytes));
    occ = std::max(1, std::min(occ, mm.max_blocks_per_cu));
    // Blocks running at once: a wave of tiles.
    const std::int64_t concurrent = static_cast<std::int64_t>(mm.compute_units) * occ;

    const double ea             = static_cast<double>(datatype_bytes(p.a_type)),
                 eb             = static_cast<double>(datatype_bytes(p.b_type));
    const double operands_bytes = static_cast<double>(p.batch_count) * static_cast<double>(p.k) *
                                  (static_cast<double>(p.m) * ea + static_cast<double>(p.n) * eb);
    // A wave filler that fills no fewer waves than 128x128 tiles is costed at their rate.
    double mf = math_factor(i, operands_bytes);
    if(wave_filler(i))
    {
        const std::int64_t tiles_128 =
            (p.m + 127) / 128 * ((p.n + 127) / 128) * p.batch_count * splits;
        const auto waves = [&](std::int64_t t) { return (t + concurrent - 1) / concurrent; };
        if(waves(tiles) >= waves(tiles_128))
            mf = std::max(mf, wave_filler_without_fewer_waves);
    }

    // Work of one tile: the FMAs, plus the operand loads (vectors need fewer instructions),
    // padded to whole K slices. Wider index arithmetic and run-time layouts cost extra.
    const std::int64_t k_split = (p.k + splits - 1) / splits;
    const double k_iters       = static_cast<double>((k_split + i.tile_k - 1) / i.tile_k);
    const double vec           = std::max(1, i.alignment_elements);
    // Matrix instructions do math_rate times the multiply-accumulates of FMA per cycle.
    const double rate = inst.math_rate > 0 ? inst.math_rate : 1.0;
    // A K step takes the longer of its math and staging its operands from L2 (rows past the
    // problem's edge are not read: TMA and masked loads skip them).
    // An instance that accepts strides off its alignment copies that operand into workspace
    // with rows on whole lines first (the supports check refuses them otherwise), and one that
    // accepts an operand stored the other way than it reads copies it transposed (the Hopper
    // kernels of 8-bit and TF32 inputs, which read K-major only).
    const std::int64_t align = std::max(1, i.alignment_elements);
    const bool transposes_a  = i.a_layout != CKTILE_LAYOUT_ANY && i.a_layout != p.a_layout;
    const bool transposes_b  = i.b_layout != CKTILE_LAYOUT_ANY && i.b_layout != p.b_layout;
    // (Instances that say which operands they copy are asked: a B fed by the threads is read
    // with any leading dimension.)
    const int copied  = inst.copied_operands ? inst.copied_operands(&p) : -1;
    const auto copies = [&](int bit, bool transposes, std::int64_t ld, std::int64_t stride) {
        if(copied >= 0)
            return (copied & bit) != 0;
        return transposes ||
               (align > 1 && (ld % align != 0 || (p.batch_count > 1 && stride % align != 0)));
    };
    const bool copies_a = copies(1, transposes_a, p.lda, p.stride_a);
    const bool copies_b = copies(2, transposes_b, p.ldb, p.stride_b);
    const double line_a =
        copies_a
            ? 1.0
            : line_crossing_factor(p.lda * static_cast<std::int64_t>(datatype_bytes(p.a_type)));
    const double line_b =
        copies_b
            ? 1.0
            : line_crossing_factor(p.ldb * static_cast<std::int64_t>(datatype_bytes(p.b_type)));
    const double staged_bytes = tk * (std::min(tm, static_cast<double>(p.m)) * ea * line_a +
                                      std::min(tn, static_cast<double>(p.n)) * eb * line_b /
                                          static_cast<double>(cluster_m));
    const double k_step =
        std::max(tk * tm * tn / rate * mf, staged_bytes / mm.cache_bytes_per_unit_per_cu);
    double tile_work = k_iters * (k_step + 4.0 * tk * (tm + tn) / vec);
    if(i.index_bits == 64)
        tile_work *= 1.15;
    if(i.a_layout == CKTILE_LAYOUT_ANY || i.b_layout == CKTILE_LAYOUT_ANY)
        tile_work *= 1.1;
    if(cluster_m > 1)
        tile_work *=
            cluster_factor(static_cast<double>(tiles) / static_cast<double>(concurrent) * k_iters);
    if(i.supports_bias && p.activation == CKTILE_ACTIVATION_NONE && p.bias == CKTILE_BIAS_NONE)
        tile_work *= 1.01; // a fused or bias-only epilogue that has nothing to do still branches
    // Copy-engine instances store a row-major D through the copy engine, any other D one
    // element per thread: costed as the math of K = column_major_d_store_k per element.
    // (With split-K the reduction kernel writes D instead.)
    if(inst.copy_stages > 0 && p.d_layout != CKTILE_LAYOUT_ROW_MAJOR && splits == 1)
        tile_work += column_major_d_store_k * tm * tn / rate * mf;
    // (A column-major D is costed above: its thread stores are that path.)
    if(inst.copy_stages > 0 && splits == 1 && p.d_layout == CKTILE_LAYOUT_ROW_MAJOR &&
       inst.staged_epilogue && inst.staged_epilogue(&p))
        tile_work += staged_epilogue_k * tm * tn / rate * mf;
    if(inst.copy_stages > 0 && !inst.alpha_only_epilogue)
        tile_work += full_epilogue_code_k * tm * tn / rate * mf;
    // B read in place by the producer's threads: each row's K step is copied as whole 16-byte
    // lines (one more where the row starts off a line) and shifted into the stage by the
    // threads, which the copy engine's boxes do not need.
    if(copied >= 0 && (copied & 4) != 0)
        tile_work *= thread_fed_b_factor;

    // A CU running b blocks finishes them in b * tile_work / efficiency(b): too few resident
    // threads leave memory latency exposed. Copy-engine stages hide it without threads.
    auto wave_time = [&](double blocks_on_cu) {
        const double eff = inst.copy_stages > 0
                               ? 1.0
                               : std::min(1.0, blocks_on_cu * threads / mm.latency_hiding_threads);
        return blocks_on_cu * tile_work / eff;
    };
    const std::int64_t full_waves = tiles / concurrent;
    const std::int64_t rest       = tiles % concurrent;
    double t                      = static_cast<double>(full_waves) * wave_time(occ);
    // A persistent instance may split the tiles of its last, partial wave over K: that wave
    // then takes a split's K steps, plus ck_tile::tail_split_k_tiles_per_split K steps per
    // split (its sums written to L2, then read back by the block that adds them up), plus
    // about 3 us (the counters' memset, the hand-over's fences and atomics), as measured on
    // the H100 (gemm_split_k.hpp).
    const std::int64_t tail_splits = splits == 1 && full_workspace && inst.tail_splits
                                         ? std::max<std::int64_t>(1, inst.tail_splits(&p))
                                         : 1;
    if(rest > 0 && tail_splits > 1)
    {
        const double split_iters = std::ceil(k_iters / static_cast<double>(tail_splits));
        t += tile_work *
                 (split_iters +
                  ck_tile::tail_split_k_tiles_per_split * static_cast<double>(tail_splits)) /
                 std::max(1.0, k_iters) +
             1.5 * mm.launch_units;
    }
    else if(rest > 0)
        t += wave_time(static_cast<double>((rest + mm.compute_units - 1) / mm.compute_units));
    // No GEMM beats reading its operands once and writing D once at the memory's speed. Below
    // that floor instances differ only by a thousandth of their estimate, so ties still go to
    // the faster one in compute.
    const double batches = static_cast<double>(p.batch_count);
    const double md = static_cast<double>(p.m), nd = static_cast<double>(p.n),
                 kd     = static_cast<double>(p.k);
    double memory_bytes = batches * (md * kd * ea + kd * nd * eb +
                                     md * nd * static_cast<double>(datatype_bytes(p.d_type)));
    if(p.beta != 0.0)
        memory_bytes += batches * md * nd * static_cast<double>(datatype_bytes(p.c_type));
    t = std::max(t, memory_bytes / mm.memory_bytes_per_unit) + 1e-3 * t;
    // A transposed statement whose D^T is column-major (the 16-row A tile on a few-column
    // problem) ends each tile in the staged epilogue, whose latency the floor above hides from
    // the model: on the H100, fp16 8192 x 16 x 4096 ran 0.0307-0.0310 ms that way against
    // 0.0278 for 64x64 tiles as stated, 8192 x 16 x 8192 0.0531-0.0535 against 0.0517-0.0519
    // (4096 x 16 x 4096, split over K so that the reduction writes D, 0.0235 against 0.0253).
    // Near ties go to the stated problem.
    if(transposes && p.d_layout != CKTILE_LAYOUT_ROW_MAJOR)
        t *= 1.02;
    // The split-K reduction: every 4-byte partial sum written once and read once, plus a
    // second launch, at half the memory's copy speed: on the H100 the pass took 4.5 us at M=16
    // and 15 us at M=128 (N = K = 8192), and 1024 x 1024 x 8192 ran 0.031 ms on 64x128 tiles
    // without a split against more than 0.042 on 128x256 tiles in four splits; at the copy's
    // speed the model had taken the split. (Costed per compute unit like operand loads it came
    // out about 10 times too cheap.)
    if(splits > 1)
        t += 16.0 * static_cast<double>(splits * p.m * p.n * p.batch_count) /
                 mm.memory_bytes_per_unit +
             mm.launch_units;
    // The staging copies: each element read and written once, and a launch per operand. A
    // transposed copy of 1-byte elements moves a word per access where the leading dimension
    // and batch stride are on 4 bytes, else one byte per access: on the H200 the byte copy ran
    // at a third of the 4-byte one's speed (1.0 against 3.4 TB/s). The word copy is costed at
    // the 4-byte one's rate (the same loads in flight per multiprocessor; at e4m3 8192^3 it
    // took 0.024-0.033 ms against the 0.039 of that rate). (The problem has no pointers;
    // buffers from an allocator start on 256 bytes.) A transposed copy's warps read a tile's rows
    // along the source's runs (M for an A stored column-major, N for a B stored row-major), 64
    // elements wide, or 128 for the word copy: narrower runs leave lanes idle, and the copy slows
    // in proportion (on the H200 the word copy of 8-byte runs moved 0.1 TB/s).
    // The padded copy moves 4-byte words from any start; its warps read 128 bytes per run and
    // access, so runs of a few hundred bytes leave lanes idle: on the H200 it moved runs of 100
    // and 200 bytes at 0.49 and 0.95 TB/s, against 2.4-3.8 from runs of 2,000 bytes on, which
    // max(1, 700 / run bytes) follows.
    // `run`: the stored operand's runs (K for an A stored row-major, M otherwise; N for a B
    // stored row-major, K otherwise), which the transposed copies read across.
    const auto copy_slowdown = [&](bool transposes, cktile_datatype_t type, std::int64_t ld,
                                   std::int64_t batch_stride, std::int64_t run) {
        if(!transposes)
            return std::max(1.0,
                            700.0 / static_cast<double>(std::max<std::int64_t>(
                                        1, run * static_cast<std::int64_t>(datatype_bytes(type)))));
        ck_tile::gemm_operand_view stored; // its start: on 256 bytes, as above
        stored.rows = p.k, stored.run = run, stored.ld = ld, stored.batches = p.batch_count;
        stored.batch_stride  = batch_stride;
        stored.element_bytes = datatype_bytes(type);
        const bool words     = ck_tile::gemm_operand_layout::transposes_by_words(stored);
        const double narrow  = std::max(
             1.0, (words ? 128.0 : 64.0) / static_cast<double>(std::max<std::int64_t>(1, run)));
        return (stored.element_bytes == 1 && !words ? 3.0 : 1.0) * narrow;
    };
    if(copies_a)
        t += 2.0 * batches * md * kd * ea *
                 copy_slowdown(transposes_a, p.a_type, p.lda, p.stride_a,
                               p.a_layout == CKTILE_LAYOUT_ROW_MAJOR ? p.k : p.m) /
                 mm.memory_bytes_per_unit +
             mm.launch_units;
    if(copies_b)
        t += 2.0 * batches * kd * nd * eb *
                 copy_slowdown(transposes_b, p.b_type, p.ldb, p.stride_b,
                               p.b_layout == CKTILE_LAYOUT_ROW_MAJOR ? p.n : p.k) /
                 mm.memory_bytes_per_unit +
             mm.launch_units;
    return t;
}

} // namespace cktile::detail
