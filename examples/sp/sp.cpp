// sp.cpp - an SP-like mini-application: a scalar pentadiagonal ADI solver in the style of the NAS SP
// benchmark, divided into the kernels of the coupling seed (002, section 4.1), for augur's kernel coupling
// harness (include/augur/coupling_app.hpp, docs/coupling.md).
//
// The computation. Compressible flow on the unit cube, n x n x n points (spacing h = 1/(n-1)), five
// conserved components per point, u = (rho, rho*u, rho*v, rho*w, rho*E), fixed (Dirichlet) values on the
// boundary. The right-hand side is R(u) = forcing - div F(u) + nu * Laplacian(u) - dssp * D4(u): the Euler
// fluxes by central differences, an artificial viscosity and SP's fourth-order dissipation (its modified
// stencils next to the boundary included). The forcing is minus the other terms evaluated at a known smooth
// flow u_exact, so that u_exact is exactly the discrete steady state. u starts from u_exact plus a
// perturbation; every time step removes part of it (the verification below). One step, in delta form, is six
// kernels:
//
//   copy_faces  phase one of the right-hand side (SP's compute_rhs; on one node copy_faces is just that):
//               the auxiliary arrays rho_i, us, vs, ws, square, qs, speed, ainv from u, then
//               rhs = dt * (forcing + R(u)) in one sweep per direction;
//   txinvr      phase two: a block-diagonal (5 x 5 per point) transform of rhs, a point-implicit damping
//               of its acoustic and entropy parts by their local wave speeds;
//   x_solve     rhs <- T_x (I + dt L_x)^-1 T_x^-1 rhs: at every point rhs goes to the characteristic
//               variables of the x direction (T_x^-1), then along every x line one scalar pentadiagonal
//               system per characteristic family (wave speeds u, u, u, u+c, u-c: three systems share one
//               matrix, as SP's lhs, lhsp and lhsm) - the five diagonals built from convection, viscosity
//               and fourth-order dissipation, forward elimination, back substitution - and back (T_x);
//   y_solve     the same along y (lines of stride 5n doubles, swept a plane at a time);
//   z_solve     the same along z (stride 5n^2);
//   add         u += rhs.
//
// Differences from NPB SP. rhs stays in conservative variables between kernels (each solve transforms to
// and from its characteristic variables itself, where SP chains txinvr, ninvr, pinvr and tzetar), the
// viscous terms are a plain artificial viscosity, and the time step dt = 0.2 h / 1.5 is inside the
// explicit stability limit. Hence every kernel, and every chain of adjacent kernels, repeated on its own
// is still a bounded computation - a chain that contains add and copy_faces is a valid (less implicit)
// time step - which is what the coupling harness does between two resets. The solves and txinvr are
// contractions: repeated alone they drive rhs towards zero, so denormals are flushed to zero (FTZ/DAZ) and
// cannot slow a repeated kernel down; they never occur in a time loop.
//
// Verification: the root mean square of u - u_exact (the error) and of R(u) at the end; the run passes
// when both are finite and the error did not grow. The computation does not depend on the number of
// threads: 1 and 2 threads give the same norms, bit for bit.
//
// OpenMP: every kernel's outer loop is a worksharing loop (threads = processors).
//
// Usage: sp --help.
#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "augur/coupling_app.hpp"

namespace {

// ---- Physical and numerical constants ------------------------------------------------------------------

constexpr double kGamma = 1.4;
constexpr double kC2 = kGamma - 1.0;      // p = kC2 * (rho*E - square)
constexpr double kWaveSpeed = 1.5;        // bound on |V| + c of the flow (c ~ 1, |V| <= 0.4)
constexpr double kCfl = 0.2;              // dt = kCfl * h / kWaveSpeed
constexpr double kViscosity = 0.5;        // nu = kViscosity * kWaveSpeed * h
constexpr double kDissipation = 0.025;    // dssp = kDissipation * kWaveSpeed / h, so dt * dssp = 0.005
constexpr double kRelaxation = 0.5;       // txinvr: damping sigma = kRelaxation * dt * speed / h
constexpr double kPerturbation = 0.05;    // amplitude of the initial perturbation
constexpr double kDensityFloor = 1.0e-3;  // positivity floors: never reached by the time loop
constexpr double kPressureFloor = 1.0e-3;
constexpr double kPi = 3.14159265358979323846;

constexpr int kSizeMin = 4;
constexpr int kSizeMax = 160;
constexpr int kSizeDefault = 12;
constexpr long kIterationsMin = 1;
constexpr long kIterationsMax = 100000000;
constexpr long kIterationsDefault = 100;
constexpr long kCountDefault = 1000;

constexpr int kKernels = 6;
constexpr const char* kKernelNames[kKernels] = {"copy_faces", "txinvr", "x_solve", "y_solve", "z_solve", "add"};

// The smooth flow that is the steady state: density, velocity and pressure, then conserved variables.
void exact_solution(double x, double y, double z, double* q) {
  const double rho = 1.0 + 0.1 * std::sin(2.0 * kPi * x) * std::cos(kPi * y) + 0.05 * std::cos(kPi * z);
  const double vx = 0.2 + 0.1 * std::sin(kPi * y) * std::cos(kPi * z);
  const double vy = 0.1 * std::cos(kPi * x) * std::sin(kPi * z);
  const double vz = -0.1 + 0.05 * std::sin(kPi * (x + y));
  const double p = 1.0 / kGamma + 0.05 * std::cos(kPi * (x + y + z));
  q[0] = rho;
  q[1] = rho * vx;
  q[2] = rho * vy;
  q[3] = rho * vz;
  q[4] = p / kC2 + 0.5 * rho * (vx * vx + vy * vy + vz * vz);
}

// ---- The grid -------------------------------------------------------------------------------------------

struct Grid {
  int n = 0;
  std::size_t points = 0;  // n^3
  double h = 0, dt = 0, nu = 0, dssp = 0;

  // What the time loop touches (the footprint).
  std::vector<double> u, rhs, forcing;                             // 5 doubles per point, component fastest
  std::vector<double> rho_i, us, vs, ws, square, qs, speed, ainv;  // 1 per point
  std::vector<std::vector<double>> work;                           // per thread: the diagonals of a plane
  std::vector<double> d4;  // n x 5: the fourth-difference stencil of every row (SP's, boundary rows included)

  // Verification and the reset hook only.
  std::vector<double> exact;
  std::vector<double> saved_u, saved_rhs, saved_aux;

  explicit Grid(int size, int threads)
      : n(size),
        points(static_cast<std::size_t>(size) * static_cast<std::size_t>(size) * static_cast<std::size_t>(size)) {
    h = 1.0 / (n - 1);
    dt = kCfl * h / kWaveSpeed;
    nu = kViscosity * kWaveSpeed * h;
    dssp = kDissipation * kWaveSpeed / h;
    u.assign(5 * points, 0.0);
    rhs.assign(5 * points, 0.0);
    forcing.assign(5 * points, 0.0);
    for (auto* aux : aux_arrays()) aux->assign(points, 0.0);
    const std::size_t m = static_cast<std::size_t>(n - 2);
    work.assign(static_cast<std::size_t>(threads), std::vector<double>(15 * m * m, 0.0));
    fill_fourth_difference_table();
  }

  [[nodiscard]] std::size_t index(int i, int j, int k) const {
    return (static_cast<std::size_t>(k) * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)) *
               static_cast<std::size_t>(n) +
           static_cast<std::size_t>(i);
  }
  std::vector<std::vector<double>*> aux_arrays() { return {&rho_i, &us, &vs, &ws, &square, &qs, &speed, &ainv}; }

  // Bytes of the arrays the time loop touches.
  [[nodiscard]] double footprint_bytes() const {
    double doubles = static_cast<double>(points) * (5 + 5 + 5 + 8) + static_cast<double>(d4.size());
    for (const auto& w : work) doubles += static_cast<double>(w.size());
    return doubles * static_cast<double>(sizeof(double));
  }

 private:
  // SP's fourth difference along a line with n points, 1..n-2 inside: D4 = B^T B, B the second difference on
  // the inside points (the boundary values left out), which gives the rows [5 -4 1], [-4 6 -4 1],
  // [1 -4 6 -4 1], ..., [1 -4 6 -4], [1 -4 5]. Row i, column i+o (o = -2..2) at d4[5i + o + 2].
  void fill_fourth_difference_table() {
    d4.assign(5 * static_cast<std::size_t>(n), 0.0);
    auto b = [this](int c, int j) -> double {  // B(c, j): second difference centred on c, at column j
      if (c < 1 || c > n - 2 || j < 1 || j > n - 2) return 0.0;
      return j == c ? -2.0 : (j == c - 1 || j == c + 1) ? 1.0 : 0.0;
    };
    for (int i = 1; i <= n - 2; ++i) {
      for (int o = -2; o <= 2; ++o) {
        double s = 0.0;
        for (int c = i - 1; c <= i + 1; ++c) s += b(c, i) * b(c, i + o);
        d4[5 * static_cast<std::size_t>(i) + static_cast<std::size_t>(o + 2)] = s;
      }
    }
  }
};

// Fourth difference of the values v[0], v[stride], ... (one component along one grid line) at row i.
inline double fourth_difference(const double* v, std::ptrdiff_t stride, int i, int n, const double* table) {
  if (i >= 3 && i <= n - 4) {
    return v[(i - 2) * stride] - 4.0 * v[(i - 1) * stride] + 6.0 * v[i * stride] - 4.0 * v[(i + 1) * stride] +
           v[(i + 2) * stride];
  }
  const double* c = table + 5 * i;
  double s = 0.0;
  for (int o = -2; o <= 2; ++o) s += c[o + 2] * v[std::clamp(i + o, 0, n - 1) * stride];  // c = 0 off the inside
  return s;
}

// ---- copy_faces: phase one of the right-hand side ---------------------------------------------------------

// The auxiliary arrays from `solution`, then out = scale * (forcing + R(solution)) on the inside points
// (forcing may be null). The kernel copy_faces is compute_rhs(g, u, forcing, dt, rhs).
void compute_rhs(Grid& g, const double* solution, const double* forcing, double scale, double* out) {
  const int n = g.n;
  const std::ptrdiff_t sx = 5, sy = 5 * static_cast<std::ptrdiff_t>(n), sz = sy * n;
  const double half_over_h = 0.5 / g.h, nu_over_h2 = g.nu / (g.h * g.h), dssp = g.dssp;
  double* const rho_i = g.rho_i.data();
  double* const us = g.us.data();
  double* const vs = g.vs.data();
  double* const ws = g.ws.data();
  double* const square = g.square.data();
  double* const qs = g.qs.data();
  double* const speed = g.speed.data();
  double* const ainv = g.ainv.data();
  const double* const table = g.d4.data();

  // The flux difference F(p+1) - F(p-1) in the direction of velocity component d (1, 2, 3).
  auto flux_difference = [&](std::size_t pp, std::size_t pm, int d, double* df) {
    const double* a = solution + 5 * pp;
    const double* b = solution + 5 * pm;
    const double* vel_a = d == 1 ? us : d == 2 ? vs : ws;
    const double va = vel_a[pp], vb = vel_a[pm];
    const double pa = kC2 * (a[4] - square[pp]), pb = kC2 * (b[4] - square[pm]);
    df[0] = a[d] - b[d];
    for (int m = 1; m <= 3; ++m) df[m] = a[m] * va - b[m] * vb;
    df[d] += pa - pb;
    df[4] = (a[4] + pa) * va - (b[4] + pb) * vb;
  };

#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
          const std::size_t p = g.index(i, j, k);
          const double* q = solution + 5 * p;
          const double ri = 1.0 / std::max(q[0], kDensityFloor);
          rho_i[p] = ri;
          us[p] = q[1] * ri;
          vs[p] = q[2] * ri;
          ws[p] = q[3] * ri;
          const double sq = 0.5 * (q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) * ri;
          square[p] = sq;
          qs[p] = sq * ri;
          const double c = std::sqrt(kGamma * std::max(kC2 * (q[4] - sq), kPressureFloor) * ri);
          speed[p] = c;
          ainv[p] = 1.0 / c;
        }
      }
    }
    // xi direction (and the forcing)
#pragma omp for schedule(static)
    for (int k = 1; k < n - 1; ++k) {
      for (int j = 1; j < n - 1; ++j) {
        const double* line = solution + 5 * g.index(0, j, k);
        for (int i = 1; i < n - 1; ++i) {
          const std::size_t p = g.index(i, j, k);
          const double* c = solution + 5 * p;
          double df[5];
          flux_difference(p + 1, p - 1, 1, df);
          double* r = out + 5 * p;
          for (int m = 0; m < 5; ++m) {
            r[m] = (forcing != nullptr ? forcing[5 * p + m] : 0.0) - half_over_h * df[m] +
                   nu_over_h2 * (c[m + sx] - 2.0 * c[m] + c[m - sx]) -
                   dssp * fourth_difference(line + m, sx, i, n, table);
          }
        }
      }
    }
    // eta direction
#pragma omp for schedule(static)
    for (int k = 1; k < n - 1; ++k) {
      for (int j = 1; j < n - 1; ++j) {
        for (int i = 1; i < n - 1; ++i) {
          const std::size_t p = g.index(i, j, k);
          const double* c = solution + 5 * p;
          const double* line = solution + 5 * g.index(i, 0, k);
          double df[5];
          flux_difference(p + static_cast<std::size_t>(n), p - static_cast<std::size_t>(n), 2, df);
          double* r = out + 5 * p;
          for (int m = 0; m < 5; ++m) {
            r[m] += -half_over_h * df[m] + nu_over_h2 * (c[m + sy] - 2.0 * c[m] + c[m - sy]) -
                    dssp * fourth_difference(line + m, sy, j, n, table);
          }
        }
      }
    }
    // zeta direction, and the time step
#pragma omp for schedule(static)
    for (int k = 1; k < n - 1; ++k) {
      for (int j = 1; j < n - 1; ++j) {
        for (int i = 1; i < n - 1; ++i) {
          const std::size_t p = g.index(i, j, k);
          const double* c = solution + 5 * p;
          const double* line = solution + 5 * g.index(i, j, 0);
          const std::size_t nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
          double df[5];
          flux_difference(p + nn, p - nn, 3, df);
          double* r = out + 5 * p;
          for (int m = 0; m < 5; ++m) {
            r[m] = scale * (r[m] - half_over_h * df[m] + nu_over_h2 * (c[m + sz] - 2.0 * c[m] + c[m - sz]) -
                            dssp * fourth_difference(line + m, sz, k, n, table));
          }
        }
      }
    }
  }
}

void copy_faces(Grid& g) {
  compute_rhs(g, g.u.data(), g.forcing.data(), g.dt, g.rhs.data());
}

// ---- txinvr: phase two, the block-diagonal transform ----------------------------------------------------

// Per point, rhs in conservative variables -> (entropy, momentum perturbation, pressure): the acoustic part
// (momentum and pressure) is damped by 1 / (1 + sigma (|V| + c)), the entropy part by 1 / (1 + sigma |V|),
// then back to conservative variables. A contraction: its powers stay bounded.
void txinvr(Grid& g) {
  const int n = g.n;
  const double sigma = kRelaxation * g.dt / g.h;
  double* const rhs = g.rhs.data();
  const double* const us = g.us.data();
  const double* const vs = g.vs.data();
  const double* const ws = g.ws.data();
  const double* const qs = g.qs.data();
  const double* const speed = g.speed.data();
  const double* const ainv = g.ainv.data();
#pragma omp parallel for schedule(static)
  for (int k = 1; k < n - 1; ++k) {
    for (int j = 1; j < n - 1; ++j) {
      for (int i = 1; i < n - 1; ++i) {
        const std::size_t p = g.index(i, j, k);
        double* r = rhs + 5 * p;
        const double vx = us[p], vy = vs[p], vz = ws[p], q = qs[p], ai2 = ainv[p] * ainv[p];
        const double drho = r[0];
        double m1 = r[1] - vx * drho, m2 = r[2] - vy * drho, m3 = r[3] - vz * drho;
        double dp = kC2 * (r[4] - vx * r[1] - vy * r[2] - vz * r[3] + q * drho);
        const double entropy = drho - dp * ai2;
        const double velocity = std::sqrt(2.0 * q);
        const double acoustic_factor = 1.0 / (1.0 + sigma * (velocity + speed[p]));
        const double entropy_factor = 1.0 / (1.0 + sigma * velocity);
        m1 *= acoustic_factor;
        m2 *= acoustic_factor;
        m3 *= acoustic_factor;
        dp *= acoustic_factor;
        const double rho_new = entropy_factor * entropy + dp * ai2;
        r[0] = rho_new;
        r[1] = m1 + vx * rho_new;
        r[2] = m2 + vy * rho_new;
        r[3] = m3 + vz * rho_new;
        r[4] = dp * (1.0 / kC2) + vx * r[1] + vy * r[2] + vz * r[3] - q * rho_new;
      }
    }
  }
}

// ---- x_solve, y_solve, z_solve --------------------------------------------------------------------------

// Conservative rhs at point p -> the characteristic variables of direction D (0 x, 1 y, 2 z):
// (drho - dp/c^2, rho dv_t1, rho dv_t2, dp + rho c dv_n, dp - rho c dv_n), wave speeds (v_n, v_n, v_n, v_n + c,
// v_n - c).
template <int D>
inline void to_characteristic(const Grid& g, std::size_t p, double* r) {
  const double vel[3] = {g.us[p], g.vs[p], g.ws[p]};
  const double c = g.speed[p], ai = g.ainv[p];
  const double drho = r[0];
  const double mom[3] = {r[1] - vel[0] * drho, r[2] - vel[1] * drho, r[3] - vel[2] * drho};
  const double dp = kC2 * (r[4] - vel[0] * r[1] - vel[1] * r[2] - vel[2] * r[3] + g.qs[p] * drho);
  r[0] = drho - dp * ai * ai;
  r[1] = mom[(D + 1) % 3];
  r[2] = mom[(D + 2) % 3];
  r[3] = dp + c * mom[D];
  r[4] = dp - c * mom[D];
}

template <int D>
inline void from_characteristic(const Grid& g, std::size_t p, double* r) {
  const double vel[3] = {g.us[p], g.vs[p], g.ws[p]};
  const double ai = g.ainv[p];
  const double dp = 0.5 * (r[3] + r[4]);
  double mom[3];
  mom[D] = 0.5 * (r[3] - r[4]) * ai;
  mom[(D + 1) % 3] = r[1];
  mom[(D + 2) % 3] = r[2];
  const double drho = r[0] + dp * ai * ai;
  r[0] = drho;
  r[1] = mom[0] + vel[0] * drho;
  r[2] = mom[1] + vel[1] * drho;
  r[3] = mom[2] + vel[2] * drho;
  r[4] = dp * (1.0 / kC2) + vel[0] * r[1] + vel[1] * r[2] + vel[2] * r[3] - g.qs[p] * drho;
}

// Solves `lines` pentadiagonal systems along direction D at once: unknown r (0 .. n-3) of line l is the
// point p_base + (r + 1) * row_step + l (the boundary points, r = -1 and n-2, hold no increment). The
// diagonals of the three families (0: speed v_n for components 0-2, 1: v_n + c for 3, 2: v_n - c for 4) go
// to `work`, laid out [family][diagonal][row][line], so that the inner loops run over lines.
template <int D>
void solve_lines(Grid& g, double* work, std::size_t p_base, std::size_t row_step, int lines) {
  const int m = g.n - 2;
  const std::size_t nl = static_cast<std::size_t>(lines);
  const double a = 0.5 * g.dt / g.h, d = g.dt * g.nu / (g.h * g.h), e = g.dt * g.dssp;
  const double* const vn = D == 0 ? g.us.data() : D == 1 ? g.vs.data() : g.ws.data();
  const double* const speed = g.speed.data();
  double* const rhs = g.rhs.data();
  auto diagonal = [&](int family, int diag, int row) {
    return work +
           ((static_cast<std::size_t>(family) * 5 + static_cast<std::size_t>(diag)) * static_cast<std::size_t>(m) +
            static_cast<std::size_t>(row)) *
               nl;
  };
  auto point = [&](int row, std::size_t l) { return p_base + static_cast<std::size_t>(row + 1) * row_step + l; };
  constexpr double kSign[3] = {0.0, 1.0, -1.0};
  constexpr int kFirst[3] = {0, 3, 4};  // components of each family: [kFirst, kLast)
  constexpr int kLast[3] = {3, 4, 5};

  // Transform, and the five diagonals of every row: convection (central, speeds of the neighbours),
  // viscosity and the fourth-order dissipation.
  for (int row = 0; row < m; ++row) {
    const double* c4 = g.d4.data() + 5 * static_cast<std::size_t>(row + 1);
    for (std::size_t l = 0; l < nl; ++l) {
      const std::size_t p = point(row, l);
      to_characteristic<D>(g, p, rhs + 5 * p);
      const std::size_t pm = p - row_step, pp = p + row_step;
      for (int f = 0; f < 3; ++f) {
        const double speed_minus = vn[pm] + kSign[f] * speed[pm];
        const double speed_plus = vn[pp] + kSign[f] * speed[pp];
        diagonal(f, 0, row)[l] = e * c4[0];
        diagonal(f, 1, row)[l] = row > 0 ? -a * speed_minus - d + e * c4[1] : 0.0;
        diagonal(f, 2, row)[l] = 1.0 + 2.0 * d + e * c4[2];
        diagonal(f, 3, row)[l] = row < m - 1 ? a * speed_plus - d + e * c4[3] : 0.0;
        diagonal(f, 4, row)[l] = e * c4[4];
      }
    }
  }
  // Forward elimination: row `row` scaled to a unit diagonal, then removed from the next two rows.
  for (int row = 0; row < m; ++row) {
    for (int f = 0; f < 3; ++f) {
      double* c0 = diagonal(f, 2, row);
      double* d0 = diagonal(f, 3, row);
      double* e0 = diagonal(f, 4, row);
      for (std::size_t l = 0; l < nl; ++l) {
        const std::size_t p = point(row, l);
        const double inv = 1.0 / c0[l];
        d0[l] *= inv;
        e0[l] *= inv;
        for (int comp = kFirst[f]; comp < kLast[f]; ++comp) rhs[5 * p + comp] *= inv;
        if (row + 1 < m) {
          const std::size_t p1 = p + row_step;
          const double b = diagonal(f, 1, row + 1)[l];
          diagonal(f, 2, row + 1)[l] -= b * d0[l];
          diagonal(f, 3, row + 1)[l] -= b * e0[l];
          for (int comp = kFirst[f]; comp < kLast[f]; ++comp) rhs[5 * p1 + comp] -= b * rhs[5 * p + comp];
        }
        if (row + 2 < m) {
          const std::size_t p2 = p + 2 * row_step;
          const double b = diagonal(f, 0, row + 2)[l];
          diagonal(f, 1, row + 2)[l] -= b * d0[l];
          diagonal(f, 2, row + 2)[l] -= b * e0[l];
          for (int comp = kFirst[f]; comp < kLast[f]; ++comp) rhs[5 * p2 + comp] -= b * rhs[5 * p + comp];
        }
      }
    }
  }
  // Back substitution.
  for (int row = m - 2; row >= 0; --row) {
    for (int f = 0; f < 3; ++f) {
      const double* d0 = diagonal(f, 3, row);
      const double* e0 = diagonal(f, 4, row);
      for (std::size_t l = 0; l < nl; ++l) {
        const std::size_t p = point(row, l);
        for (int comp = kFirst[f]; comp < kLast[f]; ++comp) {
          double s = d0[l] * rhs[5 * (p + row_step) + comp];
          if (row + 2 < m) s += e0[l] * rhs[5 * (p + 2 * row_step) + comp];
          rhs[5 * p + comp] -= s;
        }
      }
    }
  }
  for (int row = 0; row < m; ++row) {
    for (std::size_t l = 0; l < nl; ++l) {
      const std::size_t p = point(row, l);
      from_characteristic<D>(g, p, rhs + 5 * p);
    }
  }
}

// Lines along x, one at a time (unit stride), the (j, k) planes shared among the threads.
void x_solve(Grid& g) {
  const int n = g.n;
#pragma omp parallel
  {
    double* work = g.work[static_cast<std::size_t>(omp_get_thread_num())].data();
#pragma omp for schedule(static)
    for (int k = 1; k < n - 1; ++k) {
      for (int j = 1; j < n - 1; ++j) solve_lines<0>(g, work, g.index(0, j, k), 1, 1);
    }
  }
}

// Lines along y (stride n points), a k plane at a time: all its lines eliminated together.
void y_solve(Grid& g) {
  const int n = g.n;
#pragma omp parallel
  {
    double* work = g.work[static_cast<std::size_t>(omp_get_thread_num())].data();
#pragma omp for schedule(static)
    for (int k = 1; k < n - 1; ++k) solve_lines<1>(g, work, g.index(1, 0, k), static_cast<std::size_t>(n), n - 2);
  }
}

// Lines along z (stride n^2 points), a j plane at a time.
void z_solve(Grid& g) {
  const int n = g.n;
  const std::size_t nn = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
#pragma omp parallel
  {
    double* work = g.work[static_cast<std::size_t>(omp_get_thread_num())].data();
#pragma omp for schedule(static)
    for (int j = 1; j < n - 1; ++j) solve_lines<2>(g, work, g.index(1, j, 0), nn, n - 2);
  }
}

// ---- add ----------------------------------------------------------------------------------------------

void add(Grid& g) {
  const int n = g.n;
  double* const u = g.u.data();
  const double* const rhs = g.rhs.data();
#pragma omp parallel for schedule(static)
  for (int k = 1; k < n - 1; ++k) {
    for (int j = 1; j < n - 1; ++j) {
      const std::size_t begin = 5 * g.index(1, j, k), end = 5 * g.index(n - 1, j, k);
      for (std::size_t x = begin; x < end; ++x) u[x] += rhs[x];
    }
  }
}

void run_kernel(Grid& g, int kernel) {
  switch (kernel) {
    case 0:
      copy_faces(g);
      break;
    case 1:
      txinvr(g);
      break;
    case 2:
      x_solve(g);
      break;
    case 3:
      y_solve(g);
      break;
    case 4:
      z_solve(g);
      break;
    default:
      add(g);
      break;
  }
}

// ---- Set-up, reset, verification ------------------------------------------------------------------------

// Denormals flushed to zero (FTZ) and read as zero (DAZ) in every thread of the team: a kernel repeated on
// its own may drive rhs towards zero (see the top of the file). No effect on the time loop's results.
void flush_denormals() {
#if defined(__x86_64__) || defined(__i386__)
#pragma omp parallel
  _mm_setcsr(_mm_getcsr() | 0x8040u);
#endif
}

// The exact solution, the forcing that makes it the steady state, u = exact + perturbation, the auxiliary
// arrays and a first right-hand side; then the state that reset() restores.
void setup(Grid& g) {
  flush_denormals();
  const int n = g.n;
  g.exact.assign(5 * g.points, 0.0);
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        exact_solution(i * g.h, j * g.h, k * g.h, g.exact.data() + 5 * g.index(i, j, k));
      }
    }
  }
  std::fill(g.forcing.begin(), g.forcing.end(), 0.0);
  compute_rhs(g, g.exact.data(), nullptr, -1.0, g.forcing.data());  // forcing = -R(exact)
  constexpr double kShape[5] = {1.0, 0.4, -0.4, 0.3, 1.0};
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const double x = i * g.h, y = j * g.h, z = k * g.h;
        const double bump = std::sin(kPi * x) * std::sin(kPi * y) * std::sin(kPi * z) *
                            (1.0 + 0.5 * std::sin(3.0 * kPi * x) * std::cos(2.0 * kPi * y + z));
        const std::size_t p = 5 * g.index(i, j, k);
        const bool inside = i > 0 && i < n - 1 && j > 0 && j < n - 1 && k > 0 && k < n - 1;
        for (int m = 0; m < 5; ++m) g.u[p + m] = g.exact[p + m] + (inside ? kPerturbation * kShape[m] * bump : 0.0);
      }
    }
  }
  std::fill(g.rhs.begin(), g.rhs.end(), 0.0);
  copy_faces(g);
  g.saved_u = g.u;
  g.saved_rhs = g.rhs;
  g.saved_aux.clear();
  for (auto* aux : g.aux_arrays()) g.saved_aux.insert(g.saved_aux.end(), aux->begin(), aux->end());
}

// u, rhs and the auxiliary arrays as setup() left them: every kernel reads valid data.
void reset(Grid& g) {
  std::copy(g.saved_u.begin(), g.saved_u.end(), g.u.begin());
  std::copy(g.saved_rhs.begin(), g.saved_rhs.end(), g.rhs.begin());
  auto from = g.saved_aux.begin();
  for (auto* aux : g.aux_arrays()) {
    std::copy(from, from + static_cast<std::ptrdiff_t>(g.points), aux->begin());
    from += static_cast<std::ptrdiff_t>(g.points);
  }
}

// Root mean square over the inside points and the five components, summed in a fixed order.
double rms_inside(const Grid& g, const double* a, const double* b, double scale) {
  const int n = g.n;
  double sum = 0.0;
  for (int k = 1; k < n - 1; ++k) {
    for (int j = 1; j < n - 1; ++j) {
      for (int i = 1; i < n - 1; ++i) {
        const std::size_t p = 5 * g.index(i, j, k);
        for (int m = 0; m < 5; ++m) {
          const double v = scale * (a[p + m] - (b != nullptr ? b[p + m] : 0.0));
          sum += v * v;
        }
      }
    }
  }
  const double count = 5.0 * std::pow(static_cast<double>(n - 2), 3);
  return std::sqrt(sum / count);
}

double error_rms(const Grid& g) {
  return rms_inside(g, g.u.data(), g.exact.data(), 1.0);
}

// R(u): the right-hand side of the current u, divided by dt (overwrites rhs and the auxiliary arrays).
double residual_rms(Grid& g) {
  copy_faces(g);
  return rms_inside(g, g.rhs.data(), nullptr, 1.0 / g.dt);
}

bool all_finite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// ---- Command line --------------------------------------------------------------------------------------

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: sp [--size N] [--iterations N] [--kernel-times]\n"
               "       sp --measure [--size N] [--iterations N]\n"
               "       sp --chain KERNEL[,KERNEL...] [--count N] [--size N]\n"
               "\n"
               "An SP-like mini-application: the scalar pentadiagonal ADI solver of the NAS SP benchmark on an\n"
               "N x N x N grid, one time step = the kernels copy_faces, txinvr, x_solve, y_solve, z_solve, add.\n"
               "OpenMP parallel; threads: OMP_NUM_THREADS.\n"
               "\n"
               "  --size N          grid points per side, %d..%d (default %d)\n"
               "  --iterations N    time steps, %ld..%ld (default %ld)\n"
               "  --kernel-times    also print the time of every kernel (timers around each call)\n"
               "  --measure         declare the kernels to augur's coupling harness (application \"sp\",\n"
               "                    dataset N, problem size N^3, footprint in bytes) and measure them:\n"
               "                    kernels alone, chains and the whole loop; writes the measurement file\n"
               "                    (default sp.coupling.jsonl; AUGUR_COUPLING_* variables set the options)\n"
               "  --chain LIST      what the harness does to a chain: set up, reset, then run the listed\n"
               "                    kernels --count times (default %ld); checks that the data stay finite\n"
               "  --help            this text\n"
               "\n"
               "Without --measure or --chain: runs the time loop, prints its time and the verification norms\n"
               "(root mean square of u - u_exact and of the residual); exit status 1 if they are not finite or\n"
               "the error grew. Bad arguments: exit status 2.\n",
               kSizeMin, kSizeMax, kSizeDefault, kIterationsMin, kIterationsMax, kIterationsDefault, kCountDefault);
}

struct Options {
  int size = kSizeDefault;
  long iterations = kIterationsDefault;
  bool kernel_times = false;
  bool measure = false;
  bool chain_given = false;
  std::vector<int> chain;
  long count = kCountDefault;
  bool count_given = false;
  bool help = false;
};

// A decimal integer in [low, high], digits only.
bool parse_integer(std::string_view text, long low, long high, long& value) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  long parsed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (error != std::errc() || end != text.data() + text.size() || parsed < low || parsed > high) return false;
  value = parsed;
  return true;
}

int kernel_index(std::string_view name) {
  for (int k = 0; k < kKernels; ++k) {
    if (name == kKernelNames[k]) return k;
  }
  return -1;
}

// Fills `options`; on a bad argument prints one message naming it and returns false.
bool parse_arguments(int argc, char** argv, Options& options) {
  for (int a = 1; a < argc; ++a) {
    std::string_view arg = argv[a];
    std::string_view value;
    bool has_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string_view::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    const bool takes_value = arg == "--size" || arg == "--iterations" || arg == "--chain" || arg == "--count";
    if (!takes_value && has_value) {
      std::fprintf(stderr, "sp: %.*s takes no value\n", static_cast<int>(arg.size()), arg.data());
      return false;
    }
    if (takes_value && !has_value) {
      if (a + 1 >= argc) {
        std::fprintf(stderr, "sp: %.*s needs a value\n", static_cast<int>(arg.size()), arg.data());
        return false;
      }
      value = argv[++a];
    }
    long number = 0;
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--kernel-times") {
      options.kernel_times = true;
    } else if (arg == "--measure") {
      options.measure = true;
    } else if (arg == "--size") {
      if (!parse_integer(value, kSizeMin, kSizeMax, number)) {
        std::fprintf(stderr, "sp: --size must be an integer between %d and %d, got '%.*s'\n", kSizeMin, kSizeMax,
                     static_cast<int>(value.size()), value.data());
        return false;
      }
      options.size = static_cast<int>(number);
    } else if (arg == "--iterations") {
      if (!parse_integer(value, kIterationsMin, kIterationsMax, number)) {
        std::fprintf(stderr, "sp: --iterations must be an integer between %ld and %ld, got '%.*s'\n", kIterationsMin,
                     kIterationsMax, static_cast<int>(value.size()), value.data());
        return false;
      }
      options.iterations = number;
    } else if (arg == "--count") {
      if (!parse_integer(value, 1, kIterationsMax, number)) {
        std::fprintf(stderr, "sp: --count must be an integer between 1 and %ld, got '%.*s'\n", kIterationsMax,
                     static_cast<int>(value.size()), value.data());
        return false;
      }
      options.count = number;
      options.count_given = true;
    } else if (arg == "--chain") {
      options.chain_given = true;
      options.chain.clear();
      std::string_view rest = value;
      while (true) {
        const auto comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        const int kernel = kernel_index(name);
        if (kernel < 0) {
          std::fprintf(stderr,
                       "sp: --chain: unknown kernel '%.*s' (kernels: copy_faces, txinvr, x_solve, y_solve, z_solve, "
                       "add)\n",
                       static_cast<int>(name.size()), name.data());
          return false;
        }
        options.chain.push_back(kernel);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
      }
    } else {
      std::fprintf(stderr, "sp: unknown argument '%s' (sp --help lists the options)\n", argv[a]);
      return false;
    }
  }
  if (options.help) return true;
  if (options.measure && (options.kernel_times || options.chain_given)) {
    std::fprintf(stderr, "sp: --measure cannot be combined with %s\n",
                 options.kernel_times ? "--kernel-times" : "--chain");
    return false;
  }
  if (options.chain_given && options.kernel_times) {
    std::fprintf(stderr, "sp: --chain cannot be combined with --kernel-times\n");
    return false;
  }
  if (options.count_given && !options.chain_given) {
    std::fprintf(stderr, "sp: --count is only used with --chain\n");
    return false;
  }
  return true;
}

// ---- Modes --------------------------------------------------------------------------------------------

int run_plain(Grid& g, const Options& options, int threads) {
  setup(g);
  const double initial_error = error_rms(g);
  double kernel_seconds[kKernels] = {};
  const double start = omp_get_wtime();
  if (options.kernel_times) {
    for (long step = 0; step < options.iterations; ++step) {
      for (int k = 0; k < kKernels; ++k) {
        const double t0 = omp_get_wtime();
        run_kernel(g, k);
        kernel_seconds[k] += omp_get_wtime() - t0;
      }
    }
  } else {
    for (long step = 0; step < options.iterations; ++step) {
      copy_faces(g);
      txinvr(g);
      x_solve(g);
      y_solve(g);
      z_solve(g);
      add(g);
    }
  }
  const double seconds = omp_get_wtime() - start;
  const double iterations = static_cast<double>(options.iterations);
  const bool finite_u = all_finite(g.u);
  const double error = error_rms(g);
  const double residual = residual_rms(g);

  std::printf("sp: size=%d iterations=%ld threads=%d points=%zu footprint_bytes=%.0f\n", g.n, options.iterations,
              threads, g.points, g.footprint_bytes());
  std::printf("sp: time_s=%.6f time_per_iteration_s=%.9f\n", seconds, seconds / iterations);
  if (options.kernel_times) {
    for (int k = 0; k < kKernels; ++k) {
      std::printf("sp: kernel=%s time_s=%.6f time_per_call_s=%.9f\n", kKernelNames[k], kernel_seconds[k],
                  kernel_seconds[k] / iterations);
    }
  }
  std::printf("sp: error_rms=%.15e initial_error_rms=%.15e residual_rms=%.15e\n", error, initial_error, residual);
  const bool passed = finite_u && std::isfinite(error) && std::isfinite(residual) && error <= initial_error;
  std::printf("sp: verification=%s\n", passed ? "passed" : "failed");
  if (!passed) {
    std::fprintf(stderr, "sp: verification failed: error_rms %g (initial %g), residual_rms %g\n", error, initial_error,
                 residual);
    return 1;
  }
  return 0;
}

int run_chain(Grid& g, const Options& options) {
  setup(g);
  reset(g);
  std::string names;
  for (const int kernel : options.chain) names += std::string(names.empty() ? "" : ",") + kKernelNames[kernel];
  const double start = omp_get_wtime();
  for (long r = 0; r < options.count; ++r) {
    for (const int kernel : options.chain) run_kernel(g, kernel);
  }
  const double seconds = omp_get_wtime() - start;
  bool finite = all_finite(g.u) && all_finite(g.rhs);
  for (auto* aux : g.aux_arrays()) finite = finite && all_finite(*aux);
  std::printf("sp: chain=%s count=%ld size=%d time_s=%.6f time_per_repetition_s=%.9f\n", names.c_str(), options.count,
              g.n, seconds, seconds / static_cast<double>(options.count));
  std::printf("sp: error_rms=%.15e rhs_rms=%.15e finite=%s\n", error_rms(g), rms_inside(g, g.rhs.data(), nullptr, 1.0),
              finite ? "yes" : "no");
  if (!finite) {
    std::fprintf(stderr, "sp: the chain %s left non-finite values after %ld repetitions\n", names.c_str(),
                 options.count);
    return 1;
  }
  return 0;
}

int run_measure(Grid& g, const Options& options) {
  augur::CouplingApplication app("sp", options.iterations);
  if (!app.valid()) {
    std::fprintf(stderr, "sp: the coupling harness refused the application\n");
    return 1;
  }
  const std::function<void()> bodies[kKernels] = {[&g] { copy_faces(g); }, [&g] { txinvr(g); },  [&g] { x_solve(g); },
                                                  [&g] { y_solve(g); },    [&g] { z_solve(g); }, [&g] { add(g); }};
  for (int k = 0; k < kKernels; ++k) {
    if (app.kernel(kKernelNames[k], bodies[k]) < 0) {
      std::fprintf(stderr, "sp: the coupling harness refused the kernel %s\n", kKernelNames[k]);
      return 1;
    }
  }
  const double n = g.n;
  if (!app.hooks([&g] { setup(g); }, [&g] { reset(g); }) ||
      !app.problem(std::to_string(g.n), n * n * n, g.footprint_bytes())) {
    std::fprintf(stderr, "sp: the coupling harness refused the hooks or the problem\n");
    return 1;
  }
  if (!app.measure()) {
    std::fprintf(stderr, "sp: the coupling measurement failed\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_arguments(argc, argv, options)) return 2;
  if (options.help) {
    usage(stdout);
    return 0;
  }
  const int threads = omp_get_max_threads();
  Grid grid(options.size, threads);
  if (options.measure) return run_measure(grid, options);
  if (options.chain_given) return run_chain(grid, options);
  return run_plain(grid, options, threads);
}
