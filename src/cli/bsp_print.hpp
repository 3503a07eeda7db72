// The output of augur bsp (docs/bsp.md): tables, or JSON with --json. Pure: the text from the trace,
// the machine parameters and the models' comparison.
#pragma once

#include <optional>
#include <string>

#include "bsp/bsp.hpp"

namespace augur::cli {

// Where g and L came from, for the report.
struct BspParameterSource {
  bsp::CostParameters parameters;
  std::optional<bsp::HRelationFit> fit;  // set when fitted to h-relation records
  std::string records;                   // the records' path
  std::string experiment;
};

// Everything the report prints, computed once.
struct BspReport {
  const bsp::Trace& trace;
  const BspParameterSource& source;
  const bsp::Comparison& comparison;
};

// The parameters, the per-rank table and, with `supersteps`, a table per machine and superstep.
[[nodiscard]] std::string render_bsp_table(const BspReport& report, bool supersteps);
[[nodiscard]] std::string render_bsp_json(const BspReport& report, bool supersteps);

}  // namespace augur::cli
