// augur cache predict's outputs: the table, JSON and CSV (docs/cache.md, "The stochastic simulator").
#include <nlohmann/json.hpp>
#include <sstream>

#include "cache_predict.hpp"
#include "core/json_text.hpp"
#include "core/table.hpp"

namespace augur::cli {
namespace {

namespace cache = sim::cache;
using core::format_number;

// The statement of a reference as written (the line without its indentation and comment).
std::string statement_text(const core::SourceText& source, long line) {
  const std::string& text = source.text();
  std::size_t start = 0;
  for (long current = 1; current < line && start != std::string::npos; ++current) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start == std::string::npos || start >= text.size()) return "";
  std::size_t end = std::min(text.find('\n', start), text.find('#', start));
  if (end == std::string::npos) end = text.size();
  std::string statement = text.substr(start, end - start);
  const std::size_t first = statement.find_first_not_of(" \t\r");
  const std::size_t last = statement.find_last_not_of(" \t\r");
  return first == std::string::npos ? "" : statement.substr(first, last - first + 1);
}

std::vector<const cache::Reference*> references_of(const cache::Model& model) {
  std::vector<const cache::Reference*> references(model.reference_count, nullptr);
  const auto walk = [&references](const auto& self, const cache::Block& block) -> void {
    for (const cache::Statement& statement : block) {
      if (const auto* reference = std::get_if<cache::Reference>(&statement.node)) {
        references[reference->id] = reference;
      } else if (const auto* loop = std::get_if<cache::Loop>(&statement.node)) {
        self(self, loop->body);
      } else if (const auto* branch = std::get_if<cache::Branch>(&statement.node)) {
        for (const cache::BranchArm& arm : branch->arms) self(self, arm.body);
      }
    }
  };
  for (const cache::Procedure& procedure : model.procedures) walk(walk, procedure.body);
  return references;
}

std::string location(const cache::Reference& reference) {
  return reference.where.file + ":" + std::to_string(reference.where.line);
}

std::string method_text(const CachePredictOptions& options) {
  if (options.method == "stochastic") return "stochastic (loops " + options.loops + ")";
  if (options.method == "statstack") return "statstack (sampling 1 in " + format_number(1.0 / options.sample_rate, 0) + ")";
  return "exact (the expanded trace, seed " + std::to_string(options.seed) + ")";
}

double rate(const std::pair<double, double>& counts) { return counts.first > 0.0 ? counts.second / counts.first : 0.0; }

std::string size_text(std::uint64_t bytes) {
  if (bytes % (1U << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes % (1U << 10) == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes);
}

std::string render_levels(const PredictPoint& point) {
  core::TextTable table({"Level", "Size", "Assoc", "Line", "Policy", "Accesses", "Misses", "Miss rate"});
  for (std::size_t k = 0; k < point.levels.size(); ++k) {
    const cache::CacheSpec& level = point.levels[k];
    table.add_row({level.name, size_text(level.size), level.fully_associative ? "full" : std::to_string(level.assoc),
                   std::to_string(level.line), cache::policy_name(level.policy), format_number(point.counts[k].first, 0),
                   format_number(point.counts[k].second, 2), format_number(100.0 * rate(point.counts[k]), 2) + "%"});
  }
  return table.render();
}

std::string render_references(const CachePredictReport& report, const PredictPoint& point) {
  std::vector<std::string> header{"Reference", "Statement", "Accesses"};
  for (const cache::CacheSpec& level : point.levels) header.push_back("Hit P(" + level.name + ")");
  core::TextTable table(header);
  const std::vector<const cache::Reference*> references = references_of(report.model);
  for (std::size_t r = 0; r < references.size(); ++r) {
    if (references[r] == nullptr) continue;
    const cache::StochasticReference& result = point.stochastic->references[r];
    std::vector<std::string> row{location(*references[r]), statement_text(report.source, references[r]->where.line),
                                 format_number(result.accesses, 0)};
    for (std::size_t k = 0; k < point.levels.size(); ++k) row.push_back(format_number(result.hit_probability(k), 4));
    table.add_row(row);
  }
  return table.render();
}

}  // namespace

std::string render_predict_table(const CachePredictReport& report) {
  std::ostringstream out;
  const CachePredictOptions& options = report.options;
  out << "Model " << options.model << ": " << report.model.reference_count << " references, method "
      << method_text(options) << "\n\n";
  if (report.points.size() == 1) {
    const PredictPoint& point = report.points.front();
    if (point.stochastic) out << render_references(report, point) << "\n";
    out << render_levels(point);
    out << "\nTime: " << format_number(point.seconds * 1e3, 3) << " ms\n";
    return out.str();
  }
  std::vector<std::string> header{"Size"};
  for (const cache::CacheSpec& level : report.points.front().levels) header.push_back("Miss rate (" + level.name + ")");
  header.push_back("Time (ms)");
  core::TextTable table(header);
  for (const PredictPoint& point : report.points) {
    std::vector<std::string> row{size_text(point.levels.front().size)};
    for (const auto& counts : point.counts) row.push_back(format_number(100.0 * rate(counts), 2) + "%");
    row.push_back(format_number(point.seconds * 1e3, 3));
    table.add_row(row);
  }
  out << table.render();
  return out.str();
}

namespace {

void add_point(nlohmann::ordered_json& json, const CachePredictReport& report, const PredictPoint& point) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < point.levels.size(); ++k) {
    const cache::CacheSpec& level = point.levels[k];
    levels.push_back({{"name", level.name}, {"size", level.size}, {"assoc", level.assoc}, {"line", level.line},
                      {"policy", cache::policy_name(level.policy)}, {"accesses", point.counts[k].first},
                      {"misses", point.counts[k].second}, {"miss_rate", rate(point.counts[k])}});
  }
  json["levels"] = std::move(levels);
  if (point.stochastic) {
    nlohmann::ordered_json references = nlohmann::ordered_json::array();
    const std::vector<const cache::Reference*> all = references_of(report.model);
    for (std::size_t r = 0; r < all.size(); ++r) {
      if (all[r] == nullptr) continue;
      const cache::StochasticReference& result = point.stochastic->references[r];
      nlohmann::ordered_json hits = nlohmann::ordered_json::array();
      for (std::size_t k = 0; k < point.levels.size(); ++k) hits.push_back(result.hit_probability(k));
      references.push_back({{"id", r}, {"location", location(*all[r])},
                            {"statement", statement_text(report.source, all[r]->where.line)},
                            {"accesses", result.accesses}, {"hit_probability", std::move(hits)}});
    }
    json["references"] = std::move(references);
    json["simulated_accesses"] = point.stochastic->simulated_accesses;
  }
  if (report.options.method == "statstack") json["samples"] = point.samples;
  json["seconds"] = point.seconds;
}

}  // namespace

std::string render_predict_json(const CachePredictReport& report) {
  nlohmann::ordered_json json;
  json["model"] = report.options.model;
  json["method"] = report.options.method;
  if (report.options.method == "stochastic") json["loops"] = report.options.loops;
  if (report.points.size() == 1) {
    add_point(json, report, report.points.front());
  } else {
    nlohmann::ordered_json points = nlohmann::ordered_json::array();
    for (const PredictPoint& point : report.points) {
      nlohmann::ordered_json entry{{"size", point.levels.front().size}};
      add_point(entry, report, point);
      points.push_back(std::move(entry));
    }
    json["points"] = std::move(points);
  }
  return core::json_text(json, 2) + "\n";
}

std::string render_predict_csv(const CachePredictReport& report) {
  std::ostringstream out;
  out << "size,level,accesses,misses,miss_rate,seconds\n";
  for (const PredictPoint& point : report.points) {
    for (std::size_t k = 0; k < point.levels.size(); ++k) {
      out << point.levels.front().size << ',' << point.levels[k].name << ',' << core::format_shortest(point.counts[k].first)
          << ',' << core::format_shortest(point.counts[k].second) << ',' << core::format_shortest(rate(point.counts[k]))
          << ',' << core::format_shortest(point.seconds) << '\n';
    }
  }
  return out.str();
}

}  // namespace augur::cli
