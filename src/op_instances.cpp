// SPDX-License-Identifier: MIT
#include "op_instances.hpp"

#include "api_error.hpp"
#include "gemm_problem.hpp"
#include "logging.hpp"

#include "ck_tile/host/hip_runtime.hpp"

#include <cstdio>

namespace cktile::detail {

namespace {
constexpr std::size_t reason_capacity = 256;
}

std::string why_not(const cktile_kernel_instance_t& r, const op_family& f, const void* p,
                    const void* args)
{
    if(r.info.op_kind != f.kind || !r.op_supports)
        return std::string("a ") + (r.info.op_kind == CKTILE_OP_GEMM ? "GEMM" : "different") +
               " instance, not a " + f.what + " one";
    char reason[reason_capacity] = {};
    if(r.op_supports(p, args, reason, sizeof(reason)) == 0)
        return {};
    return reason[0] ? reason : "not supported (no reason given)";
}

const cktile_kernel_instance_t& require_instance(const handle_state& s, std::uint64_t id)
{
    if(id == CKTILE_INSTANCE_AUTO)
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "id 0 is CKTILE_INSTANCE_AUTO; this function needs an instance id");
    const auto* r = s.library->find(id);
    if(!r)
        fail(CKTILE_STATUS_NOT_FOUND,
             "no instance with id " + std::to_string(id) + " for " + s.target);
    return *r;
}

std::vector<const cktile_kernel_instance_t*> supporting(const handle_state& s, const op_family& f,
                                                        const void* p, const void* args)
{
    std::vector<const cktile_kernel_instance_t*> out;
    std::string reasons;
    int typed = 0;
    for(std::size_t i = 0; i < s.library->size(); ++i)
    {
        const auto& r = s.library->at(i);
        if(r.info.op_kind != f.kind)
            continue;
        const std::string why = why_not(r, f, p, args);
        if(why.empty())
            out.push_back(&r);
        else if(r.info.a_type == f.in_type && r.info.d_type == f.out_type && typed++ < 4)
            reasons += std::string("; ") + r.info.name + ": " + why;
    }
    if(out.empty())
        fail(CKTILE_STATUS_NOT_SUPPORTED,
             "no " + std::string(f.what) + " instance in the " + s.target +
                 " kernel library runs this problem" +
                 (typed == 0 ? std::string(" (none has types ") + datatype_name(f.in_type) + "->" +
                                   datatype_name(f.out_type) + ")"
                             : reasons));
    return out;
}

void check_select_mode(cktile_select_mode_t mode, const void* problem, problem_text key)
{
    if(raw_enum(mode) < CKTILE_SELECT_DEFAULT || raw_enum(mode) > CKTILE_SELECT_TUNING_DB)
        fail(CKTILE_STATUS_INVALID_ARGUMENT,
             "mode = " + std::to_string(raw_enum(mode)) + " is not a cktile_select_mode_t");
    if(mode == CKTILE_SELECT_TUNING_DB)
        fail(CKTILE_STATUS_NOT_FOUND,
             "the tuning database holds GEMM problems only; none for " + key(problem));
}

cktile_status_t report_support(const cktile_kernel_instance_t& r, const std::string& why,
                               char* reason, size_t reason_size)
{
    if(why.empty())
        return CKTILE_STATUS_SUCCESS;
    if(reason && reason_size > 0)
        std::snprintf(reason, reason_size, "%s", why.c_str());
    fail(CKTILE_STATUS_NOT_SUPPORTED, std::string(r.info.name) + ": " + why);
}

void run_on_device(const handle_state& s, const cktile_kernel_instance_t& r, const void* p,
                   const void* args, void* stream, problem_text key)
{
    if(s.device < 0)
        fail(CKTILE_STATUS_NO_DEVICE,
             "the handle was created for target " + s.target +
                 " without a device (cktile_create_for_target); use cktile_create to run");
    int previous = -1;
    if(hipGetDevice(&previous) != hipSuccess)
        previous = -1;
    if(previous != s.device)
        if(const hipError_t e = hipSetDevice(s.device); e != hipSuccess)
            fail(CKTILE_STATUS_RUNTIME_ERROR, "cannot make device " + std::to_string(s.device) +
                                                  " current: " + hipGetErrorString(e));
    if(logger().should_log(spdlog::level::info))
        logger().info("{} on device {} with {}", key(p), s.device, r.info.name);
    char message[reason_capacity] = {};
    const int status              = r.op_run(p, args, stream, message, sizeof(message));
    if(previous >= 0 && previous != s.device)
        (void)hipSetDevice(previous);
    if(status != CKTILE_STATUS_SUCCESS)
        fail(static_cast<cktile_status_t>(status), std::string(r.info.name) + ": " + message);
}

} // namespace cktile::detail
