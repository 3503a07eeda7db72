// Hold-out: measurements left out of the fit (augur fit/predict/plot --exclude), so that a model can be
// checked where it was not fitted. A measurement is held out when its parameters have every value one
// exclusion gives ("N=4194304", "N=1024,P=4"). And the fit of every selected series of a dataset, each
// with its hold-out, that those commands share.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "model/dataset.hpp"
#include "model/model.hpp"

namespace augur::model {

// One exclusion: parameter values that together leave a measurement out.
struct Exclusion {
  std::map<std::string, double> values;  // parameter name -> value
  std::string origin;                    // what errors are reported under ("--exclude N=1024")
};

struct HeldOutSplit {
  Series kept;                        // the series without the held-out measurements
  std::vector<Measurement> held_out;  // in the order of the series
  std::vector<bool> matched;          // per exclusion: it held out at least one measurement
};

// Splits `series` by `exclusions`. Throws core::InputError (under the exclusion's origin) when an exclusion
// names a parameter the series lacks.
[[nodiscard]] HeldOutSplit hold_out(const Series& series, const std::vector<Exclusion>& exclusions);

// The aggregated measured value at `point` (in the order of model.parameters) among the measurements the
// model was fitted to and the held-out ones; NaN when there is none.
[[nodiscard]] double measured_at(const SeriesModel& model, const std::vector<Measurement>& held_out,
                                 const std::vector<double>& point, Aggregate how);

// One series of a dataset, modeled (or the reason it could not be).
struct FittedSeries {
  SeriesModel model;
  std::string error;  // non-empty when this series could not be modeled
  std::string region;
  std::string metric;
  std::vector<Measurement> held_out;  // measurements left out of the fit by the exclusions
};

struct DatasetFit {
  std::vector<FittedSeries> series;  // in the order of the dataset
  std::vector<bool> matched;         // per exclusion: it held out a measurement of some series
};

// Models each series of `dataset` whose region and metric are `region` and `metric` (empty: any), without
// the measurements `exclusions` hold out. A series the method cannot fit gets its `error`; a
// core::InputError (a bad formula, an exclusion of a parameter a series lacks) is thrown, and so is what
// options.search.interruption throws (Ctrl-C: the search stops at its next hypothesis). `progress`, if
// set, is called on the calling thread before the first series and after each, with the series modeled so far
// and their number.
[[nodiscard]] DatasetFit fit_dataset(const Dataset& dataset, const std::string& region, const std::string& metric,
                                     const std::vector<Exclusion>& exclusions, const ModelOptions& options,
                                     const std::function<void(int done, int total)>& progress = {});

}  // namespace augur::model
