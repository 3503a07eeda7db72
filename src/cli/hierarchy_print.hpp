// The outputs of augur hierarchy simulate: the human tables and the JSON (docs/hierarchy.md, "Outputs").
#pragma once

#include <string>

#include "hierarchy_command.hpp"

namespace augur::cli {

[[nodiscard]] std::string hierarchy_table(const HierarchyOptions& cli, const sim::hierarchy::Machine& machine, const sim::hierarchy::Summary& summary);
[[nodiscard]] std::string hierarchy_json(const HierarchyOptions& cli, const sim::hierarchy::Machine& machine, const sim::hierarchy::Summary& summary);

}  // namespace augur::cli
