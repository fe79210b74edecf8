// SPDX-License-Identifier: MIT
// The device side of a measurement: the GPU's facts, rotating sets of input buffers (so
// repeated runs cannot be served from L2), and timing with device events.
#pragma once

#include "gemm_data.hpp"

#include "ck_tile/host/device_memory.hpp"
#include "ck_tile/host/hip_runtime.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cktile_profiler {

struct device_info
{
    int ordinal = 0;
    std::string name, target;
    int compute_units        = 0;
    std::size_t l2_bytes     = 0;
    std::size_t total_memory = 0;
    /// Reads the properties of `ordinal`; throws ck_tile::hip_error when the runtime fails.
    static device_info query(int ordinal);
};

/// Buffer sets for one problem: set s holds A, B, C (when read), the bias (when present) and
/// D, all device memory. Set 0 holds `inputs`; the others are device copies of it (the data
/// matters for verification, only the addresses for the cache).
class gemm_buffers
{
    public:
    /// Enough sets that together they exceed twice the L2 size (so a set is evicted before it
    /// is used again), but no more than `max_sets` and no more than half the free memory
    /// allows. Throws ck_tile::hip_error (out of memory) when not even one set fits.
    gemm_buffers(const cktile_gemm_problem_t& p, const gemm_host_inputs& inputs,
                 std::size_t l2_bytes, std::size_t max_sets = 64);
    std::size_t sets() const { return sets_.size(); }
    std::size_t bytes_per_set() const { return set_bytes_; }
    /// Device pointers of set `s` for cktile_gemm_run (c/bias NULL when unused).
    cktile_gemm_args_t args(std::size_t s) const;
    /// Fills D of set `s` with poison_byte (synchronously).
    void poison_d(std::size_t s) const;
    /// D of set `s` copied to the host (synchronously).
    std::vector<unsigned char> read_d(std::size_t s) const;

    private:
    struct set
    {
        ck_tile::DeviceMem a, b, c, bias, d, d0, d1;
    };
    gemm_geometry geo_;
    std::vector<set> sets_;
    std::size_t set_bytes_ = 0;
};

/// Median and spread of per-run device times.
struct timing
{
    double median_ms = 0, min_ms = 0, max_ms = 0;
    /// The same number of runs enqueued back to back between one pair of events, per run:
    /// what a stream of launches sees, without the event pair between kernels.
    double back_to_back_ms = 0;
    int runs               = 0;
    std::string error; ///< non-empty: a launch or the runtime failed; times are meaningless
};

/// One launch on `stream` using buffer set `set`; returns "" or what failed.
using launch_fn = std::function<std::string(std::size_t set, hipStream_t stream)>;

/// Device events around each timed run: first untimed runs for warmup_busy_ms(0, the clocks may
/// be low) and then steady_ms of device time (clock_warmup.hpp); `warmup` untimed runs, then
/// `iters` runs
/// each bracketed by its own pair of events, all enqueued without waiting; one synchronisation at
/// the end. Each launch uses the next buffer set, so consecutive runs touch different buffers.
/// Reports the median of the per-run times, then times `iters` more runs with one pair of events
/// around them all.
timing time_launches(const launch_fn& launch, std::size_t sets, int warmup, int iters,
                     hipStream_t stream, double steady_ms = 0);

/// time_launches for several launches (the rows of one problem) at once, in rounds (see
/// timing_rounds.hpp): the clock warm-up and the `warmup` runs go through the rows in turn;
/// then in each of effective_rounds(iters, rounds) rounds every row, in round_order, runs
/// untimed for steady_ms of device time, then its round_runs share of `iters` with a pair of
/// events each, then as many back to back. The
/// buffer set advances with every launch of any row. A launch that fails ends its own row's
/// measurement (its timing's error), not the others'; an error the device reports ends all.
/// @return one timing per launch, in the order given.
std::vector<timing> time_launches_in_rounds(const std::vector<launch_fn>& launches,
                                            std::size_t sets, int warmup, int iters, int rounds,
                                            hipStream_t stream, double steady_ms = 0);

} // namespace cktile_profiler
