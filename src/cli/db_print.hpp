// The output of augur db (docs/db.md): tables, or JSON with --json. Pure: the text from the store's answers.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "augur/coupling.hpp"
#include "store/store.hpp"

namespace augur::cli {

// augur db list [runs|machines|applications|kernels]; `location` names the database when nothing is stored.
[[nodiscard]] std::string render_runs(const std::vector<store::RunSummary>& runs, const std::string& location, bool json);
[[nodiscard]] std::string render_machines(const std::vector<store::MachineSummary>& machines, const std::string& location,
                                          bool json);
[[nodiscard]] std::string render_applications(const std::vector<store::ApplicationSummary>& applications,
                                              const std::string& location, bool json);
[[nodiscard]] std::string render_kernels(const std::vector<store::KernelSummary>& kernels, const std::string& location,
                                         bool json);
// augur db info.
[[nodiscard]] std::string render_description(const store::StoreDescription& description, bool json);
// augur db delete: the run that was deleted.
[[nodiscard]] std::string render_deleted(const store::RunSummary& run, const std::string& location, bool json);
// augur db add: the runs read from `files` (in order) and what storing them gave.
[[nodiscard]] std::string render_added(const std::vector<std::pair<coupling::Run, std::string>>& runs,
                                       const std::vector<std::string>& files, const std::vector<store::AddedRun>& added,
                                       const std::string& location, bool json);

}  // namespace augur::cli
