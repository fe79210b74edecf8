// SPDX-License-Identifier: MIT
// enumerate and select: questions the C API answers without running anything, so they work
// on a handle for a named target with no GPU present.
#include "progress.hpp"
#include "session.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <vector>

namespace cktile_profiler {

namespace {

const std::vector<std::string> problem_columns = {"problem", "shape", "types", "layouts",
                                                  "epilogue"};

std::vector<std::string> with_problem_columns(std::initializer_list<std::string> rest)
{
    std::vector<std::string> c = problem_columns;
    c.insert(c.end(), rest.begin(), rest.end());
    return c;
}

/// "" when instance `id` runs `p`, else the C API's reason.
std::string support_reason(cktile_handle_t h, std::uint64_t id, const cktile_gemm_problem_t& p,
                           const cktile_gemm_args_t* args)
{
    char reason[512]         = {};
    const cktile_status_t st = cktile_gemm_supports(h, id, &p, args, reason, sizeof(reason));
    if(st == CKTILE_STATUS_SUCCESS)
        return "";
    return reason[0] ? reason : cktile_get_last_error_message();
}

int compute_units(cktile_handle_t h)
{
    cktile_handle_info_t hi{};
    hi.struct_size = sizeof(hi);
    cktile_get_handle_info(h, &hi);
    return std::max(1, hi.compute_unit_count);
}

} // namespace

int run_enumerate(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
                  cktile_handle_t h, report& rep, std::ostream& err)
{
    bool vendor_named                               = false;
    const std::vector<cktile_instance_info_t> insts = chosen_instances(h, s, vendor_named);
    rep.table_columns                               = with_problem_columns(
                                      {"instance", "supported", "reason", "tile", "threads", "alignment", "general", "replay"});
    progress_bar bar(err, problems.size() * insts.size(), s.progress);
    for(std::size_t pi = 0; pi < problems.size(); ++pi)
    {
        const cktile_gemm_problem_t& p = problems[pi];
        std::size_t supported          = 0;
        for(const cktile_instance_info_t& info : insts)
        {
            bar.step(shape_text(p) + " " + info.name);
            record r;
            add_problem_fields(r, pi, p);
            r.set("provider", std::string("cktile"));
            add_instance_fields(r, info);
            const std::string why = support_reason(h, info.id, p, nullptr);
            r.set("supported", why.empty());
            r.set("reason", why);
            r.set("replay", replay_command(s, p, info.name));
            supported += why.empty();
            rep.rows.push_back(std::move(r));
        }
        record sum;
        add_problem_fields(sum, pi, p);
        sum.set("supported_instances", static_cast<std::int64_t>(supported));
        sum.set("instances", static_cast<std::int64_t>(insts.size()));
        sum.set("text", "problem " + std::to_string(pi) + " " + shape_text(p) + " " +
                            types_text(p) + " " + layouts_text(p) + ": " +
                            std::to_string(supported) + " of " + std::to_string(insts.size()) +
                            " instances support it");
        rep.summary.push_back(std::move(sum));
    }
    return exit_ok;
}

int run_select(const settings& s, const std::vector<cktile_gemm_problem_t>& problems,
               cktile_handle_t h, report& rep, std::ostream& err)
{
    if(!s.tuning_db.empty())
    {
        std::size_t loaded = 0;
        if(cktile_tuning_db_load(h, s.tuning_db.c_str(), &loaded) != CKTILE_STATUS_SUCCESS)
        {
            err << "cktile-profiler: cannot load the tuning database " << s.tuning_db << ": "
                << cktile_get_last_error_message() << "\n";
            return exit_setup;
        }
        rep.notes.push_back("loaded " + std::to_string(loaded) + " tuning entries from " +
                            s.tuning_db);
    }
    const std::vector<cktile_instance_info_t> all = list_instances(h);
    const int cus                                 = compute_units(h);
    rep.table_columns                             = with_problem_columns(
                                    {"selection", "instance", "tile", "tiles", "waves", "candidates", "why", "replay"});
    progress_bar bar(err, problems.size(), s.progress);
    for(std::size_t pi = 0; pi < problems.size(); ++pi)
    {
        const cktile_gemm_problem_t& p = problems[pi];
        bar.step(shape_text(p));
        // The candidates, and why the rest are not (the heuristic chooses among the former).
        std::string candidates, rejected;
        std::size_t n_candidates = 0;
        for(const cktile_instance_info_t& info : all)
        {
            const std::string why = support_reason(h, info.id, p, nullptr);
            if(why.empty())
            {
                candidates += (candidates.empty() ? "" : ";") + std::string(info.name);
                ++n_candidates;
            }
            else if(gemm_types_match(info, p))
                rejected += (rejected.empty() ? "" : "; ") + std::string(info.name) + ": " + why;
        }

        // The model's order of the candidates, each with its time over the first's.
        std::string ranking;
        std::size_t n_ranked = 0;
        if(cktile_gemm_select_ranked(h, &p, nullptr, SIZE_MAX, nullptr, 0, &n_ranked) ==
           CKTILE_STATUS_SUCCESS)
        {
            std::vector<cktile_gemm_candidate_t> ranked(n_ranked);
            if(!ranked.empty())
                ranked[0].struct_size = sizeof(cktile_gemm_candidate_t);
            if(cktile_gemm_select_ranked(h, &p, nullptr, SIZE_MAX, ranked.data(), ranked.size(),
                                         &n_ranked) == CKTILE_STATUS_SUCCESS)
                for(const cktile_gemm_candidate_t& c : ranked)
                {
                    cktile_instance_info_t info{};
                    info.struct_size = sizeof(info);
                    if(cktile_get_instance_info_by_id(h, c.id, &info) != CKTILE_STATUS_SUCCESS)
                        continue;
                    char time[32];
                    std::snprintf(time, sizeof(time), " (%.3f)", c.relative_time);
                    ranking += (ranking.empty() ? "" : "; ") + std::string(info.name) + time;
                }
        }

        std::uint64_t db_id = 0;
        const bool db_has   = cktile_gemm_select(h, &p, nullptr, CKTILE_SELECT_TUNING_DB, &db_id) ==
                            CKTILE_STATUS_SUCCESS;
        std::vector<std::pair<std::string, cktile_select_mode_t>> modes = {
            {"heuristic", CKTILE_SELECT_HEURISTIC}, {"default", CKTILE_SELECT_DEFAULT}};
        if(!s.tuning_db.empty())
            modes.emplace_back("tuning_db", CKTILE_SELECT_TUNING_DB);
        for(const auto& [label, mode] : modes)
        {
            record r;
            add_problem_fields(r, pi, p);
            r.set("provider", std::string("cktile"));
            r.set("selection", label);
            r.set("candidates", static_cast<std::int64_t>(n_candidates));
            r.set("instances", static_cast<std::int64_t>(all.size()));
            r.set("compute_units", static_cast<std::int64_t>(cus));
            std::uint64_t id = 0;
            if(cktile_gemm_select(h, &p, nullptr, mode, &id) != CKTILE_STATUS_SUCCESS)
            {
                r.set("status", std::string("none"));
                r.set("why", std::string(cktile_get_last_error_message()));
                r.set("replay", replay_command(s, p, ""));
                rep.rows.push_back(std::move(r));
                continue;
            }
            cktile_instance_info_t info{};
            info.struct_size = sizeof(info);
            cktile_get_instance_info_by_id(h, id, &info);
            add_instance_fields(r, info);
            r.set("status", std::string("ok"));
            // The model's inputs for this pick: output tiles and the waves they make, over the
            // statement the instance runs (M and N exchanged where it runs the transpose).
            int transposed = 0;
            if(cktile_gemm_runs_transposed(h, id, &p, &transposed) != CKTILE_STATUS_SUCCESS)
                transposed = 0;
            const std::int64_t rows = transposed ? p.n : p.m, cols = transposed ? p.m : p.n;
            const std::int64_t tiles = ((rows + info.tile_m - 1) / info.tile_m) *
                                       ((cols + info.tile_n - 1) / info.tile_n) * p.batch_count;
            if(transposed)
                r.set("tile", tile_text(info) + " of D^T");
            r.set("tiles", tiles);
            r.set("waves", double(tiles) / double(cus));
            std::string why;
            if(mode == CKTILE_SELECT_HEURISTIC)
                why = "lowest modelled time of " + std::to_string(n_candidates) +
                      " supporting instances (tiles, waves over " + std::to_string(cus) +
                      " compute units, occupancy)";
            else if(mode == CKTILE_SELECT_DEFAULT)
                why = db_has && db_id == id ? "the tuning database's entry for this problem"
                                            : "no tuning entry for this problem: the heuristic";
            else
                why = "the entry in " + s.tuning_db;
            r.set("why", why);
            r.set("candidate_list", candidates);
            r.set("ranking", ranking);
            r.set("rejected", rejected);
            r.set("replay", replay_command(s, p, ""));
            rep.rows.push_back(std::move(r));
        }
    }
    return exit_ok;
}

} // namespace cktile_profiler
