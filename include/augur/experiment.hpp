// C++ helpers over the CALL experiments of include/augur/augur.h: a scope guard that ends an
// experiment instance when the scope it was begun in ends, however it ends (return, exception).
//
//   static const int fft = augur_experiment_declare("fft", "fft[0] + fft[1]*(N/P)*log(N/P)", "N,P");
//   {
//     augur::ExperimentScope scope(fft, {double(N), double(P)});   // values in the declared order
//     transform(data, N);
//   }                                                              // the record is made here
#pragma once

#include <initializer_list>

#include "augur/augur.h"

namespace augur {

class ExperimentScope {
public:
  // Begins an instance of `experiment` with the variables' values in their declared order.
  // A count that is not the experiment's number of variables is reported and the instance not recorded.
  ExperimentScope(int experiment, std::initializer_list<double> values) noexcept : experiment_(experiment) {
    augur_experiment_begin_n(experiment_, static_cast<int>(values.size()), values.size() == 0 ? nullptr : values.begin());
  }
  // Begins an instance of an experiment without variables, or with values in an array.
  explicit ExperimentScope(int experiment, const double* values = nullptr) noexcept : experiment_(experiment) {
    augur_experiment_begin(experiment_, values);
  }
  ~ExperimentScope() { augur_experiment_end(experiment_); }

  ExperimentScope(const ExperimentScope&) = delete;
  ExperimentScope& operator=(const ExperimentScope&) = delete;

private:
  int experiment_;
};

}  // namespace augur
