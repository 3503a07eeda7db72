// Measurements for the model (src/model/dataset.cpp), in the format chosen at build time
// (AUGUR_FUZZ_DATASET_FORMAT: Csv, ExtraPText, JsonLines, or Automatic, which detects it): parse, then
// check what the reader promises of a dataset (docs/formats.md): every series has points of its
// parameters' dimension, each with at least one finite value.
#include <cmath>
#include <string>

#include "fuzz_common.hpp"
#include "model/dataset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace augur;
  if (size > fuzz::max_input) return 0;
  const std::string text = fuzz::text_of(data, size);
  model::ReadOptions options;
  options.format = model::InputFormat::AUGUR_FUZZ_DATASET_FORMAT;
  model::Dataset dataset;
  try {
    dataset = model::parse_dataset("input", text, options);
  } catch (const core::InputError&) {
    return 0;
  }
  for (const model::Series& series : dataset.series) {
    fuzz::expect(!series.measurements.empty(), "a series without measurements", series.region);
    for (const model::Measurement& measurement : series.measurements) {
      fuzz::expect(measurement.point.size() == series.parameters.size(), "a point of the wrong dimension",
                   series.region);
      fuzz::expect(!measurement.values.empty(), "a point without values", series.region);
      for (const double value : measurement.values)
        fuzz::expect(std::isfinite(value), "a value that is not finite", series.region);
      for (const model::Aggregate how :
           {model::Aggregate::Mean, model::Aggregate::Median, model::Aggregate::Minimum, model::Aggregate::Maximum})
        (void)model::aggregate(measurement.values, how);
    }
  }
  return 0;
}
