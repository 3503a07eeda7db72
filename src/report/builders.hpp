// The page of each kind of input (report.hpp): each adds its summary lines and sections to the page.
// Private to augur_report.
#pragma once

#include <string>

#include "report/page.hpp"
#include "report/report.hpp"
#include "view.hpp"

namespace augur::report {

// What a builder adds to: the page, and the input's name to put before its headings when there are several.
struct Part {
  Page& page;
  std::string prefix;  // "" or "FILE: "
  Section& section(const std::string& heading) {
    page.sections.push_back(Section{prefix + heading, {}});
    return page.sections.back();
  }
  void summary(const std::string& line) { page.summary.push_back(prefix + line); }
};

void add_self_analysis(Part& part, const View& report);  // self_analysis and run
void add_speedup(Part& part, const View& speedup);
void add_fit(Part& part, const View& fit);
void add_predict(Part& part, const View& predict);
void add_couple(Part& part, const View& couple);
void add_tasks(Part& part, const View& tasks, bool simulated);  // tspp, sim
void add_cache(Part& part, const View& cache, int which);        // 0 sim, 1 curve, 2 predict
void add_actors(Part& part, const View& actors);
void add_hierarchy_simulate(Part& part, const View& hierarchy);
void add_hierarchy_sweep(Part& part, const View& sweep);
void add_manager_simulate(Part& part, const View& manager);
void add_manage(Part& part, const View& manage);
void add_database(Part& part, const View& database);
// A Chrome trace (object or array form); `folded`: its events folded while parsing (null: read from `trace`).
void add_trace(Part& part, const View& trace, const TraceData* folded);
// The charts of several inputs of one kind (page_compare.cpp): their sections and summary lines.
void add_comparisons(Page& page, const std::vector<Input>& inputs);

// Shared pieces.
[[nodiscard]] std::string percent(double fraction, int significant = 3);  // 0.8 → "80%"
// The strings of an array joined by blanks (a command and its arguments); a string as it is.
[[nodiscard]] std::string joined_words(const View& words);
// A table of the object's scalar members (name, value), for the settings of a run.
[[nodiscard]] Table scalar_table(const View& object, const std::string& caption);
// A table of an array of objects: one column per scalar member of the first (in order).
[[nodiscard]] Table rows_table(const View& array, const std::string& caption);

}  // namespace augur::report
